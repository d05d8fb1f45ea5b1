/** schema-anyof-needs-type: an `anyOf`/`oneOf` branch in the input schema without its own `type`. */

// Info: Claude Code, Codex and Gemini CLI list such a tool and pass the branch on (Codex gives a
// `const` branch a type and shows a `true` branch as a string); the Gemini API's OpenAPI-style
// `parameters` field wants a type on each schema, but Gemini CLI sends `parametersJsonSchema`.

import { own } from "../json.js";
import { inputSchemaNodes } from "../context.js";
import type { Rule } from "./rule.js";

/** schema-anyof-needs-type rule. */
export const schemaAnyofNeedsType: Rule = {
  id: "schema-anyof-needs-type",
  check(context, report) {
    for (const view of context.tools) {
      for (const { node, path, slot } of inputSchemaNodes(view)) {
        if (slot.kind !== "branch" || slot.keyword === "allOf") continue;
        if (typeof node === "boolean" || own(node, "type") === undefined) report.tool(view, "info", path, { reason: slot.keyword });
      }
    }
  },
};
