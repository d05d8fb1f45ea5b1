/** meta-ui-resource-uri-scheme: `_meta.ui.resourceUri` should use the `ui://` scheme. */

import { isObject, own } from "../json.js";
import { metaUi } from "./meta-ui.js";
import type { Rule } from "./rule.js";

/** meta-ui-resource-uri-scheme rule. */
export const metaUiResourceUriScheme: Rule = {
  id: "meta-ui-resource-uri-scheme",
  check(context, report) {
    for (const view of context.tools) {
      const ui = metaUi(view);
      if (ui === undefined || !isObject(ui.value)) continue;
      const uri = own(ui.value, "resourceUri");
      if (typeof uri === "string" && uri.trim() !== "" && !uri.toLowerCase().startsWith("ui://")) {
        report.tool(view, "warning", "/_meta/ui/resourceUri", { value: uri.length > 200 ? uri.slice(0, 200) : uri });
      }
    }
  },
};
