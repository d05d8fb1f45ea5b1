/**
 * P3: a response over ~5k tokens of text that does not say, at its start or end, how to get the
 * rest (warning without paging parameters, info with). Images and other media are not text to page.
 */

import { hasPagingHint } from "../detect/paging.js";
import { P3_TOKENS } from "../thresholds.js";
import { hasPagingParameters } from "../tools.js";
import { fixtureAnswer, type ProbeRule } from "./rule.js";

/** P3. */
export const p3NoPagingHint: ProbeRule = {
  id: "P3",
  check(context, report) {
    for (const record of context.records) {
      const response = fixtureAnswer(record, { ok: true });
      if (response === null || response.textTokens <= P3_TOKENS || hasPagingHint(response.text)) continue;
      const copies = context.tools.copies(record.probe.tool);
      // With paging or limit parameters the agent could have asked for less: a note is still missing, but the size was its choice.
      const pages = copies.some(hasPagingParameters);
      report(record, pages ? "info" : "warning", { reason: pages ? "has_params" : "no_params", tokens: response.textTokens });
    }
  },
};
