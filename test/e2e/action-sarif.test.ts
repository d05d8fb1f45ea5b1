// Issue 12, item 7 (the Action's part): the `sarif` input. The lock check's SARIF 2.1.0 log is
// written where the workflow asks (inside the workspace, never through a symlink; input errors are
// in action-inputs.test.ts), valid against the official schema, with its file locations relative to
// the workspace root, where github/codeql-action/upload-sarif resolves them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { asciiJson, folderUri, rebaseSarif, sarifProblem } from "../../action/sarif.mjs";
import { sarifErrors } from "../fixtures/sarif/validate.js";
import { annotations, configProject, fakeAction, fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, demoServer, tempDir } from "./helpers.js";

interface SarifResult {
  ruleId: string;
  level: string;
  locations: { physicalLocation?: { artifactLocation: { uri: string; uriBaseId?: string } }; logicalLocations?: { fullyQualifiedName: string }[] }[];
}

function readSarif(path: string): { text: string; log: { runs: { results: SarifResult[] }[] } } {
  const text = readFileSync(path, "utf8");
  return { text, log: JSON.parse(text) };
}

/** Every file location, as upload-sarif resolves it (relative to the checkout, the workspace). */
function fileUris(log: { runs: { results: SarifResult[] }[] }): string[] {
  return log.runs.flatMap((run) => run.results.flatMap((result) => result.locations.map((location) => location.physicalLocation?.artifactLocation.uri ?? "")));
}

/** Lock the demo server in `root`/servers/my weather, then run the Action there on its rug pull; the subfolder. */
function rugPullInSubfolder(root: string, command: string): string {
  const sub = join(root, "servers", "my weather");
  mkdirSync(sub, { recursive: true });
  const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: sub, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  const result = runAction(
    { command, "pass-env": "MCP_LINT_DEMO_RUGPULL", sarif: "lock.sarif", "working-directory": "servers/my weather" },
    { MCP_LINT_DEMO_RUGPULL: "1" },
    root,
  );
  expect(result.status, result.stdout).toBe(1);
  return sub;
}

describe("the Action's SARIF helpers (action/sarif.mjs)", () => {
  it("encodes a folder as a URI prefix", () => {
    expect(folderUri("")).toBe("");
    expect(folderUri(".")).toBe("");
    expect(folderUri("servers/my weather")).toBe("servers/my%20weather/");
    expect(folderUri("a/#b")).toBe("a/%23b/");
  });

  it("prefixes relative %SRCROOT% URIs only, without changing its input", () => {
    const log = {
      version: "2.1.0",
      runs: [
        {
          results: [
            { locations: [{ physicalLocation: { artifactLocation: { uri: "mcp-lint.lock", uriBaseId: "%SRCROOT%" } } }] },
            { locations: [{ physicalLocation: { artifactLocation: { uri: "file:///elsewhere/mcp-lint.lock" } } }] },
            { locations: [{ physicalLocation: { artifactLocation: { uri: "other.lock" } } }] },
          ],
          properties: JSON.parse('{"__proto__": {"uri": "x", "uriBaseId": "%SRCROOT%"}}'),
        },
      ],
    };
    const before = JSON.stringify(log);
    const rebased = rebaseSarif(log, "servers/weather/");
    expect(JSON.stringify(log)).toBe(before);
    expect(fileUris(rebased as never)).toEqual(["servers/weather/mcp-lint.lock", "file:///elsewhere/mcp-lint.lock", "other.lock"]);
    // A `__proto__` key is data: kept as a key (and rebased like any other), never a prototype.
    expect(JSON.stringify(rebased.runs[0]?.properties)).toBe('{"__proto__":{"uri":"servers/weather/x","uriBaseId":"%SRCROOT%"}}');
    expect(rebaseSarif(log, "")).toBe(log);
  });

  it("writes ASCII JSON that reads back the same, hidden characters escaped", () => {
    const value = { text: "caf\u00e9 \u{E0041} \u202e \ud800 end", n: 1 };
    const text = asciiJson(value);
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("says why a log is unusable", () => {
    expect(sarifProblem([])).toBe("it is not a JSON object");
    expect(sarifProblem({ version: "2.0.0", runs: [] })).toBe("it is not SARIF 2.1.0");
    expect(sarifProblem({ version: "2.1.0" })).toBe("it has no runs");
    expect(sarifProblem({ version: "2.1.0", runs: [] })).toBeNull();
  });
});

describe("the sarif input", () => {
  const command = `node "${demoServer}"`;
  let workspace: string;
  beforeAll(() => {
    workspace = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
  });

  it("writes a valid, empty log for a clean server (an upload that clears old alerts)", () => {
    const result = runAction({ command, sarif: "mcp-lint.sarif" }, {}, workspace);
    expect(result.status, result.stdout).toBe(0);
    const { log } = readSarif(join(workspace, "mcp-lint.sarif"));
    expect(sarifErrors(log)).toBeNull();
    expect(log.runs[0]?.results).toEqual([]);
  });

  it("writes every change and hidden-text finding of a rug pull, valid SARIF 2.1.0 on the lockfile", () => {
    const result = runAction(
      { command, "pass-env": "MCP_LINT_DEMO_RUGPULL", sarif: "reports/mcp/lock.sarif", json: "reports/mcp/lock.json" },
      { MCP_LINT_DEMO_RUGPULL: "1" },
      workspace,
    );
    expect(result.status, result.stdout).toBe(1);
    const { text, log } = readSarif(join(workspace, "reports/mcp/lock.sarif"));
    expect(sarifErrors(log)).toBeNull();
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    const report = JSON.parse(readFileSync(join(workspace, "reports/mcp/lock.json"), "utf8"));
    const results = log.runs[0]?.results ?? [];
    expect(results).toHaveLength(report.changes.length + report.hidden_text.length);
    // The zero-width character stands alone; the key to read with the secrecy around it is one poisoning error (issue 23).
    expect(results.filter((entry) => entry.ruleId === "S8").map((entry) => entry.level)).toEqual(["warning", "error"]);
    expect(results.map((entry) => entry.ruleId)).toContain("schema_widened");
    expect(new Set(fileUris(log))).toEqual(new Set(["mcp-lint.lock"]));
    expect(annotations(result.runner).filter((entry) => entry.command === "error" && entry.properties.title === "mcp-lint")).toEqual([]);
  });

  it("makes the lockfile's URI relative to the workspace root when working-directory is a subfolder", () => {
    const root = tempDir();
    const sub = rugPullInSubfolder(root, command);
    const { text, log } = readSarif(join(sub, "lock.sarif"));
    expect(sarifErrors(log)).toBeNull();
    expect(text).toMatch(/^[\x20-\x7e\n]*$/);
    const uris = new Set(fileUris(log));
    expect(uris).toEqual(new Set(["servers/my%20weather/mcp-lint.lock"]));
    // upload-sarif finds the file at that URI under the checkout.
    for (const uri of uris) expect(existsSync(join(root, decodeURIComponent(uri)))).toBe(true);
  });

  it("in a checkout (a git work tree), keeps the URIs mcp-lint wrote from its root: not moved twice", () => {
    const root = tempDir();
    expect(spawnSync("git", ["init", "--quiet", root]).status).toBe(0);
    const sub = rugPullInSubfolder(root, command);
    const { log } = readSarif(join(sub, "lock.sarif"));
    expect(sarifErrors(log)).toBeNull();
    expect(new Set(fileUris(log))).toEqual(new Set(["servers/my%20weather/mcp-lint.lock"]));
    const base = (log.runs[0] as { originalUriBaseIds?: Record<string, { properties?: Record<string, string> }> }).originalUriBaseIds;
    expect(base?.["%SRCROOT%"]?.properties?.["mcpLint/base"]).toBe("git-root");
  });

  it("with config, writes valid SARIF for a rug pull in one server", () => {
    const project = configProject(tempDir());
    const made = spawnSync(process.execPath, [cliPath, "lock", "--config", ".mcp.json"], {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, ...project.env },
    });
    expect(made.status, made.stderr).toBe(0);
    project.pull();
    const result = runAction({ config: ".mcp.json", "pass-env": "NOTES_DIR NOTES_TOKEN", sarif: "mcp-lint.sarif" }, project.env, project.dir);
    expect(result.status, result.stdout).toBe(1);
    const { log } = readSarif(join(project.dir, "mcp-lint.sarif"));
    expect(sarifErrors(log)).toBeNull();
    expect((log.runs[0]?.results ?? []).map((entry) => `${entry.ruleId}:${entry.level}`)).toEqual(["description_changed:error", "S8:error", "S8:warning"]);
  });

  // Fails until mcp-lint's lock --check SARIF names each result's own server: it names the first
  // server's serverInfo name on every result (here "alpha-notes/read_file" for beta's changes). Reported
  // to the CLI's owners; when it is fixed this test fails, and `.fails` comes off.
  it("with config, names the changed server in each result's logical location (CLI, issue 14 item 6)", () => {
    const project = configProject(tempDir());
    const made = spawnSync(process.execPath, [cliPath, "lock", "--config", ".mcp.json"], {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, ...project.env },
    });
    expect(made.status, made.stderr).toBe(0);
    project.pull();
    const sarif = join(project.dir, "direct.sarif");
    spawnSync(process.execPath, [cliPath, "lock", "--check", "--config", ".mcp.json", "--sarif", sarif], {
      cwd: project.dir,
      env: { ...process.env, ...project.env },
    });
    const names = readSarif(sarif).log.runs[0]?.results.map((entry) => entry.locations[0]?.logicalLocations?.[0]?.fullyQualifiedName);
    expect(names).toEqual(["beta/read_file", "beta/read_file", "beta/read_file"]);
  });

  it("fails the step (exit 2) when mcp-lint exits 0 without writing the SARIF log it was asked for", () => {
    const fake = `import { writeFileSync } from "node:fs";
      const report = process.argv[process.argv.indexOf("--json") + 1];
      writeFileSync(report, JSON.stringify({ exit_code: 0, changes: [] }));`;
    const result = runAction({ command: "node server.mjs", sarif: "out.sarif" }, {}, workspace, { actionPath: fakeAction(fake) });
    expect(result.status).toBe(2);
    const errors = annotations(result.runner).filter((entry) => entry.command === "error");
    expect(errors.map((entry) => entry.data)).toEqual(['The sarif input "out.sarif": mcp-lint did not write the SARIF log.']);
    expect(result.summary).toContain("Exit code: **2** (error)");
    expect(result.outputs).toBe("exit-code=2\n");
    expect(existsSync(join(workspace, "out.sarif"))).toBe(false);
  });

  it("fails the step when the SARIF log is not SARIF 2.1.0", () => {
    const fake = `import { writeFileSync } from "node:fs";
      const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
      writeFileSync(arg("--json"), JSON.stringify({ exit_code: 0, changes: [] }));
      writeFileSync(arg("--sarif"), JSON.stringify({ version: "1.0", runs: [] }));`;
    const result = runAction({ command: "node server.mjs", sarif: "out.sarif" }, {}, workspace, { actionPath: fakeAction(fake) });
    expect(result.status).toBe(2);
    expect(annotations(result.runner).map((entry) => entry.data)).toEqual([
      'The sarif input "out.sarif": the SARIF log mcp-lint wrote is unusable: it is not SARIF 2.1.0.',
    ]);
  });
});

describe("the sarif input with a fixture server that has nothing to say", () => {
  it("is written next to a json report without mixing them up", () => {
    const workspace = tempDir();
    const command = fixtureCommand(workspace, "server", { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${command}`], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const result = runAction({ command, json: "r.json", sarif: "r.sarif" }, {}, workspace);
    expect(result.status, result.stdout).toBe(0);
    expect(JSON.parse(readFileSync(join(workspace, "r.json"), "utf8")).exit_code).toBe(0);
    expect(readSarif(join(workspace, "r.sarif")).log.runs).toHaveLength(1);
  });
});
