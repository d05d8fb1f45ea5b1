/** meta-ui-type: a declared `_meta.ui` must be an object. */

import { metaUi } from "./meta-ui.js";
import type { Rule } from "./rule.js";

/** meta-ui-type rule. */
export const metaUiType: Rule = {
  id: "meta-ui-type",
  check(context, report) {
    for (const view of context.tools) {
      const ui = metaUi(view);
      if (ui === undefined) continue;
      const value = ui.value;
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
        report.tool(view, "error", "/_meta/ui", { value: kind });
      }
    }
  },
};
