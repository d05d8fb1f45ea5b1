// Generator of schema pairs and witness instances for the widening analyzer, shared by
// test/unit/schema/soundness.test.ts (fixed seeds, in CI) and bench/schema.mjs (any number, random seed).
//
// A *mutation case* starts from a realistic seed schema (test/fixtures/schema-seeds/) and applies a chain
// of mutations (loosen/tighten/remove/retype a limit, add/drop properties, enum values, branches, change
// $ref targets, if/then/else, not, ... at any depth). Each consecutive pair is checked both ways: ajv
// judges instances sampled from both schemas, and an instance the new schema accepts and the old one
// rejects is a witness; a witness without a `widened` finding is a missed widening.
//
// An *equivalence case* applies rewrites that keep the accepted set (anyOf of types <-> type array, enum
// of one <-> const, definitions <-> $defs, $ref <-> inline copy, single-member allOf, ...). ajv checks
// that both sides agree on every instance; any `widened` finding there is a false widening.
//
// Plain ESM so both the TypeScript test and the bench can import it; types in schema-gen.d.mts.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

// ---------------------------------------------------------------------------------------------------
// Random numbers: a small seeded PRNG (mulberry32), so a seed reproduces a case exactly.

/** @param {number} seed */
export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    /** @param {number} n */
    int: (n) => Math.floor(next() * n),
    /** @param {number} p */
    chance: (p) => next() < p,
    /** @template T @param {readonly T[]} list @returns {T} */
    pick: (list) => list[Math.floor(next() * list.length)],
  };
  return rng;
}

// ---------------------------------------------------------------------------------------------------
// JSON helpers

const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const same = (a, b) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObj(v)) return v;
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]);
  return out;
}
const escapeToken = (t) => t.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeToken = (t) => t.replaceAll("~1", "/").replaceAll("~0", "~");

/** Loads every seed file of a folder: `{ name, source, dialect, schema }`. */
export function loadSeeds(dir) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const data = JSON.parse(readFileSync(join(dir, f), "utf8"));
      if (data.dialect !== "2020-12" && data.dialect !== "draft-07") throw new Error(`${f}: dialect`);
      return { name: f.replace(/\.json$/, ""), source: String(data.source ?? ""), dialect: data.dialect, schema: data.schema };
    });
}

// ---------------------------------------------------------------------------------------------------
// Where sub-schemas sit: every slot of a document, with a getter and a setter.

const SINGLE_2020 = [
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Every sub-schema slot in a document (the root first), each `{ get, set, path, parent, key }`. */
function slots(root) {
  const out = [{ get: () => root.value, set: (v) => (root.value = v), path: "", inDefs: false }];
  const visit = (schema, path, inDefs, depth) => {
    if (!isObj(schema) || depth > 12) return;
    for (const key of SINGLE_2020) {
      const v = schema[key];
      if (v === undefined || Array.isArray(v)) continue;
      out.push({ get: () => schema[key], set: (x) => (schema[key] = x), path: `${path}/${key}`, inDefs });
      visit(v, `${path}/${key}`, inDefs, depth + 1);
    }
    for (const key of [...LISTS, "items"]) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      list.forEach((item, i) => {
        out.push({ get: () => list[i], set: (x) => (list[i] = x), path: `${path}/${key}/${i}`, inDefs });
        visit(item, `${path}/${key}/${i}`, inDefs, depth + 1);
      });
    }
    for (const key of [...MAPS, "dependencies"]) {
      const map = schema[key];
      if (!isObj(map)) continue;
      for (const name of Object.keys(map)) {
        if (key === "dependencies" && Array.isArray(map[name])) continue;
        const p = `${path}/${key}/${escapeToken(name)}`;
        const defs = inDefs || key === "$defs" || key === "definitions";
        out.push({ get: () => map[name], set: (x) => (map[name] = x), path: p, inDefs: defs });
        visit(map[name], p, defs, depth + 1);
      }
    }
  };
  visit(root.value, "", false, 0);
  return out;
}

/** The definitions a document holds: `[{ container, name, ref }]`. */
function definitions(schema) {
  const out = [];
  if (!isObj(schema)) return out;
  for (const container of ["$defs", "definitions"]) {
    const map = schema[container];
    if (!isObj(map)) continue;
    for (const name of Object.keys(map)) out.push({ container, name, ref: `#/${container}/${escapeToken(name)}` });
  }
  return out;
}

/** Resolves a local `#...` reference in `root` (pointer or anchor); undefined when it does not resolve. */
export function resolveLocal(root, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let fragment;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return root;
  if (!fragment.startsWith("/")) return findAnchor(root, fragment, 0);
  let node = root;
  for (const token of fragment.split("/").slice(1).map(unescapeToken)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObj(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

function findAnchor(schema, name, depth) {
  if (depth > 20) return undefined;
  if (Array.isArray(schema)) {
    for (const v of schema) {
      const hit = findAnchor(v, name, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  if (!isObj(schema)) return undefined;
  if (schema.$anchor === name || schema.$dynamicAnchor === name || schema.$id === `#${name}`) return schema;
  for (const k of Object.keys(schema)) {
    if (k === "enum" || k === "const" || k === "default" || k === "examples") continue;
    const hit = findAnchor(schema[k], name, depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** True when no chain of local `$ref`s from `schema` comes back to a schema already on the chain. */
function acyclicLocal(root, schema, visiting) {
  if (visiting.has(schema)) return false;
  visiting.add(schema);
  const refs = [];
  const collect = (v) => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        if (k === "$ref" && typeof v[k] === "string") refs.push(v[k]);
        else if (!["enum", "const", "default", "examples"].includes(k)) collect(v[k]);
      }
    }
  };
  collect(schema);
  const ok = refs.every((ref) => {
    const target = resolveLocal(root, ref);
    return !isObj(target) || acyclicLocal(root, target, visiting);
  });
  visiting.delete(schema);
  return ok;
}

/** True when a document uses unevaluated* anywhere (annotation-sensitive rewrites are then skipped). */
function mentions(schema, keys) {
  if (Array.isArray(schema)) return schema.some((v) => mentions(v, keys));
  if (!isObj(schema)) return false;
  return Object.keys(schema).some((k) => keys.includes(k) || mentions(schema[k], keys));
}

// ---------------------------------------------------------------------------------------------------
// Vocabulary shared by mutations and instances.

const NAMES = ["a", "b", "c", "k", "v", "x1", "xa", "path", "name", "owner", "tags", "zz"];
const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"];
const VALUES = ["x", "y", "a", "ab", "low", "high", 0, 1, 2, 2.5, true, false, null, {}, [], ""];
const PATTERNS = ["^a", "^x", "b$", "^[a-z]+$", "^.{0,3}$", "z"];
const LIMITS = {
  string: ["minLength", "maxLength"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["minItems", "maxItems", "minContains", "maxContains"],
  object: ["minProperties", "maxProperties"],
};
const ALL_LIMITS = Object.values(LIMITS).flat();
const LIMIT_VALUES = [0, 1, 2, 3, 5, 10];

/** Small realistic sub-schemas to insert; `refs` adds references to the document's own definitions. */
function pool(rng, root) {
  const base = [
    { type: "string" },
    { type: "string", maxLength: 3 },
    { type: "string", enum: ["low", "high"] },
    { type: "integer", minimum: 0 },
    { type: "number", maximum: 5 },
    { type: "integer" },
    { type: "number" },
    { type: "boolean" },
    { type: "null" },
    { type: ["string", "null"] },
    { anyOf: [{ type: "string" }, { type: "null" }] },
    { type: "array", items: { type: "string" }, maxItems: 2 },
    { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false },
    { type: "object", properties: { k: { const: "a" } } },
    { const: "a" },
    { enum: [1, "x", null] },
    { not: { type: "string" } },
    { pattern: "^a" },
    {},
    true,
    false,
  ];
  for (const d of definitions(root)) base.push({ $ref: d.ref });
  return clone(rng.pick(base));
}

// ---------------------------------------------------------------------------------------------------
// Mutations. Each takes (rng, node, ctx) where node is an object schema at some slot (booleans are turned
// into objects first), and changes it in place. ctx = { root, dialect, slot }.

const is2020 = (ctx) => ctx.dialect === "2020-12";
// minContains/maxContains are 2019-09 keywords; a draft-07 validator ignores them.
const limitsOf = (ctx) => (is2020(ctx) ? ALL_LIMITS : ALL_LIMITS.filter((k) => !k.endsWith("Contains")));
const defsKey = (ctx) => (is2020(ctx) ? "$defs" : "definitions");

function nudgeLimit(rng, node, keys) {
  const present = keys.filter((k) => typeof node[k] === "number");
  if (present.length > 0 && rng.chance(0.75)) {
    const key = rng.pick(present);
    const delta = rng.pick([1, 2, 5]);
    const up = rng.chance(0.5);
    if (key === "multipleOf") node[key] = rng.pick([1, 2, 3, 4, 6, 0.5]);
    else node[key] = up ? node[key] + delta : Math.max(0, node[key] - delta);
  } else {
    const key = rng.pick(keys);
    node[key] = key === "multipleOf" ? rng.pick([1, 2, 3]) : rng.pick(LIMIT_VALUES);
  }
}

function toggleName(list, name) {
  const names = Array.isArray(list) ? list.filter((n) => n !== name) : [];
  return Array.isArray(list) && list.includes(name) ? names : [...names, name];
}

const propertyNames = (node) => (isObj(node.properties) ? Object.keys(node.properties) : []);

/** @type {Record<string, { dialects?: string[], apply: (rng: any, node: any, ctx: any) => void }>} */
export const MUTATIONS = {
  "limit.nudge": { apply: (rng, node, ctx) => nudgeLimit(rng, node, limitsOf(ctx)) },
  "limit.remove": {
    apply: (rng, node, ctx) => {
      const present = limitsOf(ctx).filter((k) => node[k] !== undefined);
      if (present.length > 0) delete node[rng.pick(present)];
      else nudgeLimit(rng, node, limitsOf(ctx));
    },
  },
  "limit.retype": {
    apply: (rng, node, ctx) => {
      const key = rng.pick(limitsOf(ctx));
      node[key] = rng.pick(["3", null, -1, 1.5, true]);
    },
  },
  "limit.exclusiveFlag": {
    dialects: ["draft-07"],
    apply: (rng, node) => {
      const [bound, flag] = rng.pick([
        ["maximum", "exclusiveMaximum"],
        ["minimum", "exclusiveMinimum"],
      ]);
      if (typeof node[bound] !== "number") node[bound] = rng.pick(LIMIT_VALUES);
      node[flag] = rng.chance(0.5) ? node[bound] : node[bound] + rng.pick([-1, 1]);
    },
  },
  "type.change": {
    apply: (rng, node) => {
      const now = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? [...node.type] : [];
      const op = rng.int(4);
      if (op === 0) node.type = [...new Set([...now, rng.pick(TYPES)])];
      else if (op === 1 && now.length > 1) node.type = now.filter((_, i) => i !== rng.int(now.length));
      else if (op === 2) delete node.type;
      else node.type = rng.pick(TYPES);
      if (Array.isArray(node.type) && node.type.length === 0) delete node.type;
    },
  },
  "type.integerNumber": {
    apply: (rng, node) => {
      if (node.type === "integer") node.type = "number";
      else if (node.type === "number") node.type = "integer";
      else node.type = rng.pick(["integer", "number"]);
    },
  },
  "enum.change": {
    apply: (rng, node) => {
      const list = Array.isArray(node.enum) ? [...node.enum] : [];
      const op = rng.int(4);
      if (op === 0 && list.length > 1) list.splice(rng.int(list.length), 1);
      else if (op === 1 && list.length > 0) {
        delete node.enum;
        return;
      } else {
        const fresh = VALUES.filter((v) => !list.some((w) => same(v, w)));
        list.push(clone(rng.pick(fresh)));
      }
      node.enum = list;
    },
  },
  "const.change": {
    apply: (rng, node) => {
      if (node.const !== undefined && rng.chance(0.4)) delete node.const;
      else node.const = clone(rng.pick(VALUES));
    },
  },
  "properties.add": {
    apply: (rng, node, ctx) => {
      node.properties = isObj(node.properties) ? node.properties : {};
      node.properties[rng.pick(NAMES)] = pool(rng, ctx.root);
    },
  },
  "properties.drop": {
    apply: (rng, node) => {
      const names = propertyNames(node);
      if (names.length > 0) delete node.properties[rng.pick(names)];
    },
  },
  "properties.replace": {
    apply: (rng, node, ctx) => {
      const names = propertyNames(node);
      if (names.length > 0) node.properties[rng.pick(names)] = pool(rng, ctx.root);
    },
  },
  "required.toggle": {
    apply: (rng, node) => {
      const declared = propertyNames(node);
      const current = Array.isArray(node.required) ? node.required : [];
      const name = current.length > 0 && rng.chance(0.4) ? rng.pick(current) : declared.length > 0 && rng.chance(0.7) ? rng.pick(declared) : rng.pick(NAMES);
      node.required = toggleName(node.required, name);
      if (node.required.length === 0 && rng.chance(0.5)) delete node.required;
    },
  },
  "additionalProperties.change": {
    apply: (rng, node, ctx) => {
      const op = rng.int(4);
      if (op === 0) delete node.additionalProperties;
      else node.additionalProperties = op === 1 ? false : op === 2 ? true : pool(rng, ctx.root);
    },
  },
  "patternProperties.change": {
    apply: (rng, node, ctx) => {
      const map = isObj(node.patternProperties) ? node.patternProperties : {};
      const pattern = rng.pick(PATTERNS.slice(0, 4));
      if (map[pattern] !== undefined && rng.chance(0.5)) delete map[pattern];
      else map[pattern] = pool(rng, ctx.root);
      node.patternProperties = map;
      if (Object.keys(map).length === 0) delete node.patternProperties;
    },
  },
  "combinator.change": {
    apply: (rng, node, ctx) => {
      const key = rng.pick(["anyOf", "oneOf", "allOf"]);
      const list = Array.isArray(node[key]) ? [...node[key]] : [];
      const op = rng.int(3);
      if (op === 0 && list.length > 1) list.splice(rng.int(list.length), 1);
      else if (op === 1 && list.length > 0) list[rng.int(list.length)] = pool(rng, ctx.root);
      else list.push(pool(rng, ctx.root));
      if (list.length === 1 && key !== "allOf" && rng.chance(0.5)) list.push(pool(rng, ctx.root));
      node[key] = list;
    },
  },
  "combinator.remove": {
    apply: (rng, node) => {
      const present = ["anyOf", "oneOf", "allOf"].filter((k) => node[k] !== undefined);
      if (present.length > 0) delete node[rng.pick(present)];
    },
  },
  "not.change": {
    apply: (rng, node, ctx) => {
      if (node.not !== undefined && rng.chance(0.4)) delete node.not;
      else node.not = pool(rng, ctx.root);
    },
  },
  "conditional.change": {
    apply: (rng, node, ctx) => {
      const key = rng.pick(["if", "then", "else"]);
      if (node[key] !== undefined && rng.chance(0.4)) delete node[key];
      else if (key === "if" && rng.chance(0.5)) {
        node.if = { properties: { [rng.pick(NAMES)]: { const: rng.pick(VALUES) } }, required: [rng.pick(NAMES)] };
      } else node[key] = pool(rng, ctx.root);
    },
  },
  "items.change": {
    apply: (rng, node, ctx) => {
      if (node.items !== undefined && rng.chance(0.3)) delete node.items;
      else node.items = rng.chance(0.2) ? rng.pick([true, false]) : pool(rng, ctx.root);
    },
  },
  "prefixItems.change": {
    dialects: ["2020-12"],
    apply: (rng, node, ctx) => {
      const list = Array.isArray(node.prefixItems) ? [...node.prefixItems] : [];
      if (list.length > 0 && rng.chance(0.4)) list.pop();
      else list.push(pool(rng, ctx.root));
      if (list.length === 0) delete node.prefixItems;
      else node.prefixItems = list;
    },
  },
  "tuple.change": {
    dialects: ["draft-07"],
    apply: (rng, node, ctx) => {
      if (rng.chance(0.35)) {
        node.additionalItems = rng.chance(0.5) ? rng.pick([false, true]) : pool(rng, ctx.root);
        return;
      }
      const list = Array.isArray(node.items) ? [...node.items] : [];
      if (list.length > 0 && rng.chance(0.4)) list.pop();
      else list.push(pool(rng, ctx.root));
      node.items = list;
    },
  },
  "contains.change": {
    apply: (rng, node, ctx) => {
      if (node.contains !== undefined && rng.chance(0.4)) delete node.contains;
      else node.contains = pool(rng, ctx.root);
      if (rng.chance(0.3) && is2020(ctx)) node[rng.pick(["minContains", "maxContains"])] = rng.pick([0, 1, 2]);
    },
  },
  "uniqueItems.toggle": { apply: (_rng, node) => (node.uniqueItems = node.uniqueItems !== true) },
  "dependentRequired.change": {
    dialects: ["2020-12"],
    apply: (rng, node) => {
      const map = isObj(node.dependentRequired) ? node.dependentRequired : {};
      const name = rng.pick(NAMES);
      map[name] = toggleName(map[name], rng.pick(NAMES));
      node.dependentRequired = map;
    },
  },
  "dependentSchemas.change": {
    dialects: ["2020-12"],
    apply: (rng, node, ctx) => {
      const map = isObj(node.dependentSchemas) ? node.dependentSchemas : {};
      const name = rng.pick(NAMES);
      if (map[name] !== undefined && rng.chance(0.5)) delete map[name];
      else map[name] = pool(rng, ctx.root);
      node.dependentSchemas = map;
    },
  },
  "dependencies.change": {
    apply: (rng, node, ctx) => {
      const map = isObj(node.dependencies) ? node.dependencies : {};
      const name = rng.pick(NAMES);
      if (map[name] !== undefined && rng.chance(0.3)) delete map[name];
      else map[name] = rng.chance(0.5) ? toggleName(map[name], rng.pick(NAMES)) : pool(rng, ctx.root);
      node.dependencies = map;
    },
  },
  "unevaluated.change": {
    dialects: ["2020-12"],
    apply: (rng, node, ctx) => {
      const key = rng.pick(["unevaluatedProperties", "unevaluatedItems"]);
      if (node[key] !== undefined && rng.chance(0.4)) delete node[key];
      else node[key] = rng.chance(0.5) ? false : pool(rng, ctx.root);
    },
  },
  "propertyNames.change": {
    apply: (rng, node) => {
      if (node.propertyNames !== undefined && rng.chance(0.4)) delete node.propertyNames;
      else node.propertyNames = rng.pick([{ maxLength: 2 }, { pattern: "^a" }, { enum: ["a", "b", "path"] }]);
    },
  },
  "assertion.change": {
    apply: (rng, node) => {
      const key = rng.pick(["pattern", "format"]);
      if (node[key] !== undefined && rng.chance(0.4)) delete node[key];
      else node[key] = key === "pattern" ? rng.pick(PATTERNS) : rng.pick(["uri", "email", "date-time"]);
    },
  },
  "ref.retarget": {
    apply: (rng, node, ctx) => {
      const defs = definitions(ctx.root);
      if (defs.length > 0) node.$ref = rng.pick(defs).ref;
    },
  },
  "ref.remove": {
    apply: (_rng, node) => {
      delete node.$ref;
    },
  },
  "ref.replaceWithRef": {
    apply: (rng, _node, ctx) => {
      const defs = definitions(ctx.root);
      if (defs.length > 0 && !ctx.slot.inDefs) ctx.slot.set({ $ref: rng.pick(defs).ref });
    },
  },
  "def.add": {
    apply: (rng, _node, ctx) => {
      if (!isObj(ctx.root)) return;
      const key = defsKey(ctx);
      ctx.root[key] = isObj(ctx.root[key]) ? ctx.root[key] : {};
      ctx.root[key][rng.pick(["D1", "D2", "Item", "a/b"])] = pool(rng, ctx.root);
    },
  },
  "ref.toRoot": {
    apply: (_rng, _node, ctx) => {
      if (ctx.slot.path !== "") ctx.slot.set({ $ref: "#" });
    },
  },
  // Rewrites that are equivalences only under conditions (no keyword reading another across the move, the
  // type families apart); here they ignore the conditions, so they test that the analyzer checks them.
  "wrap.allOf": {
    apply: (rng, node) => {
      const keys = Object.keys(node).filter((k) => !TEXT_KEYS.includes(k) && rng.chance(0.5));
      if (keys.length === 0 || node.allOf !== undefined) return;
      const member = {};
      for (const k of keys) {
        member[k] = node[k];
        delete node[k];
      }
      node.allOf = [member];
    },
  },
  "wrap.anyOfTypes": {
    apply: (rng, node) => {
      const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
      if (types.length === 0 || node.anyOf !== undefined) return;
      const members = types.map((t) => ({ type: t }));
      for (const k of Object.keys(node)) {
        if (k === "type" || TEXT_KEYS.includes(k) || !rng.chance(0.4)) continue;
        rng.pick(members)[k] = node[k];
        // Sometimes the node keeps its own, different value of the keyword too.
        if (typeof node[k] === "number" && rng.chance(0.3)) node[k] += rng.pick([-1, 1]);
        else delete node[k];
      }
      delete node.type;
      node.anyOf = members;
    },
  },
  unwrap: {
    apply: (rng, node) => {
      const key = rng.pick(["allOf", "anyOf", "oneOf"]);
      const list = node[key];
      if (!Array.isArray(list) || list.length === 0 || !isObj(list[0])) return;
      const member = list[rng.int(list.length)];
      delete node[key];
      if (isObj(member)) Object.assign(node, member);
    },
  },
  "text.change": {
    apply: (rng, node) => {
      const key = rng.pick(["description", "title"]);
      if (node[key] !== undefined && rng.chance(0.3)) delete node[key];
      else node[key] = rng.pick(["one", "two", "Ignore previous instructions"]);
    },
  },
  "schema.replace": {
    apply: (rng, _node, ctx) => {
      ctx.slot.set(pool(rng, ctx.root));
    },
  },
};

const MUTATION_NAMES = Object.keys(MUTATIONS);

// Where each mutation bites hardest: a slot that already has the keyword it changes. Most of the time the
// mutation goes to such a slot (so loosening an existing limit is common); otherwise anywhere.
const has =
  (...keys) =>
  (node) =>
    isObj(node) && keys.some((k) => node[k] !== undefined);
const PREFERS = {
  "limit.nudge": has(...ALL_LIMITS),
  "limit.remove": has(...ALL_LIMITS),
  "limit.retype": has(...ALL_LIMITS),
  "type.change": has("type"),
  "type.integerNumber": has("type"),
  "enum.change": has("enum"),
  "const.change": has("const"),
  "properties.add": has("properties"),
  "properties.drop": has("properties"),
  "properties.replace": has("properties"),
  "required.toggle": has("properties", "required"),
  "additionalProperties.change": has("properties", "additionalProperties"),
  "patternProperties.change": has("patternProperties", "additionalProperties"),
  "combinator.change": has("anyOf", "oneOf", "allOf"),
  "combinator.remove": has("anyOf", "oneOf", "allOf"),
  "not.change": has("not"),
  "conditional.change": has("if", "then", "else"),
  "items.change": has("items"),
  "prefixItems.change": has("prefixItems"),
  "tuple.change": has("items", "additionalItems"),
  "contains.change": has("contains"),
  "uniqueItems.toggle": has("items", "uniqueItems"),
  "dependentRequired.change": has("dependentRequired"),
  "dependentSchemas.change": has("dependentSchemas"),
  "dependencies.change": has("dependencies"),
  "unevaluated.change": has("unevaluatedProperties", "unevaluatedItems"),
  "propertyNames.change": has("propertyNames", "additionalProperties"),
  "assertion.change": has("pattern", "format"),
  "ref.retarget": has("$ref"),
  "wrap.anyOfTypes": has("type"),
  unwrap: has("allOf", "anyOf", "oneOf"),
  "ref.remove": has("$ref"),
};

/** Applies one named mutation at a random slot; returns the new document (the input is not changed). */
export function mutate(rng, schema, dialect, name) {
  const root = { value: clone(schema) };
  const all = slots(root);
  const prefers = PREFERS[name];
  const fitting = prefers === undefined ? [] : all.filter((s) => prefers(s.get()));
  const slot = fitting.length > 0 && rng.chance(0.7) ? rng.pick(fitting) : rng.chance(0.25) ? all[0] : rng.pick(all);
  let node = slot.get();
  if (!isObj(node)) {
    node = {};
    slot.set(node);
  }
  MUTATIONS[name].apply(rng, node, { root: root.value, dialect, slot });
  return root.value;
}

/** A random mutation name valid in the dialect. */
export function pickMutation(rng, dialect) {
  for (;;) {
    const name = rng.pick(MUTATION_NAMES);
    const dialects = MUTATIONS[name].dialects;
    if (dialects === undefined || dialects.includes(dialect)) return name;
  }
}

// ---------------------------------------------------------------------------------------------------
// Equivalence-preserving rewrites. Each returns the rewritten document, or undefined when it does not apply
// anywhere in this one. They are applied at a random slot where they fit.

const FAMILY_OF_TYPE = { string: "string", number: "number", integer: "number", array: "array", object: "object", boolean: "boolean", null: "null" };
const FAMILY_KEYWORDS = {
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains"],
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
  ],
  boolean: [],
  null: [],
};
const GROUPS = [
  ["properties", "patternProperties", "additionalProperties"],
  ["prefixItems", "items", "additionalItems"],
  ["contains", "minContains", "maxContains"],
  ["maximum", "exclusiveMaximum"],
  ["minimum", "exclusiveMinimum"],
  ["if", "then", "else"],
];
const TEXT_KEYS = ["description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"];
const NON_MOVABLE = ["$ref", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$schema", "$defs", "definitions", "unevaluatedProperties", "unevaluatedItems"];

function decodeRef(ref) {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
}

/** Replaces every `$ref` string in a document through `map` (old -> new); returns how many changed. */
function rewriteRefs(value, map) {
  let n = 0;
  const visit = (v) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isObj(v)) {
      for (const k of Object.keys(v)) {
        const next = k === "$ref" && typeof v[k] === "string" ? map(decodeRef(v[k])) : undefined;
        if (next !== undefined) {
          v[k] = next;
          n++;
        } else if (!["enum", "const", "default", "examples"].includes(k)) visit(v[k]);
      }
    }
  };
  visit(value);
  return n;
}

/** @type {Record<string, { dialects?: string[], apply: (rng: any, root: any, ctx: any) => any }>} */
export const REWRITES = {
  // type: [A, B] -> anyOf: [{type: A}, {type: B}], with each type's own keywords moved into its member.
  typeToAnyOf: {
    apply: (rng, root, ctx) =>
      atSlot(rng, root, (node) => {
        if (node.type === undefined || node.anyOf !== undefined || ctx.annotations) return false;
        const types = typeof node.type === "string" ? [node.type] : node.type;
        if (!Array.isArray(types) || types.length === 0 || new Set(types).size !== types.length) return false;
        const families = types.map((t) => FAMILY_OF_TYPE[t]);
        if (families.some((f) => f === undefined) || new Set(families).size !== families.length) return false;
        const moveKeywords = rng.chance(0.6);
        node.anyOf = types.map((t) => {
          const member = { type: t };
          if (moveKeywords) {
            for (const k of FAMILY_KEYWORDS[FAMILY_OF_TYPE[t]]) {
              if (node[k] !== undefined) {
                member[k] = node[k];
                delete node[k];
              }
            }
          }
          return member;
        });
        delete node.type;
        return true;
      }),
  },
  anyOfToType: {
    apply: (rng, root) =>
      atSlot(rng, root, (node) => {
        const list = node.anyOf;
        if (!Array.isArray(list) || list.length < 2 || node.type !== undefined) return false;
        if (!list.every((m) => isObj(m) && Object.keys(m).length === 1 && typeof m.type === "string")) return false;
        node.type = list.map((m) => m.type);
        delete node.anyOf;
        return true;
      }),
  },
  enumToConst: {
    apply: (rng, root) =>
      atSlot(rng, root, (node) => {
        if (node.const !== undefined && node.enum === undefined) {
          node.enum = [node.const];
          delete node.const;
          return true;
        }
        if (Array.isArray(node.enum) && node.enum.length === 1 && node.const === undefined) {
          node.const = node.enum[0];
          delete node.enum;
          return true;
        }
        return false;
      }),
  },
  defsRename: {
    apply: (_rng, root) => {
      if (!isObj(root)) return false;
      const from =
        isObj(root.$defs) && root.definitions === undefined ? "$defs" : isObj(root.definitions) && root.$defs === undefined ? "definitions" : undefined;
      if (from === undefined) return false;
      const to = from === "$defs" ? "definitions" : "$defs";
      root[to] = root[from];
      delete root[from];
      rewriteRefs(root, (ref) => (ref.startsWith(`#/${from}/`) ? `#/${to}/${ref.slice(from.length + 3)}` : undefined));
      return true;
    },
  },
  additionalTrue: {
    apply: (rng, root, ctx) =>
      atSlot(rng, root, (node) => {
        if (ctx.annotations) return false;
        if (node.additionalProperties === undefined) node.additionalProperties = true;
        else if (node.additionalProperties === true) delete node.additionalProperties;
        else return false;
        return true;
      }),
  },
  // Moves some of a node's keywords into a single allOf member (or inlines such a member back).
  allOfWrap: {
    apply: (rng, root) =>
      atSlot(rng, root, (node) => {
        if (Array.isArray(node.allOf) && node.allOf.length === 1 && isObj(node.allOf[0])) {
          const member = node.allOf[0];
          const rest = { ...node };
          delete rest.allOf;
          if (!canJoin(rest, member)) return false;
          delete node.allOf;
          Object.assign(node, member);
          return true;
        }
        if (node.allOf !== undefined) return false;
        const movable = Object.keys(node).filter((k) => !TEXT_KEYS.includes(k) && !NON_MOVABLE.includes(k));
        if (movable.length === 0) return false;
        // Whole groups move together, so nothing left behind reads a keyword that moved.
        const chosen = new Set();
        for (const k of movable) {
          if (chosen.has(k) || !rng.chance(0.6)) continue;
          const group = GROUPS.find((g) => g.includes(k)) ?? [k];
          for (const g of group) if (node[g] !== undefined) chosen.add(g);
        }
        if (chosen.size === 0) return false;
        if ([...chosen].some((k) => NON_MOVABLE.includes(k))) return false;
        const member = {};
        for (const k of chosen) {
          member[k] = node[k];
          delete node[k];
        }
        node.allOf = [member];
        return true;
      }),
  },
  requiredDuplicate: {
    apply: (rng, root) =>
      atSlot(rng, root, (node) => {
        if (!Array.isArray(node.required) || node.required.length === 0) return false;
        node.required = [...node.required, rng.pick(node.required)];
        return true;
      }),
  },
  reorder: {
    apply: (_rng, root) => {
      const flip = (v) => {
        if (Array.isArray(v)) return v.map(flip);
        if (!isObj(v)) return v;
        const out = {};
        for (const k of Object.keys(v).reverse()) {
          const reorderable = ["anyOf", "allOf", "enum", "required", "type"].includes(k) && Array.isArray(v[k]);
          out[k] = reorderable ? flip([...v[k]].reverse()) : ["const", "default", "examples"].includes(k) ? v[k] : flip(v[k]);
        }
        return out;
      };
      return { replace: flip(root) };
    },
  },
  // A definition copied under a new name, and some references moved to the copy.
  refMove: {
    apply: (rng, root) => {
      const defs = definitions(root);
      if (defs.length === 0) return false;
      const def = rng.pick(defs);
      const value = root[def.container][def.name];
      if (mentions(value, ["$anchor", "$id", "$dynamicAnchor"])) return false;
      const name = rng.pick(["Copy", "moved/x", "tilde~y", "sp ace"]);
      if (root[def.container][name] !== undefined) return false;
      root[def.container][name] = clone(value);
      const target = `#/${def.container}/${escapeToken(name)}`;
      const encoded = target.replaceAll(" ", "%20").replace("$", rng.chance(0.5) ? "%24" : "$");
      const n = rewriteRefs(root, (ref) => (ref === def.ref && rng.chance(0.7) ? encoded : undefined));
      return n > 0;
    },
  },
  // (A definition getting an `$anchor` that references then use is equivalent for validation, but any change
  // to an anchor is reported as widened by design: a reference from elsewhere may now land on it.)
  // `{ $ref: X }` (no constraining siblings) replaced by a copy of X, or a sub-schema moved into $defs.
  refInline: {
    apply: (rng, root) => {
      const all = slots({ value: root }).filter((s) => {
        const v = s.get();
        return isObj(v) && typeof v.$ref === "string" && Object.keys(v).every((k) => k === "$ref" || TEXT_KEYS.includes(k));
      });
      if (all.length === 0) return false;
      const slot = rng.pick(all);
      const node = slot.get();
      const target = resolveLocal(root, node.$ref);
      // The analyzer inlines only targets whose references never lead back to themselves (that would loop).
      if (!isObj(target) || target === root || !acyclicLocal(root, target, new Set())) return false;
      if (mentions(target, ["$id", "$anchor", "$dynamicAnchor", "$defs", "definitions"])) return false;
      const copy = clone(target);
      for (const k of TEXT_KEYS) if (node[k] !== undefined) copy[k] = node[k];
      for (const k of TEXT_KEYS) if (node[k] === undefined) delete copy[k];
      slot.set(copy);
      return true;
    },
  },
  refExtract: {
    apply: (rng, root, ctx) => {
      if (!isObj(root)) return false;
      const all = slots({ value: root }).filter(
        (s) => s.path !== "" && !s.inDefs && isObj(s.get()) && !mentions(s.get(), ["$ref", "$id", "$anchor", "$defs", "definitions"]),
      );
      if (all.length === 0) return false;
      const slot = rng.pick(all);
      const value = slot.get();
      const key = defsKey(ctx);
      root[key] = isObj(root[key]) ? root[key] : {};
      const name = `Extracted${rng.int(100)}`;
      if (root[key][name] !== undefined) return false;
      const def = {};
      const site = { $ref: `#/${key}/${name}` };
      for (const k of Object.keys(value)) {
        if (TEXT_KEYS.includes(k) && rng.chance(0.5)) site[k] = value[k];
        else if (!TEXT_KEYS.includes(k)) def[k] = value[k];
      }
      root[key][name] = def;
      slot.set(site);
      return true;
    },
  },
  trueEmpty: {
    apply: (rng, root) => {
      const all = slots({ value: root }).filter((s) => s.path !== "" && (s.get() === true || (isObj(s.get()) && Object.keys(s.get()).length === 0)));
      if (all.length === 0) return false;
      const slot = rng.pick(all);
      slot.set(slot.get() === true ? {} : true);
      return true;
    },
  },
  typeArraySingle: {
    apply: (rng, root) =>
      atSlot(rng, root, (node) => {
        if (typeof node.type === "string") node.type = [node.type];
        else if (Array.isArray(node.type) && node.type.length === 1) node.type = node.type[0];
        else return false;
        return true;
      }),
  },
};

const REWRITE_NAMES = Object.keys(REWRITES);

function canJoin(node, member) {
  for (const key of Object.keys(member)) {
    if (TEXT_KEYS.includes(key)) {
      if (node[key] !== undefined) return false;
      continue;
    }
    if (NON_MOVABLE.includes(key) || node[key] !== undefined) return false;
    const group = GROUPS.find((g) => g.includes(key));
    if (group?.some((k) => node[k] !== undefined)) return false;
  }
  return true;
}

/** Runs `fn` on object nodes at random slots until one applies; true when it did. */
function atSlot(rng, root, fn) {
  const all = slots({ value: root }).filter((s) => isObj(s.get()));
  for (let tries = 0; tries < 6 && all.length > 0; tries++) {
    const slot = all.splice(rng.int(all.length), 1)[0];
    if (fn(slot.get())) return true;
  }
  return false;
}

/** Applies one named rewrite; returns the new document, or undefined when it found nowhere to apply. */
export function rewrite(rng, schema, dialect, name) {
  const root = clone(schema);
  const ctx = { dialect, annotations: mentions(root, ["unevaluatedProperties", "unevaluatedItems"]) };
  const result = REWRITES[name].apply(rng, root, ctx);
  if (isObj(result) && Object.hasOwn(result, "replace")) return result.replace;
  return result === true ? root : undefined;
}

/** A random rewrite name valid in the dialect. */
export function pickRewrite(rng, dialect) {
  for (;;) {
    const name = rng.pick(REWRITE_NAMES);
    const dialects = REWRITES[name].dialects;
    if (dialects === undefined || dialects.includes(dialect)) return name;
  }
}

// ---------------------------------------------------------------------------------------------------
// Restructurings: how real servers refactor a schema. Each keeps the accepted set (`equivalent`) or narrows
// it without asking the model for anything new (no new property, no new required name), so the analyzer
// must never report a widening for one. Applied at a random slot where they fit, like the rewrites.

const IDENTIFIERS = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$defs", "definitions"];

/** A fresh definition name in the dialect's container (created when missing); undefined when taken. */
function newDefinition(rng, root, ctx, stem, value) {
  const key = defsKey(ctx);
  if (root[key] !== undefined && !isObj(root[key])) return undefined;
  root[key] = isObj(root[key]) ? root[key] : {};
  const name = `${stem}${rng.int(1000)}`;
  if (root[key][name] !== undefined) return undefined;
  root[key][name] = value;
  return `#/${key}/${name}`;
}

const distinct = (values) => values.every((v, i) => values.findIndex((w) => same(v, w)) === i);

/** Object nodes outside definitions and not the root, where a node can be replaced or moved. */
function innerSlots(root, test) {
  return slots({ value: root }).filter((s) => s.path !== "" && !s.inDefs && isObj(s.get()) && test(s.get()));
}

// Below oneOf, not, if or contains a narrower schema can let more through; narrowings stay out of them.
const NON_MONOTONE = /\/(oneOf|not|if|contains)(\/|$)/;

/** Object nodes where narrowing the node narrows the document (outside definitions). */
function monotoneSlots(root, test) {
  return slots({ value: root }).filter((s) => !s.inDefs && !NON_MONOTONE.test(s.path) && isObj(s.get()) && test(s.get()));
}

/** A copy of a node's constraining keywords (text stays where it is). */
function constraints(node) {
  const out = {};
  for (const k of Object.keys(node)) if (!TEXT_KEYS.includes(k)) out[k] = clone(node[k]);
  return out;
}

/** Narrows an object schema in place without new requirements; false when nothing applied. */
function narrowObject(rng, node) {
  const props = isObj(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  const options = [];
  if (node.additionalProperties === undefined) options.push(() => (node.additionalProperties = false));
  for (const name of Object.keys(props)) {
    const p = props[name];
    if (!isObj(p) || p.$ref !== undefined) continue;
    if (p.type === "string" && p.maxLength === undefined) options.push(() => (p.maxLength = 3));
    if ((p.type === "number" || p.type === "integer") && p.minimum === undefined) options.push(() => (p.minimum = 0));
    if (Array.isArray(p.enum) && p.enum.length >= 2) options.push(() => p.enum.splice(rng.int(p.enum.length), 1));
    // Dropped next to additionalProperties: false, the name is rejected (unless a pattern still covers it).
    if (!required.includes(name) && node.additionalProperties === false && node.patternProperties === undefined) {
      options.push(() => delete props[name]);
    }
  }
  if (options.length === 0) return false;
  rng.pick(options)();
  return true;
}

/** Drops `object` from a node's type list, or the object alternatives from its anyOf; false when neither fits. */
function narrowAway(rng, node) {
  if (Array.isArray(node.type) && node.type.includes("object") && node.type.length >= 2) {
    node.type = node.type.filter((t) => t !== "object");
    if (rng.chance(0.5)) for (const k of FAMILY_KEYWORDS.object) delete node[k];
    return true;
  }
  const list = node.anyOf;
  if (!Array.isArray(list) || list.length < 2) return false;
  const isObject = (m) => isObj(m) && m.type === "object";
  const others = list.filter((m) => !isObject(m));
  if (others.length === 0 || others.length === list.length) return false;
  node.anyOf = others;
  return true;
}

/** @type {Record<string, { equivalent: boolean, dialects?: string[], apply: (rng: any, root: any, ctx: any) => any }>} */
export const RESTRUCTURES = {
  // An inline sub-schema moved into $defs behind a $ref, and back.
  inlineToRef: { equivalent: true, apply: (rng, root, ctx) => REWRITES.refExtract.apply(rng, root, ctx) },
  refToInline: { equivalent: true, apply: (rng, root, ctx) => REWRITES.refInline.apply(rng, root, ctx) },
  // `enum: [a, b]` as `oneOf: [{const: a}, {const: b}]` (distinct values match one member each).
  enumToOneOfConsts: {
    equivalent: true,
    apply: (rng, root, ctx) =>
      atSlot(rng, root, (node) => {
        if (ctx.annotations || !Array.isArray(node.enum) || node.enum.length < 2 || node.oneOf !== undefined) return false;
        if (node.const !== undefined || !distinct(node.enum)) return false;
        node.oneOf = node.enum.map((v) => ({ const: v }));
        delete node.enum;
        return true;
      }),
  },
  // An object whose required property has an enum, as a oneOf of one object per value (a discriminated union).
  // The reverse direction (the test judges both) is the union hoisted into one object with the enum.
  unionByEnum: {
    equivalent: true,
    apply: (rng, root, ctx) => {
      if (ctx.annotations) return false;
      const all = innerSlots(root, (node) => {
        if (node.type !== "object" || !Array.isArray(node.required) || !isObj(node.properties)) return false;
        if (node.oneOf !== undefined || IDENTIFIERS.some((k) => node[k] !== undefined) || node.$ref !== undefined) return false;
        return node.required.some((n) => {
          const p = node.properties[n];
          return isObj(p) && Array.isArray(p.enum) && p.enum.length >= 2 && distinct(p.enum) && p.const === undefined;
        });
      });
      if (all.length === 0) return false;
      const slot = rng.pick(all);
      const node = slot.get();
      const name = rng.pick(
        node.required.filter(
          (n) =>
            isObj(node.properties[n]) && Array.isArray(node.properties[n].enum) && node.properties[n].enum.length >= 2 && distinct(node.properties[n].enum),
        ),
      );
      const body = constraints(node);
      const out = {};
      for (const k of TEXT_KEYS) if (node[k] !== undefined) out[k] = node[k];
      out.oneOf = node.properties[name].enum.map((v) => {
        const branch = clone(body);
        branch.properties[name].enum = [v];
        return branch;
      });
      slot.set(out);
      return true;
    },
  },
  // A node's keywords spread over several allOf members, some of them behind a $ref.
  wrapAllOf: {
    equivalent: true,
    apply: (rng, root, ctx) =>
      atSlot(rng, root, (node) => {
        if (node.allOf !== undefined || node.$ref !== undefined) return false;
        const movable = Object.keys(node).filter((k) => !TEXT_KEYS.includes(k) && !NON_MOVABLE.includes(k));
        const groups = [];
        for (const k of movable) {
          if (groups.some((g) => g.includes(k))) continue;
          const group = (GROUPS.find((g) => g.includes(k)) ?? [k]).filter((g) => node[g] !== undefined);
          if (group.some((g) => NON_MOVABLE.includes(g))) return false;
          groups.push(group);
        }
        if (groups.length < 2) return false;
        const count = 2 + rng.int(Math.min(2, groups.length - 1));
        const members = Array.from({ length: count }, () => ({}));
        groups.forEach((group, i) => {
          const member = members[i < count ? i : rng.int(count)];
          for (const k of group) {
            member[k] = node[k];
            delete node[k];
          }
        });
        node.allOf = members.map((m) => {
          if (ctx.annotations || !rng.chance(0.3)) return m;
          const ref = newDefinition(rng, root, ctx, "Part", m);
          return ref === undefined ? m : { $ref: ref };
        });
        return true;
      }),
  },
  // A type narrowed away from object: `object` dropped from a type list, or the object alternatives from an anyOf.
  narrowAwayFromObject: {
    equivalent: false,
    apply: (rng, root) => {
      const all = monotoneSlots(root, () => true);
      for (let tries = 0; tries < 6 && all.length > 0; tries++) {
        const node = all.splice(rng.int(all.length), 1)[0].get();
        if (narrowAway(rng, node)) return true;
      }
      return false;
    },
  },
  // anyOf/oneOf members moved behind $refs into $defs, in reverse order.
  branchesBehindRefs: {
    equivalent: true,
    apply: (rng, root, ctx) =>
      atSlot(rng, root, (node) => {
        const key = node.anyOf !== undefined ? "anyOf" : "oneOf";
        const list = node[key];
        if (ctx.annotations || !Array.isArray(list) || list.length < 2) return false;
        if (!list.every((m) => isObj(m) && !mentions(m, IDENTIFIERS) && !mentions(m, ["$ref"]))) return false;
        const refs = list.map((m) => newDefinition(rng, root, ctx, "Branch", m));
        if (refs.some((r) => r === undefined)) return false;
        node[key] = refs.map((r) => ({ $ref: r })).reverse();
        return true;
      }),
  },
  // An inline object replaced by a $ref to an anyOf of two stricter copies of it.
  splitIntoStricterBranches: {
    equivalent: false,
    apply: (rng, root, ctx) => {
      if (ctx.annotations) return false;
      // An allOf member's stricter copies can contradict its siblings (a property they require, forbidden
      // here) and leave nothing accepted; servers do not ship that, and proving it is not the analyzer's job.
      const all = monotoneSlots(
        root,
        (node) => node.type === "object" && isObj(node.properties) && node.$ref === undefined && !mentions(node, IDENTIFIERS),
      ).filter((s) => s.path !== "" && !/\/allOf\/\d+$/.test(s.path));
      if (all.length === 0) return false;
      const slot = rng.pick(all);
      const node = slot.get();
      const branches = [constraints(node), constraints(node)];
      if (!branches.every((b) => narrowObject(rng, b))) return false;
      const ref = newDefinition(rng, root, ctx, "Split", { anyOf: branches });
      if (ref === undefined) return false;
      const site = { $ref: ref };
      for (const k of TEXT_KEYS) if (node[k] !== undefined) site[k] = node[k];
      slot.set(site);
      return true;
    },
  },
};

const RESTRUCTURE_NAMES = Object.keys(RESTRUCTURES);

/** Applies one named restructuring; returns the new document, or undefined when it found nowhere to apply. */
export function restructureSchema(rng, schema, dialect, name) {
  const root = clone(schema);
  const ctx = { dialect, annotations: mentions(root, ["unevaluatedProperties", "unevaluatedItems"]) };
  return RESTRUCTURES[name].apply(rng, root, ctx) === true ? root : undefined;
}

/** A random restructuring name valid in the dialect. */
export function pickRestructure(rng, dialect) {
  for (;;) {
    const name = rng.pick(RESTRUCTURE_NAMES);
    const dialects = RESTRUCTURES[name].dialects;
    if (dialects === undefined || dialects.includes(dialect)) return name;
  }
}

// ---------------------------------------------------------------------------------------------------
// Instances: values sampled to satisfy a schema (most of the time), then perturbed near its edges.

/** Strings, numbers and names a pair of schemas mentions, to build instances that hit their boundaries. */
function vocabulary(schemas) {
  const strings = new Set(["", "a", "ab", "abc", "abcdef", "x", "low", "zz"]);
  const numbers = new Set([0, 1, 2, 2.5, 3, -1, 10]);
  const names = new Set(NAMES.slice(0, 6));
  const scalars = [];
  const visit = (v, depth) => {
    if (depth > 30) return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    if (!isObj(v)) return;
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (k === "enum" && Array.isArray(x)) scalars.push(...x);
      else if (k === "const") scalars.push(x);
      else if (typeof x === "number" && ALL_LIMITS.includes(k)) {
        for (const d of [-1, -0.5, 0, 0.5, 1]) numbers.add(x + d);
        if (k.endsWith("Length")) for (const d of [-1, 0, 1]) if (x + d >= 0 && x + d < 40) strings.add("a".repeat(x + d));
      } else if ((k === "properties" || k === "dependentRequired" || k === "dependentSchemas" || k === "dependencies") && isObj(x)) {
        for (const n of Object.keys(x)) names.add(n);
      } else if (k === "required" && Array.isArray(x)) {
        for (const n of x) if (typeof n === "string") names.add(n);
      } else if (k === "patternProperties" && isObj(x)) {
        for (const p of Object.keys(x)) names.add(fromPattern(p, 2));
      } else if (k === "pattern" && typeof x === "string") strings.add(fromPattern(x, 2));
      if (!["enum", "const", "default", "examples"].includes(k)) visit(x, depth + 1);
    }
  };
  for (const s of schemas) visit(s, 0);
  for (const v of scalars) {
    if (typeof v === "string") strings.add(v);
    if (typeof v === "number") numbers.add(v);
  }
  return { strings: [...strings], numbers: [...numbers], names: [...names], scalars };
}

/** A string the pattern probably matches (literal prefix/suffix of the simple patterns we generate). */
function fromPattern(pattern, length) {
  const m = /^\^?([A-Za-z0-9_-]*)/.exec(pattern);
  const literal = m?.[1] ?? "";
  if (pattern.endsWith("$") && !pattern.startsWith("^")) return `q${pattern.slice(0, -1)}`;
  return literal + "a".repeat(Math.max(0, length - literal.length));
}

function randomJson(rng, vocab, depth) {
  const r = rng.int(depth > 1 ? 6 : 9);
  if (r === 0) return rng.pick(vocab.strings);
  if (r === 1) return rng.pick(vocab.numbers);
  if (r === 2) return rng.pick([true, false, null]);
  if (r === 3 && vocab.scalars.length > 0) return clone(rng.pick(vocab.scalars));
  if (r === 4) return rng.pick(vocab.names);
  if (r === 5) return rng.int(4);
  if (r === 6) return Array.from({ length: rng.int(3) }, () => randomJson(rng, vocab, depth + 1));
  const out = {};
  for (let i = rng.int(3); i > 0; i--) out[rng.pick(vocab.names)] = randomJson(rng, vocab, depth + 1);
  return out;
}

/** Merges a member into a schema for sampling: the member's keywords win, maps are combined. */
function mergeForSampling(base, member) {
  if (!isObj(member)) return base;
  const out = { ...base };
  for (const k of Object.keys(member)) {
    if ((k === "properties" || k === "patternProperties") && isObj(out[k]) && isObj(member[k])) out[k] = { ...out[k], ...member[k] };
    else if (k === "required" && Array.isArray(out[k]) && Array.isArray(member[k])) out[k] = [...new Set([...out[k], ...member[k]])];
    else out[k] = member[k];
  }
  return out;
}

/** A value the schema probably accepts. */
function sample(rng, schema, root, vocab, depth) {
  if (schema === undefined || schema === true || !isObj(schema) || depth > 7) return randomJson(rng, vocab, depth);
  let s = schema;
  for (let hops = 0; hops < 4; hops++) {
    if (typeof s.$ref === "string") {
      const target = resolveLocal(root, s.$ref);
      const rest = { ...s };
      delete rest.$ref;
      s = mergeForSampling(rest, isObj(target) ? target : {});
      if (target === false) return randomJson(rng, vocab, depth);
    }
    if (Array.isArray(s.allOf)) {
      const rest = { ...s };
      delete rest.allOf;
      s = s.allOf.reduce((acc, m) => mergeForSampling(acc, m), rest);
    }
    for (const key of ["anyOf", "oneOf"]) {
      if (Array.isArray(s[key]) && s[key].length > 0) {
        const rest = { ...s };
        delete rest[key];
        s = mergeForSampling(rest, rng.pick(s[key]));
      }
    }
    if (s.if !== undefined && rng.chance(0.7)) {
      const rest = { ...s };
      delete rest.if;
      delete rest.then;
      delete rest.else;
      s = rng.chance(0.5) ? mergeForSampling(mergeForSampling(rest, s.if), s.then) : mergeForSampling(rest, s.else);
    }
    if (typeof s.$ref !== "string" && !Array.isArray(s.allOf) && !Array.isArray(s.anyOf) && !Array.isArray(s.oneOf)) break;
  }
  if (s.const !== undefined && rng.chance(0.85)) return clone(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0 && rng.chance(0.85)) return clone(rng.pick(s.enum));
  let types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : [];
  if (types.length === 0) {
    if (s.properties || s.required || s.additionalProperties !== undefined || s.patternProperties) types = ["object"];
    else if (s.items !== undefined || s.prefixItems || s.contains !== undefined) types = ["array"];
    else if (s.minLength !== undefined || s.maxLength !== undefined || s.pattern) types = ["string"];
    else if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) types = ["number"];
    else return randomJson(rng, vocab, depth);
  }
  const type = rng.pick(types);
  const num = (k) => (typeof s[k] === "number" ? s[k] : undefined);
  switch (type) {
    case "string": {
      const lengths = [num("minLength"), num("maxLength"), rng.int(5)].filter((n) => n !== undefined && n >= 0 && n < 40);
      if (typeof s.pattern === "string" && rng.chance(0.7)) return fromPattern(s.pattern, rng.pick(lengths));
      if (rng.chance(0.3)) return rng.pick(vocab.strings);
      const length = rng.pick(lengths);
      return Array.from({ length }, () => rng.pick(["a", "b", "x"])).join("");
    }
    case "integer":
    case "number": {
      const bounds = [num("minimum"), num("maximum"), num("exclusiveMinimum"), num("exclusiveMaximum")].filter((n) => n !== undefined);
      const step = num("multipleOf");
      let candidates = [...bounds, ...bounds.map((b) => b + 1), ...bounds.map((b) => b - 1), rng.pick(vocab.numbers), rng.int(6)];
      if (step !== undefined && step > 0) candidates = candidates.map((c) => Math.round(c / step) * step);
      let v = rng.pick(candidates);
      if (type === "integer") v = Math.round(v);
      else if (rng.chance(0.15)) v += 0.5;
      return v;
    }
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    case "array": {
      const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
      const rest = Array.isArray(s.items) ? s.additionalItems : Array.isArray(s.prefixItems) || !Array.isArray(s.items) ? s.items : undefined;
      const lengths = [num("minItems"), num("maxItems"), prefix.length, prefix.length + 1, rng.int(3)].filter((n) => n !== undefined && n >= 0 && n < 6);
      const length = rng.pick(lengths);
      const out = [];
      for (let i = 0; i < length; i++) out.push(sample(rng, i < prefix.length ? prefix[i] : rest, root, vocab, depth + 1));
      if (s.contains !== undefined && rng.chance(0.7)) {
        const at = rng.int(out.length + 1);
        if (at >= prefix.length || rng.chance(0.3)) out.splice(at, 0, sample(rng, s.contains, root, vocab, depth + 1));
      }
      if (s.uniqueItems === true && rng.chance(0.7)) return out.filter((v, i) => out.findIndex((w) => same(v, w)) === i);
      return out;
    }
    default: {
      const props = isObj(s.properties) ? s.properties : {};
      const keys = new Set(Array.isArray(s.required) ? s.required.filter((n) => typeof n === "string") : []);
      for (const name of Object.keys(props)) if (rng.chance(0.5)) keys.add(name);
      if (rng.chance(0.3)) keys.add(rng.pick(vocab.names));
      const deps = isObj(s.dependentRequired) ? s.dependentRequired : isObj(s.dependencies) ? s.dependencies : {};
      for (const k of [...keys]) if (Array.isArray(deps[k])) for (const n of deps[k]) if (typeof n === "string") keys.add(n);
      const max = num("maxProperties");
      const out = {};
      for (const name of keys) {
        if (max !== undefined && Object.keys(out).length >= max && rng.chance(0.8)) break;
        let sub = props[name];
        if (sub === undefined && isObj(s.patternProperties)) {
          for (const p of Object.keys(s.patternProperties)) {
            try {
              if (new RegExp(p, "u").test(name)) sub = s.patternProperties[p];
            } catch {}
          }
        }
        if (sub === undefined && !Object.hasOwn(props, name)) sub = s.additionalProperties;
        out[name] = sample(rng, sub, root, vocab, depth + 1);
      }
      return out;
    }
  }
}

/** The value with one small edit somewhere: a leaf swapped for a boundary value, a key added or dropped. */
function perturb(rng, value, vocab, depth = 0) {
  if (Array.isArray(value) && value.length > 0 && rng.chance(0.7)) {
    const copy = [...value];
    const i = rng.int(copy.length);
    const r = rng.int(4);
    if (r === 0) copy.splice(i, 1);
    else if (r === 1) copy.push(clone(copy[i]));
    else copy[i] = perturb(rng, copy[i], vocab, depth + 1);
    return copy;
  }
  if (isObj(value) && rng.chance(0.8)) {
    const copy = { ...value };
    const keys = Object.keys(copy);
    const r = rng.int(4);
    if (r === 0 && keys.length > 0) delete copy[rng.pick(keys)];
    else if (r === 1 || keys.length === 0) copy[rng.pick(vocab.names)] = randomJson(rng, vocab, depth + 1);
    else {
      const k = rng.pick(keys);
      copy[k] = perturb(rng, copy[k], vocab, depth + 1);
    }
    return copy;
  }
  if (typeof value === "string" && rng.chance(0.5)) return rng.chance(0.5) ? `${value}a` : value.slice(0, -1);
  if (typeof value === "number" && rng.chance(0.5)) return value + rng.pick([-1, 1, 0.5, -0.5]);
  return randomJson(rng, vocab, depth + 1);
}

/**
 * Candidate instances for a pair: sampled from each schema (so the rest of the schema is satisfied and the
 * changed spot decides), perturbed copies of those, and vocabulary scalars.
 */
export function instancesFor(rng, before, after, count = 40) {
  const vocab = vocabulary([before, after]);
  const out = [];
  const seen = new Set();
  const add = (v) => {
    const key = JSON.stringify(v);
    if (key === undefined || seen.has(key)) return;
    seen.add(key);
    out.push(v);
  };
  const fromAfter = Math.ceil(count * 0.4);
  const fromBefore = Math.ceil(count * 0.2);
  const samples = [];
  for (let i = 0; i < fromAfter; i++) samples.push(sample(rng, after, after, vocab, 0));
  for (let i = 0; i < fromBefore; i++) samples.push(sample(rng, before, before, vocab, 0));
  for (const v of samples) add(v);
  for (let i = 0; out.length < count && i < count * 2; i++) {
    if (rng.chance(0.75) && samples.length > 0) add(perturb(rng, rng.pick(samples), vocab));
    else add(randomJson(rng, vocab, 0));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Validators and the check loop.

/**
 * Schemas where ajv itself is wrong would blame the analyzer for ajv; they are not judged. ajv 8.20 accepts
 * `[]` for `{ prefixItems: [...], contains: ... }` (contains is skipped next to a non-trivial prefixItems),
 * which the spec rejects.
 */
function hitsAjvBug(schema) {
  if (Array.isArray(schema)) return schema.some(hitsAjvBug);
  if (!isObj(schema)) return false;
  if (schema.prefixItems !== undefined && schema.contains !== undefined) return true;
  if (hitsAjvElseBug(schema)) return true;
  return Object.values(schema).some(hitsAjvBug);
}

/**
 * ajv 8.20 forgets what an `else` branch evaluated when another in-place applicator sits next to it:
 * `{ properties: {k: {}}, allOf: [{}], if: {properties: {k: {const: "a"}}, required: ["k"]},
 * else: {properties: {v: {}}}, unevaluatedProperties: false }` rejects `{k: "b", v: 0}`, which the spec
 * accepts (with the `if` moved into the allOf it accepts).
 */
function hitsAjvElseBug(schema) {
  if (schema.else === undefined) return false;
  if (schema.unevaluatedProperties === undefined && schema.unevaluatedItems === undefined) return false;
  return ["allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "dependentSchemas"].some((k) => schema[k] !== undefined);
}

/**
 * Wraps ajv instances into a cached `validator(dialect, schema)`: a function from instance to boolean, or
 * undefined when ajv cannot compile the schema (invalid, unresolvable $ref) or cannot run it (a $ref loop).
 * `make` is `(dialect, lenient) => new Ajv...(options)`, lenient meaning `validateSchema: false` (used to
 * judge rewrites such as duplicate `required` names, which the meta-schema forbids); instances are renewed
 * now and then to bound memory.
 */
export function createValidators(make) {
  const ajvs = new Map();
  const cache = new Map();
  let compiled = 0;
  return (dialect, schema, lenient = false) => {
    const flavour = `${dialect}${lenient ? "/lenient" : ""}`;
    const key = `${flavour}\u0000${JSON.stringify(schema)}`;
    if (cache.has(key)) return cache.get(key);
    if (cache.size > 4000) cache.clear();
    let fn;
    if (!hitsAjvBug(schema)) {
      if (!ajvs.has(flavour) || compiled++ % 2000 === 0) ajvs.set(flavour, make(dialect, lenient));
      try {
        const validate = ajvs.get(flavour).compile(typeof schema === "boolean" ? schema : clone(schema));
        fn = (value) => validate(value) === true;
        // A schema that loops at validation time (a $ref cycle without progress) proves nothing.
        fn({});
        fn([]);
      } catch {
        fn = undefined;
      }
    }
    cache.set(key, fn);
    return fn;
  };
}

function verdicts(validate, instances) {
  try {
    return instances.map(validate);
  } catch {
    return undefined;
  }
}

/**
 * One generated case: a mutation chain, an equivalence rewrite or a restructuring, judged with ajv and the
 * analyzer. Returns `{ kind, pairs, judged, witnesses, missed, falseWidened, notEquivalent, notNarrowing }`.
 */
export function runCase({ seed, seeds, compareSchemas, validator, kind, instances = 40 }) {
  const rng = createRandom(seed);
  const start = rng.pick(seeds);
  const dialect = start.dialect;
  const result = { kind, seed, dialect, ...emptyCounts() };
  const widened = (b, a) => compareSchemas(b, a).some((f) => f.kind === "widened");

  if (kind === "equivalence") {
    let schema = start.schema;
    for (let i = rng.int(3); i > 0; i--) schema = mutate(rng, schema, dialect, pickMutation(rng, dialect));
    let rewritten = schema;
    const applied = [];
    for (let i = 1 + rng.int(2); i > 0; i--) {
      const name = pickRewrite(rng, dialect);
      const next = rewrite(rng, rewritten, dialect, name);
      if (next !== undefined) {
        rewritten = next;
        applied.push(name);
      }
    }
    if (applied.length === 0) return result;
    // Only pairs ajv can run count: a rewrite of a schema with a dangling $ref proves nothing either way.
    const vb = validator(dialect, schema, true);
    const va = validator(dialect, rewritten, true);
    if (vb === undefined || va === undefined) return result;
    const xs = instancesFor(rng, schema, rewritten, instances);
    const rb = verdicts(vb, xs);
    const ra = verdicts(va, xs);
    if (rb === undefined || ra === undefined) return result;
    const k = xs.findIndex((_, i) => rb[i] !== ra[i]);
    if (k >= 0) result.notEquivalent.push({ seed, start: start.name, applied, before: schema, after: rewritten, instance: xs[k] });
    for (const [b, a] of [
      [schema, rewritten],
      [rewritten, schema],
    ]) {
      result.pairs++;
      result.judged++;
      const findings = compareSchemas(b, a);
      if (widened(b, a)) result.falseWidened.push({ seed, start: start.name, applied, before: b, after: a, findings });
      // A rewrite brings no new words: when every string of the new schema is already somewhere in the old one, a
      // finding that says text was added or changed is a false alarm (the same text shown as before and after).
      // Text a rewrite moves (refExtract lifts a described schema into a definition) may still say "removed" where it
      // left, and the name of a definition a rewrite introduces is a new word by design (name_added).
      const known = new Set(stringsOf(b));
      const noNewWords = stringsOf(a).every((text) => known.has(text));
      if (noNewWords && findings.some((f) => f.reason === "text_added" || f.reason === "text_changed"))
        result.falseText.push({ seed, start: start.name, applied, before: b, after: a, findings });
    }
    return result;
  }

  if (kind === "restructure") {
    let schema = start.schema;
    for (let i = rng.int(3); i > 0; i--) schema = mutate(rng, schema, dialect, pickMutation(rng, dialect));
    let restructured = schema;
    const applied = [];
    for (let i = 1 + rng.int(2); i > 0; i--) {
      const name = pickRestructure(rng, dialect);
      const next = restructureSchema(rng, restructured, dialect, name);
      if (next !== undefined) {
        restructured = next;
        applied.push(name);
      }
    }
    if (applied.length === 0) return result;
    const vb = validator(dialect, schema, true);
    const va = validator(dialect, restructured, true);
    if (vb === undefined || va === undefined) return result;
    const xs = instancesFor(rng, schema, restructured, instances);
    const rb = verdicts(vb, xs);
    const ra = verdicts(va, xs);
    if (rb === undefined || ra === undefined) return result;
    const equivalent = applied.every((name) => RESTRUCTURES[name].equivalent);
    const directions = equivalent
      ? [
          [schema, restructured, rb, ra],
          [restructured, schema, ra, rb],
        ]
      : [[schema, restructured, rb, ra]];
    for (const [b, a, vbs, vas] of directions) {
      result.pairs++;
      const k = xs.findIndex((_, i) => vas[i] && !vbs[i]);
      if (k >= 0) {
        result.notNarrowing.push({ seed, start: start.name, applied, before: b, after: a, instance: xs[k] });
        continue;
      }
      result.judged++;
      if (widened(b, a)) result.falseWidened.push({ seed, start: start.name, applied, before: b, after: a, findings: compareSchemas(b, a) });
    }
    return result;
  }

  const chain = [start.schema];
  const ops = [];
  for (let i = 1 + rng.int(4); i > 0; i--) {
    const name = pickMutation(rng, dialect);
    ops.push(name);
    chain.push(mutate(rng, chain[chain.length - 1], dialect, name));
  }
  const validators = chain.map((s) => validator(dialect, s));
  for (let i = 1; i < chain.length; i++) {
    const vb = validators[i - 1];
    const va = validators[i];
    result.pairs += 2;
    if (vb === undefined || va === undefined) continue;
    const xs = instancesFor(rng, chain[i - 1], chain[i], instances);
    const r0 = verdicts(vb, xs);
    const r1 = verdicts(va, xs);
    if (r0 === undefined || r1 === undefined) continue;
    for (const [b, a, rb, ra] of [
      [chain[i - 1], chain[i], r0, r1],
      [chain[i], chain[i - 1], r1, r0],
    ]) {
      result.judged++;
      const k = xs.findIndex((_, j) => ra[j] && !rb[j]);
      if (k < 0) continue;
      result.witnesses++;
      if (!widened(b, a) && removedParametersExplain(compareSchemas(b, a), b, dialect, validator, xs, rb, ra)) {
        result.excused++;
      } else if (!widened(b, a)) {
        result.missed.push({ seed, start: start.name, op: ops[i - 1], dialect, before: b, after: a, instance: xs[k], findings: compareSchemas(b, a) });
      }
    }
  }
  return result;
}

/**
 * The one deliberate exception to "every witness is a reported widening": a parameter removed from
 * `properties` (reported as `parameter_removed`, or `property_removed` whose `required` entry went with it) is a
 * warning, since the model no longer sees it and nothing new is asked of it, though a validator under open
 * additionalProperties now takes any value under that name. The witnesses are excused only when the old schema
 * with exactly those parameters taken out (from `properties` and `required`) accepts every one of them, so any
 * other widening in the pair is still a miss.
 */
function removedParametersExplain(findings, before, dialect, validator, xs, rb, ra) {
  const removed = findings.filter((f) => (f.reason === "parameter_removed" || f.reason === "property_removed") && typeof f.args?.name === "string");
  if (removed.length === 0) return false;
  const excused = structuredClone(before);
  // One object reached two ways (a `$ref` to the root) reports the same removal at each path.
  const done = new Map();
  for (const f of removed) {
    const suffix = `/properties/${escapeToken(f.args.name)}`;
    if (!f.path.endsWith(suffix)) return false;
    const holder = locate(excused, f.path.slice(0, -suffix.length));
    if (done.get(holder)?.has(f.args.name)) continue;
    if (!isObj(holder) || !isObj(holder.properties) || !Object.hasOwn(holder.properties, f.args.name)) return false;
    if (!done.has(holder)) done.set(holder, new Set());
    done.get(holder).add(f.args.name);
    delete holder.properties[f.args.name];
    if (Array.isArray(holder.required)) holder.required = holder.required.filter((n) => n !== f.args.name);
  }
  const ve = validator(dialect, excused, true);
  if (ve === undefined) return false;
  const re = verdicts(ve, xs);
  if (re === undefined) return false;
  return xs.every((_, j) => !(ra[j] && !rb[j]) || re[j]);
}

/** The object at a finding's pointer in `root`, following `$ref` steps to local targets. */
function locate(root, path) {
  let node = root;
  for (const token of path.split("/").slice(1).map(unescapeToken)) {
    if (token === "$ref" && isObj(node) && typeof node.$ref === "string") node = resolveLocal(root, node.$ref);
    else if (Array.isArray(node)) node = node[Number(token)];
    else if (isObj(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** Every string value inside a JSON value (keys aside), and every `default` whole (the model reads it as text). */
function stringsOf(value) {
  const out = [];
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (isObj(v)) {
      if (Object.hasOwn(v, "default")) out.push(`default\u0000${JSON.stringify(v.default)}`);
      stack.push(...Object.values(v));
    }
  }
  return out;
}

/** The counts and lists one case fills and the running totals add up. */
function emptyCounts() {
  return { pairs: 0, judged: 0, witnesses: 0, excused: 0, missed: [], falseWidened: [], falseText: [], notEquivalent: [], notNarrowing: [] };
}

/** Adds one case result into running totals. */
export function addUp(totals, r) {
  const t = totals ?? {
    ...emptyCounts(),
    mutationPairs: 0,
    equivalencePairs: 0,
    restructurePairs: 0,
    byDialect: { "2020-12": 0, "draft-07": 0 },
  };
  t.pairs += r.pairs;
  t.byDialect[r.dialect] += r.judged;
  t.judged += r.judged;
  t.witnesses += r.witnesses;
  t.excused += r.excused;
  if (r.kind === "equivalence") t.equivalencePairs += r.pairs;
  else if (r.kind === "restructure") t.restructurePairs += r.judged;
  else t.mutationPairs += r.judged;
  t.missed.push(...r.missed);
  t.falseWidened.push(...r.falseWidened);
  t.falseText.push(...r.falseText);
  t.notEquivalent.push(...r.notEquivalent);
  t.notNarrowing.push(...r.notNarrowing);
  return t;
}
