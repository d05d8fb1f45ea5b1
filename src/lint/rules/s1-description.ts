/** S1: a tool without a description (error) or with one under 15 words (warning). */

import { own } from "../json.js";
import { countWords } from "../text.js";
import type { Rule } from "./rule.js";

/** Fewest words a description should have: enough to say when to use the tool and what it returns. */
export const MIN_DESCRIPTION_WORDS = 15;

/** S1 rule. */
export const s1Description: Rule = {
  id: "S1",
  check(context, report) {
    for (const view of context.tools) {
      if (view.description === null) {
        const value = own(view.definition, "description");
        const reason = value === undefined ? "missing" : typeof value === "string" ? "empty" : "not_string";
        report.tool(view, "error", "/description", { reason });
        continue;
      }
      const words = countWords(view.description, MIN_DESCRIPTION_WORDS);
      if (words < MIN_DESCRIPTION_WORDS) report.tool(view, "warning", "/description", { reason: "short", words });
    }
  },
};
