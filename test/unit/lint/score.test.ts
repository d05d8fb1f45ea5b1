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
    for (const rule of ["S8", "S5", "S6", "name-format", "schema-format-portability", "annotation-missing"] as const)
      expect(findingWaste(finding(rule))).toBe(0);
  });

  it("charges a tool SDK 1.x clients reject like a missing description, and a self-explanatory parameter nothing", () => {
    expect(findingWaste(finding("client-sdk1-rejects", "type"))).toBe(findingWaste(finding("S1", "missing")));
    expect(findingWaste(finding("S3", "self_explanatory"))).toBe(0);
    expect(findingWaste(finding("S2", "self_explanatory"))).toBe(0);
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
  // A flex-message-like action union: the same three properties in each of nine branches.
  const actions = Array.from({ length: 9 }, (_, index) => ({
    type: "object",
    properties: { type: { const: `kind${index}` }, label: { type: "string" }, data: { type: "string" }, note: {} },
  }));
  const flex = { name: "push_flex", description: "d", inputSchema: { type: "object", properties: { action: { description: "A tap.", anyOf: actions } } } };

  it("issue 39: charges a parameter repeated in every anyOf branch once, for its costliest finding (regression: LINE x27)", () => {
    const result = lintServer({ tools: [flex] });
    const params = result.score.tools[0]?.waste.filter((item) => item.cause === "S3").map((item) => [item.place, item.reason, item.tokens]);
    expect(params).toEqual([
      ["action.note", "untyped", 300],
      ["action.label", "undescribed", 100],
      ["action.data", "undescribed", 100],
    ]);
  });

  it("issue 39: charges nothing for self-explanatory parameters (regression: LINE's decoration, wrap, longitude)", () => {
    const properties = {
      decoration: { type: "string", enum: ["none", "underline", "line-through"] },
      wrap: { type: "boolean" },
      longitude: { type: "number", minimum: -180, maximum: 180 },
    };
    const result = lintServer({ tools: [{ name: "put_text", description: "d", inputSchema: { type: "object", properties } }] });
    expect(result.findings.filter((item) => item.rule === "S3").map((item) => [item.severity, item.args.reason])).toEqual([
      ["info", "self_explanatory"],
      ["info", "self_explanatory"],
      ["info", "self_explanatory"],
    ]);
    expect(result.score.tools[0]?.waste.filter((item) => item.cause === "S3")).toEqual([]);
  });

  it("issue 39: counts name, description and inputSchema, not outputSchema (regression: brave-search 3 F from a 76 KB outputSchema)", () => {
    const tool = { name: "web_search", description: "Search the web.", inputSchema: { type: "object" } };
    const withOutput = { ...tool, outputSchema: { type: "object", properties: { rows: { type: "array", description: "x".repeat(40_000) } } } };
    const [plain, big] = [lintServer({ tools: [tool] }), lintServer({ tools: [withOutput] })];
    expect(big.tokens.perTool).toEqual(plain.tokens.perTool);
    expect(big.tokens.fields).toEqual(["name", "description", "inputSchema"]);
    expect(big.score.server).toBe(plain.score.server);
  });

  it("issue 39: an input schema of only $schema is an error on every such tool and grades tool and server F (regression: server-gitlab 90 A)", () => {
    const empty = (name: string) => ({
      name,
      description: "Create a new issue in a GitLab project, with a title and a description, and return its number and URL.",
      inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" },
      annotations: { readOnlyHint: false },
    });
    const good = {
      ...empty("get_version"),
      description: "Return the version of the GitLab instance this server talks to, as a semantic version string.",
      inputSchema: { type: "object" },
    };
    const result = lintServer({ tools: [empty("create_issue"), empty("push_files"), good] });
    expect(result.findings.filter((item) => item.rule === "client-sdk1-rejects").map((item) => [item.severity, item.tool])).toEqual([
      ["error", "create_issue"],
      ["error", "push_files"],
    ]);
    expect(result.score.tools.map((tool) => [tool.tool, tool.grade])).toEqual([
      ["create_issue", "F"],
      ["push_files", "F"],
      ["get_version", "A"],
    ]);
    expect(result.score.tools[0]?.waste.map((item) => [item.cause, item.tokens])).toEqual([["client-sdk1-rejects", 2_000]]);
    expect([result.score.grade, result.score.rejectedTools]).toEqual(["F", 2]);
  });

  it("charges a tool SDK 1.x clients reject once, however many of its parts they refuse", () => {
    const tool = { name: "run_job", description: "d", inputSchema: { type: "array" }, outputSchema: { type: "string" } };
    const result = lintServer({ tools: [tool] });
    expect(result.findings.filter((item) => item.rule === "client-sdk1-rejects")).toHaveLength(2);
    expect(result.score.tools[0]?.waste.filter((item) => item.cause === "client-sdk1-rejects")).toHaveLength(1);
  });

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
