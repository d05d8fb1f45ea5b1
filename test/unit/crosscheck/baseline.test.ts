// Crosscheck baselines: parsing a file (a wrong shape is a usage error naming the file), the
// deterministic ASCII text written for it, and how --update-baseline merges a run into it.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import {
  BASELINE_VERSION,
  type BaselineEntry,
  baselineable,
  baselineText,
  entryKey,
  entryOf,
  parseBaseline,
  updatedEntries,
} from "../../../src/crosscheck/baseline.js";
import type { RenderFinding } from "../../../src/crosscheck/compare.js";

const FILE = "ci/crosscheck-baseline.json";

function entry(overrides: Partial<BaselineEntry> = {}): BaselineEntry {
  return { client: "claude-code", rule: "render-constraint-dropped", tool: "search", path: "/inputSchema/properties/limit", evidence: "minimum", ...overrides };
}

function finding(overrides: Partial<RenderFinding> = {}): RenderFinding {
  return {
    rule: "render-constraint-dropped",
    severity: "info",
    tool: "search",
    path: "/inputSchema/properties/limit",
    evidence: "minimum",
    detail: {},
    ...overrides,
  };
}

function parseError(value: unknown): UsageError {
  try {
    parseBaseline(value, FILE);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error("parseBaseline accepted the value");
}

describe("parseBaseline", () => {
  it("reads the entries of a well-formed file, keeping only the five identity fields", () => {
    const value = {
      crosscheckBaseline: 1,
      entries: [{ ...entry(), note: "reviewed" }, entry({ client: "codex", tool: "", path: "", rule: "render-tools-absent" })],
    };
    expect(parseBaseline(value, FILE)).toEqual([entry(), entry({ client: "codex", tool: "", path: "", rule: "render-tools-absent" })]);
    expect(parseBaseline({ crosscheckBaseline: BASELINE_VERSION, entries: [] }, FILE)).toEqual([]);
  });

  it.each([
    ["null", null, "not a crosscheck baseline (a JSON object)"],
    ["an array", [], "not a crosscheck baseline (a JSON object)"],
    ["a string", "entries", "not a crosscheck baseline (a JSON object)"],
    ["another version", { crosscheckBaseline: 2, entries: [] }, "crosscheckBaseline must be 1"],
    ["a version as a string", { crosscheckBaseline: "1", entries: [] }, "crosscheckBaseline must be 1"],
    ["no version", { entries: [] }, "crosscheckBaseline must be 1"],
    ["no entries", { crosscheckBaseline: 1 }, "entries must be an array"],
    ["entries as an object", { crosscheckBaseline: 1, entries: {} }, "entries must be an array"],
    ["an entry that is not an object", { crosscheckBaseline: 1, entries: [entry(), "x"] }, "entry 2 is not an object"],
    [
      "an entry without evidence",
      { crosscheckBaseline: 1, entries: [{ client: "a", rule: "render-tool-missing", tool: "t", path: "" }] },
      "entry 1 needs a string evidence",
    ],
    ["an entry with a number for tool", { crosscheckBaseline: 1, entries: [{ ...entry(), tool: 3 }] }, "entry 1 needs a string tool"],
    ["an entry with a null path", { crosscheckBaseline: 1, entries: [{ ...entry(), path: null }] }, "entry 1 needs a string path"],
    ["an unknown rule", { crosscheckBaseline: 1, entries: [entry(), entry({ rule: "S1" })] }, 'entry 2 names an unknown rule "S1"'],
  ])("rejects %s with a usage error naming the file", (_label, value, why) => {
    const error = parseError(value);
    expect(error.message).toBe(`--baseline ${FILE}: ${why}; fix the file or write it again with --update-baseline`);
  });

  it("does not read fields through the prototype", () => {
    const value = JSON.parse(
      '{"crosscheckBaseline":1,"entries":[{"__proto__":{"client":"x","rule":"render-tool-missing","tool":"t","path":"","evidence":"e"}}]}',
    );
    expect(() => parseBaseline(value, FILE)).toThrow(UsageError);
    expect(({} as Record<string, unknown>).client).toBeUndefined();
  });
});

describe("baselineText", () => {
  const entries = [
    entry({ client: "gemini-cli", rule: "render-type-changed", evidence: "integer->number" }),
    entry(),
    entry({ client: "claude-code", rule: "render-description-truncated", tool: "a", path: "/description", evidence: "3390->2048" }),
    entry({ client: "codex", rule: "render-tools-absent", tool: "", path: "", evidence: "none" }),
  ];

  it("writes the same bytes for the same entries in any order", () => {
    const text = baselineText(entries);
    expect(baselineText([...entries].reverse())).toBe(text);
    expect(baselineText([entries[2], entries[0], entries[3], entries[1]] as BaselineEntry[])).toBe(text);
  });

  it("writes version 1, entries sorted and deduplicated, keys sorted, two-space indent and a final newline", () => {
    const text = baselineText([...entries, ...entries, { ...entries[1] } as BaselineEntry]);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.endsWith("\n\n")).toBe(false);
    const parsed = JSON.parse(text) as { crosscheckBaseline: number; entries: BaselineEntry[] };
    expect(Object.keys(parsed)).toEqual(["crosscheckBaseline", "entries"]);
    expect(parsed.crosscheckBaseline).toBe(1);
    expect(parsed.entries).toHaveLength(4);
    expect(parsed.entries.map((item) => `${item.client} ${item.rule}`)).toEqual([
      "claude-code render-constraint-dropped",
      "claude-code render-description-truncated",
      "codex render-tools-absent",
      "gemini-cli render-type-changed",
    ]);
    for (const item of parsed.entries) expect(Object.keys(item)).toEqual(["client", "evidence", "path", "rule", "tool"]);
    expect(text).toContain('\n  "entries": [\n    {\n      "client": "claude-code",\n');
  });

  it("sorts by tool, path and evidence within a client and rule", () => {
    const same = [
      entry({ tool: "b" }),
      entry({ tool: "a", evidence: "maximum" }),
      entry({ tool: "a", evidence: "enum" }),
      entry({ tool: "a", path: "/inputSchema/properties/a" }),
    ];
    const parsed = JSON.parse(baselineText(same)) as { entries: BaselineEntry[] };
    expect(parsed.entries.map((item) => [item.tool, item.path, item.evidence])).toEqual([
      ["a", "/inputSchema/properties/a", "minimum"],
      ["a", "/inputSchema/properties/limit", "enum"],
      ["a", "/inputSchema/properties/limit", "maximum"],
      ["b", "/inputSchema/properties/limit", "minimum"],
    ]);
  });

  it("is ASCII-only: non-ASCII and bidi characters in server text are \\u escapes that read back as they were", () => {
    const hostile = [
      entry({ tool: "caf\u00e9" }),
      entry({ tool: "evil\u202eexe.txt", path: "/inputSchema/properties/\u{1F600}" }),
      entry({ evidence: "a\nb\u0007" }),
    ];
    const text = baselineText(hostile);
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
    expect(text).toContain('"caf\\u00e9"');
    expect(text).toContain('"evil\\u202eexe.txt"');
    expect(text).toContain("/inputSchema/properties/\\ud83d\\ude00");
    expect(text).toContain('"a\\nb\\u0007"');
    const back = parseBaseline(JSON.parse(text), FILE);
    expect(new Set(back.map(entryKey))).toEqual(new Set(hostile.map(entryKey)));
  });

  it("writes an empty baseline as version 1 with no entries", () => {
    expect(baselineText([])).toBe('{\n  "crosscheckBaseline": 1,\n  "entries": []\n}\n');
  });

  it("round-trips through parseBaseline", () => {
    const back = parseBaseline(JSON.parse(baselineText(entries)), FILE);
    expect(baselineText(back)).toBe(baselineText(entries));
    expect(back).toHaveLength(entries.length);
  });
});

describe("entries of findings", () => {
  it("spells a client-level finding's tool and path as empty strings", () => {
    expect(entryOf("codex", finding({ rule: "render-tools-absent", tool: null, path: null, evidence: "none" }))).toEqual({
      client: "codex",
      rule: "render-tools-absent",
      tool: "",
      path: "",
      evidence: "none",
    });
    expect(entryOf("claude-code", finding())).toEqual(entry());
  });

  it("keys an entry by all five fields", () => {
    const base = entryKey(entry());
    for (const field of ["client", "rule", "tool", "path", "evidence"] as const) expect(entryKey(entry({ [field]: "other" }))).not.toBe(base);
    // Fields do not run into each other.
    expect(entryKey(entry({ tool: "a", path: "b" }))).not.toBe(entryKey(entry({ tool: 'a","b', path: "" })));
  });

  it("never baselines a client that failed to run", () => {
    expect(baselineable({ rule: "render-client-failed" })).toBe(false);
    expect(baselineable({ rule: "render-tools-absent" })).toBe(true);
    expect(baselineable({ rule: "render-param-missing" })).toBe(true);
  });
});

describe("updatedEntries", () => {
  const previous = [
    entry({ client: "claude-code", evidence: "minimum" }),
    entry({ client: "claude-code", rule: "render-tool-missing", tool: "gone", path: "", evidence: "missing" }),
    entry({ client: "codex", evidence: "pattern" }),
    entry({ client: "gemini-cli", evidence: "format" }),
  ];

  it("keeps the entries of clients not compared and replaces those of compared ones", () => {
    const compared = new Map<string, RenderFinding[]>([["claude-code", [finding({ evidence: "maximum" })]]]);
    expect(updatedEntries(previous, compared)).toEqual([
      entry({ client: "codex", evidence: "pattern" }),
      entry({ client: "gemini-cli", evidence: "format" }),
      entry({ client: "claude-code", evidence: "maximum" }),
    ]);
  });

  it("drops every entry of a compared client that found nothing", () => {
    const result = updatedEntries(previous, new Map([["codex", []]]));
    expect(result.some((item) => item.client === "codex")).toBe(false);
    expect(result).toHaveLength(3);
  });

  it("adds the entries of a client the baseline did not have", () => {
    const result = updatedEntries([], new Map([["opencode", [finding({ tool: null, path: null, rule: "render-tools-absent", evidence: "none" })]]]));
    expect(result).toEqual([{ client: "opencode", rule: "render-tools-absent", tool: "", path: "", evidence: "none" }]);
  });

  it("never writes render-client-failed findings", () => {
    const failed = finding({ rule: "render-client-failed", severity: "error", tool: null, path: null, evidence: "failed", detail: { reason: "timed out" } });
    const result = updatedEntries([], new Map([["claude-code", [failed, finding()]]]));
    expect(result).toEqual([entry()]);
    expect(baselineText(result)).not.toContain("render-client-failed");
  });
});
