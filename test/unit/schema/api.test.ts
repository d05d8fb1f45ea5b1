/** The analyzer's contract: exports, the keyword and reason tables, purity and never throwing on hostile JSON. */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compareSchemas, SCHEMA_REASONS } from "../../../src/schema/index.js";
import { KEYWORDS, type KeywordRole } from "../../../src/schema/keywords.js";
import { RULE_BY_ROLE, RULES } from "../../../src/schema/rules/index.js";

// Every keyword the brief names (JSON Schema 2020-12 plus the draft-07/04 forms still served).
const REQUIRED_KEYWORDS = [
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "prefixItems",
  "items",
  "contains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "definitions",
  "dependencies",
  "additionalItems",
];

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

describe("keyword and reason tables", () => {
  test("every keyword the analyzer must know is in the table", () => {
    for (const keyword of REQUIRED_KEYWORDS) expect(Object.hasOwn(KEYWORDS, keyword), keyword).toBe(true);
  });

  test("every role, including unknown keys, is owned by exactly one rule", () => {
    const roles = new Set<KeywordRole>(Object.values(KEYWORDS).map((info) => info.role));
    roles.add("unknown");
    for (const role of roles) {
      const owners = RULES.filter((rule) => rule.roles.includes(role));
      expect(owners.length, role).toBe(1);
      expect(RULE_BY_ROLE.get(role)).toBe(owners[0]);
    }
  });

  test("the unevaluated rule runs last, after the findings it reads", () => {
    expect(RULES[RULES.length - 1]?.roles).toEqual(["unevaluated"]);
  });

  test("every reason has a kind and a summary", () => {
    for (const [reason, info] of Object.entries(SCHEMA_REASONS)) {
      expect(["widened", "text", "structural"], reason).toContain(info.kind);
      expect(info.summary.length, reason).toBeGreaterThan(0);
    }
  });
});

describe("compareSchemas contract", () => {
  test("findings carry args the report can quote", () => {
    const findings = compareSchemas(
      { type: "object", properties: { q: { type: "string", maxLength: 10 } } },
      { type: "object", properties: { q: { type: "string", maxLength: 20 }, notes: { type: "string" } } },
    );
    expect(findings).toContainEqual({
      kind: "widened",
      reason: "limit_loosened",
      path: "/properties/q/maxLength",
      args: { keyword: "maxLength", before: 10, after: 20 },
    });
    expect(findings).toContainEqual({
      kind: "widened",
      reason: "property_added",
      path: "/properties/notes",
      args: { name: "notes", type: "string", required: "optional" },
    });
  });

  test("inputs are never mutated and results are repeatable", () => {
    const before = deepFreeze({ type: "object", properties: { a: { enum: [1, 2] } }, required: ["a"] });
    const after = deepFreeze({ type: "object", properties: { a: { enum: [2, 3] } }, anyOf: [{ required: ["a"] }] });
    const first = compareSchemas(before, after);
    expect(compareSchemas(before, after)).toEqual(first);
    expect(first.length).toBeGreaterThan(0);
  });

  test("a missing schema counts as `true`", () => {
    expect(compareSchemas(undefined, undefined)).toEqual([]);
    expect(compareSchemas(undefined, {})).toEqual([]);
    expect(compareSchemas({ type: "object" }, undefined)).toEqual([{ kind: "widened", reason: "schema_true", path: "" }]);
  });

  test("nesting past the walker's own depth limit is reported, not recursed into", () => {
    let before: unknown = { type: "string" };
    let after: unknown = { type: "number" };
    for (let i = 0; i < 400; i++) {
      before = { not: before };
      after = { not: after };
    }
    const findings = compareSchemas(before, after);
    expect(findings.some((f) => f.reason === "depth_limit" || f.kind === "widened")).toBe(true);
  });

  test("very deep non-schema values (100k nested arrays) do not overflow the stack", () => {
    let before: unknown = 1;
    let after: unknown = 2;
    for (let i = 0; i < 100_000; i++) {
      before = [before];
      after = [after];
    }
    const findings = compareSchemas({ default: before, enum: [before, 0] }, { default: after, enum: [after, 0] });
    const reasons = findings.map((f) => f.reason).sort();
    expect(reasons).toEqual(["enum_value_added", "enum_value_removed", "text_changed"]);
  });

  test("never throws on arbitrary JSON, and every finding is well formed", () => {
    const json = fc.jsonValue({ maxDepth: 6 });
    fc.assert(
      fc.property(json, json, (before, after) => {
        const findings = compareSchemas(before, after);
        for (const f of findings) {
          expect(SCHEMA_REASONS[f.reason].kind).toBe(f.kind);
          expect(f.path === "" || f.path.startsWith("/")).toBe(true);
        }
        expect(compareSchemas(before, before)).toEqual([]);
      }),
      { seed: 11, numRuns: 500 },
    );
  });

  test("never throws on schema-shaped random input with __proto__ keys from JSON.parse", () => {
    const keys = fc.constantFrom(...REQUIRED_KEYWORDS, "__proto__", "constructor", "x-hint", "toString");
    const value = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(true, false, null, 0, 1, -1, 2.5, "", "a", "^a", "#/$defs/a", "#"),
        fc.array(tie("v"), { maxLength: 3 }),
        fc.dictionary(keys, tie("v"), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, value, (before, after) => {
        // Round-trip through JSON.parse so "__proto__" is an own key, as in real input.
        const b: unknown = JSON.parse(JSON.stringify(before) ?? "null");
        const a: unknown = JSON.parse(JSON.stringify(after) ?? "null");
        expect(Array.isArray(compareSchemas(b, a))).toBe(true);
        expect(compareSchemas(b, JSON.parse(JSON.stringify(b)) as unknown)).toEqual([]);
      }),
      { seed: 12, numRuns: 1000 },
    );
  });
});
