/** $schema and $vocabulary: a new dialect can switch keywords off, on, or change nothing but the URI. */

import { emit, keyPath, type Rule, type SchemaNode } from "../context.js";
import { dialectName, dialectShift, isDialectUri } from "../dialects.js";
import { showValue } from "../finding.js";
import { deepEqual, own } from "../json.js";

/** $schema, $vocabulary. */
export const dialectRule: Rule = {
  roles: ["dialect"],
  run(node, keys) {
    for (const key of keys) {
      if (deepEqual(own(node.before, key), own(node.after, key))) continue;
      if (key === "$schema") compareSchemaUri(node);
      else emit(node, "value_changed", keyPath(node, key), { keyword: key });
    }
  },
};

/**
 * A validator reads every keyword below `$schema` by that dialect's rules. Keywords the new dialect ignores
 * (draft-07 knows no unevaluatedProperties, dependentRequired or prefixItems) stop constraining: a widening.
 */
function compareSchemaUri(node: SchemaNode): void {
  const before = own(node.before, "$schema");
  const after = own(node.after, "$schema");
  const path = keyPath(node, "$schema");
  const shift = dialectShift(before, after, node.after);
  const args = { before: showValue(before), after: showValue(after), from: dialectName(before), to: dialectName(after) };
  const lost = [...shift.ignored, ...shift.loosened];
  const text = (value: unknown) => value !== undefined && !isDialectUri(value);
  if (text(before) || text(after)) {
    // Not a meta-schema URI on one side: text the model reads, whatever it does to the keywords.
    emit(node, before === undefined ? "text_added" : after === undefined ? "text_removed" : "text_changed", path, { keyword: "$schema" });
  }
  if (lost.length > 0) {
    emit(node, "dialect_ignores_keywords", path, { ...args, keywords: lost.join(", ") });
  } else if (text(before) || text(after)) {
    // Reported as text above; a URI-only note would say the same edit again.
  } else if (shift.applied.length > 0) {
    emit(node, "dialect_changed", path, { ...args, keywords: shift.applied.join(", ") });
  } else {
    emit(node, "dialect_uri_changed", path, args, { info: true });
  }
}
