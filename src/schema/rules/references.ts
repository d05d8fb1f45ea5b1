/** $ref, $dynamicRef, $id and anchors: compared as opaque strings until local references are resolved. */

import { emit, type Rule, type SchemaNode } from "../context.js";
import { showValue } from "../finding.js";
import { childPath, deepEqual, own } from "../json.js";

/**
 * Judges one reference-like keyword. Any change widens: a new target may accept anything. This is the one
 * place to swap in target resolution later.
 */
export function compareReference(node: SchemaNode, key: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  if (deepEqual(before, after)) return;
  emit(node, "reference_changed", childPath(node.path, key), {
    keyword: key,
    before: showValue(before),
    after: showValue(after),
  });
}

/** $ref, $dynamicRef, $recursiveRef, $id, $anchor, $dynamicAnchor, $recursiveAnchor. */
export const referencesRule: Rule = {
  roles: ["reference"],
  run(node, keys) {
    for (const key of keys) compareReference(node, key);
  },
};
