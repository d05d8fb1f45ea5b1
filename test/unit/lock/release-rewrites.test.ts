// Issue 41 item 6: rewrites seen on real releases that accept exactly what they did (no change), a step
// loosened on a number (one row that says so), and a $ref moved to another definition (one row, not the old
// target's properties removed and the new one's added).
import { describe, expect, it } from "vitest";
import { compareDefinitions } from "../../../src/lock/compare.js";
import type { Change } from "../../../src/lock/kinds.js";
import { changeMessage } from "../../../src/report/messages.js";

const tool = (inputSchema: unknown) => ({ name: "search", description: "Search the index.", inputSchema });
const changes = (before: unknown, after: unknown): Change[] => compareDefinitions("search", tool(before), tool(after));
const lines = (list: Change[]) => list.map((change) => `${change.severity} ${change.kind}: ${changeMessage(change)}`);
const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });

describe("equivalent rewrites are no change", () => {
  it("a typed enum rewritten as anyOf of constants with the same values", () => {
    const before = object({ freshness: { type: "string", enum: ["day", "week", "month"], description: "How recent." } });
    const after = object({ freshness: { description: "How recent.", anyOf: [{ const: "day" }, { const: "week" }, { const: "month" }] } });
    expect(lines(changes(before, after))).toEqual([]);
    expect(lines(changes(after, before))).toEqual([]);
  });

  it("the same rewrite that also drops a value reports the value, not the type", () => {
    const before = object({ freshness: { type: "string", enum: ["day", "week", "month"] } });
    const after = object({ freshness: { anyOf: [{ const: "day" }, { const: "week" }] } });
    expect(lines(changes(before, after))).toEqual([
      'warning schema_changed: allowed value removed at /inputSchema/properties/freshness/anyOf: "month"; a call that sends it is now refused',
    ]);
  });

  it("propertyNames {type: string} added to an object", () => {
    const before = object({ fields: { type: "object", additionalProperties: { type: "string" } } });
    const after = object({ fields: { type: "object", additionalProperties: { type: "string" }, propertyNames: { type: "string" } } });
    expect(lines(changes(before, after))).toEqual([]);
  });

  it("a propertyNames that limits names is still reported", () => {
    const before = object({ fields: { type: "object" } });
    const after = object({ fields: { type: "object", propertyNames: { type: "string", maxLength: 8 } } });
    expect(changes(before, after).map((c) => c.kind)).toEqual(["schema_changed"]);
  });

  it("exclusiveMinimum 0 rewritten as minimum 1 on an integer", () => {
    const before = object({ count: { type: "integer", exclusiveMinimum: 0 } });
    const after = object({ count: { type: "integer", minimum: 1 } });
    expect(lines(changes(before, after))).toEqual([]);
    expect(lines(changes(after, before))).toEqual([]);
  });

  it("the same rewrite on a number is a real widening (0.5 is now accepted)", () => {
    const before = object({ ratio: { type: "number", minimum: 1 } });
    const after = object({ ratio: { type: "number", exclusiveMinimum: 0 } });
    expect(changes(before, after).some((c) => c.kind === "schema_widened")).toBe(true);
  });
});

describe("a number's step loosened", () => {
  it("multipleOf 2 -> 1 reads as one loosened limit, with no type change", () => {
    const before = object({ size: { type: "number", multipleOf: 2 } });
    const after = object({ size: { type: "number", multipleOf: 1 } });
    expect(lines(changes(before, after))).toEqual([
      "error schema_widened: input schema accepts or asks for more at /inputSchema/properties/size/multipleOf: limit loosened (keyword: multipleOf, before: 2, after: 1)",
    ]);
  });
});

describe("a $ref retargeted to another definition", () => {
  const defs = {
    ByName: { type: "object", properties: { name: { type: "string" }, exact: { type: "boolean" } }, additionalProperties: false },
    ByTag: { type: "object", properties: { tag: { type: "string" } } },
    Id: { type: "string" },
    ShortId: { type: "string", maxLength: 12 },
    Bare: { type: "object" },
  };
  const schema = (filter: string, id: string) => ({ type: "object", properties: { filter: { $ref: filter }, id: { $ref: id } }, $defs: defs });

  it("to one that accepts more: one widened row naming both targets, no parameter lines", () => {
    const got = changes(schema("#/$defs/ByName", "#/$defs/Id"), schema("#/$defs/ByTag", "#/$defs/Id"));
    expect(lines(got)).toEqual([
      'error schema_widened: reference at /inputSchema/properties/filter/$ref now points at "#/$defs/ByTag" instead of "#/$defs/ByName", which accepts more (4 differences; review the diff)',
    ]);
  });

  it("to one that accepts less: one warning naming both targets", () => {
    const got = changes(schema("#/$defs/ByName", "#/$defs/Id"), schema("#/$defs/ByName", "#/$defs/ShortId"));
    expect(lines(got)).toEqual([
      'warning schema_changed: reference at /inputSchema/properties/id/$ref now points at "#/$defs/ShortId" instead of "#/$defs/Id"; the new target accepts nothing the old one rejected (1 difference)',
    ]);
  });

  it("to one that only lists fewer parameters: the removed parameter's warning, as without a reference", () => {
    const got = changes(schema("#/$defs/ByTag", "#/$defs/Id"), schema("#/$defs/Bare", "#/$defs/Id"));
    expect(lines(got)).toEqual([
      "warning schema_changed: parameter `tag` removed; extra values are still accepted (at /inputSchema/properties/filter/$ref/properties/tag)",
    ]);
  });

  it("the same target spelled another way is no change", () => {
    expect(lines(changes(schema("#/$defs/ByName", "#/$defs/Id"), schema("#/%24defs/ByName", "#/$defs/Id")))).toEqual([]);
  });

  it("a hostile definition name in the reference is shown inert", () => {
    const hostile = {
      type: "object",
      properties: { id: { $ref: "#/$defs/\u202eevil" } },
      $defs: { "\u202eevil": { type: "string" }, Id: { type: "string", maxLength: 1 } },
    };
    const safe = { type: "object", properties: { id: { $ref: "#/$defs/Id" } }, $defs: hostile.$defs };
    const text = lines(changes(safe, hostile)).join("\n");
    expect(text).toContain("now points at");
    expect(text).not.toContain("\u202e");
  });
});

describe("a reference that cannot be resolved (issue 41 item 5)", () => {
  it("a local reference made external is an error that says what it accepts is unknown", () => {
    const got = changes(
      { type: "object", properties: { query: { $ref: "#/$defs/Query" } }, $defs: { Query: { type: "string" } } },
      { type: "object", properties: { query: { $ref: "https://schemas.example/query.json" } }, $defs: { Query: { type: "string" } } },
    );
    expect(lines(got)).toEqual([
      'error schema_widened: input schema accepts or asks for more at /inputSchema/properties/query/$ref: reference cannot be resolved (another document, never fetched, or a missing target), so what it accepts is unknown (keyword: $ref, before: "#/$defs/Query", after: "https://schemas.example/query.json")',
    ]);
  });

  it("the same external reference on both sides is no change (it is never fetched)", () => {
    const schema = { type: "object", properties: { query: { $ref: "https://schemas.example/query.json" } } };
    expect(changes(schema, structuredClone(schema))).toEqual([]);
  });
});
