/** The schema walker: compares two schema values recursively, handing each keyword to the rule owning its role. */

import type { Bases, Engine, Rule, SchemaNode } from "./context.js";
import { acceptsNoMore, finding, hasWidening, type SchemaFinding, sameValidation } from "./finding.js";
import { canonical, deepEqual, EMPTY_OBJECT, escapePointer, isEmptySchema, isObject, isSchema, type JsonObject, own } from "./json.js";
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
import { type DocIndex, isReachable, locationOf, type RefTarget, reachablePointers, referencesIn, resolveRef } from "./resolve.js";
import { type AskedNames, askedAsBefore, focusOnAdmitted, type Prover, restructure } from "./restructure.js";
import { RULE_BY_ROLE, RULES } from "./rules/index.js";
import { containsText, hasConstrainingSiblings, isTrivial, MAX_SCHEMA_DEPTH, unionKeys } from "./shape.js";
import { pushAll } from "../arrays.js";

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

/** How a walker is made; the defaults make the walker of one top-level comparison. */
interface EngineOptions {
  /** The walker only checks the opposite direction of a proof (it starts no such checks of its own). */
  readonly backwards?: boolean;
  /** A reference pair (`before\0after` pointers) assumed equivalent when met again (see equivalentTargets). */
  readonly hypothesis?: string;
  /** Work it may do; the whole budget by default. */
  readonly budget?: number;
}

/** A walker, and the work it has left. */
export interface Walker extends Engine {
  remaining(): number;
  /** Pointers of reference targets compared for the result (not only in trials), per document. */
  followed(): { readonly before: ReadonlySet<string>; readonly after: ReadonlySet<string> };
}

/** Creates a walker with a fresh work budget for one top-level comparison. */
export function createEngine(docs: Documents, options: EngineOptions = {}): Walker {
  const { backwards = false, hypothesis } = options;
  let budget = options.budget ?? WORK_BUDGET;
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
  const reachable: { before?: ReadonlySet<string> | undefined; after?: ReadonlySet<string> | undefined } = {};
  const identities = new WeakMap<object, number>();
  // Names the old schema asked for while parts of it are compared (see Prover.askingAsBefore); results
  // judged under them are not cached.
  let asked: AskedNames | undefined;
  // Checks the opposite direction of a restructuring proven one way (created when first needed).
  let reverse: Walker | undefined;
  let identityCount = 0;
  const followed = { before: new Set<string>(), after: new Set<string>() };

  const engine: Walker = {
    annotationsMatter: docs.annotationsMatter,
    remaining: () => budget,
    followed: () => followed,
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
    tryDiffTargets(before, after, path, depth) {
      if (budget <= 0) return undefined;
      trials++;
      try {
        const findings = engine.diffTargets(before, after, path, depth);
        return budget < 0 ? undefined : findings;
      } finally {
        trials--;
      }
    },
    resolve(side, base, ref) {
      return resolveRef(side === "before" ? docs.before : docs.after, base, ref);
    },
    referenced(side, value) {
      const location = locationOf(docs[side], value);
      if (location === undefined) return true;
      if (!Object.hasOwn(reachable, side)) reachable[side] = reachablePointers(docs[side]);
      return isReachable(reachable[side], location.pointer);
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
      if (trials === 0 && !backwards) {
        followed.before.add(before.pointer);
        followed.after.add(after.pointer);
      }
      const key = `${before.pointer}\u0000${after.pointer}`;
      const open = inProgress.get(key);
      // The pair whose equivalence this walker was made to check (see equivalentTargets) is assumed.
      if (open !== undefined && key === hypothesis) return [];
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
      // Structural changes only, where a narrowing could let more through (under `not`, `if`, `oneOf`, or a
      // cycle met there): when the targets are the same schema written differently, nothing changed at all.
      if (!sameValidation(findings) && !hasWidening(findings) && (entry.strictHit || strictDepth > 0)) {
        if (equivalentTargets(before, after, path, depth)) {
          if (strictDepth > 0) findings = findings.filter((f) => sameValidation([f]));
        } else if (entry.strictHit) {
          findings.push(finding("recursive_reference_changed", path));
        }
      }
      if (lowestHit >= index) {
        if (budget >= 0 && asked === undefined) cache.set(key, { path, findings, reported: trials === 0 });
        lowestHit = Number.POSITIVE_INFINITY;
      }
      return findings;
    },
  };

  function diffValues(before: unknown, after: unknown, path: string, depth: number, bases: Bases | undefined): SchemaFinding[] {
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
    if (after === false) return [finding("schema_false", path)];
    const inherited = bases ?? baseStack[baseStack.length - 1] ?? { before: docs.before.base, after: docs.after.base };
    const here: Bases = {
      before: locationOf(docs.before, before)?.base ?? inherited.before,
      after: locationOf(docs.after, after)?.base ?? inherited.after,
    };
    let was = normalizeNode(before === true ? EMPTY_OBJECT : before, contextOf("before", here.before));
    let now = normalizeNode(after === true ? EMPTY_OBJECT : after, contextOf("after", here.after));
    was = expandReference(was, now, "before", here);
    now = expandReference(now, was, "after", here);
    const unfolded = unfoldReference(was, now, before, after, path, depth, here);
    if (unfolded !== undefined) return unfolded;
    baseStack.push(here);
    let findings: SchemaFinding[];
    try {
      findings = compareFull(was, now, path, depth, here);
    } finally {
      baseStack.pop();
    }
    // Proven to accept nothing new. When the old schema accepts nothing the new one rejects either, it is the
    // same schema written another way and, like any equivalent rewrite, reports nothing above text. (Where a
    // narrowing can let more through, under `not` or `oneOf`, that difference matters.)
    const marker = (f: SchemaFinding): boolean => f.reason === "restructured" && f.path === path;
    if (!backwards && findings.some(marker) && !hasWidening(findings)) {
      reverse ??= createEngine(swapped(docs), { backwards: true });
      const back = reverse.tryDiff(after, before, path, depth, { before: here.after, after: here.before });
      if (back !== undefined && acceptsNoMore(back)) findings = findings.filter((f) => !marker(f));
    }
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

  /**
   * A bare reference on one side only whose target could not be inlined (it leads back to itself) is compared
   * by what it points at: the target's keywords with the reference's own text, against the other side as
   * written. The pair goes through diffTargets under identities of its own, so a comparison that comes back
   * to the same pair ends there (and counts as a widening where a cycle must not hide a narrowing).
   */
  function unfoldReference(
    was: Normalized,
    now: Normalized,
    before: JsonObject | boolean,
    after: JsonObject | boolean,
    path: string,
    depth: number,
    here: Bases,
  ): SchemaFinding[] | undefined {
    const mine = bareReference(was.node);
    const theirs = bareReference(now.node);
    if ((mine === undefined) === (theirs === undefined)) return undefined;
    const side = mine !== undefined ? "before" : "after";
    const plainSide = mine !== undefined ? "after" : "before";
    const refNode = side === "before" ? was.node : now.node;
    const plain = side === "before" ? after : before;
    const plainNode = side === "before" ? now.node : was.node;
    // Against a schema that accepts everything the walk says it directly (a reference dropped or added).
    if (hasReferenceKeyword(plainNode) || isTrivial(plainNode)) return undefined;
    const target = followChain(side, here[side], (mine ?? theirs) as string);
    const value = target?.value === true ? EMPTY_OBJECT : target?.value;
    if (target === undefined || !isObject(value)) return undefined;
    const copy: { [key: string]: unknown } = {};
    for (const k of Object.keys(value)) {
      const info = keywordInfo(k);
      // As when inlining: a target's text, definitions, dialect and anchors belong to where it is written.
      if (!isNonConstraining(k) && !(info.role === "reference" && info.link !== "ref")) copy[k] = value[k];
    }
    for (const k of Object.keys(refNode)) if (k !== "$ref") copy[k] = refNode[k];
    const refId = identity(side === "before" ? before : after);
    const refTarget: RefTarget = { value: copy, base: target.base, pointer: `${target.pointer}@${refId}` };
    const plainTarget: RefTarget = { value: plain, base: here[plainSide], pointer: `@${identity(plain)}` };
    return side === "before" ? engine.diffTargets(refTarget, plainTarget, path, depth) : engine.diffTargets(plainTarget, refTarget, path, depth);
  }

  /**
   * A recursive pair met again under `not`, `if` or `oneOf` was assumed equal while it was compared. The
   * comparison found no widening, only structural changes: when the other direction finds none either
   * (assuming the same pair equivalent, coinductively), the two are the same schema written differently and
   * the changes cannot let more through. A fresh walker over the swapped documents checks that direction.
   */
  function equivalentTargets(before: RefTarget, after: RefTarget, path: string, depth: number): boolean {
    if (backwards || budget <= 0) return false;
    const hypothesis = `${after.pointer}\u0000${before.pointer}`;
    const back = createEngine(swapped(docs), { backwards: true, hypothesis, budget });
    const findings = back.tryDiffTargets(after, before, path, depth);
    // Its work counts against this comparison's budget.
    budget = Math.min(budget, back.remaining());
    return findings !== undefined && acceptsNoMore(findings);
  }

  /** A number per object, for telling comparisons of unnamed schemas apart. */
  function identity(value: unknown): number {
    if (typeof value !== "object" || value === null) return value === true ? -1 : -2;
    let id = identities.get(value);
    if (id === undefined) {
      identityCount++;
      id = identityCount;
      identities.set(value, id);
    }
    return id;
  }

  /**
   * Compares two prepared nodes keyword by keyword; when that finds a widening and one side splits into
   * alternatives the other lacks, judges the node by what it accepts instead (see restructure.ts).
   */
  function compareFull(was: Normalized, now: Normalized, path: string, depth: number, here: Bases): SchemaFinding[] {
    if (!docs.annotationsMatter) {
      ({ was, now } = focusOnAdmitted(was, now, {
        before: contextOf("before", here.before),
        after: contextOf("after", here.after),
      }));
    }
    const findings = compareObjects(was, now, path, depth, here);
    compareMoved(was, now, path, findings);
    if (!hasWidening(findings)) return findings;
    const prover: Prover = {
      annotationsMatter: docs.annotationsMatter,
      context: (side) => contextOf(side, here[side]),
      compare: (b, a, at, d) => compareFull(b, a, at, d, here),
      trialSchemas: (b, a, at, d) => engine.tryDiff(b, a, at, d, here),
      covers: (findings) => findings.every((f) => f.kind !== "widened" || (asked !== undefined && askedAsBefore(asked, f))),
      askingAsBefore: (names, run) => {
        const outer = asked;
        asked = names;
        try {
          return run();
        } finally {
          asked = outer;
        }
      },
      target: (side, member) => {
        const ref = isObject(member) ? bareReference(member) : undefined;
        return ref === undefined ? member : followChain(side, here[side], ref)?.value;
      },
      trial: (b, a, at, d) => {
        if (budget <= 0) return undefined;
        budget--;
        trials++;
        try {
          const trial = compareFull(b, a, at, d, here);
          return budget < 0 ? undefined : trial;
        } finally {
          trials--;
        }
      },
    };
    return restructure(prover, was, now, path, depth, findings) ?? findings;
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
  function acyclic(name: "before" | "after", target: RefTarget, visiting: Set<string>, work: { left: number }): boolean {
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
      const onlyRef = typeof next === "string" && Object.keys(value).every((k) => k === "$ref" || isNonConstraining(k));
      if (!onlyRef) return target;
      target = engine.resolve(name, target.base, next);
    }
    return undefined;
  }

  function compareObjects(was: Normalized, now: Normalized, path: string, depth: number, bases: Bases): SchemaFinding[] {
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

/**
 * Text that normalization lifted out of merged members: reported where it sat when it moved or changed. Text
 * that only moved between the node itself and a merged member (`{type: T, description: d}` becoming
 * `anyOf: [{type: T, description: d}, {type: "null"}]`) is the same text the model reads: nothing to report,
 * though the keyword walk saw it leave one place and the member carry it in.
 */
function compareMoved(was: Normalized, now: Normalized, path: string, out: SchemaFinding[]): void {
  if (was.moved.length === 0 && now.moved.length === 0) return;
  const byMatch = new Map(now.moved.map((m) => [m.match, m] as const));
  const leftBefore: MovedText[] = [];
  for (const m of was.moved) {
    const other = byMatch.get(m.match);
    byMatch.delete(m.match);
    if (other === undefined) leftBefore.push(m);
    else if (!deepEqual(m.value, other.value)) out.push(finding("text_changed", `${path}${other.at}`));
  }
  // A rewrite can rename a member (a single anyOf member inlined, then the same member among new ones): the
  // same text under the same key is the same words the model reads, matched by content, not position.
  const contentKey = (m: MovedText): string => `${m.match.slice(m.match.lastIndexOf("|") + 1)}\u0000${canonical(m.value)}`;
  const unmatched = new Map<string, MovedText[]>();
  for (const m of byMatch.values()) {
    const list = unmatched.get(contentKey(m));
    if (list === undefined) unmatched.set(contentKey(m), [m]);
    else list.push(m);
  }
  for (let i = leftBefore.length - 1; i >= 0; i--) {
    const m = leftBefore[i] as MovedText;
    const other = unmatched.get(contentKey(m))?.shift();
    if (other === undefined) continue;
    leftBefore.splice(i, 1);
    byMatch.delete(other.match);
  }
  const drop = new Set<string>();
  const movedFromNode = (m: MovedText, node: Normalized, other: Normalized, reason: string): boolean => {
    const key = m.match.slice(m.match.lastIndexOf("|") + 1);
    if (!Object.hasOwn(node.node, key) || Object.hasOwn(other.node, key) || !deepEqual(node.node[key], m.value)) {
      return false;
    }
    drop.add(`${reason}\u0000${path}${node.origins.get(key) ?? `/${escapePointer(key)}`}`);
    return true;
  };
  for (const m of leftBefore) {
    if (!movedFromNode(m, now, was, "text_added")) out.push(finding("text_removed", `${path}${m.at}`));
  }
  for (const m of byMatch.values()) {
    if (!movedFromNode(m, was, now, "text_removed")) out.push(finding("text_added", `${path}${m.at}`));
  }
  if (drop.size === 0) return;
  const kept = out.filter((f) => !drop.has(`${f.reason}\u0000${f.path}`));
  out.length = 0;
  pushAll(out, kept);
}

/** The same two documents the other way round, for checking the opposite direction. */
function swapped(docs: Documents): Documents {
  return { before: docs.after, after: docs.before, annotationsMatter: docs.annotationsMatter };
}

/** The target of a `$ref` that stands alone (next to text only), or undefined. */
function bareReference(node: JsonObject): string | undefined {
  const ref = own(node, "$ref");
  if (typeof ref !== "string") return undefined;
  return Object.keys(node).every((k) => k === "$ref" || isNonConstraining(k)) ? ref : undefined;
}

/** True when a node holds any reference keyword ($ref, $dynamicRef, $recursiveRef). */
function hasReferenceKeyword(node: JsonObject): boolean {
  return Object.keys(node).some((k) => keywordInfo(k).link === "ref");
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

function withText(findings: SchemaFinding[], reason: "text_added", path: string, schema: unknown): SchemaFinding[] {
  if (containsText(schema)) findings.push(finding(reason, path));
  return findings;
}
