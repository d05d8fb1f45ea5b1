/** meta-ui-resource-uri-required: an object `_meta.ui` needs a non-empty `resourceUri` string. */

import { isObject, own } from "../json.js";
import { metaUi } from "./meta-ui.js";
import type { Rule } from "./rule.js";

/** meta-ui-resource-uri-required rule. */
export const metaUiResourceUriRequired: Rule = {
  id: "meta-ui-resource-uri-required",
  check(context, report) {
    for (const view of context.tools) {
      const ui = metaUi(view);
      if (ui === undefined || !isObject(ui.value)) continue;
      const uri = own(ui.value, "resourceUri");
      if (typeof uri !== "string" || uri.trim() === "") {
        report.tool(view, "error", "/_meta/ui/resourceUri", { reason: uri === undefined ? "missing" : typeof uri === "string" ? "empty" : "not_string" });
      }
    }
  },
};
