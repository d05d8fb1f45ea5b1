// The structural schema diff shown under a changed tool: the first 60 lines json-diff-ts gives,
// then a count of the rest, in linear time; past 20,000 values in a schema, one line instead.
import { atomizeChangeset, diff } from "json-diff-ts";
import { describe, expect, it } from "vitest";
import { schemaDiffLines } from "../../../src/report/schema-diff.js";
import { expectLinear } from "../../growth.js";

/** What json-diff-ts's own atomization gives, as paths and types: the reference for the cut-down copy. */
function referenceAtoms(before: unknown, after: unknown): string[] {
  return atomizeChangeset(diff({ schema: before }, { schema: after })).map((atom) => `${atom.type} ${atom.path.replace(/^\$\.schema/, "$")}`);
}

function shownAtoms(lines: string[]): string[] {
  return lines
    .filter((line) => !line.startsWith("... "))
    .map((line) => {
      const path = line.slice(2).split(/ = | \(was |: /)[0];
      return `${line[0] === "+" ? "ADD" : line[0] === "-" ? "REMOVE" : "UPDATE"} ${path}`;
    });
}

function wide(count: number, describe: boolean) {
  const properties: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) properties[`p${index}`] = describe ? { type: "string", description: `d${index}` } : { type: "string" };
  return { type: "object", properties, required: ["p0", "p1"] };
}

describe("schemaDiffLines", () => {
  it("shows the same first 60 changes as json-diff-ts, in its order, and counts the rest exactly", () => {
    const before = { ...wide(200, false), enum: ["a", "b", "c"], items: [{ type: "string" }, { type: "number" }] };
    const after = { ...wide(150, true), required: ["p1", "x"], enum: ["a", "c"], items: [{ type: "integer" }], extra: { "dotted.key": 1 } };
    // `required` and `enum` are sets: one line each first, then json-diff-ts's atoms of everything else.
    const { required: _b, enum: _be, ...beforeRest } = before;
    const { required: _a, enum: _ae, ...afterRest } = after;
    const reference = referenceAtoms(beforeRest, afterRest);
    expect(reference.length).toBeGreaterThan(200);
    const lines = schemaDiffLines(before, after);
    expect(lines).toHaveLength(63);
    expect(lines.slice(0, 2)).toEqual(["~ $.required: + x, - p0", '~ $.enum: lost value "b"']);
    expect(shownAtoms(lines.slice(2))).toEqual(reference.slice(0, 60));
    expect(lines[62]).toBe(`... ${reference.length - 60} more`);
  });

  it("compares required as a set: names added and dropped, never index by index", () => {
    const before = { type: "object", required: ["a", "type"], properties: { a: {}, type: {} } };
    const after = { type: "object", required: ["a", "name"], properties: { a: {}, type: {}, name: {} } };
    const lines = schemaDiffLines(before, after);
    expect(lines).toContain("~ $.required: + name, - type");
    expect(lines.some((line) => line.includes("required[1]"))).toBe(false);
    // Reordered, the same names say nothing; nested lists are compared the same way.
    expect(schemaDiffLines({ required: ["a", "b"] }, { required: ["b", "a"] })).toEqual([]);
    expect(schemaDiffLines({ properties: { o: { required: ["x"] } } }, { properties: { o: { required: ["y"] } } })).toEqual([
      "~ $.properties.o.required: + y, - x",
    ]);
  });

  it("regression (issue 37): an enum that lost one value is one line, not a line per value that moved up", () => {
    const colours = [
      "red",
      "orange",
      "yellow",
      "green",
      "blue",
      "indigo",
      "violet",
      "black",
      "white",
      "grey",
      "pink",
      "brown",
      "cyan",
      "magenta",
      "teal",
      "navy",
    ];
    const schema = (values: string[]) => ({ type: "object", properties: { colour: { type: "string", enum: values } } });
    expect(schemaDiffLines(schema(colours), schema(colours.filter((c) => c !== "orange")))).toEqual(['~ $.properties.colour.enum: lost value "orange"']);
    expect(schemaDiffLines(schema(colours), schema(["purple", ...colours]))).toEqual(['~ $.properties.colour.enum: new value "purple"']);
    expect(schemaDiffLines(schema(colours), schema([...colours.slice(2), "purple", "mauve"]))).toEqual([
      '~ $.properties.colour.enum: lost values "red", "orange"; new values "purple", "mauve"',
    ]);
    // No value came or went: one line says so.
    expect(schemaDiffLines(schema(colours), schema([...colours].reverse()))).toEqual(["~ $.properties.colour.enum: same values, new order"]);
    expect(schemaDiffLines(schema(colours), schema([...colours, "red"]))).toEqual(["~ $.properties.colour.enum: same values, duplicates changed"]);
    // Values are compared as JSON, whatever their key order; an unchanged enum says nothing.
    expect(schemaDiffLines({ enum: [{ a: 1, b: 2 }, 3] }, { enum: [{ b: 2, a: 1 }, 3] })).toEqual([]);
    // An enum added or removed as a whole is still one structural line.
    expect(schemaDiffLines({ type: "string" }, { type: "string", enum: ["a"] })).toEqual(['+ $.enum = ["a"]']);
  });

  it("an enum's line names at most 10 values and counts the rest, and shows each value inert", () => {
    const many = Array.from({ length: 5_000 }, (_, index) => `v${index}`);
    const lines = schemaDiffLines({ enum: many }, { enum: ["\u001b[31mred\u202e", ...many.slice(2_500)] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^~ \$\.enum: lost values "v0", "v1", .*"v9" and 2,490 more; new value "\\u001b\[31mred\\u\{202E\}"$/);
    // JSON escapes the ESC, the neutralizer the bidi override: nothing reaches the terminal raw.
    expect(lines[0]).not.toMatch(/[\u001b\u202e]/);
  });

  it("with a pointer, diffs what sits there and names it from the schema's root", () => {
    const before = { $schema: "http://json-schema.org/draft-07/schema#", anyOf: [{ type: "null" }, { properties: { "a.b": { enum: ["x", "y"] } } }] };
    const after = { $schema: "https://json-schema.org/draft/2020-12/schema", anyOf: [{ type: "null" }, { properties: { "a.b": { enum: ["x"] } } }] };
    expect(schemaDiffLines(before, after, "/$schema")).toEqual([
      '~ $.$schema: "http://json-schema.org/draft-07/schema#" -> "https://json-schema.org/draft/2020-12/schema"',
    ]);
    expect(schemaDiffLines(before, after, "/anyOf/1/properties/a.b")).toEqual(['~ $.anyOf[1].properties[a.b].enum: lost value "y"']);
    // A pointer at the enum itself (where a structural change names it) still reads by value.
    expect(schemaDiffLines(before, after, "/anyOf/1/properties/a.b/enum")).toEqual(['~ $.anyOf[1].properties[a.b].enum: lost value "y"']);
    expect(schemaDiffLines({ required: ["a", "b"] }, { required: ["b"] }, "/required")).toEqual(["~ $.required: - a"]);
    expect(schemaDiffLines({}, { $defs: { x: { type: "string" } } }, "/$defs/x")).toEqual(['+ $.$defs.x = {"type":"string"}']);
    expect(schemaDiffLines({ $defs: { x: {} } }, {}, "/$defs/x")).toEqual(["- $.$defs.x (was {})"]);
  });

  it("shows every change when there are 60 or fewer", () => {
    const before = wide(10, false);
    const after = wide(12, true);
    const lines = schemaDiffLines(before, after);
    expect(shownAtoms(lines)).toEqual(referenceAtoms(before, after));
    expect(lines.some((line) => line.startsWith("... "))).toBe(false);
  });

  it("a schema past 20,000 values gets one line, at once (json-diff-ts is quadratic there)", () => {
    // Linear in the schema's size (json-diff-ts would be quadratic): 15,000 and 150,000 values in one run.
    // The schemas are built once per size, outside what is compared (building 300,000 objects is the garbage collector's work, not the diff's).
    const built = new Map<number, [unknown, unknown]>();
    const pair = (size: number) => built.get(size) ?? (built.set(size, [wide(size, false), wide(size, true)]).get(size) as [unknown, unknown]);
    pair(15_000);
    pair(150_000);
    const lines = expectLinear("past the cut", (size) => schemaDiffLines(...pair(size)), 15_000);
    expect(lines).toEqual(["(structural diff not shown: a schema holds more than 20,000 values; each change is listed on its own)"]);
  });
});
