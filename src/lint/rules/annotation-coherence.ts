/** annotation-coherence: a tool that claims to be read-only and destructive at once. */

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

// The seed rule also fires on `readOnlyHint: true` with `destructiveHint: false`. That pair is
// consistent (the spec says destructiveHint only matters when readOnlyHint is false) and well-made
// servers send all four hints explicitly, so only the contradiction is reported.

/** annotation-coherence rule. */
export const annotationCoherence: Rule = {
  id: "annotation-coherence",
  check(context, report) {
    for (const view of context.tools) {
      const annotations = own(view.definition, "annotations");
      if (!isObject(annotations)) continue;
      if (own(annotations, "readOnlyHint") === true && own(annotations, "destructiveHint") === true) {
        report.tool(view, "warning", "/annotations/destructiveHint", {});
      }
    }
  },
};
