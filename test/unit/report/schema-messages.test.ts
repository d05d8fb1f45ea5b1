// Issue 22 items 4 and 6: schema change messages say what happened, and the last false alarms stay gone.
import { describe, expect, it } from "vitest";
import { compareDefinitions } from "../../../src/lock/compare.js";
import type { Change } from "../../../src/lock/kinds.js";
import { changeMessage } from "../../../src/report/messages.js";
import { schemaDiffLines } from "../../../src/report/schema-diff.js";

const tool = (inputSchema: unknown) => ({ name: "t", description: "Read a file.", inputSchema });
const changes = (before: unknown, after: unknown): Change[] => compareDefinitions("t", tool(before), tool(after));
const lines = (list: Change[]) => list.map((change) => `${change.severity} ${change.kind}: ${changeMessage(change)}`);

describe("a removed parameter (issue 22 item 6c)", () => {
  it("says `parameter removed`, once, as a warning, and that extra values are still accepted", () => {
    const got = changes(
      { type: "object", properties: { ref: { type: "string" }, b: { type: "string" } }, required: ["ref"] },
      { type: "object", properties: { b: { type: "string" } } },
    );
    expect(lines(got)).toEqual(["warning schema_changed: parameter `ref` removed; extra values are still accepted (at /inputSchema/properties/ref)"]);
  });

  it("without the extra-values clause when additionalProperties is false; the required entry is part of the removal", () => {
    const got = changes(
      { type: "object", properties: { ref: { type: "string" }, b: { type: "string" } }, required: ["ref"], additionalProperties: false },
      { type: "object", properties: { b: { type: "string" } }, additionalProperties: false },
    );
    expect(lines(got)).toEqual(["warning schema_changed: parameter `ref` removed (at /inputSchema/properties/ref)"]);
  });

  it("next to other structural changes, the removal keeps its own line", () => {
    const got = changes(
      { type: "object", properties: { ref: { type: "string" }, b: { type: "string" } } },
      { type: "object", properties: { b: { type: "string", maxLength: 4 } } },
    );
    expect(lines(got)).toEqual([
      "warning schema_changed: parameter `ref` removed; extra values are still accepted (at /inputSchema/properties/ref)",
      "warning schema_changed: input schema changed structurally at /inputSchema/properties/b/maxLength; review the diff",
    ]);
  });
});

describe("a new parameter (issue 22 items 4 and 6d)", () => {
  it("says `new parameter `x` (string, required)` once, and its text is its description, not its whole schema", () => {
    const got = changes(
      { type: "object", properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" }, x: { type: "string", description: "The x.", minLength: 2 } }, required: ["x"] },
    );
    expect(lines(got)).toEqual([
      "error schema_widened: new parameter `x` (string, required) at /inputSchema/properties/x",
      'error schema_text_changed: new text the model reads at /inputSchema/properties/x: "The x."',
    ]);
  });

  it("an optional parameter under a name the old schema held to less says so", () => {
    const got = changes(
      { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      { type: "object", properties: { a: { type: "string" }, x: { type: "integer" } }, additionalProperties: false },
    );
    expect(lines(got)).toEqual([
      "error schema_widened: new parameter `x` (integer, optional) at /inputSchema/properties/x; the old schema rejected this name or held it to a stricter schema",
    ]);
  });

  it("lists every string the model reads in it (title, enum values, nested descriptions) with where it sits", () => {
    const got = changes(
      { type: "object", properties: {} },
      { type: "object", properties: { mode: { title: "Mode", enum: ["fast", "slow"], description: "How." } } },
    );
    const text = got.find((change) => change.kind === "schema_text_changed");
    expect(text?.args.after).toBe("title: Mode\nenum/0: fast\nenum/1: slow\ndescription: How.");
  });
});

describe("false alarms (issue 22 item 6)", () => {
  it("a: a single-branch anyOf gaining a branch does not report its unchanged description as removed and new", () => {
    const got = changes(
      { type: "object", properties: { x: { anyOf: [{ type: "string", description: "The x value" }] } } },
      { type: "object", properties: { x: { anyOf: [{ type: "string", description: "The x value" }, { type: "null" }] } } },
    );
    expect(got.map((change) => change.kind)).toEqual(["schema_widened"]);
  });

  it("b: a widening reached through a $ref is reported once, at the reference, not again at $defs", () => {
    const got = changes(
      { type: "object", properties: { x: { $ref: "#/$defs/X" } }, $defs: { X: { type: "string", maxLength: 3 } } },
      { type: "object", properties: { x: { $ref: "#/$defs/X" } }, $defs: { X: { type: "string", maxLength: 5 } } },
    );
    expect(lines(got)).toEqual([
      "error schema_widened: input schema accepts or asks for more at /inputSchema/properties/x/$ref/maxLength: limit loosened (keyword: maxLength, before: 3, after: 5)",
    ]);
  });

  it("d: default null added to an optional parameter is info, not text", () => {
    const got = changes({ type: "object", properties: { x: { type: "string" } } }, { type: "object", properties: { x: { type: "string", default: null } } });
    expect(got.map((change) => [change.kind, change.severity, change.args.reason])).toEqual([["schema_changed", "info", "default_null"]]);
    // Any other default is still text the model reads.
    const other = changes({ type: "object", properties: { x: { type: "string" } } }, { type: "object", properties: { x: { type: "string", default: "" } } });
    expect(other.map((change) => [change.kind, change.severity])).toEqual([["schema_text_changed", "error"]]);
  });

  it.each([
    ["exclusiveMaximum draft-04 boolean to 2020-12 number", { type: "number", maximum: 5, exclusiveMaximum: true }, { type: "number", exclusiveMaximum: 5 }],
    ["integer to number with multipleOf 1", { type: "integer" }, { type: "number", multipleOf: 1 }],
    ["minItems 0 removed", { type: "array", minItems: 0 }, { type: "array" }],
  ])("e: %s reports nothing", (_name, before, after) => {
    expect(changes({ type: "object", properties: { x: before } }, { type: "object", properties: { x: after } })).toEqual([]);
    expect(changes({ type: "object", properties: { x: after } }, { type: "object", properties: { x: before } })).toEqual([]);
  });
});

describe("required in the structural diff (issue 22 item 4)", () => {
  it("is a set: names added and dropped, not an index-by-index edit", () => {
    const diff = schemaDiffLines(
      { type: "object", properties: { name: {}, type: {} }, required: ["a", "type"] },
      { type: "object", properties: { name: {}, type: {} }, required: ["a", "name"] },
    );
    expect(diff).toEqual(["~ $.required: + name, - type"]);
  });
});
