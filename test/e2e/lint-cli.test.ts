// End to end through the built CLI: `mcp-lint check FILE` with every flag, its exit codes, and the JSON and SARIF it writes.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sarifErrors } from "../fixtures/sarif/validate.js";
import { expectOneLineError } from "../fixtures/servers/live/harness.js";
import { cliPath, repo, runCli, tempDir, writeJson } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

const demo = join(repo, "test/fixtures/lint/servers/demo.json");
const readJson = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

/** A server with no finding at all. */
const CLEAN = {
  tools: [
    {
      name: "docs_search",
      description: "Search the documentation index by keyword and return the twenty best matching pages with titles and links.",
      inputSchema: { type: "object", properties: { query: { type: "string", description: "Words to search for." } } },
      annotations: { readOnlyHint: true },
    },
  ],
};

describe("mcp-lint check", () => {
  it("prints the report and exits 0 with no finding at the default --fail-on error (issue 39: a format every client lists is info)", async () => {
    const dir = tempDir();
    const result = await runCli(["check", demo], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(
      /^mcp-lint \S+ {2}server: demo-server 1\.0\.0 \(from .*demo\.json\)\n2 tools checked, definitions ~128 tokens \(estimated; name, description and inputSchema, as clients send them\)\n/,
    );
    expect(result.stdout).toContain("(server)\n  i S5 Tool names have no shared service prefix.\n      -> ");
    expect(result.stdout).toContain("get\n  ! S1 Description is only 3 words (aim for 15+).\n      -> Add when to use the tool");
    expect(result.stdout).toContain("search_docs\n  i schema-format-portability [site]");
    expect(result.stdout).toContain("  i annotation-missing No annotations: clients cannot tell whether it only reads");
    expect(result.stdout).toContain("0 errors, 2 warnings, 3 info; 0/2 tools clean");
    expect(result.stdout).toContain("Score: 92/100 (A)  ~1,200 tokens wasted per session (estimated; static checks only)");
    // An error-level finding exits 1: the same server with a tool that has no description.
    const [get, searchDocs] = JSON.parse(readFileSync(demo, "utf8")).tools;
    const undescribed = writeJson(dir, "undescribed.json", { tools: [{ ...get, description: undefined }, searchDocs] });
    const failed = await runCli(["check", undescribed], { cwd: dir });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toContain("get\n  x S1 ");
  });

  it("mcp-header: a header on a token parameter is an error, a header name clients reject a warning", async () => {
    const dir = tempDir();
    const properties = {
      region: { type: "string", description: "Warehouse region.", "x-mcp-header": "Region" },
      zone: { type: "string", description: "Warehouse zone.", "x-mcp-header": "region" },
      session_token: { type: "string", description: "Who is asking.", "x-mcp-header": "Session" },
    };
    const tools = [{ ...CLEAN.tools[0], inputSchema: { type: "object", properties } }];
    const result = await runCli(["check", writeJson(dir, "headers.json", { tools })], { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('x mcp-header [session_token] Parameter "session_token" looks like a secret (its name) and carries x-mcp-header');
    expect(result.stdout).toContain(
      '! mcp-header [zone] Parameter "zone" declares x-mcp-header "region": a header name another parameter of the tool already uses',
    );
    expect(result.stdout).not.toContain('Parameter "region"');
  });

  it("exits 0 on a clean server, and with --fail-on never", async () => {
    const dir = tempDir();
    const clean = await runCli(["check", writeJson(dir, "clean.json", CLEAN)], { cwd: dir });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("0 errors, 0 warnings, 0 info; 1/1 tools clean");
    expect((await runCli(["check", demo, "--fail-on", "never"], { cwd: dir })).code).toBe(0);
  });

  it("issue 39: grades from what clients send the model, so a big outputSchema leaves a clean server's score alone (regression: brave-search 3 F)", async () => {
    const dir = tempDir();
    const tool = CLEAN.tools[0] as Record<string, unknown>;
    const big = { tools: [{ ...tool, outputSchema: { type: "object", properties: { pages: { type: "array", description: "A page. ".repeat(8_000) } } } }] };
    const plain = await runCli(["check", writeJson(dir, "plain.json", CLEAN), "--json", "-"], { cwd: dir });
    const result = await runCli(["check", writeJson(dir, "big.json", big), "--json", "-"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const [before, after] = [JSON.parse(plain.stdout), JSON.parse(result.stdout)];
    expect(after.tokens_estimated).toBe(before.tokens_estimated);
    expect(after.tokens_counted).toEqual(["name", "description", "inputSchema"]);
    expect(after.score).toEqual(before.score);
    expect(result.stderr).toContain("1/1 tools clean\n");
    expect(result.stderr).toContain("Score: 100/100 (A)");
  });

  it("--fail-on warning and info lower the bar", async () => {
    const dir = tempDir();
    const noFormat = ["--format-allowlist", "uri"];
    expect((await runCli(["check", demo, ...noFormat], { cwd: dir })).code).toBe(0);
    expect((await runCli(["check", demo, ...noFormat, "--fail-on", "warning"], { cwd: dir })).code).toBe(1);
    expect((await runCli(["check", demo, ...noFormat, "--disable", "S1,S2", "--fail-on", "warning"], { cwd: dir })).code).toBe(0);
    expect((await runCli(["check", demo, ...noFormat, "--disable", "S1", "--disable", "S2", "--fail-on", "info"], { cwd: dir })).code).toBe(1);
  });

  it("--fail-under exits 1 when the server score is below it, and says so", async () => {
    const dir = tempDir();
    const under = await runCli(["check", demo, "--fail-on", "never", "--fail-under", "95"], { cwd: dir });
    expect(under.code).toBe(1);
    expect(under.stdout).toContain("Score 92 is under --fail-under 95.");
    expect((await runCli(["check", demo, "--fail-on", "never", "--fail-under", "92"], { cwd: dir })).code).toBe(0);
    const bad = await runCli(["check", demo, "--fail-under", "101"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(expectOneLineError(bad.stderr)).toContain("--fail-under takes a score from 0 to 100");
  });

  it("--min-severity hides terminal lines only, says how many, and changes neither JSON nor exit code", async () => {
    const dir = tempDir();
    const result = await runCli(["check", demo, "--min-severity", "error", "--fail-on", "warning", "--json", "r.json"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("S1 Description");
    expect(result.stdout).toContain("0 errors, 2 warnings, 3 info; 0/2 tools clean (5 findings below error not shown)");
    expect(readJson(dir, "r.json").findings).toHaveLength(4);
    const warn = await runCli(["check", demo, "--min-severity", "warning", "--fail-on", "never"], { cwd: dir });
    expect(warn.code).toBe(0);
    expect(warn.stdout).not.toContain("(server)");
    expect(warn.stdout).toContain("(3 findings below warning not shown)");
  });

  it("--disable drops a rule from every channel; an unknown rule ID is a usage error", async () => {
    const dir = tempDir();
    const result = await runCli(["check", demo, "--disable", "schema-format-portability", "--json", "r.json"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("schema-format-portability");
    expect(readJson(dir, "r.json").findings.map((finding: { rule: string }) => finding.rule)).toEqual(["S1", "S2", "annotation-missing"]);
    const unknown = await runCli(["check", demo, "--disable", "S1,S9"], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(expectOneLineError(unknown.stderr)).toContain('--disable: unknown rule "S9"');
    expect(unknown.stdout).toBe("");
  });

  it("--portability strict adds the opt-in rules; other values are usage errors", async () => {
    const dir = tempDir();
    const file = writeJson(dir, "t.json", {
      tools: [{ ...CLEAN.tools[0], inputSchema: { ...CLEAN.tools[0]?.inputSchema, oneOf: [{ type: "object", required: ["query"] }] } }],
    });
    const plain = await runCli(["check", file, "--json", "plain.json"], { cwd: dir });
    const strict = await runCli(["check", file, "--portability", "strict", "--json", "strict.json"], { cwd: dir });
    expect(plain.code).toBe(0);
    expect(strict.code).toBe(0);
    const rules = (name: string) => readJson(dir, name).findings.map((finding: { rule: string }) => finding.rule);
    expect(rules("plain.json")).toEqual([]);
    expect(rules("strict.json")).toEqual(["schema-root-oneof-portability", "schema-dialect-tag"]);
    const bad = await runCli(["check", file, "--portability", "loose"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(expectOneLineError(bad.stderr)).toContain("--portability must be default or strict");
  });

  it("--format-allowlist widens the allowed formats", async () => {
    const dir = tempDir();
    const result = await runCli(["check", demo, "--format-allowlist", "uri,uri-reference", "--json", "-"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).findings.map((finding: { rule: string }) => finding.rule)).toEqual(["S1", "S2", "annotation-missing"]);
  });

  it("--json writes the documented report; --json - puts it on stdout and the report on stderr", async () => {
    const dir = tempDir();
    const toFile = await runCli(["check", demo, "--json", "r.json"], { cwd: dir });
    const report = readJson(dir, "r.json");
    expect(Object.keys(report)).toEqual(["version", "server", "tools", "tokens_estimated", "tokens_counted", "findings", "server_findings", "score"]);
    expect(report).toMatchObject({
      version: 1,
      server: { name: "demo-server", version: "1.0.0", transport: "file", command_sha256: null, instructions_known: true, tools: 2 },
      tools: 2,
      tokens_estimated: 128,
      tokens_counted: ["name", "description", "inputSchema"],
      server_findings: [{ rule: "S5", severity: "info", message: "Tool names have no shared service prefix." }],
      score: { server: 92, grade: "A", static_only: true, tools: { get: { score: 90, grade: "A" }, search_docs: { score: 100, grade: "A", waste: [] } } },
    });
    expect(report.findings[0]).toEqual({
      rule: "S1",
      severity: "warning",
      tool: "get",
      path: "/description",
      message: "Description is only 3 words (aim for 15+).",
      fix: "Add when to use the tool, what it returns and its limits.",
    });
    expect(report.score.tools.get.waste[0]).toEqual({ cause: "S1", reason: "short", path: "/description", tokens: 500, basis: "estimated" });
    const toStdout = await runCli(["check", demo, "--json", "-"], { cwd: dir });
    expect(toStdout.code).toBe(toFile.code);
    expect(JSON.parse(toStdout.stdout)).toEqual(report);
    expect(toStdout.stderr).toBe(toFile.stdout);
  });

  it("--sarif writes SARIF 2.1.0 that validates against the official schema, results at the file", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "servers"));
    writeFileSync(join(dir, "servers", "demo.json"), readFileSync(demo));
    const result = await runCli(["check", "servers/demo.json", "--sarif", "out.sarif"], { cwd: dir });
    expect(result.code).toBe(0);
    const log = readJson(dir, "out.sarif");
    expect(sarifErrors(log)).toBeNull();
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe("mcp-lint");
    expect(run.results.map((item: { ruleId: string; level: string }) => `${item.ruleId}:${item.level}`)).toEqual([
      "S1:warning",
      "S2:warning",
      "annotation-missing:note",
      "schema-format-portability:note",
      "S5:note",
    ]);
    expect(run.results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: "servers/demo.json", uriBaseId: "%SRCROOT%" });
    expect(run.properties.score).toEqual({ server: 92, grade: "A", static_only: true });
  });

  it("refuses --json and --sarif paths that are symbolic links before reading anything", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "target.txt"), "keep me");
    symlinkSync(join(dir, "target.txt"), join(dir, "link.json"));
    for (const flag of ["--json", "--sarif"]) {
      const result = await runCli(["check", "missing.json", flag, "link.json"], { cwd: dir });
      expect(result.code).toBe(2);
      expect(expectOneLineError(result.stderr)).toContain("symbolic link");
    }
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("keep me");
  });

  it("reads the three --from shapes: {tools}, a JSON-RPC response and a bare array", async () => {
    const dir = tempDir();
    const shapes = [CLEAN, { jsonrpc: "2.0", id: 1, result: CLEAN }, CLEAN.tools];
    for (const [index, shape] of shapes.entries()) {
      const result = await runCli(["check", writeJson(dir, `s${index}.json`, shape), "--json", "-"], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).tools).toBe(1);
    }
  });

  it("usage errors: no file, a missing file, run without a command", async () => {
    const dir = tempDir();
    const none = await runCli(["check"], { cwd: dir });
    expect(none.code).toBe(2);
    expectOneLineError(none.stderr);
    const missing = await runCli(["check", "nope.json"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(expectOneLineError(missing.stderr)).toContain("nope.json does not exist");
    const run = await runCli(["run"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(expectOneLineError(run.stderr)).toContain("nothing to read");
    const both = await runCli(["check", demo, "--fail-on", "sometimes"], { cwd: dir });
    expect(both.code).toBe(2);
    expect(expectOneLineError(both.stderr)).toContain("--fail-on must be one of");
  });
});
