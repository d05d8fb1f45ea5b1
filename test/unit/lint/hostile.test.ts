// Hostile input: huge strings, huge schemas, deep nesting, cycles and prototype keys finish quickly and never throw.
import { describe, expect, it } from "vitest";
import { TooManyFindingsError } from "../../../src/errors.js";
import { lintServer, message } from "../../../src/lint/index.js";
import { expectLinear } from "../../growth.js";
import { scanText } from "../../../src/lint/hidden.js";

const MB = 1024 * 1024;

/** `unit` repeated to `size` characters (about). */
const filled = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

const tool = (description: string) => ({ name: "hostile_tool", description, inputSchema: { type: "object" } });

describe("a multi-megabyte description: linear work, short messages", () => {
  const units: [string, string][] = [
    ["plain words", "word "],
    ["one 5 MB word (no regex may overflow on it)", "a"],
    ["one 5 MB run of CJK", "漢"],
    ["a hiding phrase repeated", "do not tell the user "],
    ["zero-width characters between letters", "a\u200b"],
    ["TAG characters only", "\u{e0041}"],
    ["unclosed HTML comment openers", "<!--"],
    ["near-miss file names", ".en"],
    ["credential names repeated", "cat ~/.ssh/id_rsa "],
    ["apostrophes and negations", "don't don't "],
  ];
  for (const [name, unit] of units) {
    it(name, () => {
      const lint = (size: number) => lintServer({ tools: [tool(filled(unit, size))], instructions: filled(unit, size) });
      // 256 KB and 2.5 MB in one run: ten times the text, about ten times the work.
      const large = expectLinear(name, lint, MB / 4);
      // Messages stay short however long the text is.
      for (const finding of large.findings) expect(message(finding).length).toBeLessThan(1_000);
    });
  }
});

describe("a multi-megabyte description next to a tool it names", () => {
  it("a deprecation pointer repeated (S4 reads a bounded head of the text)", () => {
    const params = { type: "object", properties: { path: { type: "string" } } };
    const lint = (size: number) =>
      lintServer({
        tools: [
          { name: "old_read", description: filled("Deprecated: use new_read instead. ", size), inputSchema: params },
          { name: "new_read", description: "Read a file.", inputSchema: params },
        ],
      });
    const large = expectLinear("deprecation pointer", lint, MB / 2);
    expect(large.findings.filter((finding) => finding.rule === "S4").map((finding) => [finding.tool, finding.args.reason])).toEqual([
      ["old_read", "deprecated"],
      ["new_read", "replacement"],
    ]);
  });
});

describe("large and odd schemas", () => {
  it("a 100,000-property schema", () => {
    const wide = (count: number) => {
      const properties: Record<string, unknown> = {};
      for (let index = 0; index < count; index++) properties[`p${index}`] = { type: "string" };
      return lintServer({ tools: [{ name: "wide", description: "d", inputSchema: { type: "object", properties } }] });
    };
    const value = expectLinear("properties", wide, 10_000);
    expect(value.findings.filter((finding) => finding.rule === "S3")).toHaveLength(100_000);
  });

  it("nesting far beyond 64 levels is walked to the limit and no further", () => {
    const deep = (levels: number) => {
      let schema: unknown = { type: "string" };
      for (let level = 0; level < levels; level++) schema = { type: "object", properties: { deeper: schema } };
      return lintServer({ tools: [{ name: "deep", description: "d", inputSchema: schema }] });
    };
    const value = expectLinear("nesting", deep, 500);
    const depths = value.findings.filter((finding) => finding.rule === "S3").map((finding) => (finding.path ?? "").split("/").length - 1);
    expect(Math.max(...depths)).toBeLessThanOrEqual(64);
  });

  it("a cycle (impossible in parsed JSON) ends", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema, items: { type: "array", items: schema } };
    const looped: Record<string, unknown> = { name: "loop", description: "d", inputSchema: schema };
    looped._meta = { again: looped };
    const value = lintServer({ tools: [looped] });
    expect(value.tools).toBe(1);
  });

  it("__proto__ and constructor are plain keys", () => {
    const parsed = JSON.parse(
      '{"name":"__proto__","description":"d","__proto__":{"description":"\\u202e"},"inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"description":"c"}}}}',
    ) as unknown;
    const result = lintServer({ tools: [parsed] });
    expect(result.findings.map((finding) => [finding.rule, finding.severity, finding.path])).toEqual([
      ["S8", "error", "/__proto__/description"],
      ["S1", "warning", "/description"],
      ["S3", "info", "/inputSchema/properties/__proto__"],
      ["S3", "warning", "/inputSchema/properties/constructor"],
      ["annotation-missing", "info", null],
    ]);
    expect(Object.prototype).not.toHaveProperty("description");
  });

  it("a $ref chain that loops, and refs to nowhere", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/x" }, b: { $ref: "#/nowhere" }, c: { $ref: "http://e/x" } },
      $defs: { x: { $ref: "#/$defs/y" }, y: { $ref: "#/$defs/x" } },
    };
    expect(() => lintServer({ tools: [{ name: "refs", description: "d", inputSchema: schema }] })).not.toThrow();
  });
});

// The one deliberate throw: past MAX_FINDINGS a run stops with a clear error (exit 2 in the CLI)
// instead of building reports that would need gigabytes.
describe("a list with more findings than MAX_FINDINGS", () => {
  // 2,500 tools with 101 undescribed parameters each: 252,500 S3 findings, plus one S1 per tool.
  const properties = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`p${index}`, { type: "string" }]));
  const tools = Array.from({ length: 2_500 }, (_, index) => ({
    name: `do_thing_${index}`,
    description: "Does a thing.",
    inputSchema: { type: "object", properties },
  }));

  it("stops with an error naming the loudest rules and the flag that turns one off", () => {
    expect(() => lintServer({ tools })).toThrow(TooManyFindingsError);
    expect(() => lintServer({ tools })).toThrow(/^more than 250,000 lint findings \(S3 247,500, S1 2,500\); .* --disable S3$/);
  });

  it("runs once the loudest rule is off", () => {
    const result = lintServer({ tools }, { disable: new Set(["S3"]), portability: "default", formatAllowlist: [] });
    expect(result.findings.filter((finding) => finding.rule === "S1")).toHaveLength(2_500);
  });
});

// Issue 23: a 16 MB one-word description (the live-bounds fixture) overflowed V8's regex stack in
// S8's blob search (`[A-Za-z0-9+/_-]{24,}`), and spaced-out letters joined into one such word.
describe("S8 on 16 MB runs that once overflowed the regex stack", () => {
  it.each([
    ["one 16 MB word of base64 letters", "A"],
    ["16 MB of spaced-out letters, joined into one word", "a b "],
    ["16 MB of hex digits", "0"],
  ])("%s: scanned without an error", (_name, unit) => {
    const text = unit.repeat(Math.ceil((16 * 1024 * 1024) / unit.length));
    expect(() => scanText(text)).not.toThrow();
  });
});
