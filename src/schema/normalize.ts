/** Rewrites one schema object into a canonical form that accepts exactly the same instances, before it is compared. */

import { canonical, deepEqual, escapePointer, isObject, type JsonObject, own } from "./json.js";
import { isNonConstraining, type KeywordInfo, keywordInfo, linkKeywords } from "./keywords.js";

// Each rewrite here is an equivalence (test/unit/schema/normalize.test.ts checks every one with ajv on
// generated instances). They run per node, on the way down, so references still resolve in the original
// documents and children keep their identity. Findings keep pointing at where a keyword really sits:
// `origins` remembers it for every keyword a rewrite moved.

/** Text a rewrite lifted out of a merged member: the walker still reports it when it moved or changed. */
export interface MovedText {
  /** Names the member across rewrites (keyword, member index or types) and the text key. */
  readonly match: string;
  /** Pointer from the node to where the text sat. */
  readonly at: string;
  readonly value: unknown;
}

/** A node in canonical form, where its keywords came from, and the text its merged members carried. */
export interface Normalized {
  readonly node: JsonObject;
  /** Keyword -> pointer (relative to the node) of the value it was built from; absent = `/<keyword>`. */
  readonly origins: ReadonlyMap<string, string>;
  readonly moved: readonly MovedText[];
}

/** The instance families a `type` names: keyword families plus boolean and null. */
export type Family = NonNullable<KeywordInfo["family"]> | "boolean" | "null";
/** A schema object being built. */
export type Mutable = { [key: string]: unknown };

const FAMILY_OF_TYPE: ReadonlyMap<string, Family> = new Map<string, Family>([
  ["string", "string"],
  ["number", "number"],
  ["integer", "number"],
  ["array", "array"],
  ["object", "object"],
  ["boolean", "boolean"],
  ["null", "null"],
]);

/** The family of a type name (`integer` is a number), or undefined for an unknown name. */
export function familyOfType(type: string): Family | undefined {
  return FAMILY_OF_TYPE.get(type);
}

/** True when the node holds a keyword that constrains only instances of this type family. */
function speaksAbout(node: JsonObject, family: Family): boolean {
  return Object.keys(node).some((k) => keywordInfo(k).family === family);
}

/** True when the node holds a keyword that reads `key` or is read by it (additionalProperties and properties). */
function readsWith(node: JsonObject, key: string): boolean {
  const group = keywordInfo(key).group;
  return group !== undefined && Object.keys(node).some((k) => keywordInfo(k).group === group);
}

const REF_KEYS: ReadonlySet<string> = new Set(linkKeywords("ref"));

// Each pass applies one rewrite; a node rarely needs more than a handful.
const MAX_PASSES = 16;

/** True for keys that only carry text: annotations and unknown keys. They move; they never merge. */
function isTextKey(key: string): boolean {
  const role = keywordInfo(key).role;
  return role === "text" || role === "unknown";
}

/**
 * Looks up what a `$ref` of this node points at, when that can stand in for the reference: a local target
 * in the same resource whose own references never lead back to it (so inlining ends), with its text,
 * definitions and anchors stripped. Undefined otherwise.
 */
export type Inliner = (ref: string) => JsonObject | undefined;

/** How one side normalizes at one base URI; results are remembered per schema object. */
export interface NormalizeContext {
  /** See Engine.annotationsMatter: rewrites that move annotations are then off. */
  readonly annotationsMatter: boolean;
  readonly inline: Inliner | undefined;
  readonly memo: WeakMap<object, Normalized>;
}

/** A context for one side and base URI. */
export function normalizeContext(annotationsMatter: boolean, inline: Inliner | undefined): NormalizeContext {
  return { annotationsMatter, inline, memo: new WeakMap() };
}

/** Mutable state of one normalization. */
interface Work {
  node: JsonObject;
  readonly origins: Map<string, string>;
  readonly moved: MovedText[];
  readonly annotationsMatter: boolean;
  readonly inline: Inliner | undefined;
  readonly context: NormalizeContext;
}

function originOf(work: Work, key: string): string {
  return work.origins.get(key) ?? `/${escapePointer(key)}`;
}

/**
 * The canonical form of one schema object (the same object when no rewrite applies). `origins` seeds where
 * the node's keywords already came from.
 */
export function normalizeNode(schema: JsonObject, context: NormalizeContext, origins?: ReadonlyMap<string, string>): Normalized {
  // Members are normalized again by every parent pass; remembering results keeps nested allOf/anyOf linear.
  if (origins === undefined) {
    const known = context.memo.get(schema);
    if (known !== undefined) return known;
  }
  const { annotationsMatter, inline } = context;
  const work: Work = { node: schema, origins: new Map(origins), moved: [], annotationsMatter, inline, context };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const changed =
      dropVacuous(work) ||
      dropTrivialSlots(work) ||
      dedupeRequired(work) ||
      dropZeroMinimums(work) ||
      wholeNumbers(work) ||
      inclusiveIntegerBounds(work) ||
      singleEnumToConst(work) ||
      // A single alternative first: it is the node's own content (the zod/pydantic wrapper), allOf joins it.
      inlineSingleAlternative(work) ||
      flattenAllOf(work) ||
      valueAlternatives(work, "anyOf") ||
      valueAlternatives(work, "oneOf") ||
      typeAlternatives(work, "anyOf") ||
      typeAlternatives(work, "oneOf");
    if (!changed) break;
  }
  const result: Normalized = { node: work.node, origins: work.origins, moved: work.moved };
  if (origins === undefined) context.memo.set(schema, result);
  return result;
}

/** A shallow copy of a node without some keys. */
export function copyWithout(node: JsonObject, ...keys: string[]): Mutable {
  const copy: Mutable = {};
  for (const k of Object.keys(node)) if (!keys.includes(k)) copy[k] = node[k];
  return copy;
}

/** Keywords of a type family the node's `type` excludes never constrain anything: `{type: "null", maxLength: 3}`. */
function vacuous(node: JsonObject): string[] {
  const types = typesOf(own(node, "type"));
  if (types === undefined) return [];
  const families = new Set(types.map((t) => FAMILY_OF_TYPE.get(t)));
  return Object.keys(node).filter((k) => {
    const family = keywordInfo(k).family;
    return family !== undefined && !families.has(family);
  });
}

function dropKeys(work: Work, keys: readonly string[]): boolean {
  if (keys.length === 0) return false;
  work.node = copyWithout(work.node, ...keys);
  for (const k of keys) work.origins.delete(k);
  return true;
}

function dropVacuous(work: Work): boolean {
  return dropKeys(work, vacuous(work.node));
}

/** Sub-schema slots that hold `true` or `{}` where that is the same as the slot being absent. */
const TRIVIAL_WHEN_EMPTY = ["additionalProperties", "items", "additionalItems", "propertyNames", "then", "else"];

/**
 * `additionalProperties: true` is no `additionalProperties` (and likewise for the slots above, and a
 * `propertyNames` that only says names are strings), unless some
 * unevaluated* keyword is around: then an evaluating `true` marks instance parts evaluated.
 */
function dropTrivialSlots(work: Work): boolean {
  if (work.annotationsMatter) return false;
  const keys = TRIVIAL_WHEN_EMPTY.filter((k) => {
    const value = own(work.node, k);
    return value === true || (isObject(value) && Object.keys(value).length === 0) || (k === "propertyNames" && onlyStringType(value));
  });
  return dropKeys(work, keys);
}

/** `propertyNames: {type: "string"}` holds every name: property names are always strings. */
function onlyStringType(value: unknown): boolean {
  if (!isObject(value) || Object.keys(value).length !== 1) return false;
  const types = typesOf(own(value, "type"));
  return types?.includes("string") === true;
}

/** `required: ["a", "a"]` is `required: ["a"]`. */
function dedupeRequired(work: Work): boolean {
  const list = own(work.node, "required");
  if (!Array.isArray(list) || !list.every((v) => typeof v === "string")) return false;
  const unique = [...new Set(list)];
  if (unique.length === list.length) return false;
  work.node = { ...work.node, required: unique };
  return true;
}

/** Lower counts whose zero is the same as no limit: `minItems: 0`, `minLength: 0`, `minProperties: 0`. */
const ZERO_MINIMUMS = ["minItems", "minLength", "minProperties"];

/** `minItems: 0` (and the other zero counts) constrains nothing: every array has at least no items. */
function dropZeroMinimums(work: Work): boolean {
  return dropKeys(
    work,
    ZERO_MINIMUMS.filter((k) => own(work.node, k) === 0),
  );
}

/**
 * `type: "number", multipleOf: 1` is `type: "integer"`: JSON Schema counts 1.0 as an integer, and
 * multipleOf only constrains numbers, so a type list keeps its other members. Next to `integer` alone,
 * `multipleOf: 1` says nothing.
 */
function wholeNumbers(work: Work): boolean {
  if (own(work.node, "multipleOf") !== 1) return false;
  const types = typesOf(own(work.node, "type"));
  if (types === undefined || !types.some((t) => t === "number" || t === "integer")) return false;
  const integral = [...new Set(types.map((t) => (t === "number" ? "integer" : t)))];
  const copy = copyWithout(work.node, "multipleOf");
  copy.type = integral.length === 1 ? integral[0] : integral;
  work.node = copy;
  work.origins.delete("multipleOf");
  return true;
}

const INCLUSIVE_OF: ReadonlyArray<readonly [exclusive: string, inclusive: string, step: (bound: number) => number]> = [
  ["exclusiveMinimum", "minimum", (n) => Math.floor(n) + 1],
  ["exclusiveMaximum", "maximum", (n) => Math.ceil(n) - 1],
];

/**
 * On a node that admits integers only, a numeric exclusive bound is an inclusive one: `exclusiveMinimum: 0`
 * is `minimum: 1`. Kept with the stricter of the two when both are present. The draft-04 boolean form is
 * left to the limits rule.
 */
function inclusiveIntegerBounds(work: Work): boolean {
  const types = typesOf(own(work.node, "type"));
  if (types === undefined || types.length === 0 || !types.every((t) => t === "integer")) return false;
  for (const [exclusive, inclusive, step] of INCLUSIVE_OF) {
    const bound = own(work.node, exclusive);
    if (typeof bound !== "number" || !Number.isFinite(bound)) continue;
    const current = own(work.node, inclusive);
    if (current !== undefined && (typeof current !== "number" || !Number.isFinite(current))) continue;
    const stepped = step(bound);
    // Past 2^53 the next integer is not representable; leave such bounds as written.
    if (!Number.isSafeInteger(stepped)) continue;
    const lower = inclusive === "minimum";
    const value = current === undefined ? stepped : lower ? Math.max(current, stepped) : Math.min(current, stepped);
    const origin = current === undefined || value === stepped ? originOf(work, exclusive) : originOf(work, inclusive);
    const copy = copyWithout(work.node, exclusive);
    copy[inclusive] = value;
    work.node = copy;
    work.origins.delete(exclusive);
    work.origins.set(inclusive, origin);
    return true;
  }
  return false;
}

/** `enum: [x]` is `const: x`. */
function singleEnumToConst(work: Work): boolean {
  const list = own(work.node, "enum");
  if (!Array.isArray(list) || list.length === 0 || Object.hasOwn(work.node, "const")) return false;
  const first = canonical(list[0]);
  if (!list.every((v) => canonical(v) === first)) return false;
  const origin = originOf(work, "enum");
  const copy = copyWithout(work.node, "enum");
  copy.const = list[0];
  work.node = copy;
  work.origins.delete("enum");
  work.origins.set("const", origin);
  return true;
}

/**
 * Whether `member`'s keywords can join `node` unchanged in meaning: none is already there, none reads a
 * keyword already there, and none names a base URI or dialect. A `$ref` may join only a node that constrains
 * nothing else, since draft-07 ignores the siblings of a `$ref` (and would then ignore what they say); so may
 * unevaluated*, whose reach is the schema object it sits in.
 */
export function canMerge(node: JsonObject, member: JsonObject): boolean {
  const keys = Object.keys(member).filter((k) => !isTextKey(k));
  const nodeConstrains = Object.keys(node).some((k) => !isNonConstraining(k));
  for (const key of keys) {
    const role = keywordInfo(key).role;
    // `$schema` only means something at a resource root; below it, it is dropped.
    if (role === "dialect") continue;
    // The same keyword with the same value twice says it once (A and A is A), unless it reads siblings that
    // differ (additionalProperties: false next to other properties means something else).
    if (Object.hasOwn(node, key) && !REF_KEYS.has(key) && deepEqual(own(node, key), own(member, key))) {
      if (sameGroup(node, member, key)) continue;
      return false;
    }
    if (REF_KEYS.has(key) || role === "unevaluated") {
      // unevaluated* sees the annotations of its own schema object; with nothing else there, that is the same.
      if (nodeConstrains) return false;
    } else if (role === "reference") {
      return false;
    }
    if (key === "type" && Object.hasOwn(node, key)) {
      // Two `type`s mean their intersection; an empty one is left for rejectsEverything to see.
      const mine = typesOf(own(node, key));
      const theirs = typesOf(own(member, key));
      if (mine === undefined || theirs === undefined || intersectTypes(mine, theirs).length === 0) return false;
      continue;
    }
    if (Object.hasOwn(node, key) || readsWith(node, key)) return false;
  }
  // Next to a $ref already on the node, draft-07 ignores the allOf and its merged keywords alike.
  return true;
}

/** True when the keywords that read `key` (its group) are the same in both objects, or it has no group. */
function sameGroup(node: JsonObject, member: JsonObject, key: string): boolean {
  const group = keywordInfo(key).group;
  if (group === undefined) return true;
  const keys = new Set([...Object.keys(node), ...Object.keys(member)].filter((k) => keywordInfo(k).group === group));
  return [...keys].every((k) => deepEqual(own(node, k), own(member, k)));
}

/** A member in canonical form, ready to merge: `{ $ref, ...text }` stands for its inlinable target. */
export interface Content {
  readonly schema: JsonObject;
  /** Keyword -> pointer relative to the member (absent = `/<keyword>`). */
  readonly origins: ReadonlyMap<string, string>;
  /** Text the member's own rewrites lifted, pointers relative to the member. */
  readonly moved: readonly MovedText[];
}

/** A member's canonical form, with a bare `$ref` replaced by its inlinable target (see Inliner). */
export function contentOf(context: NormalizeContext, member: JsonObject): Content {
  const normalized = normalizeNode(member, context);
  const node = normalized.node;
  const ref = own(node, "$ref");
  if (typeof ref === "string" && context.inline !== undefined) {
    const others = Object.keys(node).filter((k) => k !== "$ref");
    const target = others.every(isTextKey) ? context.inline(ref) : undefined;
    if (target !== undefined) {
      const inner = normalizeNode(target, context);
      const schema: Mutable = { ...inner.node };
      const origins = new Map<string, string>();
      for (const k of Object.keys(inner.node)) origins.set(k, `/$ref${inner.origins.get(k) ?? `/${escapePointer(k)}`}`);
      // Text written next to the reference stays the member's own.
      for (const k of others) {
        schema[k] = node[k];
        const origin = normalized.origins.get(k);
        if (origin !== undefined) origins.set(k, origin);
      }
      const moved = [...normalized.moved, ...inner.moved.map((m) => ({ ...m, at: `/$ref${m.at}` }))];
      return { schema, origins, moved };
    }
  }
  return { schema: node, origins: normalized.origins, moved: normalized.moved };
}

/**
 * Adds a member's constraining keywords to a node (the caller checked canMerge); their origins become
 * `prefix` plus where they sat in the member. Text keys stay behind: they go to `moved` (or nowhere).
 */
export function mergeMember(
  node: Mutable,
  member: Content,
  prefix: string,
  origins: Map<string, string>,
  moved: { list: MovedText[]; match: string } | undefined,
): void {
  for (const key of Object.keys(member.schema)) {
    const at = `${prefix}${member.origins.get(key) ?? `/${escapePointer(key)}`}`;
    if (keywordInfo(key).role === "dialect") continue;
    if (!isTextKey(key) && Object.hasOwn(node, key) && deepEqual(node[key], member.schema[key])) continue;
    if (isTextKey(key)) {
      moved?.list.push({ match: `${moved.match}|${key}`, at, value: member.schema[key] });
    } else if (key === "type" && Object.hasOwn(node, key)) {
      const types = intersectTypes(typesOf(node[key]) ?? [], typesOf(member.schema[key]) ?? []);
      node[key] = types.length === 1 ? types[0] : types;
    } else {
      node[key] = member.schema[key];
      origins.set(key, at);
    }
  }
  if (moved === undefined) return;
  for (const m of member.moved) {
    moved.list.push({ match: `${moved.match}>${m.match}`, at: `${prefix}${m.at}`, value: m.value });
  }
}

/** A plain member (no rewrites of its own) as Content. */
export function plainContent(schema: JsonObject): Content {
  return { schema, origins: new Map(), moved: [] };
}

/**
 * `allOf` members merge into the node one by one while they can; a merged member is left as `true` so the
 * others keep their index, and an allOf of only `true` goes away.
 */
function flattenAllOf(work: Work): boolean {
  const list = own(work.node, "allOf");
  if (!Array.isArray(list) || list.length === 0) return false;
  const prefix = originOf(work, "allOf");
  const node = copyWithout(work.node, "allOf");
  const rest = [...list];
  let merged = false;
  // A reference joins the node only as its sole member: merged next to another member's keywords it would
  // become a `$ref` with siblings, which draft-07 validators read differently from the allOf.
  const members = list.filter((m) => m !== true).length;
  list.forEach((member, index) => {
    if (member === true || !isObject(member)) return;
    const content = contentOf(work.context, member);
    if (members > 1 && Object.keys(content.schema).some((k) => REF_KEYS.has(k))) return;
    if (!canMerge(node, content.schema)) return;
    mergeMember(node, content, `${prefix}/${index}`, work.origins, { list: work.moved, match: `allOf|${index}` });
    rest[index] = true;
    merged = true;
  });
  const allTrue = rest.every((m) => m === true);
  if (!merged && !allTrue) return false;
  if (!allTrue) node.allOf = rest;
  else work.origins.delete("allOf");
  work.node = node;
  return true;
}

/** `anyOf` or `oneOf` with one member is that member. */
function inlineSingleAlternative(work: Work): boolean {
  for (const key of ["anyOf", "oneOf"]) {
    const list = own(work.node, key);
    if (!Array.isArray(list) || list.length !== 1) continue;
    const member: unknown = list[0];
    const node = copyWithout(work.node, key);
    const content = isObject(member) ? contentOf(work.context, member) : undefined;
    if (member !== true && !(content !== undefined && canMerge(node, content.schema))) {
      // Not mergeable, it is still a conjunct: the same as `allOf: [member]`, which is where it is compared.
      if (Object.hasOwn(work.node, "allOf")) continue;
      node.allOf = [member];
      work.origins.set("allOf", originOf(work, key));
      work.origins.delete(key);
      work.node = node;
      return true;
    }
    if (content !== undefined) {
      mergeMember(node, content, `${originOf(work, key)}/0`, work.origins, { list: work.moved, match: `${key}|0` });
    }
    work.origins.delete(key);
    work.node = node;
    return true;
  }
  return false;
}

/** The set of types a `type` value names, or undefined when it is not a valid type value. */
export function typesOf(value: unknown): string[] | undefined {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  if (!list.every((t): t is string => typeof t === "string" && FAMILY_OF_TYPE.has(t))) return undefined;
  return [...new Set(list)];
}

/** Types in both sets, where `number` also covers `integer`. */
export function intersectTypes(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of a) {
    if (b.includes(t)) out.add(t);
    else if ((t === "number" && b.includes("integer")) || (t === "integer" && b.includes("number"))) out.add("integer");
  }
  return [...out];
}

interface Alternative {
  readonly types: string[];
  readonly families: ReadonlySet<Family>;
  readonly content: Content;
  readonly keywords: readonly string[];
}

/**
 * `anyOf: [{type: A}, {type: B}]` is `type: [A, B]`. Members may also carry keywords that only constrain
 * their own type (`{type: "string", maxLength: 3}`) when no other member and not the node itself speaks
 * about that type. `oneOf` is the same when no two members' types overlap.
 */
function typeAlternatives(work: Work, keyword: "anyOf" | "oneOf"): boolean {
  const node = work.node;
  const list = own(node, keyword);
  if (!Array.isArray(list) || list.length < 2) return false;
  const members: Alternative[] = [];
  for (const member of list) {
    if (!isObject(member)) return false;
    const content = contentOf(work.context, member);
    const types = typesOf(own(content.schema, "type"));
    if (types === undefined) return false;
    const families = new Set(types.map((t) => FAMILY_OF_TYPE.get(t) as Family));
    const keywords = Object.keys(content.schema).filter((k) => k !== "type" && !isTextKey(k));
    for (const key of keywords) {
      const family = keywordInfo(key).family;
      // Type-specific keywords add annotations of their own, which unevaluated* would see move.
      if (family === undefined || work.annotationsMatter || families.size !== 1 || !families.has(family)) return false;
    }
    members.push({ types, families, content, keywords });
  }
  const count = new Map<Family, number>();
  for (const { families } of members) for (const f of families) count.set(f, (count.get(f) ?? 0) + 1);
  for (const { families, keywords } of members) {
    const shared = [...families].some((f) => (count.get(f) ?? 0) > 1);
    // oneOf rejects an instance two members accept; with overlapping types that happens.
    if (shared && (keyword === "oneOf" || keywords.length > 0)) return false;
    if (keywords.length === 0) continue;
    const [family] = families;
    if (family !== undefined && speaksAbout(node, family)) return false;
  }

  let types = [...new Set(members.flatMap((m) => m.types))];
  if (Object.hasOwn(node, "type")) {
    const outer = typesOf(own(node, "type"));
    if (outer === undefined) return false;
    types = intersectTypes(types, outer);
    if (types.length === 0) return false;
  }
  const prefix = originOf(work, keyword);
  const out = copyWithout(node, keyword);
  out.type = types.length === 1 ? types[0] : types;
  work.origins.delete(keyword);
  work.origins.set("type", prefix);
  members.forEach(({ types: memberTypes, content }, index) => {
    const moved = { list: work.moved, match: `${keyword}|${[...memberTypes].sort().join(",")}` };
    const rest = { ...content, schema: copyWithout(content.schema, "type") };
    mergeMember(out, rest, `${prefix}/${index}`, work.origins, moved);
  });
  work.node = out;
  return true;
}

/**
 * `anyOf: [{const: a}, {const: b}]` is `enum: [a, b]`, and so is a oneOf whose members' values are all
 * different (an instance then matches one member at most). Members may repeat their value's own `type` and
 * carry text, which moves like any merged member's.
 */
function valueAlternatives(work: Work, keyword: "anyOf" | "oneOf"): boolean {
  const node = work.node;
  const list = own(node, keyword);
  if (!Array.isArray(list) || list.length < 2 || Object.hasOwn(node, "enum") || Object.hasOwn(node, "const")) {
    return false;
  }
  const members: Array<{ values: unknown[]; content: Content }> = [];
  for (const member of list) {
    if (!isObject(member)) return false;
    const content = contentOf(work.context, member);
    const values = allowedValues(content.schema);
    if (values === undefined) return false;
    const types = Object.hasOwn(content.schema, "type") ? typesOf(own(content.schema, "type")) : undefined;
    if (Object.hasOwn(content.schema, "type") && types === undefined) return false;
    const others = Object.keys(content.schema).filter((k) => k !== "const" && k !== "enum" && k !== "type");
    if (!others.every(isTextKey)) return false;
    members.push({ values: types === undefined ? values : values.filter((v) => typeAccepts(types, v)), content });
  }
  const seen = new Map<string, unknown>();
  for (const { values } of members) {
    for (const v of values) {
      const key = canonical(v);
      // Two oneOf members accepting one value reject it together.
      if (keyword === "oneOf" && seen.has(key)) return false;
      seen.set(key, v);
    }
  }
  if (seen.size === 0) return false;
  const prefix = originOf(work, keyword);
  const out = copyWithout(node, keyword);
  out.enum = [...seen.values()];
  work.origins.delete(keyword);
  work.origins.set("enum", prefix);
  members.forEach(({ values, content }, index) => {
    const match = `${keyword}|${canonical(values)}`;
    for (const key of Object.keys(content.schema)) {
      if (!isTextKey(key)) continue;
      const at = `${prefix}/${index}${content.origins.get(key) ?? `/${escapePointer(key)}`}`;
      work.moved.push({ match: `${match}|${key}`, at, value: content.schema[key] });
    }
    for (const m of content.moved) {
      work.moved.push({ match: `${match}>${m.match}`, at: `${prefix}/${index}${m.at}`, value: m.value });
    }
  });
  work.node = out;
  return true;
}

/** The JSON type of a value, `integer` for whole numbers. */
export function typeOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeAccepts(types: readonly string[], value: unknown): boolean {
  const t = typeOfValue(value);
  return types.includes(t) || (t === "integer" && types.includes("number"));
}

/**
 * The values a schema object allows through `const` and `enum` (both: those in both), or undefined when it
 * names none.
 */
export function allowedValues(schema: JsonObject): unknown[] | undefined {
  const list = own(schema, "enum");
  const values = Array.isArray(list) ? list : undefined;
  if (!Object.hasOwn(schema, "const")) return values;
  const value = own(schema, "const");
  const key = canonical(value);
  return values === undefined || values.some((v) => canonical(v) === key) ? [value] : [];
}

// How far down rejectsEverything looks into members that may themselves accept nothing.
const MAX_EMPTY_DEPTH = 4;

/**
 * True when a normalized node can accept no instance because its keywords contradict each other: the `type`s
 * of the node and its allOf members share nothing, their `const`/`enum` values share nothing or none has an
 * allowed type, or every anyOf/oneOf alternative is of another type. Only these plain contradictions are
 * detected; false means "not shown empty".
 */
export function rejectsEverything(node: JsonObject, context: NormalizeContext, depth = 0): boolean {
  // A member that rejects everything is `false` (looked for a few levels down).
  const empty = (member: unknown): boolean =>
    member === false || (depth < MAX_EMPTY_DEPTH && isObject(member) && rejectsEverything(contentOf(context, member).schema, context, depth + 1));
  let types = typesOf(own(node, "type"));
  let values = allowedValues(node);
  const allOf = own(node, "allOf");
  for (const member of Array.isArray(allOf) ? allOf : []) {
    if (empty(member)) return true;
    if (!isObject(member)) continue;
    const content = contentOf(context, member).schema;
    const theirs = typesOf(own(content, "type"));
    if (theirs !== undefined) types = types === undefined ? theirs : intersectTypes(types, theirs);
    const allowed = allowedValues(content);
    if (allowed !== undefined) {
      const keys = new Set(allowed.map((v) => canonical(v)));
      values = (values ?? allowed).filter((v) => keys.has(canonical(v)));
    }
  }
  if (types !== undefined && types.length === 0) return true;
  if (values !== undefined) {
    if (values.length === 0) return true;
    if (types !== undefined && !values.some((v) => typeAccepts(types, v))) return true;
  }
  for (const key of ["anyOf", "oneOf"]) {
    const list = own(node, key);
    if (Array.isArray(list) && list.length > 0 && list.every(empty)) return true;
  }
  if (types === undefined) return false;
  const known = types;
  const disjoint = (member: unknown): boolean => {
    if (empty(member)) return true;
    if (!isObject(member)) return false;
    const other = typesOf(own(contentOf(context, member).schema, "type"));
    return other !== undefined && intersectTypes(known, other).length === 0;
  };
  for (const key of ["anyOf", "oneOf"]) {
    const list = own(node, key);
    if (Array.isArray(list) && list.length > 0 && list.every(disjoint)) return true;
  }
  return false;
}
