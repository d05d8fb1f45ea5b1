// SARIF as GitHub code scanning reads it (issue 25): the logs of check, lock --check and
// check-config pass the Microsoft SARIF multitool's GitHub rules (`validate --rule-kind Gh`) and its
// default rules with no error, results land on the line of the entry they are about, and URIs start
// at the git work tree root (from the root or a subfolder) or, outside any work tree, at the folder
// mcp-lint ran in, never absolute.
//
// The multitool (a .NET program, 104 MB unpacked) is installed from the npm registry into
// node_modules/.cache on first use, like the conformance suite of bench/; CI installs it afresh.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sarifErrors } from "../fixtures/sarif/validate.js";
import { demoServer, repo, runCli, tempDir } from "./helpers.js";

const MULTITOOL = "@microsoft/sarif-multitool-linux@5.7.0";
const cache = join(repo, "node_modules/.cache/mcp-lint-sarif-multitool");
const binary = join(cache, "node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
const supported = process.platform === "linux" && process.arch === "x64";

function multitool(): string {
  if (!existsSync(binary)) {
    mkdirSync(cache, { recursive: true });
    const install = spawnSync(
      "npm",
      ["install", "--prefix", cache, "--no-audit", "--no-fund", "--no-save", "--ignore-scripts", "--loglevel", "error", MULTITOOL],
      {
        encoding: "utf8",
        timeout: 240_000,
      },
    );
    if (install.status !== 0) throw new Error(`npm install ${MULTITOOL} failed: ${install.stderr}`);
  }
  // Its postinstall only marks the program executable; scripts are not run here.
  chmodSync(binary, 0o755);
  return binary;
}

/** The multitool's errors for some logs (one run of it: each start of the .NET program costs seconds), by rule kind ("Gh" or the default rules). */
function multitoolErrors(logs: readonly string[], ruleKind: "Gh" | null): string[] {
  const out = join(tempDir(), "validation.sarif");
  const args = ["validate", ...logs, "--output", out, "--log", "ForceOverwrite", ...(ruleKind === null ? [] : ["--rule-kind", ruleKind])];
  const run = spawnSync(multitool(), args, { encoding: "utf8", timeout: 120_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: "1" } });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toContain("Analysis completed successfully");
  expect(run.stdout).toContain(`Done. ${logs.length} files scanned.`);
  return run.stdout.split("\n").filter((line) => /: error /.test(line));
}

interface Result {
  ruleId: string;
  locations: Array<{ physicalLocation?: { artifactLocation: { uri: string; uriBaseId?: string }; region?: { startLine: number } } }>;
}
interface Run {
  results: Result[];
  originalUriBaseIds?: Record<string, { uri: string; properties?: Record<string, string> }>;
  tool: {
    driver: { informationUri?: string; rules: Array<{ id: string; fullDescription?: { text: string }; helpUri?: string; help?: { markdown?: string } }> };
  };
}
const runOf = (path: string): Run => (JSON.parse(readFileSync(path, "utf8")) as { runs: Run[] }).runs[0] as Run;
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split("\n").length;

function git(dir: string): void {
  expect(spawnSync("git", ["init", "--quiet", dir]).status).toBe(0);
}

describe("SARIF for GitHub code scanning", () => {
  let repoDir: string;
  let sub: string;
  let lockLog: string;
  let checkLog: string;
  let configLog: string;
  beforeAll(async () => {
    repoDir = tempDir();
    git(repoDir);
    sub = join(repoDir, "servers", "demo");
    mkdirSync(sub, { recursive: true });
    // lock --check of a rug-pulled server, run from a subfolder of the work tree.
    expect((await runCli(["lock", "--", "node", demoServer], { cwd: sub })).code).toBe(0);
    const pulled = await runCli(["lock", "--check", "--pass-env", "MCP_LINT_DEMO_RUGPULL", "--sarif", "lock.sarif", "--", "node", demoServer], {
      cwd: sub,
      env: { MCP_LINT_DEMO_RUGPULL: "1" },
    });
    expect(pulled.code, pulled.stderr).toBe(1);
    lockLog = join(sub, "lock.sarif");
    // check of a saved list with findings on several tools, written by hand with its own layout.
    const tools = [
      { name: "get", description: "Get it.", inputSchema: { type: "object", properties: { id: { type: "string" } } } },
      { name: "notes_search", description: "Search notes.", inputSchema: { type: "object", properties: { q: {} } } },
    ];
    writeFileSync(join(repoDir, "tools.json"), `{\n  "tools": [\n${tools.map((tool) => `    ${JSON.stringify(tool)}`).join(",\n\n")}\n  ]\n}\n`);
    const checked = await runCli(["check", "../../tools.json", "--fail-on", "warning", "--sarif", "check.sarif"], { cwd: sub });
    expect(checked.code).toBe(1);
    checkLog = join(sub, "check.sarif");
    writeFileSync(
      join(repoDir, ".mcp.json"),
      `${JSON.stringify({ mcpServers: { pinned: { command: "npx", args: ["-y", "left-pad@1.3.0"] }, loose: { command: "npx", args: ["-y", "some-server"] } } }, null, 2)}\n`,
    );
    const config = await runCli(["check-config", ".mcp.json", "--sarif", "config.sarif"], { cwd: repoDir });
    expect(config.code).toBe(1);
    configLog = join(repoDir, "config.sarif");
  }, 120_000);

  it.skipIf(!supported)(
    "passes the multitool's GitHub rules and its default rules with no error, for check, lock --check and check-config",
    () => {
      const logs = [checkLog, lockLog, configLog];
      expect(multitoolErrors(logs, "Gh")).toEqual([]);
      expect(multitoolErrors(logs, null)).toEqual([]);
    },
    400_000,
  );

  it("is valid SARIF 2.1.0 with every rule described, documented and the tool's home named", () => {
    for (const log of [checkLog, lockLog, configLog]) {
      expect(sarifErrors(JSON.parse(readFileSync(log, "utf8"))), log).toBeNull();
      const run = runOf(log);
      expect(run.tool.driver.informationUri).toBe("https://github.com/mcp-lint/mcp-lint");
      for (const rule of run.tool.driver.rules) {
        expect(rule.fullDescription?.text.length, rule.id).toBeGreaterThan(20);
        expect(rule.helpUri, rule.id).toMatch(/^https:\/\/github\.com\/mcp-lint\/mcp-lint/);
        expect(rule.help?.markdown, rule.id).toContain(rule.helpUri);
        // A docs page named in helpUri exists in this repository.
        const page = (rule.helpUri as string).match(/\/blob\/main\/([^#]+)/)?.[1];
        if (page !== undefined) expect(existsSync(join(repo, page)), page).toBe(true);
      }
    }
  });

  it("starts URIs at the work tree root when run from a subfolder, and names that base", () => {
    const lock = runOf(lockLog);
    expect(lock.originalUriBaseIds?.["%SRCROOT%"]?.properties?.["mcpLint/base"]).toBe("git-root");
    expect(lock.originalUriBaseIds?.["%SRCROOT%"]?.uri).toMatch(/^file:\/\/\/.*\/$/);
    for (const result of lock.results)
      expect(result.locations[0]?.physicalLocation?.artifactLocation).toEqual({ uri: "servers/demo/mcp-lint.lock", uriBaseId: "%SRCROOT%" });
    for (const result of runOf(checkLog).results) expect(result.locations[0]?.physicalLocation?.artifactLocation.uri).toBe("tools.json");
    for (const result of runOf(configLog).results) expect(result.locations[0]?.physicalLocation?.artifactLocation.uri).toBe(".mcp.json");
  });

  it("points each lock --check result at its tool's entry in the lock, and server-level ones at the instructions", () => {
    const lockText = readFileSync(join(sub, "mcp-lint.lock"), "utf8");
    const run = runOf(lockLog);
    expect(run.results.length).toBeGreaterThan(1);
    for (const result of run.results) {
      const line = result.locations[0]?.physicalLocation?.region?.startLine;
      const tool = (result.locations[0] as { logicalLocations?: Array<{ name: string; kind: string }> }).logicalLocations?.[0];
      if (tool?.kind === "function") expect(line, result.ruleId).toBe(lineOf(lockText, `\n    ${JSON.stringify(tool.name)}: {`) + 1);
      else expect(line, result.ruleId).toBe(lineOf(lockText, '\n  "instructions": {') + 1);
    }
  });

  it("points each check result at its tool's object in the file, and check-config results at the server's entry", () => {
    const listText = readFileSync(join(repoDir, "tools.json"), "utf8");
    const run = runOf(checkLog);
    const lines = new Set<number>();
    for (const result of run.results) {
      const line = result.locations[0]?.physicalLocation?.region?.startLine as number;
      const tool = (result.locations[0] as { logicalLocations?: Array<{ name: string; kind: string }> }).logicalLocations?.[0];
      if (tool?.kind === "function") expect(line, result.ruleId).toBe(lineOf(listText, `{"name":${JSON.stringify(tool.name)}`));
      else expect(line, result.ruleId).toBe(1);
      lines.add(line);
    }
    // Both tools have findings, on their own lines.
    expect([...lines].filter((line) => line > 1)).toHaveLength(2);
    const configText = readFileSync(join(repoDir, ".mcp.json"), "utf8");
    const loose = runOf(configLog).results.find((result) => result.ruleId === "I1/unpinned");
    expect(loose?.locations[0]?.physicalLocation?.region?.startLine).toBe(lineOf(configText, '"loose"'));
  });

  it("a list nested 200,000 deep beside its tools still gets its SARIF, naming the file without lines", async () => {
    const dir = tempDir();
    git(dir);
    writeFileSync(join(dir, "deep.json"), `{"tools":[{"name":"get","description":"Get it."}],"x":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
    const checked = await runCli(["check", "deep.json", "--fail-on", "warning", "--sarif", "deep.sarif"], { cwd: dir });
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(1);
    const run = runOf(join(dir, "deep.sarif"));
    expect(sarifErrors(JSON.parse(readFileSync(join(dir, "deep.sarif"), "utf8")))).toBeNull();
    expect(run.results.length).toBeGreaterThan(0);
    for (const result of run.results) expect(result.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: "deep.json", uriBaseId: "%SRCROOT%" } });
  });

  it("outside any work tree, starts URIs at the folder it ran in, with ../ for a file above it", async () => {
    const outside = tempDir();
    if (existsSync(join(outside, ".git")) || spawnSync("git", ["-C", outside, "rev-parse"], { encoding: "utf8" }).status === 0)
      return expect.fail("temp dir is inside a git work tree");
    const inner = join(outside, "inner");
    mkdirSync(inner);
    writeFileSync(join(outside, "tools.json"), JSON.stringify({ tools: [{ name: "get", description: "Get it." }] }));
    const checked = await runCli(["check", "../tools.json", "--fail-on", "warning", "--sarif", "out.sarif"], { cwd: inner });
    expect(checked.code).toBe(1);
    const run = runOf(join(inner, "out.sarif"));
    expect(run.originalUriBaseIds?.["%SRCROOT%"]?.properties?.["mcpLint/base"]).toBe("working-directory");
    for (const result of run.results) expect(result.locations[0]?.physicalLocation?.artifactLocation).toEqual({ uri: "../tools.json", uriBaseId: "%SRCROOT%" });
    expect(readFileSync(join(inner, "out.sarif"), "utf8")).not.toMatch(/"uri": "file:[^"]*tools\.json"/);
  });
});
