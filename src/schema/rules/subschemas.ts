/** Single sub-schema keywords: then, else and propertyNames recurse; not, if and contentSchema are opaque. */

import { compareSlot, emit, keyPath, type Rule, type SchemaNode, textAdded } from "../context.js";
import { sameValidation } from "../finding.js";
import { type JsonObject, own } from "../json.js";
import { type KeywordInfo, keywordInfo } from "../keywords.js";

/** then, else, propertyNames, not, if, contentSchema. */
export const subschemasRule: Rule = {
  roles: ["schema", "opaqueSchema"],
  run(node, keys) {
    for (const key of keys) {
      const info = keywordInfo(key);
      const before = own(node.before, key);
      const after = own(node.after, key);
      const path = keyPath(node, key);
      if (info.role === "schema") compareSlot(node, before, after, path, key);
      else compareOpaque(node, info, key, before, after, path);
    }
  },
};

/**
 * Under `not` a stricter schema accepts more, a changed `if` moves which branch applies, and contentSchema
 * is an assertion on decoded content we cannot follow: every non-text change widens. Text inside is still text.
 */
function compareOpaque(node: SchemaNode, info: KeywordInfo, key: string, before: unknown, after: unknown, path: string): void {
  if (before === undefined && after === undefined) return;
  // An `if` with no `then` or `else` on the side that lacks it constrains nothing: adding one is only a new
  // constraint, and removing one that had nothing to choose between changes nothing.
  const alone = (side: JsonObject): boolean => info.group === "conditional" && !Object.hasOwn(side, "then") && !Object.hasOwn(side, "else");
  if (before === undefined) {
    emit(node, alone(node.before) ? "subschema_added" : (info.added ?? "subschema_added"), path, { keyword: key });
    textAdded(node, path, after);
    return;
  }
  if (after === undefined) {
    const unused = alone(node.before) && alone(node.after);
    emit(node, unused ? "value_changed" : (info.removed ?? "subschema_removed"), path, { keyword: key });
    return;
  }
  const findings = node.engine.strict(() => node.engine.diff(before, after, path, node.depth + 1));
  for (const f of findings) if (f.kind === "text") node.out.push(f);
  if (!sameValidation(findings)) emit(node, info.changed ?? "subschema_removed", path, { keyword: key });
}
