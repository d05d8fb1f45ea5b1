/** Judges a position by what it accepts when its schema was restructured (anyOf, oneOf, allOf), not keyword by keyword. */

import { acceptsNoMore, finding, hasWidening, type SchemaFinding, showValue } from "./finding.js";
import { canonical, escapePointer, isObject, type JsonObject, own } from "./json.js";
import { isNonConstraining, keywordInfo } from "./keywords.js";
import {
  allowedValues,
  canMerge,
  contentOf,
  copyWithout,
  type Family,
  familyOfType,
  intersectTypes,
  type Mutable,
  type Normalized,
  type NormalizeContext,
  normalizeNode,
  typeOfValue,
  typesOf,
} from "./normalize.js";
import { pushAll } from "../arrays.js";

// The keyword walk compares `properties` with `properties` and `type` with `type`. That is sound, but when a
// schema is restructured (an inline object becomes a reference to an anyOf of stricter objects, a oneOf of
// single-value objects is hoisted into one object with an enum) every keyword that moved looks removed. When
// the walk finds a widening at a node where one side splits into alternatives or conjuncts, these proofs ask
// the question that matters instead: does each new alternative accept only what the old schema accepted, is
// the new schema covered by one old alternative (case by case over a property's values), is each part of the
// old schema implied by one new conjunct? Every proof is built from trial comparisons, which are sound, so a
// proof that succeeds shows the new schema accepts nothing new.

/** The comparisons a proof may run; the walker supplies them (see walk.ts). */
export interface Prover {
  /** unevaluated* is around: alternatives' annotations matter, so nothing is restructured. */
  readonly annotationsMatter: boolean;
  /** How one side normalizes at this node. */
  context(side: "before" | "after"): NormalizeContext;
  /** A real comparison of two prepared nodes at `path`; its findings go into the result. */
  compare(was: Normalized, now: Normalized, path: string, depth: number): SchemaFinding[];
  /** A trial comparison; undefined when the work budget ran out (assume the worst). */
  trial(was: Normalized, now: Normalized, path: string, depth: number): SchemaFinding[] | undefined;
  /** A trial comparison of two schemas as written (normalized and references followed as usual). */
  trialSchemas(before: unknown, after: unknown, path: string, depth: number): SchemaFinding[] | undefined;
  /** What a member stands for: the target of a bare `$ref` (followed through chains), or the member itself. */
  target(side: "before" | "after", member: unknown): unknown;
  /**
   * True when trial findings show the new side accepts nothing new and asks for nothing new: no widening, or
   * inside `askingAsBefore`, only requests for names the old schema asked for too.
   */
  covers(findings: readonly SchemaFinding[]): boolean;
  /** Runs comparisons of parts of the old schema, whose other requests (`asked`) are not new. */
  askingAsBefore<T>(asked: AskedNames, run: () => T): T;
}

/** The property names an old schema lists and requires at the node at `path` (see Prover.askingAsBefore). */
export interface AskedNames {
  readonly path: string;
  readonly properties: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
}

// Keywords whose sub-schemas apply to a part of the instance (a property value, an item) rather than to it.
const DESCENDING = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "unevaluatedItems",
]);
// Keywords followed by a name (or index) token in a pointer.
const NAMED = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/**
 * True when a request found at `at` (`.../required` or `.../properties/<name>`) is about the instance at the
 * node `asked.path`, not about a part of it, and names something the old node asked for too.
 */
export function askedAsBefore(asked: AskedNames, finding: SchemaFinding): boolean {
  const name = finding.args?.name;
  if (typeof name !== "string" || !finding.path.startsWith(asked.path)) return false;
  const rest = finding.path.slice(asked.path.length);
  const tail = finding.reason === "property_added" ? `/properties/${escapePointer(name)}` : "/required";
  if (!rest.endsWith(tail)) return false;
  const tokens = rest
    .slice(0, rest.length - tail.length)
    .split("/")
    .slice(1);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? "";
    if (DESCENDING.has(token)) return false;
    if (NAMED.has(token)) i++;
  }
  if (finding.reason === "required_added") return asked.required.has(name);
  if (finding.reason === "required_undeclared") return asked.required.has(name) && asked.properties.has(name);
  if (finding.reason === "property_added") return asked.properties.has(name);
  return false;
}

const ALTERNATIVES = ["anyOf", "oneOf"] as const;
type AlternativeKey = (typeof ALTERNATIVES)[number];

// admittedTypes looks this many levels into allOf/anyOf/oneOf members.
const MAX_TYPE_DEPTH = 4;

// Case splits try a few properties with a few values each; past that the proof is not attempted.
const MAX_SPLIT_VALUES = 32;
const MAX_SPLIT_PROPERTIES = 4;

/**
 * Findings for a restructured node, or undefined to keep the keyword walk's findings (`walked`). Called only
 * when the walk found a widening.
 */
export function restructure(
  prover: Prover,
  was: Normalized,
  now: Normalized,
  path: string,
  depth: number,
  walked: readonly SchemaFinding[],
): SchemaFinding[] | undefined {
  if (prover.annotationsMatter) return undefined;
  // Without a proof, an explanation replaces the walk's only when it says the same with fewer widenings
  // (new alternatives named as such win ties: "new alternative" beats "type constraint removed").
  const widenings = (fs: readonly SchemaFinding[]): number => fs.filter((f) => f.kind === "widened").length;
  const limit = widenings(walked);
  for (const key of ALTERNATIVES) {
    if (!isAlternatives(now.node, key)) continue;
    const split = splitAfter(prover, was, now, key, path, depth);
    // With alternatives on both sides the walk paired them; splitting the new ones is only a second try.
    if (Object.hasOwn(was.node, key)) {
      if (split !== undefined && widenings(split) === 0) return split;
      continue;
    }
    return split !== undefined && widenings(split) <= limit ? split : undefined;
  }
  if (Array.isArray(own(now.node, "allOf")) && coveredByConjuncts(prover, was, now, path, depth)) {
    return [finding("restructured", path, { keyword: "allOf" }), ...walked.filter((f) => f.kind === "text")];
  }
  if (Array.isArray(own(was.node, "allOf"))) {
    const asked = askedByConjuncts(prover, was, now, path, walked);
    if (asked !== undefined) return asked;
  }
  for (const key of ALTERNATIVES) {
    if (isAlternatives(was.node, key) && !Object.hasOwn(now.node, key)) {
      const covered = coverByBefore(prover, was, now, key, path, depth);
      if (covered === undefined) continue;
      const proven = widenings(covered);
      if (proven === 0 || proven < limit || (proven === limit && covered[0]?.reason === "restructured")) return covered;
    }
  }
  return undefined;
}

function isAlternatives(node: JsonObject, key: AlternativeKey): boolean {
  const list = own(node, key);
  return Array.isArray(list) && list.length >= 2;
}

/**
 * The new schema is `S and (A1 or A2 ...)`: it accepts nothing new exactly when each `S and Ai` accepts
 * nothing new (a oneOf accepts less than the anyOf of the same members). Alternatives that do accept more
 * are reported as new alternatives, named by what they accept, unless they are the old schema edited.
 */
function splitAfter(prover: Prover, was: Normalized, now: Normalized, key: AlternativeKey, path: string, depth: number): SchemaFinding[] | undefined {
  const branches = alternatives(now, key, prover.context("after"), false);
  if (branches === undefined) return undefined;
  const trials = branches.map((b) => (b === null ? [] : prover.trial(was, b, path, depth)));
  const covered = trials.map((t) => t !== undefined && prover.covers(t));
  if (covered.every(Boolean)) {
    const real = branches.map((b) => (b === null ? [] : prover.compare(was, b, path, depth)));
    return [finding("restructured", path, { keyword: key }), ...keptText(real)];
  }
  const list = own(now.node, key) as readonly unknown[];
  const base = `${now.origins.get(key) ?? `/${escapePointer(key)}`}`;
  // With no alternative left as it was, the closest one of the same shape is the old schema edited.
  let edited = -1;
  if (!covered.some(Boolean)) {
    let fewest = Number.POSITIVE_INFINITY;
    branches.forEach((b, i) => {
      const t = trials[i];
      if (b === null || t === undefined || shapeOf(b.node) !== shapeOf(was.node)) return;
      const widened = t.filter((f) => f.kind === "widened").length;
      if (widened < fewest) {
        fewest = widened;
        edited = i;
      }
    });
  }
  const out: SchemaFinding[] = [];
  branches.forEach((b, i) => {
    if (b === null) return;
    const t = trials[i];
    // An alternative that only asks for more is a stricter one: reported in detail, not as a new one.
    const asksOnly = t !== undefined && acceptsNoMore(t);
    if (covered[i] === true || asksOnly || i === edited) {
      pushAll(out, prover.compare(was, b, path, depth));
      return;
    }
    const at = `${path}${base}/${i}`;
    out.push(finding("branch_added", at, { keyword: key, index: i, accepts: describeSchema(list[i]) }));
    if (hasText(list[i])) out.push(finding("text_added", at));
  });
  return unique(out);
}

/**
 * The old schema is `T and (B1 or B2 ...)`: the new one accepts nothing new when one `T and Bj` covers it,
 * or, case by case over the values of one of its properties, each case is covered by some `T and Bj`. For
 * oneOf the covering alternative must also be the only one that can match.
 */
function coverByBefore(prover: Prover, was: Normalized, now: Normalized, key: AlternativeKey, path: string, depth: number): SchemaFinding[] | undefined {
  const branches = alternatives(was, key, prover.context("before"), true);
  if (branches === undefined) return undefined;
  const cover = (candidate: Normalized): number | undefined => {
    for (let j = 0; j < branches.length; j++) {
      const b = branches[j];
      if (b === undefined || b === null) continue;
      const trial = prover.trial(b, candidate, path, depth);
      if (trial === undefined || !prover.covers(trial)) continue;
      const exclusive = (o: Normalized | null | undefined, k: number): boolean =>
        k === j || o === null || (o !== undefined && disjoint(candidate.node, o.node));
      if (key === "oneOf" && !branches.every(exclusive)) continue;
      return j;
    }
    return undefined;
  };
  const whole = cover(now);
  if (whole !== undefined) {
    const b = branches[whole] as Normalized;
    return [finding("restructured", path, { keyword: key }), ...keptText([prover.compare(b, now, path, depth)])];
  }
  // Case by case: the values no old alternative covers are what is new, and the finding names them.
  let partial: { split: Split; chosen: Array<number | undefined> } | undefined;
  for (const split of splits(now, branches, path)) {
    const chosen = split.cases.map(cover);
    const count = chosen.filter((j) => j !== undefined).length;
    if (count === 0 || count <= (partial?.chosen.filter((j) => j !== undefined).length ?? 0)) continue;
    partial = { split, chosen };
    if (count === chosen.length) break;
  }
  if (partial !== undefined) {
    const { split, chosen } = partial;
    const real = split.cases.flatMap((c, i) => {
      const j = chosen[i];
      return j === undefined ? [] : [prover.compare(branches[j] as Normalized, c, path, depth)];
    });
    const out = [finding("restructured", path, { keyword: key }), ...keptText(real)];
    split.values.forEach((value, i) => {
      if (chosen[i] === undefined) out.push(finding("enum_value_added", split.path, { value: showValue(value) }));
    });
    return out;
  }
  return closestBranch(prover, was, now, key, branches, path, depth);
}

/**
 * No proof: the new schema is reported against the old alternative it is closest to (fewest widenings), so
 * the findings name what that alternative did not accept, and the other alternatives as removed.
 */
function closestBranch(
  prover: Prover,
  was: Normalized,
  now: Normalized,
  key: AlternativeKey,
  branches: ReadonlyArray<Normalized | null>,
  path: string,
  depth: number,
): SchemaFinding[] | undefined {
  let best: { index: number; widened: number; total: number } | undefined;
  branches.forEach((b, index) => {
    if (b === null) return;
    const trial = prover.trial(b, now, path, depth);
    if (trial === undefined) return;
    const widened = trial.filter((f) => f.kind === "widened").length;
    if (best === undefined || widened < best.widened || (widened === best.widened && trial.length < best.total)) {
      best = { index, widened, total: trial.length };
    }
  });
  const chosen = best as { index: number } | undefined;
  if (chosen === undefined) return undefined;
  const real = prover.compare(branches[chosen.index] as Normalized, now, path, depth);
  // Covered but not exclusive (a oneOf whose other alternatives may also match): the walk says it better.
  if (!hasWidening(real)) return undefined;
  const base = `${path}${was.origins.get(key) ?? `/${escapePointer(key)}`}`;
  branches.forEach((b, index) => {
    if (b === null || index === chosen.index) return;
    real.push(finding("branch_removed", `${base}/${index}`, { keyword: key, index }));
  });
  return unique(real);
}

/**
 * The new schema is `S and M1 and M2 ...` (allOf members that could not join the node, such as references
 * to recursive definitions). The old schema is the conjunction of its keyword groups (keywords that read
 * each other, like properties and additionalProperties, form one group). The new schema accepts nothing new
 * when each old group is implied by one conjunct.
 */
function coveredByConjuncts(prover: Prover, was: Normalized, now: Normalized, path: string, depth: number): boolean {
  const members = own(now.node, "allOf") as readonly unknown[];
  const rest: Normalized = { node: copyWithout(now.node, "allOf"), origins: now.origins, moved: [] };
  const groups = new Map<string, Mutable>();
  for (const key of Object.keys(was.node)) {
    const info = keywordInfo(key);
    if (isNonConstraining(key) || (info.role === "reference" && info.link !== "ref")) continue;
    const group = info.group ?? key;
    const picked = groups.get(group) ?? {};
    picked[key] = was.node[key];
    groups.set(group, picked);
  }
  // A conjunct compared with one group sees the old schema's other requests as new (a member holding both
  // `properties` and `required` asks for names the `properties` group alone does not): requests the old
  // schema made anyway are not new.
  const required = own(was.node, "required");
  const properties = own(was.node, "properties");
  const asked: AskedNames = {
    path,
    required: new Set(Array.isArray(required) ? required.filter((n): n is string => typeof n === "string") : []),
    properties: new Set(isObject(properties) ? Object.keys(properties) : []),
  };
  // A conjunct is compared with the group it should imply plus the old keywords it repeats (proving it
  // implies more constraints is still enough), so keywords it shares with the old schema do not look added.
  const partFor = (group: string, conjunct: unknown): Mutable => {
    const part: Mutable = { ...groups.get(group) };
    if (!isObject(conjunct)) return part;
    for (const key of Object.keys(conjunct)) {
      if (!Object.hasOwn(part, key) && Object.hasOwn(was.node, key) && !isNonConstraining(key)) part[key] = was.node[key];
    }
    return part;
  };
  return prover.askingAsBefore(asked, () => {
    for (const group of groups.keys()) {
      const part: Normalized = { node: partFor(group, rest.node), origins: was.origins, moved: [] };
      const byRest = prover.trial(part, rest, path, depth);
      if (byRest !== undefined && prover.covers(byRest)) continue;
      const byMember = members.some((m) => {
        const trial = prover.trialSchemas(partFor(group, prover.target("after", m)), m, path, depth + 1);
        return trial !== undefined && prover.covers(trial);
      });
      if (!byMember) return false;
    }
    return true;
  });
}

/**
 * The old schema's allOf members asked for properties the new schema now lists on the node itself (an
 * allOf inlined, a base schema behind a reference merged in). When the walk's only widenings are such
 * requests and every one was made by an old member, nothing new is asked: the walk's findings without them.
 */
function askedByConjuncts(prover: Prover, was: Normalized, now: Normalized, path: string, walked: readonly SchemaFinding[]): SchemaFinding[] | undefined {
  // The old members, and their own allOf members, behind references too (a few levels down).
  const members: unknown[] = [];
  const collect = (list: unknown, level: number): void => {
    if (!Array.isArray(list) || level > MAX_TYPE_DEPTH) return;
    for (const member of list) {
      const target = prover.target("before", member);
      members.push(target);
      if (isObject(target)) collect(own(target, "allOf"), level + 1);
    }
  };
  collect(own(was.node, "allOf"), 0);
  const lists = (key: "required" | "properties", name: string): boolean =>
    members.some((m) => {
      if (!isObject(m)) return false;
      const value = own(m, key);
      if (key === "required") return Array.isArray(value) && value.includes(name);
      return isObject(value) && Object.hasOwn(value, name);
    });
  const requiredAt = `${path}${now.origins.get("required") ?? "/required"}`;
  const propertiesAt = `${path}${now.origins.get("properties") ?? "/properties"}/`;
  // A property new on the node accepts nothing new only where the old node left every name free.
  const namesFree = !["additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties"].some((k) => Object.hasOwn(was.node, k));
  const asked = (f: SchemaFinding): boolean => {
    const name = f.args?.name;
    if (typeof name !== "string") return false;
    if (f.reason === "required_added") return f.path === requiredAt && lists("required", name);
    if (f.reason === "property_added") {
      return namesFree && f.path === `${propertiesAt}${escapePointer(name)}` && lists("properties", name);
    }
    return false;
  };
  const widenings = walked.filter((f) => f.kind === "widened");
  if (widenings.length === 0 || !widenings.every(asked)) return undefined;
  return walked.filter((f) => f.kind !== "widened");
}

/**
 * Each alternative of a node joined with the node's other keywords, as a node of its own whose keywords
 * keep pointing where the document holds them. `null` stands for a `false` alternative (it accepts
 * nothing). When an alternative cannot join its siblings, `exact` gives up; otherwise the alternative is
 * taken alone, which accepts more than it does with its siblings (so proving it narrower is enough).
 */
function alternatives(side: Normalized, key: AlternativeKey, context: NormalizeContext, exact: boolean): Array<Normalized | null> | undefined {
  const list = own(side.node, key);
  if (!Array.isArray(list)) return undefined;
  const prefix = side.origins.get(key) ?? `/${escapePointer(key)}`;
  const rest = copyWithout(side.node, key);
  const restOrigins = new Map(side.origins);
  restOrigins.delete(key);
  const out: Array<Normalized | null> = [];
  for (let index = 0; index < list.length; index++) {
    const member: unknown = list[index];
    const at = `${prefix}/${index}`;
    if (member === false) {
      out.push(null);
      continue;
    }
    if (member === true) {
      out.push({ ...normalizeNode(rest, context, restOrigins), moved: side.moved });
      continue;
    }
    if (!isObject(member)) return undefined;
    const content = contentOf(context, member);
    const where = (k: string): string => `${at}${content.origins.get(k) ?? `/${escapePointer(k)}`}`;
    const moved = content.moved.map((m) => ({ ...m, at: `${at}${m.at}` }));
    if (!canMerge(rest, content.schema)) {
      if (exact) return undefined;
      const origins = new Map(Object.keys(content.schema).map((k) => [k, where(k)] as const));
      out.push({ node: content.schema, origins, moved });
      continue;
    }
    const node: Mutable = { ...rest };
    const origins = new Map(restOrigins);
    for (const k of Object.keys(content.schema)) {
      if (keywordInfo(k).role === "dialect") continue;
      const value = content.schema[k];
      if (!Object.hasOwn(node, k)) {
        node[k] = value;
        origins.set(k, where(k));
      } else if (k === "type") {
        const types = intersectTypes(typesOf(node[k]) ?? [], typesOf(value) ?? []);
        node[k] = types.length === 1 ? types[0] : types;
      }
      // Anything else already there is equal (canMerge) or the siblings' own text, which stays theirs.
    }
    const again = normalizeNode(node, context, origins);
    out.push({ node: again.node, origins: again.origins, moved: [...side.moved, ...moved, ...again.moved] });
  }
  return out;
}

/** One way to cut a node into cases: property `name` takes each of `values` in turn. */
interface Split {
  readonly values: readonly unknown[];
  readonly cases: Normalized[];
  /** Where the values are listed in the new document (reported when one is new). */
  readonly path: string;
}

/**
 * Ways to cut `now` into cases by the values of one of its properties: `{p: {enum: [a, b]}}` is the union
 * of `{p: {const: a}}` and `{p: {const: b}}` (objects without p, or non-objects, fall in every case).
 * Only properties the old alternatives constrain by value are tried.
 */
function splits(now: Normalized, branches: ReadonlyArray<Normalized | null>, path: string): Split[] {
  const properties = own(now.node, "properties");
  if (!isObject(properties)) return [];
  const mentioned = (name: string): boolean =>
    branches.some((b) => {
      const theirs = b === null ? undefined : own(b.node, "properties");
      const sub = isObject(theirs) ? own(theirs, name) : undefined;
      return isObject(sub) && allowedValues(sub) !== undefined;
    });
  const out: Split[] = [];
  const base = `${path}${now.origins.get("properties") ?? "/properties"}`;
  for (const name of Object.keys(properties).filter(mentioned).slice(0, MAX_SPLIT_PROPERTIES)) {
    const sub = properties[name];
    if (!isObject(sub)) continue;
    const values = allowedValues(sub);
    if (values === undefined || values.length < 2 || values.length > MAX_SPLIT_VALUES) continue;
    const rest = copyWithout(sub, "enum", "const");
    const cases = values.map((value) => ({
      node: { ...now.node, properties: { ...properties, [name]: { ...rest, const: value } } },
      origins: now.origins,
      moved: now.moved,
    }));
    const listed = Object.hasOwn(sub, "enum") ? "enum" : "const";
    out.push({ values, cases, path: `${base}/${escapePointer(name)}/${listed}` });
  }
  return out;
}

/**
 * True when no instance satisfies both schema objects: their types share nothing, their `const`/`enum`
 * values share nothing, or one accepts only objects that must hold a property whose values the other
 * rules out. False means "not shown disjoint".
 */
export function disjoint(a: JsonObject, b: JsonObject): boolean {
  const ta = nodeTypes(a);
  const tb = nodeTypes(b);
  if (ta !== undefined && tb !== undefined && intersectTypes(ta, tb).length === 0) return true;
  if (valuesDisjoint(allowedValues(a), allowedValues(b))) return true;
  return discriminated(a, ta, b) || discriminated(b, tb, a);
}

function discriminated(a: JsonObject, types: readonly string[] | undefined, b: JsonObject): boolean {
  if (types === undefined || !types.every((t) => t === "object")) return false;
  const required = own(a, "required");
  const mine = own(a, "properties");
  const theirs = own(b, "properties");
  if (!Array.isArray(required) || !isObject(mine) || !isObject(theirs)) return false;
  return required.some((name) => {
    if (typeof name !== "string") return false;
    const x = own(mine, name);
    const y = own(theirs, name);
    return isObject(x) && isObject(y) && valuesDisjoint(allowedValues(x), allowedValues(y));
  });
}

function valuesDisjoint(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const keys = new Set(a.map((v) => canonical(v)));
  return !b.some((v) => keys.has(canonical(v)));
}

/** The types a node's own `type` and its `const`/`enum` values allow, or undefined when unconstrained. */
function nodeTypes(node: JsonObject): string[] | undefined {
  let types = typesOf(own(node, "type"));
  const values = allowedValues(node);
  if (values !== undefined) {
    const ofValues = [...new Set(values.map(typeOfValue))];
    types = types === undefined ? ofValues : intersectTypes(types, ofValues);
  }
  return types;
}

/**
 * The types every instance a node accepts must have, from its `type`, its `const`/`enum` values and its
 * allOf, anyOf and oneOf members (when each names its types); undefined when that is not known.
 */
export function admittedTypes(node: JsonObject, context: NormalizeContext, depth = 0): string[] | undefined {
  // Draft-07 validators ignore every keyword next to a `$ref`, `type` included.
  if (Object.hasOwn(node, "$ref")) return undefined;
  let types = nodeTypes(node);
  const meet = (other: string[] | undefined): void => {
    if (other !== undefined) types = types === undefined ? other : intersectTypes(types, other);
  };
  const memberTypes = (member: unknown): string[] | undefined => {
    if (member === false) return [];
    if (!isObject(member)) return undefined;
    const content = contentOf(context, member).schema;
    return depth < MAX_TYPE_DEPTH ? admittedTypes(content, context, depth + 1) : nodeTypes(content);
  };
  const allOf = own(node, "allOf");
  if (Array.isArray(allOf)) for (const member of allOf) meet(memberTypes(member));
  for (const key of ALTERNATIVES) {
    const list = own(node, key);
    if (!Array.isArray(list) || list.length === 0) continue;
    const each = list.map(memberTypes);
    if (each.every((t) => t !== undefined)) meet([...new Set(each.flat())]);
  }
  return types;
}

/**
 * Both nodes seen only where the new one can accept anything. When the new node admits only some types,
 * keywords of other type families and alternatives of other types cannot matter on either side (the new
 * node rejects those instances), so they are dropped and not reported. Each result accepts exactly what
 * its node accepts among the admitted types, which is all a widening is about.
 */
export function focusOnAdmitted(
  was: Normalized,
  now: Normalized,
  contexts: { readonly before: NormalizeContext; readonly after: NormalizeContext },
): { was: Normalized; now: Normalized } {
  const admitted = admittedTypes(now.node, contexts.after);
  if (admitted === undefined) return { was, now };
  return { was: focus(was, admitted, contexts.before, false), now: focus(now, admitted, contexts.after, true) };
}

function focus(side: Normalized, admitted: readonly string[], context: NormalizeContext, narrowType: boolean): Normalized {
  const families = new Set(admitted.map((t) => familyOfType(t)).filter((f): f is Family => f !== undefined));
  const drop = Object.keys(side.node).filter((k) => {
    const family = keywordInfo(k).family;
    return family !== undefined && !families.has(family);
  });
  let node: Mutable = copyWithout(side.node, ...drop);
  const origins = new Map(side.origins);
  for (const k of drop) origins.delete(k);
  let changed = drop.length > 0;
  // The new node's `type` naming more than its other keywords admit names only the admitted part (the old
  // node's keeps all it names: what it no longer accepts is a change to report).
  const ownTypes = narrowType ? typesOf(own(node, "type")) : undefined;
  if (ownTypes !== undefined) {
    const kept = intersectTypes(ownTypes, admitted);
    if (kept.length > 0 && kept.length < ownTypes.length) {
      node.type = kept.length === 1 ? kept[0] : kept;
      changed = true;
    }
  }
  for (const key of ALTERNATIVES) {
    const list = own(node, key);
    if (!Array.isArray(list) || list.length === 0) continue;
    const outside = (member: unknown): boolean => {
      if (member === false || !isObject(member)) return false;
      const types = nodeTypes(contentOf(context, member).schema);
      return types !== undefined && intersectTypes(types, admitted).length === 0;
    };
    // An alternative that can never match an admitted instance is `false` there; `false` keeps the indexes.
    const focused = list.map((m) => (outside(m) ? false : m));
    if (focused.every((m, i) => m === list[i])) continue;
    changed = true;
    if (focused.some((m) => m !== false)) {
      node[key] = focused;
      continue;
    }
    // No alternative is left: the node rejects every admitted instance. A `type` of the alternatives' types
    // says the same (and the walk then reports the admitted types as new); with no such type, the all-false
    // list stays and says it.
    const typesOfMember = (m: unknown): string[] => (isObject(m) ? (nodeTypes(contentOf(context, m).schema) ?? []) : []);
    const union = [...new Set(list.flatMap(typesOfMember))];
    const mine = typesOf(own(node, "type"));
    const types = mine === undefined ? union : intersectTypes(mine, union);
    if (types.length === 0) {
      node[key] = focused;
      continue;
    }
    node = copyWithout(node, key);
    node.type = types.length === 1 ? types[0] : types;
    origins.set("type", origins.get(key) ?? `/${escapePointer(key)}`);
    origins.delete(key);
  }
  return changed ? { node, origins, moved: side.moved } : side;
}

/** A short description of what an alternative accepts, for the finding that names it. */
export function describeSchema(schema: unknown): string | number {
  if (!isObject(schema)) return showValue(schema);
  const parts: string[] = [];
  for (const key of ["type", "const", "enum", "$ref", "required"]) {
    if (Object.hasOwn(schema, key)) parts.push(`${key}: ${String(showValue(own(schema, key)))}`);
  }
  const properties = own(schema, "properties");
  if (isObject(properties)) parts.push(`properties: ${String(showValue(Object.keys(properties)))}`);
  if (parts.length > 0) return parts.join(", ");
  const constraining: Mutable = {};
  for (const key of Object.keys(schema)) {
    const role = keywordInfo(key).role;
    if (role !== "text" && role !== "unknown") constraining[key] = schema[key];
  }
  return showValue(constraining);
}

/** What makes two nodes look like versions of one another (a oneOf branch edited in place). */
function shapeOf(node: JsonObject): string {
  return canonical([nodeTypes(node) ?? null, own(node, "$ref") ?? null]);
}

function hasText(schema: unknown): boolean {
  return isObject(schema) && Object.keys(schema).some((k) => keywordInfo(k).role === "text");
}

/**
 * Text findings of the comparisons a proof rests on: added and changed text from any of them (each at its
 * own new place), removed text only when no comparison kept it.
 */
function keptText(runs: ReadonlyArray<readonly SchemaFinding[]>): SchemaFinding[] {
  const text = runs.map((run) => run.filter((f) => f.kind === "text"));
  const removedEverywhere = (f: SchemaFinding): boolean => text.every((run) => run.some((g) => g.reason === "text_removed" && g.path === f.path));
  return unique(text.flat().filter((f) => f.reason !== "text_removed" || removedEverywhere(f)));
}

/** Findings without repeats (same reason at the same path with the same details). */
function unique(findings: readonly SchemaFinding[]): SchemaFinding[] {
  const seen = new Set<string>();
  const out: SchemaFinding[] = [];
  for (const f of findings) {
    const key = `${f.reason}\u0000${f.path}\u0000${canonical(f.args ?? null)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}
