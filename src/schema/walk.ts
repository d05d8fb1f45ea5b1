/** The schema walker: compares two schema values recursively, handing each keyword to the rule owning its role. */

import type { Bases, Engine, Rule, SchemaNode } from "./context.js";
import { finding, hasWidening, type SchemaFinding, sameValidation } from "./finding.js";
import { deepEqual, EMPTY_OBJECT, isEmptySchema, isObject, isSchema, type JsonObject, own } from "./json.js";
import { isNonConstraining, keywordInfo } from "./keywords.js";
import {
  canMerge,
  type Inliner,
  type MovedText,
  mergeMember,
  type Normalized,
  type NormalizeContext,
  normalizeContext,
  normalizeNode,
  plainContent,
  rejectsEverything,
} from "./normalize.js";
import { type DocIndex, locationOf, type RefTarget, referencesIn, resolveRef } from "./resolve.js";
import { RULE_BY_ROLE, RULES } from "./rules/index.js";
import { containsText, hasConstrainingSiblings, MAX_SCHEMA_DEPTH, unionKeys } from "./shape.js";

// Matching anyOf/allOf members tries pairs, and trials nest; this caps the total work of one comparison.
// Past it, trials answer "unknown" and callers take the widening answer, so the result stays sound.
const WORK_BUDGET = 200_000;

// A chain of references that only point on (`{ $ref: A }` where A is `{ $ref: B }` ...) is followed this far.
const MAX_REF_HOPS = 16;

// Inlining a target copies its references along; past this many distinct targets we stop unfolding.
const MAX_INLINE_CLOSURE = 64;

interface OpenPair {
  readonly index: number;
  readonly strictDepth: number;
  strictHit: boolean;
}

/** The two documents of one comparison. */
export interface Documents {
  readonly before: DocIndex;
  readonly after: DocIndex;
  /** See Engine.annotationsMatter. */
  readonly annotationsMatter: boolean;
}

interface CachedTargets {
  readonly path: string;
  readonly findings: readonly SchemaFinding[];
  /** Whether the details already went into the result (not only into a trial). */
  reported: boolean;
}

/** Creates a walker with a fresh work budget for one top-level comparison. */
export function createEngine(docs: Documents): Engine {
  let budget = WORK_BUDGET;
  let trials = 0;
  // Base URIs of the node being compared; a child the index does not know (a normalized copy) inherits them.
  const baseStack: Bases[] = [{ before: docs.before.base, after: docs.after.base }];
  // Reference pairs being compared right now; a pair met again is a cycle.
  const inProgress = new Map<string, OpenPair>();
  // How many rules up the stack treat any non-text change as a widening (not, if, oneOf, capped contains).
  let strictDepth = 0;
  const inlinable = new WeakMap<object, JsonObject | null>();
  const acyclicMemo = { before: new Map<string, boolean>(), after: new Map<string, boolean>() };
  const contexts = new Map<string, NormalizeContext>();
  // Lowest stack index a cycle hit leaned on; results above it assumed something still open and are not cached.
  let lowestHit = Number.POSITIVE_INFINITY;
  const cache = new Map<string, CachedTargets>();

  const engine: Engine = {
    annotationsMatter: docs.annotationsMatter,
    diff(before, after, path, depth, bases) {
      budget--;
      if (trials > 0 && budget < 0) return [];
      return diffValues(before, after, path, depth, bases);
    },
    tryDiff(before, after, path, depth, bases) {
      if (budget <= 0) return undefined;
      trials++;
      try {
        const findings = engine.diff(before, after, path, depth, bases);
        return budget < 0 ? undefined : findings;
      } finally {
        trials--;
      }
    },
    resolve(side, base, ref) {
      return resolveRef(side === "before" ? docs.before : docs.after, base, ref);
    },
    strict(compare) {
      strictDepth++;
      try {
        return compare();
      } finally {
        strictDepth--;
      }
    },
    diffTargets(before, after, path, depth) {
      const key = `${before.pointer}\u0000${after.pointer}`;
      const open = inProgress.get(key);
      if (open !== undefined) {
        // Assume the pair equal while it is being compared further up; that comparison reports any change.
        // In a monotone place that is sound (coinduction); under `not` and friends a change that narrows
        // would widen, so the outer comparison then counts any structural change as a widening.
        lowestHit = Math.min(lowestHit, open.index);
        if (strictDepth > open.strictDepth || docs.annotationsMatter) open.strictHit = true;
        return [];
      }
      const cached = cache.get(key);
      if (cached !== undefined) {
        // The first real use reports the details; later uses (a definition reached many ways) say it again
        // in one finding, so a diamond of references cannot multiply the output.
        if (trials > 0 || cached.reported) return summarize(cached, path);
        cached.reported = true;
        return reroot(cached, path);
      }
      if (depth > MAX_SCHEMA_DEPTH || budget < 0) return [finding("reference_not_followed", path)];
      const index = inProgress.size;
      const entry: OpenPair = { index, strictDepth, strictHit: false };
      inProgress.set(key, entry);
      let findings: SchemaFinding[];
      try {
        findings = engine.diff(before.value, after.value, path, depth, { before: before.base, after: after.base });
      } finally {
        inProgress.delete(key);
      }
      if (entry.strictHit && !sameValidation(findings) && !hasWidening(findings)) {
        findings.push(finding("recursive_reference_changed", path));
      }
      if (lowestHit >= index) {
        if (budget >= 0) cache.set(key, { path, findings, reported: trials === 0 });
        lowestHit = Number.POSITIVE_INFINITY;
      }
      return findings;
    },
  };

  function diffValues(
    before: unknown,
    after: unknown,
    path: string,
    depth: number,
    bases: Bases | undefined,
  ): SchemaFinding[] {
    if (depth > MAX_SCHEMA_DEPTH) return deepEqual(before, after) ? [] : [finding("depth_limit", path)];
    const beforeOk = isSchema(before);
    const afterOk = isSchema(after);
    if (!beforeOk || !afterOk) {
      if (deepEqual(before, after)) return [];
      return [finding(beforeOk ? "became_invalid" : "invalid_changed", path)];
    }
    if (before === false) {
      if (after === false) return [];
      return withText([finding("schema_false_lifted", path)], "text_added", path, after);
    }
    if (after === false) return withText([finding("schema_false", path)], "text_removed", path, before);
    const inherited = bases ?? baseStack[baseStack.length - 1] ?? { before: docs.before.base, after: docs.after.base };
    const here: Bases = {
      before: locationOf(docs.before, before)?.base ?? inherited.before,
      after: locationOf(docs.after, after)?.base ?? inherited.after,
    };
    let was = normalizeNode(before === true ? EMPTY_OBJECT : before, contextOf("before", here.before));
    let now = normalizeNode(after === true ? EMPTY_OBJECT : after, contextOf("after", here.after));
    was = expandReference(was, now, "before", here);
    now = expandReference(now, was, "after", here);
    baseStack.push(here);
    let findings: SchemaFinding[];
    try {
      findings = compareObjects(was, now, path, depth, here);
    } finally {
      baseStack.pop();
    }
    compareMoved(was.moved, now.moved, path, findings);
    // A schema whose keywords contradict each other accepts nothing: the side that does changes the verdict.
    if (rejectsEverything(now.node, contextOf("after", here.after))) {
      findings = findings.filter((f) => f.kind !== "widened");
    } else if (rejectsEverything(was.node, contextOf("before", here.before)) && !hasWidening(findings)) {
      findings.push(finding("schema_false_lifted", path));
    }
    // One clear finding instead of one per keyword the old schema had.
    if (isEmptySchema(after) && hasWidening(findings)) {
      return [finding("schema_true", path), ...findings.filter((f) => f.kind !== "widened")];
    }
    return findings;
  }

  /**
   * A reference on one side only is compared by what it points at: `{ $ref: T, ...rest }` accepts what
   * `{ ...rest, allOf: [T] }` accepts, so T's keywords join the node when they can (their findings then sit
   * under `<node>/$ref`). Only targets whose references never lead back to themselves are inlined, so this
   * ends. A reference added next to constraining keywords stays: draft-07 validators ignore those siblings,
   * which the references rule reports.
   */
  function expandReference(side: Normalized, other: Normalized, name: "before" | "after", bases: Bases): Normalized {
    const base = bases[name];
    const ref = own(side.node, "$ref");
    if (typeof ref !== "string") return side;
    const otherRef = own(other.node, "$ref");
    if (otherRef !== undefined) {
      // Both hold a reference. A bare one whose target is itself a reference with siblings is unfolded once,
      // so `{ $ref: A }` with `A = { $ref: B, ... }` meets `{ $ref: B, ... }` written out.
      if (typeof otherRef !== "string" || hasConstrainingSiblings(side.node, "$ref")) return side;
      const otherName = name === "before" ? "after" : "before";
      const mine = followChain(name, base, ref);
      const theirs = followChain(otherName, bases[otherName], otherRef);
      if (mine === undefined || theirs === undefined || mine.pointer === theirs.pointer) return side;
      if (!isObject(mine.value) || typeof own(mine.value, "$ref") !== "string") return side;
    } else if (name === "after" && hasConstrainingSiblings(side.node, "$ref")) {
      return side;
    }
    const target = inlineTarget(name, base, ref);
    if (target === undefined) return side;
    const rest: { [key: string]: unknown } = {};
    for (const k of Object.keys(side.node)) if (k !== "$ref") rest[k] = side.node[k];
    if (!canMerge(rest, target)) return side;
    const origins = new Map(side.origins);
    mergeMember(rest, plainContent(target), "/$ref", origins, undefined);
    const again = normalizeNode(rest, contextOf(name, base), origins);
    return { node: again.node, origins: again.origins, moved: side.moved };
  }

  /** How one side normalizes at one base URI (see normalize.ts); one per pair, so its memo is shared. */
  function contextOf(name: "before" | "after", base: string): NormalizeContext {
    const key = `${name}\u0000${base}`;
    let context = contexts.get(key);
    if (context === undefined) {
      const inline: Inliner = (ref) => inlineTarget(name, base, ref);
      context = normalizeContext(docs.annotationsMatter, inline);
      contexts.set(key, context);
    }
    return context;
  }

  /** The keywords a reference's target contributes when copied in place of the reference (see Inliner). */
  function inlineTarget(name: "before" | "after", base: string, ref: string): JsonObject | undefined {
    const target = followChain(name, base, ref);
    if (target === undefined || target.base !== base) return undefined;
    const value = target.value === true ? EMPTY_OBJECT : target.value;
    if (!isObject(value)) return undefined;
    const known = inlinable.get(value);
    if (known !== undefined) return known ?? undefined;
    let out: JsonObject | null = null;
    if (acyclic(name, target, new Set(), { left: MAX_INLINE_CLOSURE })) {
      const kept: { [key: string]: unknown } = {};
      for (const k of Object.keys(value)) {
        const role = keywordInfo(k).role;
        // A target's text, definitions, dialect and anchors belong to where it is written.
        if (role === "text" || role === "unknown" || role === "namedSchemas" || role === "dialect") continue;
        if (role === "reference" && keywordInfo(k).link !== "ref") continue;
        kept[k] = value[k];
      }
      out = kept;
    }
    inlinable.set(value, out);
    return out ?? undefined;
  }

  /**
   * True when no chain of references from the target leads back into itself (so copying it in, and then
   * whatever it references, ends) and every reference inside stays in the target's resource.
   */
  function acyclic(
    name: "before" | "after",
    target: RefTarget,
    visiting: Set<string>,
    work: { left: number },
  ): boolean {
    const memo = acyclicMemo[name];
    const known = memo.get(target.pointer);
    if (known !== undefined) return known;
    if (visiting.has(target.pointer) || work.left-- <= 0) return false;
    visiting.add(target.pointer);
    const refs = referencesIn(target.value);
    let ok = refs !== undefined;
    for (const ref of refs ?? []) {
      const next = engine.resolve(name, target.base, ref);
      // An unresolvable reference stays one after copying; it resolves (or not) the same way.
      if (next === undefined) continue;
      if (next.base !== target.base || !acyclic(name, next, visiting, work)) {
        ok = false;
        break;
      }
    }
    visiting.delete(target.pointer);
    // A verdict cut short by the work cap is not a property of the target; keep only complete ones.
    if (work.left > 0) memo.set(target.pointer, ok);
    return ok;
  }

  /** Resolves a reference, then through targets that are nothing but another reference. */
  function followChain(name: "before" | "after", base: string, ref: string): RefTarget | undefined {
    let target = engine.resolve(name, base, ref);
    const seen = new Set<string>();
    for (let hop = 0; target !== undefined && hop < MAX_REF_HOPS; hop++) {
      if (seen.has(target.pointer)) return undefined;
      seen.add(target.pointer);
      const value = target.value;
      if (!isObject(value)) return target;
      const next = own(value, "$ref");
      const onlyRef =
        typeof next === "string" && Object.keys(value).every((k) => k === "$ref" || isNonConstraining(k));
      if (!onlyRef) return target;
      target = engine.resolve(name, target.base, next);
    }
    return undefined;
  }

  function compareObjects(
    was: Normalized,
    now: Normalized,
    path: string,
    depth: number,
    bases: Bases,
  ): SchemaFinding[] {
    const before = was.node;
    const after = now.node;
    const origins = { before: was.origins, after: now.origins };
    const node: SchemaNode = { before, after, path, depth, out: [], engine, bases, origins };
    const keysByRule = new Map<Rule, string[]>();
    for (const key of unionKeys(before, after)) {
      const rule = RULE_BY_ROLE.get(keywordInfo(key).role);
      if (rule === undefined) continue;
      const keys = keysByRule.get(rule);
      if (keys === undefined) keysByRule.set(rule, [key]);
      else keys.push(key);
    }
    for (const rule of RULES) {
      const keys = keysByRule.get(rule);
      if (keys !== undefined) rule.run(node, keys);
    }
    return node.out;
  }

  return engine;
}

/** Text that normalization lifted out of merged members: reported where it sat when it moved or changed. */
function compareMoved(
  before: readonly MovedText[],
  after: readonly MovedText[],
  path: string,
  out: SchemaFinding[],
): void {
  if (before.length === 0 && after.length === 0) return;
  const byMatch = new Map(after.map((m) => [m.match, m] as const));
  for (const m of before) {
    const other = byMatch.get(m.match);
    byMatch.delete(m.match);
    if (other === undefined) out.push(finding("text_removed", `${path}${m.at}`));
    else if (!deepEqual(m.value, other.value)) out.push(finding("text_changed", `${path}${other.at}`));
  }
  for (const m of byMatch.values()) out.push(finding("text_added", `${path}${m.at}`));
}

/** One finding standing for a comparison of the same targets reported in full at `cached.path`. */
function summarize(cached: CachedTargets, path: string): SchemaFinding[] {
  const args = { first: cached.path };
  if (hasWidening(cached.findings)) return [finding("reference_target_widened", path, args)];
  if (!sameValidation(cached.findings)) return [finding("reference_target_changed", path, args)];
  return [];
}

function reroot(cached: CachedTargets, path: string): SchemaFinding[] {
  if (cached.path === path) return [...cached.findings];
  return cached.findings.map((f) => ({ ...f, path: path + f.path.slice(cached.path.length) }));
}

function withText(
  findings: SchemaFinding[],
  reason: "text_added" | "text_removed",
  path: string,
  schema: unknown,
): SchemaFinding[] {
  if (containsText(schema)) findings.push(finding(reason, path));
  return findings;
}
