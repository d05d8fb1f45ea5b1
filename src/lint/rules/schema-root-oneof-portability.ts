/** schema-root-oneof-portability (strict): a `oneOf` at the root of the input schema. */

// Info: every client lists the tool; Claude Code drops the oneOf (it merges the branches' properties,
// none required, and adds the rule to the description in words), Codex and Gemini CLI keep it.

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

/** schema-root-oneof-portability rule. */
export const schemaRootOneofPortability: Rule = {
  id: "schema-root-oneof-portability",
  check(context, report) {
    for (const view of context.tools) {
      if (isObject(view.inputSchema) && own(view.inputSchema, "oneOf") !== undefined) report.tool(view, "info", "/inputSchema/oneOf", {});
    }
  },
};
