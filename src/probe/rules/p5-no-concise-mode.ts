/**
 * P5: a tool that returned over ~1k (info) / ~5k (warning) tokens of text and has no way to ask for
 * less. One finding per tool, on its biggest answer. Images and other media do not count: a
 * response_format cannot make them concise, and a model pays for an image by its size in pixels.
 */

import { P5_INFO_TOKENS, P5_WARNING_TOKENS } from "../thresholds.js";
import { hasConciseMode } from "../tools.js";
import type { ProbeRecord } from "../types.js";
import { fixtureAnswer, type ProbeRule } from "./rule.js";

/** P5. */
export const p5NoConciseMode: ProbeRule = {
  id: "P5",
  check(context, report) {
    const biggest = new Map<string, { record: ProbeRecord; tokens: number }>();
    for (const record of context.records) {
      const response = fixtureAnswer(record, { ok: true });
      if (response === null) continue;
      const seen = biggest.get(record.probe.tool);
      if (seen === undefined || response.textTokens > seen.tokens) biggest.set(record.probe.tool, { record, tokens: response.textTokens });
    }
    for (const [tool, { record, tokens }] of biggest) {
      if (tokens <= P5_INFO_TOKENS) continue;
      if (context.tools.copies(tool).some(hasConciseMode)) continue;
      report(record, tokens > P5_WARNING_TOKENS ? "warning" : "info", { reason: "no_concise_mode", tokens });
    }
  },
};
