/** schema-root-oneof-portability (strict): a `oneOf` at the root of the input schema, which clients reading only `properties` lose. */

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

/** schema-root-oneof-portability rule. */
export const schemaRootOneofPortability: Rule = {
  id: "schema-root-oneof-portability",
  check(context, report) {
    for (const view of context.tools) {
      if (isObject(view.inputSchema) && own(view.inputSchema, "oneOf") !== undefined) report.tool(view, "warning", "/inputSchema/oneOf", {});
    }
  },
};
