// Table-driven cases per rule: test/fixtures/lint/rules/<rule>.json holds a firing case and near misses for that rule.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintServer } from "../../../src/lint/index.js";
import { fix, message } from "../../../src/lint/messages.js";
import { RULE_LIST } from "../../../src/lint/rules/index.js";
import { RULES } from "../../../src/lint/table.js";
import type { LintOptions, RuleId } from "../../../src/lint/types.js";

interface Case {
  name: string;
  tools: unknown[];
  instructions?: string;
  options?: { portability?: "default" | "strict"; formatAllowlist?: string[]; disable?: string[] };
  /** Findings of the file's rule only: [severity, tool, path]. */
  expect: [string, string | null, string | null][];
}

const dir = join(import.meta.dirname, "../../fixtures/lint/rules");
const files = readdirSync(dir).filter((name) => name.endsWith(".json"));

function options(item: Case): LintOptions {
  return {
    disable: new Set(item.options?.disable ?? []),
    portability: item.options?.portability ?? "default",
    formatAllowlist: item.options?.formatAllowlist ?? [],
  };
}

for (const file of files) {
  const rule = file.replace(/\.json$/, "") as RuleId;
  const cases = JSON.parse(readFileSync(join(dir, file), "utf8")) as Case[];
  describe(`rule ${rule}`, () => {
    it("has a firing case and a near miss", () => {
      expect(cases.some((item) => item.expect.length > 0)).toBe(true);
      expect(cases.some((item) => item.expect.length === 0)).toBe(true);
    });
    for (const item of cases) {
      it(item.name, () => {
        const result = lintServer({ tools: item.tools, instructions: item.instructions ?? null }, options(item));
        const mine = result.findings.filter((finding) => finding.rule === rule);
        expect(mine.map((finding) => [finding.severity, finding.tool, finding.path])).toEqual(item.expect);
        for (const finding of mine) {
          expect(RULES[rule].severities as readonly string[]).toContain(finding.severity);
          expect(message(finding).length).toBeGreaterThan(0);
          expect(fix(finding).length).toBeGreaterThan(0);
        }
      });
    }
  });
}

describe("the fixture set", () => {
  it("covers every rule but S6 and S8, which have their own tests", () => {
    const covered = new Set(files.map((name) => name.replace(/\.json$/, "")));
    const missing = RULE_LIST.map((rule) => rule.id).filter((id) => !covered.has(id));
    expect(missing.sort()).toEqual(["S6", "S8"]);
  });
});

describe("rule S6", () => {
  // 4 characters per estimated token of compact JSON: a description of N characters adds about N/4 tokens.
  const tool = (name: string, chars: number) => ({ name, description: "x".repeat(chars), inputSchema: { type: "object" } });
  const s6 = (tools: unknown[]) =>
    lintServer({ tools })
      .findings.filter((finding) => finding.rule === "S6")
      .map((finding) => [finding.severity, finding.tool, finding.args.tokens]);

  it("warns over ~10k estimated tokens, under (server)", () => {
    const [first] = s6([tool("a_tool", 20_000), tool("b_tool", 20_100)]);
    expect(first?.slice(0, 2)).toEqual(["warning", null]);
    expect(first?.[2]).toBeGreaterThan(10_000);
  });

  it("is an error over ~25k", () => {
    expect(s6([tool("a_tool", 60_000), tool("b_tool", 41_000)]).map((row) => row[0])).toEqual(["error"]);
  });

  it("near miss: just under 10k", () => {
    expect(s6([tool("a_tool", 19_000), tool("b_tool", 20_000)])).toEqual([]);
  });
});

describe("options", () => {
  const tools = [{ name: "get", inputSchema: { type: "object", properties: { id: {} } } }];

  it("--disable removes a rule's findings and nothing else", () => {
    const all = lintServer({ tools }).findings.map((finding) => finding.rule);
    const without = lintServer({ tools }, { disable: new Set(["S1"]), portability: "default", formatAllowlist: [] }).findings.map((finding) => finding.rule);
    expect(all).toContain("S1");
    expect(without).toEqual(all.filter((rule) => rule !== "S1"));
  });

  it("disabling S2 lets S3 report the missing description S2 would have covered", () => {
    const s3 = lintServer({ tools }, { disable: new Set(["S2"]), portability: "default", formatAllowlist: [] }).findings.filter(
      (finding) => finding.rule === "S3",
    );
    expect(s3.map((finding) => finding.args.reason)).toEqual(["untyped", "undescribed"]);
  });
});

// The fixtures the portability and client rules' severities were measured on with crosscheck
// (docs/rules/<rule>.md, bench/client-constructs.mjs): each must still show its rule, at the severity
// its page gives, so the evidence and the rule cannot drift apart.
describe("issue 39: the crosscheck construct fixtures", () => {
  const constructs = join(import.meta.dirname, "../../fixtures/crosscheck/constructs");
  const strict: LintOptions = { disable: new Set(), portability: "strict", formatAllowlist: [] };
  const EXPECTED: Record<string, [RuleId, string][]> = {
    "format.json": [["schema-format-portability", "info"]],
    "anyof-untyped-branch.json": [["schema-anyof-needs-type", "info"]],
    "anyof-boolean-branch.json": [["schema-anyof-needs-type", "info"]],
    "discriminator.json": [["schema-no-discriminator-keyword", "info"]],
    "refs.json": [["schema-no-defs", "info"]],
    "root-oneof.json": [["schema-root-oneof-portability", "info"]],
    "dialect.json": [
      ["schema-dialect-tag", "info"],
      ["client-unknown-dialect", "info"],
    ],
  };
  for (const file of readdirSync(constructs).filter((name) => name.endsWith(".json"))) {
    it(file, () => {
      const { tools } = JSON.parse(readFileSync(join(constructs, file), "utf8")) as { tools: unknown[] };
      const found = lintServer({ tools }, strict).findings;
      const expected = file.startsWith("sdk1-") ? [["client-sdk1-rejects", "error"] as [RuleId, string]] : (EXPECTED[file] ?? []);
      expect(expected.length, `${file} has an expectation`).toBeGreaterThan(0);
      for (const [rule, severity] of expected) {
        expect(
          found.filter((finding) => finding.rule === rule).map((finding) => finding.severity),
          rule,
        ).toContain(severity);
      }
    });
  }

  it("client-sdk1-rejects names the clients crosscheck saw hide the list: Gemini CLI alone for a boolean property or a bad outputSchema", () => {
    const sdk1 = (tool: unknown) =>
      lintServer({ tools: [tool] })
        .findings.filter((finding) => finding.rule === "client-sdk1-rejects")
        .map(message);
    const [untyped] = sdk1({ name: "a", description: "d", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" } });
    expect(untyped).toContain("MCP SDK 1.x clients (Claude Code, Gemini CLI) reject the whole tools/list result, so they show the model none");
    const [property] = sdk1({ name: "a", description: "d", inputSchema: { type: "object", properties: { value: true } } });
    expect(property).toContain("Gemini CLI (MCP SDK 1.x) rejects the whole tools/list result, so it shows the model none");
    const [output] = sdk1({ name: "a", description: "d", inputSchema: { type: "object" }, outputSchema: { type: "array" } });
    expect(output).toContain("Gemini CLI (MCP SDK 1.x) rejects");
  });
});
