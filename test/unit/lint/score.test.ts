// The token-weighted score: per-finding estimates, definition overhead, halving, grades, and the server formula.
import { describe, expect, it } from "vitest";
import { lintServer } from "../../../src/lint/index.js";
import { definitionOverhead, findingWaste, grade, scoreServer, type ToolCost } from "../../../src/lint/score.js";
import { DEFINITION_FREE_TOKENS, SERVER_HALF_LIFE, TOOL_HALF_LIFE, TOOLS_USED_PER_SESSION } from "../../../src/lint/score-constants.js";
import type { LintFinding } from "../../../src/lint/types.js";

const finding = (rule: LintFinding["rule"], reason?: string): LintFinding => ({
  rule,
  severity: "warning",
  tool: "t",
  toolIndex: 0,
  path: null,
  args: reason === undefined ? {} : { reason },
});

const cost = (tool: string, toolIndex: number, items: [string, number, "estimated" | "definition" | "measured"][]): ToolCost => ({
  tool,
  toolIndex,
  definitionTokens: 0,
  waste: items.map(([cause, tokens, basis]) => ({ cause, reason: null, path: null, tokens, basis })),
});

describe("waste per finding", () => {
  it("prices findings from the table, by rule and reason", () => {
    expect(findingWaste(finding("S1", "missing"))).toBe(2_000);
    expect(findingWaste(finding("S1", "short"))).toBe(500);
    expect(findingWaste(finding("S7"))).toBe(2_000);
    expect(findingWaste(finding("S4"))).toBe(500);
    expect(findingWaste(finding("S2"))).toBe(300);
    expect(findingWaste(finding("S3", "untyped"))).toBe(300);
    expect(findingWaste(finding("S3", "undescribed"))).toBe(100);
  });

  it("charges nothing for S8, naming, budget and definition rules", () => {
    for (const rule of ["S8", "S5", "S6", "name-format", "schema-format-portability", "client-sdk1-rejects", "annotation-missing"] as const)
      expect(findingWaste(finding(rule))).toBe(0);
  });

  it("leaves tool scores unchanged when a tool has no annotations (annotation-missing is not scored)", () => {
    const tool = {
      name: "get_time",
      description: "Return the current UTC time as an ISO 8601 string, with the server's time zone name for display.",
      inputSchema: { type: "object" },
    };
    const annotated = { ...tool, name: "get_date", annotations: { readOnlyHint: true } };
    const result = lintServer({ tools: [tool, annotated] });
    expect(result.findings.map((item) => [item.rule, item.tool])).toContainEqual(["annotation-missing", "get_time"]);
    expect(result.score.tools.map((item) => [item.tool, item.score, item.waste])).toEqual([
      ["get_time", 100, []],
      ["get_date", 100, []],
    ]);
    expect(result.score.server).toBe(100);
  });

  it("counts tokens over 300 per tool twice", () => {
    expect(definitionOverhead(DEFINITION_FREE_TOKENS)).toBe(0);
    expect(definitionOverhead(450)).toBe(300);
  });
});

describe("scores and grades", () => {
  it("halves a tool's score every 5,000 wasted tokens", () => {
    const score = scoreServer([cost("a", 0, [["S1", TOOL_HALF_LIFE, "estimated"]])]);
    expect(score.tools[0]?.score).toBe(50);
  });

  it("matches the seed's worked example: 1,100 tokens is 86 (B)", () => {
    const score = scoreServer([
      cost("read_file", 0, [
        ["S1", 500, "estimated"],
        ["S4", 500, "estimated"],
        ["S3", 100, "estimated"],
      ]),
    ]);
    expect([score.tools[0]?.score, score.tools[0]?.grade]).toEqual([86, "B"]);
  });

  it("grades A >= 90, B >= 75, C >= 50, D >= 25, F below", () => {
    expect([100, 90, 89, 75, 74, 50, 49, 25, 24, 0].map(grade)).toEqual(["A", "A", "B", "B", "C", "C", "D", "D", "F", "F"]);
  });

  it("server waste is all definition overhead plus average usage waste times 3, halving every 10,000", () => {
    const score = scoreServer([
      cost("a", 0, [
        ["definition", 1_000, "definition"],
        ["S1", 2_000, "estimated"],
      ]),
      cost("b", 1, [["S7", 4_000, "estimated"]]),
    ]);
    const expected = 1_000 + ((2_000 + 4_000) / 2) * TOOLS_USED_PER_SESSION;
    expect(score.wasted).toBe(expected);
    expect(score.server).toBe(Math.round(100 * 0.5 ** (expected / SERVER_HALF_LIFE)));
    expect(score.static_only).toBe(true);
  });

  it("turns static_only off once a measured (probe) item joins", () => {
    expect(scoreServer([cost("a", 0, [["P1", 3_000, "measured"]])]).static_only).toBe(false);
  });

  it("lists each tool's waste largest first and scores an empty server 100 (A)", () => {
    const score = scoreServer([
      cost("a", 0, [
        ["S3", 100, "estimated"],
        ["S1", 2_000, "estimated"],
      ]),
    ]);
    expect(score.tools[0]?.waste.map((item) => item.cause)).toEqual(["S1", "S3"]);
    expect([scoreServer([]).server, scoreServer([]).grade]).toEqual([100, "A"]);
  });
});

describe("the score of a lint run", () => {
  it("charges findings and definition overhead to the tool they belong to", () => {
    const big = { name: "big_tool", description: `${"word ".repeat(400)}`, inputSchema: { type: "object" } };
    const small = { name: "get", inputSchema: { type: "object" } };
    const result = lintServer({ tools: [big, small] });
    const [first, second] = result.score.tools;
    expect(first?.waste.map((item) => item.cause)).toEqual(["definition"]);
    expect(first?.waste[0]?.tokens).toBe(definitionOverhead(result.tokens.perTool[0] as number));
    expect(second?.waste.map((item) => `${item.cause}:${item.reason}`)).toEqual(["S1:missing"]);
    expect(result.score.static_only).toBe(true);
  });
});
