/** What a rule sees when it judges one schema object, and the helpers rules share for sub-schema slots. */

import { acceptsNoMore, type FindingArgs, type FindingFlags, finding, hasWidening, type SchemaFinding } from "./finding.js";
import { childPath, deepEqual, isEmptySchema, isSchema, type JsonObject, own } from "./json.js";
import { type KeywordRole, keywordInfo } from "./keywords.js";
import type { SchemaReason } from "./reasons.js";
import type { RefTarget } from "./resolve.js";
import { containsText, isTrivial } from "./shape.js";

/** The base URIs references resolve against, on each side, at one place of the comparison. */
export interface Bases {
  readonly before: string;
  readonly after: string;
}

/** The recursion the walker offers to rules, so rules never import the walker. */
export interface Engine {
  /**
   * True when either document uses unevaluatedProperties/unevaluatedItems. Then an empty sub-schema that
   * evaluates (additionalProperties: true, items: {}) marks instance parts evaluated, so it is not the same
   * as an absent one.
   */
  readonly annotationsMatter: boolean;
  /**
   * Compares two sub-schemas at `path`; findings are real and belong in the result. `bases` overrides the
   * base URIs for values the document index does not place (reference targets outside schema keywords).
   */
  diff(before: unknown, after: unknown, path: string, depth: number, bases?: Bases): SchemaFinding[];
  /** A trial comparison used only to decide something; undefined when the work budget ran out (assume the worst). */
  tryDiff(before: unknown, after: unknown, path: string, depth: number, bases?: Bases): SchemaFinding[] | undefined;
  /** Resolves a local reference in one document; undefined when it is remote or points nowhere. */
  resolve(side: "before" | "after", base: string, ref: string): RefTarget | undefined;
  /**
   * Compares what two references point at, with findings under `path`. A pair already being compared further
   * up (a cycle) compares equal here; the outer comparison reports whatever changed.
   */
  diffTargets(before: RefTarget, after: RefTarget, path: string, depth: number): SchemaFinding[];
  /** diffTargets as a trial; undefined when the work budget ran out. */
  tryDiffTargets(before: RefTarget, after: RefTarget, path: string, depth: number): SchemaFinding[] | undefined;
  /**
   * True when validation can reach the schema object `value` of one document (or something inside it) from
   * the root, through references; true as well when that cannot be told.
   */
  referenced(side: "before" | "after", value: unknown): boolean;
  /**
   * Runs comparisons whose caller counts any non-text change as a widening (not, if, oneOf, capped
   * contains), so a reference cycle met inside knows it must not hide a narrowing.
   */
  strict<T>(compare: () => T): T;
}

/** One schema object pair being compared; rules push their findings to `out`. */
export interface SchemaNode {
  readonly before: JsonObject;
  readonly after: JsonObject;
  readonly path: string;
  readonly depth: number;
  readonly out: SchemaFinding[];
  readonly engine: Engine;
  /** Base URIs of this node's references. */
  readonly bases: Bases;
  /** Where normalization found each keyword it moved, per side (see normalize.ts). */
  readonly origins: { readonly before: ReadonlyMap<string, string>; readonly after: ReadonlyMap<string, string> };
}

/** The pointer of a keyword on one side: where the document really holds it. */
export function sidePath(node: SchemaNode, side: "before" | "after", key: string): string {
  const origin = node.origins[side].get(key);
  return origin === undefined ? childPath(node.path, key) : `${node.path}${origin}`;
}

/** The pointer of a keyword: where the after document holds it, or the before document when only there. */
export function keyPath(node: SchemaNode, key: string): string {
  return sidePath(node, Object.hasOwn(node.after, key) || !Object.hasOwn(node.before, key) ? "after" : "before", key);
}

/** A check for one family of keywords, registered in rules/index.ts. */
export interface Rule {
  /** Roles this rule owns; the walker hands it every key of these roles present on either side. */
  readonly roles: readonly KeywordRole[];
  /** Judges the given keys of one node. */
  run(node: SchemaNode, keys: readonly string[]): void;
}

/** Pushes one finding onto the node. */
export function emit(node: SchemaNode, reason: SchemaReason, path: string, args?: FindingArgs, flags?: FindingFlags): void {
  node.out.push(finding(reason, path, args, flags));
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

/**
 * True when `after` provably accepts no instance `before` rejects, whatever it asks for (budget permitting).
 * For a conjunct that went away: what the node asks for is judged at the node itself.
 */
export function acceptsNoMoreThan(node: SchemaNode, before: unknown, after: unknown, path: string): boolean {
  const trial = node.engine.tryDiff(before, after, path, node.depth + 1);
  return trial !== undefined && acceptsNoMore(trial);
}

/**
 * Reports text inside a sub-schema that appeared whole. (Text that disappears with its whole sub-schema is
 * part of that structural change and is not reported on its own.)
 */
export function textAdded(node: SchemaNode, path: string, schema: unknown): void {
  if (containsText(schema)) emit(node, "text_added", path);
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
  const path = keyPath(node, key);
  emit(node, beforeOk && before !== undefined ? "became_invalid" : "invalid_changed", path, { keyword: key });
  return true;
}

/**
 * Compares one monotone sub-schema slot (a stricter value means a stricter parent). Absent counts as `true`.
 * `lifted` names the reason when a `false` slot opens up (additionalProperties and friends).
 */
export function compareSlot(node: SchemaNode, before: unknown, after: unknown, path: string, keyword: string, lifted?: SchemaReason): void {
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
    } else if (isSchema(before) && (isTrivial(before) || narrowerOrEqual(node, before, true, path))) {
      // It accepted everything anyway; only what it carried goes away (its text goes with it).
      emit(node, "value_changed", path, { keyword });
    } else {
      emit(node, "subschema_removed", path, { keyword });
    }
    return;
  }
  if (before === false && after !== false && lifted !== undefined && isSchema(after)) {
    emit(node, lifted, path, { keyword });
    textAdded(node, path, after);
    return;
  }
  descend(node, before, after, path);
}
