/** annotation-type: `annotations` must be an object, its hints booleans and its title a string. */

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

/** The four boolean hints the MCP specification defines. */
export const ANNOTATION_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** Compact JSON of a value for a message, cut short (the message neutralizes it). */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** annotation-type rule. */
export const annotationType: Rule = {
  id: "annotation-type",
  check(context, report) {
    for (const view of context.tools) {
      const annotations = own(view.definition, "annotations");
      if (annotations === undefined) continue;
      if (!isObject(annotations)) {
        report.tool(view, "warning", "/annotations", { reason: "not_object", value: shown(annotations) });
        continue;
      }
      for (const key of ANNOTATION_HINTS) {
        const value = own(annotations, key);
        if (value !== undefined && typeof value !== "boolean") {
          report.tool(view, "warning", `/annotations/${key}`, { reason: "hint", key, value: shown(value) });
        }
      }
      const title = own(annotations, "title");
      if (title !== undefined && typeof title !== "string")
        report.tool(view, "warning", "/annotations/title", { reason: "title", key: "title", value: shown(title) });
    }
  },
};
