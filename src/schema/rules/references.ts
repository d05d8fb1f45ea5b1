/** $ref, $dynamicRef, $recursiveRef: compared by what they point at; $id and anchors only move those targets. */

import { emit, keyPath, type Rule, type SchemaNode } from "../context.js";
import { sameValidation, showValue } from "../finding.js";
import { deepEqual, own } from "../json.js";
import { keywordInfo } from "../keywords.js";
import { absoluteRef } from "../resolve.js";
import { hasConstrainingSiblings } from "../shape.js";

/**
 * Judges one reference keyword present on at least one side. Local targets are resolved and compared (a
 * reference that moves to an identical schema changes nothing); findings inside a target are reported under
 * `<node>/$ref`. A remote or unresolvable target is never fetched: any change to it counts as a widening.
 * The walker has already replaced a reference present on one side only by its target wherever it could.
 */
export function compareReference(node: SchemaNode, key: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  const path = keyPath(node, key);
  const changed = (): void => emit(node, "reference_changed", path, { keyword: key, before: showValue(before), after: showValue(after) });
  if (typeof before !== "string" || typeof after !== "string") {
    if (before === undefined && typeof after === "string") referenceAdded(node, key, after, path, changed);
    else if (!deepEqual(before, after)) changed();
    return;
  }
  const was = node.engine.resolve("before", node.bases.before, before);
  const now = node.engine.resolve("after", node.bases.after, after);
  if (was === undefined || now === undefined) {
    const same = was === undefined && now === undefined && absoluteRef(before, node.bases.before) === absoluteRef(after, node.bases.after);
    if (!same) unresolved(node, key, path, before, after);
    return;
  }
  const findings = node.engine.diffTargets(was, now, path, node.depth + 1);
  // Text, definitions and identifiers inside a target that stayed where it was are compared there already;
  // a moved target's are news.
  const samePlace = was.pointer === now.pointer;
  for (const f of findings) {
    if (!samePlace || (!sameValidation([f]) && f.reason !== "identifier_changed")) node.out.push(f);
  }
}

/**
 * A reference that appeared where the walker could not inline it. Unresolvable, it may point anywhere. Next
 * to keywords that constrain it widens for validators that follow draft-07, which ignore siblings of $ref.
 */
function referenceAdded(node: SchemaNode, key: string, ref: string, path: string, changed: () => void): void {
  const target = node.engine.resolve("after", node.bases.after, ref);
  if (target === undefined) unresolved(node, key, path, undefined, ref);
  else if (hasConstrainingSiblings(node.after, key)) changed();
  else emit(node, "subschema_added", path, { keyword: key });
}

/**
 * A reference on either side that cannot be resolved here (another document, which is never fetched, or a
 * target that is not there): what it accepts is unknown, so the change is reported as such, a widening.
 */
function unresolved(node: SchemaNode, key: string, path: string, before: unknown, after: unknown): void {
  emit(node, "reference_unresolved", path, { keyword: key, before: showValue(before), after: showValue(after) });
}

/**
 * $id, $anchor, $dynamicAnchor, $recursiveAnchor decide where references land: a reference from elsewhere (a
 * remote document, a dynamic scope) may now reach another schema, so any change widens.
 */
function compareIdentifier(node: SchemaNode, key: string): void {
  const before = own(node.before, key);
  const after = own(node.after, key);
  if (deepEqual(before, after)) return;
  emit(node, "identifier_changed", keyPath(node, key), { keyword: key });
}

/** $ref, $dynamicRef, $recursiveRef, $id, $anchor, $dynamicAnchor, $recursiveAnchor. */
export const referencesRule: Rule = {
  roles: ["reference"],
  run(node, keys) {
    for (const key of keys) {
      if (keywordInfo(key).link === "ref") compareReference(node, key);
      else compareIdentifier(node, key);
    }
  },
};
