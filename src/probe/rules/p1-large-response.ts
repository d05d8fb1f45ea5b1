/** P1: a response over ~5k estimated tokens (warning), or over ~25k, Claude Code's default cap on tool output (error). */

import { P1_ERROR_TOKENS, P1_WARNING_TOKENS } from "../thresholds.js";
import { fixtureAnswer, type ProbeRule } from "./rule.js";

/** P1. */
export const p1LargeResponse: ProbeRule = {
  id: "P1",
  check(context, report) {
    for (const record of context.records) {
      const response = fixtureAnswer(record, { ok: false });
      if (response === null || response.tokens <= P1_WARNING_TOKENS) continue;
      const overCap = response.tokens > P1_ERROR_TOKENS;
      report(record, overCap ? "error" : "warning", {
        reason: overCap ? "over_cap" : "large",
        tokens: response.tokens,
        limit: overCap ? P1_ERROR_TOKENS : P1_WARNING_TOKENS,
      });
    }
  },
};
