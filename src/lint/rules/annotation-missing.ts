/** annotation-missing: a tool with no behaviour hints, or (once, under the server) a server that annotates none of its tools. */

import { isObject, type JsonObject, own } from "../json.js";
import { ANNOTATION_HINTS } from "./annotation-type.js";
import type { Rule } from "./rule.js";

// Without hints a client must take the specification's defaults (not read-only, destructive,
// open world), so it cannot tell a tool that only reads from one that deletes. `annotations` with
// only a title, or none at all, says nothing about behaviour. A hint of the wrong type is
// annotation-type's finding, and `annotations` that is not an object too; neither is reported here.

/** How a tool stands: hints present, none (`absent` or an object without any), or not an object (another rule's). */
function hints(definition: JsonObject): "present" | "absent" | "empty" | "invalid" {
  const annotations = own(definition, "annotations");
  if (annotations === undefined) return "absent";
  if (!isObject(annotations)) return "invalid";
  return ANNOTATION_HINTS.some((key) => own(annotations, key) !== undefined) ? "present" : "empty";
}

/** annotation-missing rule. */
export const annotationMissing: Rule = {
  id: "annotation-missing",
  check(context, report) {
    const states = context.tools.map((view) => hints(view.definition));
    if (states.length === 0) return;
    const missing = states.filter((state) => state === "absent" || state === "empty").length;
    // A server that annotates nothing needs one note, not one per tool.
    if (!states.includes("present")) {
      if (missing > 0) report.server("info", { reason: "none", count: missing, total: states.length });
      return;
    }
    context.tools.forEach((view, index) => {
      const state = states[index];
      if (state === "absent") report.tool(view, "info", null, { reason: "absent" });
      else if (state === "empty") report.tool(view, "info", "/annotations", { reason: "empty" });
    });
  },
};
