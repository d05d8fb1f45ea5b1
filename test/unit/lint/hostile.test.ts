// Hostile input: huge strings, huge schemas, deep nesting, cycles and prototype keys finish quickly and never throw.
import { describe, expect, it } from "vitest";
import { TooManyFindingsError } from "../../../src/errors.js";
import { lintServer, message } from "../../../src/lint/index.js";

const MB10 = 10 * 1024 * 1024;
/** Generous: the suite shares two cores with other work. */
const BOUND_MS = 10_000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

const tool = (description: string) => ({ name: "hostile_tool", description, inputSchema: { type: "object" } });

describe("a 10 MB description finishes in seconds", () => {
  const texts: [string, string][] = [
    ["plain words", "word ".repeat(MB10 / 5)],
    ["one 10 MB word (no regex may overflow on it)", "a".repeat(MB10)],
    ["one 10 MB run of CJK", "漢".repeat(MB10 / 2)],
    ["a hiding phrase repeated", "do not tell the user ".repeat(MB10 / 21)],
    ["zero-width characters between letters", "a\u200b".repeat(MB10 / 2)],
    ["TAG characters only", "\u{e0041}".repeat(MB10 / 4)],
    ["unclosed HTML comment openers", "<!--".repeat(MB10 / 4)],
    ["near-miss file names", ".en".repeat(MB10 / 3)],
    ["credential names repeated", "cat ~/.ssh/id_rsa ".repeat(MB10 / 18)],
    ["apostrophes and negations", "don't don't ".repeat(MB10 / 12)],
  ];
  for (const [name, text] of texts) {
    it(name, () => {
      const { value, ms } = timed(() => lintServer({ tools: [tool(text)], instructions: text }));
      expect(ms).toBeLessThan(BOUND_MS);
      // Messages stay short however long the text is.
      for (const finding of value.findings) expect(message(finding).length).toBeLessThan(1_000);
    });
  }
});

describe("large and odd schemas", () => {
  it("a 100,000-property schema", () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index++) properties[`p${index}`] = { type: "string" };
    const { value, ms } = timed(() => lintServer({ tools: [{ name: "wide", description: "d", inputSchema: { type: "object", properties } }] }));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value.findings.filter((finding) => finding.rule === "S3")).toHaveLength(100_000);
  });

  it("nesting far beyond 64 levels is walked to the limit and no further", () => {
    let schema: unknown = { type: "string" };
    for (let level = 0; level < 5_000; level++) schema = { type: "object", properties: { deeper: schema } };
    const { value, ms } = timed(() => lintServer({ tools: [{ name: "deep", description: "d", inputSchema: schema }] }));
    expect(ms).toBeLessThan(BOUND_MS);
    const depths = value.findings.filter((finding) => finding.rule === "S3").map((finding) => (finding.path ?? "").split("/").length - 1);
    expect(Math.max(...depths)).toBeLessThanOrEqual(64);
  });

  it("a cycle (impossible in parsed JSON) ends", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema, items: { type: "array", items: schema } };
    const looped: Record<string, unknown> = { name: "loop", description: "d", inputSchema: schema };
    looped._meta = { again: looped };
    const { value } = timed(() => lintServer({ tools: [looped] }));
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
