/** What a rule sees when it judges one schema object, and the helpers rules share for sub-schema slots. */

import { type FindingArgs, finding, hasWidening, type SchemaFinding } from "./finding.js";
import { childPath, deepEqual, isEmptySchema, isSchema, type JsonObject, own } from "./json.js";
import { type KeywordRole, keywordInfo } from "./keywords.js";
import type { SchemaReason } from "./reasons.js";
import { containsText, isTrivial } from "./shape.js";

/** The recursion the walker offers to rules, so rules never import the walker. */
export interface Engine {
  /**
   * True when either document uses unevaluatedProperties/unevaluatedItems. Then an empty sub-schema that
   * evaluates (additionalProperties: true, items: {}) marks instance parts evaluated, so it is not the same
   * as an absent one.
   */
  readonly annotationsMatter: boolean;
  /** Compares two sub-schemas at `path`; findings are real and belong in the result. */
  diff(before: unknown, after: unknown, path: string, depth: number): SchemaFinding[];
  /** A trial comparison used only to decide something; undefined when the work budget ran out (assume the worst). */
  tryDiff(before: unknown, after: unknown, path: string, depth: number): SchemaFinding[] | undefined;
}

/** One schema object pair being compared; rules push their findings to `out`. */
export interface SchemaNode {
  readonly before: JsonObject;
  readonly after: JsonObject;
  readonly path: string;
  readonly depth: number;
  readonly out: SchemaFinding[];
  readonly engine: Engine;
}

/** A check for one family of keywords, registered in rules/index.ts. */
export interface Rule {
  /** Roles this rule owns; the walker hands it every key of these roles present on either side. */
  readonly roles: readonly KeywordRole[];
  /** Judges the given keys of one node. */
  run(node: SchemaNode, keys: readonly string[]): void;
}

/** Pushes one finding onto the node. */
export function emit(node: SchemaNode, reason: SchemaReason, path: string, args?: FindingArgs): void {
  node.out.push(finding(reason, path, args));
}

/** Compares two sub-schemas of the node at `path` and keeps the findings. */
export function descend(node: SchemaNode, before: unknown, after: unknown, path: string): void {
  for (const f of node.engine.diff(before, after, path, node.depth + 1)) node.out.push(f);
}

/** True when `after` provably accepts nothing `before` rejects (no widening found, budget permitting). */
export function narrowerOrEqual(node: SchemaNode, before: unknown, after: unknown, path: string): boolean {
  const trial = node.engine.tryDiff(before, after, path, node.depth + 1);
  return trial !== undefined && !hasWidening(trial);
}

/** Reports text inside a sub-schema that appeared whole. */
export function textAdded(node: SchemaNode, path: string, schema: unknown): void {
  if (containsText(schema)) emit(node, "text_added", path);
}

/** Reports text inside a sub-schema that disappeared whole. */
export function textRemoved(node: SchemaNode, path: string, schema: unknown): void {
  if (containsText(schema)) emit(node, "text_removed", path);
}

/**
 * Judges a keyword value that is not of its valid form on one side. A valid value turning invalid widens
 * (lenient validators drop the constraint); any other difference is structural. Returns true when handled.
 */
export function malformed(node: SchemaNode, key: string, valid: (value: unknown) => boolean): boolean {
  const before = own(node.before, key);
  const after = own(node.after, key);
  const beforeOk = before === undefined || valid(before);
  const afterOk = after === undefined || valid(after);
  if (beforeOk && afterOk) return false;
  if (deepEqual(before, after)) return true;
  const path = childPath(node.path, key);
  emit(node, beforeOk && before !== undefined ? "became_invalid" : "invalid_changed", path, { keyword: key });
  return true;
}

/**
 * Compares one monotone sub-schema slot (a stricter value means a stricter parent). Absent counts as `true`.
 * `lifted` names the reason when a `false` slot opens up (additionalProperties and friends).
 */
export function compareSlot(
  node: SchemaNode,
  before: unknown,
  after: unknown,
  path: string,
  keyword: string,
  lifted?: SchemaReason,
): void {
  if (before === undefined && after === undefined) return;
  const evaluates = node.engine.annotationsMatter && keywordInfo(keyword).evaluates !== undefined;
  const isEmpty = (value: unknown): boolean => isEmptySchema(value) && !evaluates;
  if (before === undefined) {
    if (isEmpty(after)) return;
    emit(node, "subschema_added", path, { keyword });
    textAdded(node, path, after);
    return;
  }
  if (after === undefined) {
    if (isEmpty(before)) return;
    if (before === false && lifted !== undefined) {
      emit(node, lifted, path, { keyword });
    } else if (isSchema(before) && isTrivial(before)) {
      // It accepted everything anyway; only what it carried goes away.
      if (!containsText(before)) emit(node, "value_changed", path, { keyword });
    } else {
      emit(node, "subschema_removed", path, { keyword });
    }
    textRemoved(node, path, before);
    return;
  }
  if (before === false && after !== false && lifted !== undefined && isSchema(after)) {
    emit(node, lifted, path, { keyword });
    textAdded(node, path, after);
    return;
  }
  descend(node, before, after, path);
}
