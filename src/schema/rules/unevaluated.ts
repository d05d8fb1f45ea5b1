/** unevaluatedProperties and unevaluatedItems: a slot like additionalProperties whose reach depends on its siblings. */

import { compareSlot, emit, keyPath, type Rule } from "../context.js";
import { isEmptySchema, own, unescapePointer } from "../json.js";
import { sameValidation } from "../finding.js";
import { keywordInfo } from "../keywords.js";

/**
 * unevaluatedProperties, unevaluatedItems. Registered last: it reads the findings the other rules left on
 * this node, because any structural change in a sibling that evaluates (an allOf member added, a `then`
 * added, additionalProperties added) can mark more of the instance evaluated and so accept more.
 */
export const unevaluatedRule: Rule = {
  roles: ["unevaluated"],
  run(node, keys) {
    for (const key of keys) {
      const before = own(node.before, key);
      const after = own(node.after, key);
      const path = keyPath(node, key);
      const covers = keywordInfo(key).covers ?? "properties";
      const siblingsChanged = node.out.some((f) => {
        if (f.kind !== "structural" || sameValidation([f])) return false;
        const token = f.path.slice(node.path.length + 1).split("/", 1)[0] ?? "";
        const evaluates = keywordInfo(unescapePointer(token)).evaluates;
        return evaluates === "both" || evaluates === covers;
      });
      compareSlot(node, before, after, path, key, "additional_allowed");
      if (!isEmptySchema(before) && after !== undefined && siblingsChanged) {
        emit(node, "unevaluated_scope_changed", path, { keyword: key });
      }
    }
  },
};
