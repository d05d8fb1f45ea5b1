/** schema-dialect-tag (strict): an input schema without a root `$schema`. */

// Info: no client crosscheck runs treats an untagged schema differently (Codex drops every `$schema`).

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

/** schema-dialect-tag rule. */
export const schemaDialectTag: Rule = {
  id: "schema-dialect-tag",
  check(context, report) {
    for (const view of context.tools) {
      if (isObject(view.inputSchema) && own(view.inputSchema, "$schema") === undefined) report.tool(view, "info", "/inputSchema", {});
    }
  },
};
