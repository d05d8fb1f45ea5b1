/** Property test: whenever the new schema accepts an instance the old one rejects, the analyzer reports a widening. */

// The named exports type cleanly under NodeNext (the default export is the CommonJS module object).
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compareSchemas } from "../../../src/schema/index.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const OPTIONS = { strict: false, validateFormats: false, allErrors: false } as const;
const ajv2020 = new Ajv2020(OPTIONS);
const ajv07 = new Ajv(OPTIONS);

/** A validator, or undefined when a mutation produced a schema ajv rejects; such runs prove nothing. */
function compile(ajv: Ajv | Ajv2020, schema: Json): ((value: unknown) => boolean) | undefined {
  try {
    const validate = ajv.compile(schema as object | boolean);
    return (value) => validate(value) === true;
  } catch {
    return undefined;
  }
}

/**
 * ajv 8.20 accepts `[]` for `{ prefixItems: [{ const: 1 }], contains: { const: 1 } }` (contains is skipped
 * when a non-trivial prefixItems sits next to it), which the spec rejects; such runs would blame the analyzer.
 */
function hitsAjvContainsBug(schema: Json): boolean {
  if (Array.isArray(schema)) return schema.some(hitsAjvContainsBug);
  if (!isObj(schema)) return false;
  if (schema.prefixItems !== undefined && schema.contains !== undefined) return true;
  return Object.values(schema).some(hitsAjvContainsBug);
}

/** Which instances each side accepts, or undefined when ajv cannot run them (a $ref that loops forever). */
function verdicts(
  validate: (value: unknown) => boolean,
  instances: readonly Json[],
): boolean[] | undefined {
  try {
    return instances.map(validate);
  } catch {
    return undefined;
  }
}

const SEEDS: readonly Json[] = [
  {
    type: "object",
    properties: {
      a: { type: "string", minLength: 1, maxLength: 5, description: "a" },
      b: { type: "integer", minimum: 0, maximum: 10 },
      c: { enum: ["x", "y", 1] },
    },
    required: ["a"],
    additionalProperties: false,
  },
  { type: "array", items: { type: "number", multipleOf: 2 }, minItems: 1, maxItems: 3, uniqueItems: true },
  { anyOf: [{ type: "string", maxLength: 2 }, { type: "number", exclusiveMaximum: 5 }] },
  { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }] },
  {
    type: "array",
    prefixItems: [{ type: "string" }, { type: "number" }],
    items: false,
    contains: { type: "string" },
    maxContains: 2,
  },
  {
    type: "object",
    properties: { k: { enum: ["a", "b"] }, v: {} },
    if: { properties: { k: { const: "a" } } },
    then: { properties: { v: { type: "string" } } },
    else: { properties: { v: { type: "number" } } },
    dependentRequired: { k: ["v"] },
  },
  {
    type: "object",
    patternProperties: { "^x": { type: "string" } },
    properties: { a: { type: "boolean" } },
    additionalProperties: { type: "number" },
    propertyNames: { maxLength: 3 },
  },
  { allOf: [{ type: ["string", "number"] }, { not: { const: "b" } }], minLength: 1 },
  {
    type: "object",
    properties: { a: { type: "string" } },
    allOf: [{ properties: { b: { type: "number" } } }],
    unevaluatedProperties: false,
  },
  {
    $defs: { N: { type: "integer", maximum: 5 } },
    type: "object",
    properties: { a: { $ref: "#/$defs/N" }, b: { not: { $ref: "#/$defs/N" } } },
  },
  {
    type: "object",
    dependentSchemas: { a: { required: ["b"] } },
    properties: { a: {}, b: { type: "string" } },
    minProperties: 1,
    maxProperties: 2,
  },
  { type: "array", prefixItems: [{ const: 1 }], items: { type: "string" }, unevaluatedItems: false, minContains: 0 },
  {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "number", maximum: 5 } },
    patternProperties: { "^x": { type: "integer" } },
  },
  { oneOf: [{ type: "string", minLength: 2 }, { type: "string", maxLength: 3 }, { const: 1 }] },
  {},
];

/** draft-07 forms: tuple `items`, additionalItems, dependencies, definitions. */
const SEEDS_07: readonly Json[] = [
  { type: "array", items: [{ type: "string" }, { type: "number", maximum: 5 }], additionalItems: false },
  { type: "array", items: [{ type: "string" }], additionalItems: { type: "number" }, maxItems: 3 },
  {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "number" } },
    dependencies: { a: ["b"], b: { properties: { c: { type: "string" } } } },
  },
  {
    definitions: { N: { type: "integer", minimum: 0 } },
    type: "object",
    properties: { a: { $ref: "#/definitions/N" } },
    additionalProperties: false,
  },
  { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10 },
];

const VALUES: readonly Json[] = ["x", "y", "a", "ab", 1, 2, 0, 2.5, true, null, {}, [], "b"];
const SUBSCHEMAS: readonly Json[] = [
  { type: "string" },
  { type: "number" },
  { type: "integer", minimum: 1 },
  {},
  true,
  false,
  { maxLength: 1 },
  { minimum: 3 },
  { enum: [1, "x", "a"] },
  { type: "object", required: ["a"] },
  { type: "array", items: { type: "string" } },
  { const: "a" },
  { not: { type: "string" } },
  { $ref: "#/$defs/N" },
];
const NAMES = ["a", "b", "c", "k", "v", "x1", "xa"];
const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"];
const LIMITS = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
const LIMIT_VALUES = [0, 1, 2, 3, 5, 10];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length] as T;
const clone = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;
const isObj = (value: Json | undefined): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Places in a schema that hold a sub-schema, each with a setter so boolean schemas can be replaced. */
interface Slot {
  get(): Json;
  set(value: Json): void;
}

function slots(root: { value: Json }): Slot[] {
  const out: Slot[] = [{ get: () => root.value, set: (v) => (root.value = v) }];
  const visit = (schema: Json): void => {
    if (!isObj(schema)) return;
    const single = ["not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames"];
    for (const key of single) {
      if (schema[key] !== undefined && !Array.isArray(schema[key])) {
        out.push({ get: () => schema[key] as Json, set: (v) => (schema[key] = v) });
        visit(schema[key] as Json);
      }
    }
    for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
      const list = schema[key];
      if (Array.isArray(list)) {
        list.forEach((item, i) => {
          out.push({ get: () => list[i] as Json, set: (v) => (list[i] = v) });
          visit(item);
        });
      }
    }
    for (const key of ["properties", "patternProperties", "$defs", "dependentSchemas"]) {
      const map = schema[key];
      if (isObj(map)) {
        for (const name of Object.keys(map)) {
          out.push({ get: () => map[name] as Json, set: (v) => (map[name] = v) });
          visit(map[name] as Json);
        }
      }
    }
  };
  visit(root.value);
  return out;
}

type Mutation = readonly [number, number, number, number];

function mutate(schema: Json, mutations: readonly Mutation[]): Json {
  const root = { value: clone(schema) };
  for (const [where, op, x, y] of mutations) {
    const slot = pick(slots(root), where);
    let s = slot.get();
    if (op === 15) {
      slot.set(clone(pick(SUBSCHEMAS, x)));
      continue;
    }
    if (!isObj(s)) {
      s = {};
      slot.set(s);
    }
    applyOp(s, op, x, y);
  }
  return root.value;
}

function toggleName(list: Json | undefined, name: string): Json[] {
  const names = Array.isArray(list) ? list.filter((n) => n !== name) : [];
  return Array.isArray(list) && list.includes(name) ? names : [...names, name];
}

function applyOp(s: Obj, op: number, x: number, y: number): void {
  const keys = Object.keys(s);
  switch (op) {
    case 0: {
      // Mostly nudge a limit the schema already has, up or down, so loosening is common.
      const present = LIMITS.filter((k) => typeof s[k] === "number");
      if (present.length > 0 && y % 3 !== 0) {
        const key = pick(present, x);
        const value = s[key] as number;
        const delta = pick([1, 2, 5], y >> 1);
        s[key] = y % 2 === 0 ? value + delta : Math.max(0, value - delta);
      } else {
        s[pick(LIMITS, x)] = pick(LIMIT_VALUES, y);
      }
      break;
    }
    case 1:
      if (keys.length > 0) delete s[pick(keys, x)];
      break;
    case 2:
      s.type = y % 3 === 0 ? [pick(TYPES, x), pick(TYPES, x + 1 + (y % 5))] : pick(TYPES, x);
      break;
    case 3: {
      const list = Array.isArray(s.enum) ? [...s.enum] : [];
      const fresh = VALUES.filter((v) => !list.some((w) => JSON.stringify(w) === JSON.stringify(v)));
      if (y % 2 === 0 && list.length > 1) list.splice(x % list.length, 1);
      else if (fresh.length > 0) list.push(pick(fresh, x));
      s.enum = list;
      break;
    }
    case 4:
      if (y % 3 === 0) delete s.const;
      else s.const = pick(VALUES, x);
      break;
    case 5: {
      const props = isObj(s.properties) ? s.properties : {};
      props[pick(NAMES, x)] = clone(pick(SUBSCHEMAS, y));
      s.properties = props;
      break;
    }
    case 6:
      if (isObj(s.properties)) {
        const names = Object.keys(s.properties);
        if (names.length > 0) delete s.properties[pick(names, x)];
      }
      break;
    case 7: {
      const list = Array.isArray(s.required) ? s.required : [];
      const name = y % 2 === 0 && list.length > 0 ? String(pick(list, x)) : pick(NAMES, x);
      s.required = toggleName(s.required, name);
      break;
    }
    case 8:
      if (y % 4 === 3) delete s.additionalProperties;
      else s.additionalProperties = pick([false, true, { type: "number" }], y);
      break;
    case 9: {
      const key = pick(["anyOf", "oneOf", "allOf"], x);
      const list = Array.isArray(s[key]) ? [...(s[key] as Json[])] : [];
      if (y % 3 === 0 && list.length > 1) list.splice(y % list.length, 1);
      else list.push(clone(pick(SUBSCHEMAS, y)));
      if (list.length === 1) list.push(clone(pick(SUBSCHEMAS, y + 1)));
      s[key] = list;
      break;
    }
    case 10:
      if (y % 3 === 0) delete s.not;
      else s.not = clone(pick(SUBSCHEMAS, x));
      break;
    case 11: {
      if (y % 2 === 0) {
        s.items = clone(pick(SUBSCHEMAS, x));
      } else {
        const list = Array.isArray(s.prefixItems) ? [...s.prefixItems] : [];
        if (x % 2 === 0 && list.length > 0) list.pop();
        else list.push(clone(pick(SUBSCHEMAS, x)));
        s.prefixItems = list;
      }
      break;
    }
    case 12:
      s.uniqueItems = y % 2 === 0;
      break;
    case 13:
      if (y % 3 === 0) delete s.pattern;
      else s.pattern = pick(["^a", "b", "^.$"], x);
      break;
    case 14: {
      const map = isObj(s.patternProperties) ? s.patternProperties : {};
      const pattern = pick(["^x", "^a", "b$"], x);
      if (map[pattern] !== undefined && y % 2 === 0) delete map[pattern];
      else map[pattern] = clone(pick(SUBSCHEMAS, y));
      s.patternProperties = map;
      break;
    }
    case 16:
      s.description = pick(["one", "two", "three"], x);
      break;
    case 17:
      s.multipleOf = pick([1, 2, 3, 4, 6], x);
      break;
    case 18:
      if (y % 2 === 0) {
        const map = isObj(s.dependentRequired) ? s.dependentRequired : {};
        const name = pick(NAMES, x);
        map[name] = toggleName(map[name], pick(NAMES, y));
        s.dependentRequired = map;
      } else {
        const map = isObj(s.dependentSchemas) ? s.dependentSchemas : {};
        const name = pick(NAMES, x);
        if (map[name] !== undefined) delete map[name];
        else map[name] = clone(pick(SUBSCHEMAS, y));
        s.dependentSchemas = map;
      }
      break;
    case 19: {
      const key = pick(["if", "then", "else"], x);
      if (y % 3 === 0) delete s[key];
      else s[key] = clone(pick(SUBSCHEMAS, y));
      break;
    }
    case 20:
      if (y % 3 === 0) delete s.contains;
      else s.contains = clone(pick(SUBSCHEMAS, x));
      break;
    case 21: {
      const key = pick(["unevaluatedProperties", "unevaluatedItems"], x);
      if (y % 2 === 0) delete s[key];
      else s[key] = pick([false, { type: "string" }], y >> 1);
      break;
    }
    case 22:
      s.propertyNames = pick([{ maxLength: 1 }, { pattern: "^a" }, { enum: ["a", "b"] }], x);
      break;
    case 23: {
      // draft-07 tuple: grow or shrink `items`, or open/close additionalItems.
      if (y % 3 === 0) {
        s.additionalItems = pick([false, true, { type: "number" }, { type: "string" }], x);
      } else {
        const list = Array.isArray(s.items) ? [...s.items] : [];
        if (y % 3 === 1 && list.length > 0) list.pop();
        else list.push(clone(pick(SUBSCHEMAS, x)));
        s.items = list;
      }
      break;
    }
    case 24: {
      // draft-07 dependencies: a name list or a schema per trigger.
      const map = isObj(s.dependencies) ? s.dependencies : {};
      const name = pick(NAMES, x);
      if (map[name] !== undefined && y % 3 === 0) delete map[name];
      else map[name] = y % 2 === 0 ? toggleName(map[name], pick(NAMES, y)) : clone(pick(SUBSCHEMAS, y));
      s.dependencies = map;
      break;
    }
    default:
      break;
  }
}

// Instances built from the same vocabulary as the schemas, so boundaries are actually hit.
const SCALARS: readonly Json[] = [
  null, true, false, 0, 1, 2, 2.5, 3, 4, 5, 6, 10, 11, -1, "", "a", "b", "x", "y", "ab", "abc", "abcdef", "xyz",
];
const FIXED_INSTANCES: readonly Json[] = [
  ...SCALARS,
  [], [1, 2], [1, 1], ["a", 1, 2], ["a", 1, "b"], [2, 4, 6, 8], ["a", "a"], [1, "a", "b"], [{}], [[]],
  ...SCALARS.map((v) => [v]),
  ...SCALARS.map((v) => ["a", v]),
  ...SCALARS.map((v) => [1, v]),
  {}, { a: "ab", b: 1 }, { a: "a", c: "x" }, { k: "a", v: "s" }, { k: "a", v: 1 }, { k: "b", v: 1 }, { k: "b" },
  { a: 1, b: "s" }, { a: "a", b: 3, c: "y" }, { a: {}, b: "s" }, { a: "a", b: 2.5 }, { a: "", c: 1 },
  ...NAMES.flatMap((name) => SCALARS.map((v) => ({ [name]: v }))),
  ...NAMES.filter((name) => name !== "a").flatMap((name) => SCALARS.map((v) => ({ a: "a", [name]: v }))),
];

const instance: fc.Arbitrary<Json> = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<Json>(...VALUES, 3, 5, 10, -1, "abc", "xyz"),
    fc.array(tie("json"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie("json"), { maxKeys: 4 }),
  ),
})).json;

const mutationWith = (ops: readonly number[]): fc.Arbitrary<Mutation> =>
  fc.tuple(fc.nat(40), fc.constantFrom(...ops), fc.nat(20), fc.nat(20));
const ALL_2020_OPS = Array.from({ length: 23 }, (_, i) => i);
// Ops whose keywords mean the same in draft-07, plus the draft-07-only ones.
const DRAFT_07_OPS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 19, 22, 23, 24];
const mutation = mutationWith(ALL_2020_OPS);

/**
 * Builds a chain seed -> m1 -> m2 ... and checks every step both ways, so each tightening is also
 * exercised as a loosening. Returns how many (before, after) pairs ajv could judge.
 */
function checkChains(
  ajv: Ajv | Ajv2020,
  seeds: readonly Json[],
  ops: readonly number[],
  seed: number,
  numRuns: number,
): number {
  let checked = 0;
  fc.assert(
    fc.property(
      fc.nat(seeds.length - 1),
      fc.array(mutationWith(ops), { minLength: 1, maxLength: 4 }),
      fc.array(instance, { maxLength: 10 }),
      (start, steps, extra) => {
        const chain: Json[] = [pick(seeds, start)];
        for (const step of steps) chain.push(mutate(chain[chain.length - 1] as Json, [step]));
        const instances = [...FIXED_INSTANCES, ...extra];
        const runs = chain.map((schema) => {
          const validate = hitsAjvContainsBug(schema) ? undefined : compile(ajv, schema);
          return validate === undefined ? undefined : verdicts(validate, instances);
        });
        for (let i = 1; i < chain.length; i++) {
          for (const [b, a] of [
            [i - 1, i],
            [i, i - 1],
          ] as const) {
            const was = runs[b];
            const now = runs[a];
            if (was === undefined || now === undefined) continue;
            checked++;
            const before = chain[b] as Json;
            const after = chain[a] as Json;
            const findings = compareSchemas(before, after);
            if (findings.some((f) => f.kind === "widened")) continue;
            const witness = instances.findIndex((_, k) => now[k] === true && was[k] === false);
            if (witness >= 0) {
              const show = JSON.stringify;
              expect.fail(
                `missed widening: ${show(instances[witness])} accepted by after only\n` +
                  `before=${show(before)}\nafter=${show(after)}\nfindings=${show(findings)}`,
              );
            }
          }
        }
      },
    ),
    { seed, numRuns },
  );
  return checked;
}

describe("compareSchemas soundness against ajv", () => {
  test("2020-12: an instance accepted only by the new schema always comes with a widened finding", () => {
    expect(checkChains(ajv2020, SEEDS, ALL_2020_OPS, 20240601, 500)).toBeGreaterThan(1000);
  });

  test("draft-07: the same holds for tuple items, additionalItems and dependencies", () => {
    expect(checkChains(ajv07, SEEDS_07, DRAFT_07_OPS, 20240602, 250)).toBeGreaterThan(400);
  });

  test("a schema compared with itself, or with itself reordered, has no findings", () => {
    const shuffle = (value: Json): Json => {
      if (Array.isArray(value)) return value.map(shuffle);
      if (!isObj(value)) return value;
      const out: Obj = {};
      for (const key of Object.keys(value).reverse()) out[key] = shuffle(value[key] as Json);
      return out;
    };
    fc.assert(
      fc.property(fc.nat(SEEDS.length - 1), fc.array(mutation, { maxLength: 3 }), (seed, ops) => {
        const schema = mutate(pick(SEEDS, seed), ops);
        expect(compareSchemas(schema, clone(schema))).toEqual([]);
        expect(compareSchemas(schema, shuffle(schema))).toEqual([]);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
