// The linter's surface: the rule table, the registry, docs pages, counts, ordering and messages for every rule.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRuleId, lintServer, RULE_IDS, RULES, ruleEnabled } from "../../../src/lint/index.js";
import { RULE_LIST } from "../../../src/lint/rules/index.js";
import { PROBE_RULES } from "../../../src/probe/rules/index.js";

const repo = join(import.meta.dirname, "../../..");

describe("the rule table", () => {
  it("registers every rule exactly once (static rules in the linter, probe rules in probe/)", () => {
    expect([...RULE_LIST, ...PROBE_RULES].map((rule) => rule.id).sort()).toEqual([...RULE_IDS].sort());
    expect(Object.keys(RULES).sort()).toEqual([...RULE_IDS].sort());
  });

  it("has a docs page for every rule", () => {
    for (const id of RULE_IDS) expect(existsSync(join(repo, RULES[id].docs)), RULES[id].docs).toBe(true);
  });

  it("keeps the seed's severities for the definition rules, and takes the portability rules' from what clients do (issue 39)", () => {
    expect(RULES["name-format"].severities).toEqual(["error"]);
    expect(RULES["name-unique"].severities).toEqual(["error"]);
    expect(RULES["annotation-type"].severities).toEqual(["warning"]);
    expect(RULES["annotation-coherence"].severities).toEqual(["warning"]);
    expect(RULES["annotation-missing"].severities).toEqual(["info"]);
    expect(RULES["meta-ui-type"].severities).toEqual(["error"]);
    expect(RULES["meta-ui-resource-uri-required"].severities).toEqual(["error"]);
    expect(RULES["meta-ui-resource-uri-scheme"].severities).toEqual(["warning"]);
    // Every client crosscheck runs lists such a tool: a keyword dropped or a provider's validator no client uses is info.
    expect(RULES["schema-format-portability"].severities).toEqual(["info"]);
    expect(RULES["schema-anyof-needs-type"].severities).toEqual(["info"]);
    expect(RULES["schema-no-discriminator-keyword"].severities).toEqual(["info"]);
    for (const id of ["schema-no-defs", "schema-root-oneof-portability", "schema-dialect-tag"] as const) {
      expect([RULES[id].severities, RULES[id].strictOnly]).toEqual([["info"], true]);
    }
    expect(RULES["client-unknown-dialect"].severities).toEqual(["info"]);
    // A list the clients reject loses every tool.
    expect(RULES["client-sdk1-rejects"].severities).toEqual(["error"]);
  });

  it("validates --disable values and knows which rules run", () => {
    expect(isRuleId("S4")).toBe(true);
    expect(isRuleId("S9")).toBe(false);
    expect(isRuleId("__proto__")).toBe(false);
    const strict = { disable: new Set<string>(), portability: "strict" as const, formatAllowlist: [] };
    expect(ruleEnabled("schema-no-defs", { ...strict, portability: "default" })).toBe(false);
    expect(ruleEnabled("schema-no-defs", strict)).toBe(true);
    expect(ruleEnabled("S1", { ...strict, disable: new Set(["S1"]) })).toBe(false);
  });
});

describe("a lint run", () => {
  const tools = [
    {
      name: "good_tool",
      description: "Return the current UTC time as an ISO 8601 string, with the server's time zone name for display.",
      inputSchema: { type: "object" },
    },
    { name: "get", inputSchema: { type: "object", properties: { id: {} } } },
  ];

  it("orders findings by tool then rule, server findings last", () => {
    const result = lintServer({ tools });
    expect(result.findings.map((finding) => [finding.tool, finding.rule])).toEqual([
      ["get", "S1"],
      ["get", "S2"],
      ["get", "S3"],
      [null, "S5"],
      [null, "annotation-missing"],
    ]);
  });

  it("counts severities, clean tools and estimated tokens", () => {
    const result = lintServer({ tools });
    // S5 and annotation-missing are server findings: good_tool stays clean.
    expect(result.counts).toEqual({ error: 1, warning: 2, info: 2, cleanTools: 1 });
    expect(result.tools).toBe(2);
    expect(result.tokens.perTool).toEqual(tools.map((tool) => Math.ceil(JSON.stringify(tool).length / 4)));
    expect(result.tokens.total).toBe(result.tokens.perTool.reduce((sum, tokens) => sum + tokens, 0));
  });

  it("reads entries that are not objects or have no string name without throwing", () => {
    const result = lintServer({ tools: [null, 7, { name: 5 }] });
    expect(result.findings.filter((finding) => finding.rule === "name-format").map((finding) => finding.tool)).toEqual(["#1", "#2", "#3"]);
  });
});
