/** schema-anyof-needs-type: an `anyOf`/`oneOf` branch in the input schema without its own `type` (Gemini rejects it). */

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
        if (typeof node === "boolean" || own(node, "type") === undefined) report.tool(view, "warning", path, { reason: slot.keyword });
      }
    }
  },
};
