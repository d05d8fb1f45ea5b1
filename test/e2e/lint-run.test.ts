// End to end through the built CLI: `mcp-lint run` over real stdio (fixture server built on the SDK) and over HTTP,
// with the launch's own I1 findings, the known-bad refusal, secrets redacted and hostile strings kept inert.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectInert, HOSTILE } from "../hostile-strings.js";
import { sarifErrors } from "../fixtures/sarif/validate.js";
import { startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";
import { cliPath, fromFileServer, repo, runCli, tempDir, writeJson } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const demo = join(repo, "test/fixtures/lint/servers/demo.json");
const readJson = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));

describe("mcp-lint run over stdio", () => {
  it("launches the server, lints what it serves and reports it like check", async () => {
    const dir = tempDir();
    const result = await runCli(["run", "--json", "r.json", "--sarif", "r.sarif", "--", process.execPath, fromFileServer, demo], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^mcp-lint \S+ {2}server: demo-server 1\.0\.0 \(over stdio\)\n/);
    expect(result.stdout).toContain("0 errors, 2 warnings, 3 info; 0/2 tools clean");
    const report = readJson(dir, "r.json");
    expect(report.server).toMatchObject({ name: "demo-server", transport: "stdio", instructions_known: true, tools: 2 });
    expect(report.server.command_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.findings.map((finding: { rule: string }) => finding.rule)).toEqual(["S1", "S2", "annotation-missing", "schema-format-portability"]);
    const log = readJson(dir, "r.sarif");
    expect(sarifErrors(log)).toBeNull();
    // A live server has no file to point at: the tool is the place.
    expect(log.runs[0].results[0].locations).toEqual([{ logicalLocations: [{ name: "get", fullyQualifiedName: "demo-server/get", kind: "function" }] }]);
  });

  it("reports the launch command's own I1 findings under (server) and counts them toward --fail-on", async () => {
    const dir = tempDir();
    const clean = writeJson(dir, "clean.json", {
      tools: [
        {
          name: "docs_search",
          description: "Search the documentation index by keyword and return the twenty best matching pages with titles and links.",
          inputSchema: { type: "object", properties: { query: { type: "string", description: "Words to search for." } } },
          annotations: { readOnlyHint: true },
        },
      ],
    });
    // `exec` replaces the shell with the fixture server, so the unpinned npx after it never runs; I1 still reads it.
    const launch = ["sh", "-c", `exec '${process.execPath}' '${fromFileServer}' '${clean}' || npx -y some-unpinned-server`];
    const result = await runCli(["run", "--json", "r.json", "--sarif", "r.sarif", "--", ...launch], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\(server\)\n {2}! I1 \[unpinned\] .*some-unpinned-server/);
    expect(result.stdout).toContain("0 errors, 1 warning, 0 info; 1/1 tools clean");
    expect(readJson(dir, "r.json").server_findings).toEqual([expect.objectContaining({ rule: "I1", kind: "unpinned", severity: "warning" })]);
    const log = readJson(dir, "r.sarif");
    expect(sarifErrors(log)).toBeNull();
    expect(log.runs[0].results.map((item: { ruleId: string }) => item.ruleId)).toEqual(["I1/unpinned"]);
    expect((await runCli(["run", "--fail-on", "warning", "--", ...launch], { cwd: dir })).code).toBe(1);
    const disabled = await runCli(["run", "--fail-on", "warning", "--disable", "I1", "--", ...launch], { cwd: dir });
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).not.toContain("I1");
  });

  it("issue 39: a server whose input schemas are only {$schema} exits 1 with an error on every such tool and an F (regression: server-gitlab 90 A)", async () => {
    const dir = tempDir();
    const empty = (name: string) => ({
      name,
      description: `${name}: create or change something in a GitLab project and return what it made, with its URL and number.`,
      inputSchema: { $schema: "http://json-schema.org/draft-07/schema#" },
    });
    const file = writeJson(dir, "gitlab-like.json", {
      serverInfo: { name: "gitlab-like", version: "1.0.0" },
      tools: [empty("create_issue"), empty("push_files")],
    });
    const result = await runCli(["run", "--json", "r.json", "--", process.execPath, fromFileServer, file], { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('create_issue\n  x client-sdk1-rejects inputSchema has no "type": "object" at its root');
    expect(result.stdout).toContain('push_files\n  x client-sdk1-rejects inputSchema has no "type": "object" at its root');
    expect(result.stdout).toMatch(/\nScore: 24\/100 \(F\) .*F at most: SDK 1\.x clients reject the whole list for 2 tools/);
    const report = readJson(dir, "r.json");
    expect(report.score.grade).toBe("F");
    expect(
      report.findings.filter((finding: { rule: string; severity: string }) => finding.rule === "client-sdk1-rejects" && finding.severity === "error"),
    ).toHaveLength(2);
  });

  it("refuses a known-bad launch before starting it: reason on stderr, exit 1, no report written", async () => {
    const dir = tempDir();
    const result = await runCli(["run", "--json", "r.json", "--", "npx", "-y", "postmark-mcp@1.0.16"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^mcp-lint: refusing to launch the server: .*postmark-mcp/);
    expect(existsSync(join(dir, "r.json"))).toBe(false);
  });

  it("keeps hostile strings inert on stdout, stderr, JSON and SARIF", async () => {
    const dir = tempDir();
    const tools = HOSTILE.map((text, index) => ({
      name: index % 2 === 0 ? text : `tool_${index}`,
      title: text,
      description: `List all ${text} rows.`,
      inputSchema: {
        type: "object",
        properties: {
          [text]: { type: "string", description: text, enum: [text], default: text, format: text },
          nested: { type: "object", properties: { [text]: {} } },
        },
      },
      annotations: { title: text, readOnlyHint: text },
      _meta: { [text]: text },
    }));
    const file = writeJson(dir, "hostile.json", { serverInfo: { name: HOSTILE[0], version: HOSTILE[5] }, instructions: HOSTILE.join(" "), tools });
    const result = await runCli(["run", "--json", "r.json", "--sarif", "r.sarif", "--", process.execPath, fromFileServer, file], { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("S8");
    expectInert("stdout", result.stdout);
    expectInert("stderr", result.stderr);
    expectInert("JSON", readFileSync(join(dir, "r.json"), "utf8"));
    expectInert("SARIF", readFileSync(join(dir, "r.sarif"), "utf8"));
    expect(sarifErrors(readJson(dir, "r.sarif"))).toBeNull();
    const colour = await runCli(["check", file], { cwd: dir, env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    expect(colour.stdout).toContain("\u001b[");
    expectInert("stdout (colour)", colour.stdout.replace(/\u001b\[[0-9;]*m/g, ""));
  });
});

describe("mcp-lint run over HTTP", () => {
  it("lints a Streamable HTTP server (transport streamable-http)", async () => {
    const server = await startHttpFixture(["--tools", demo]);
    const dir = tempDir();
    const result = await runCli(["run", "--url", server.url, "--json", "r.json"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("(over streamable-http)");
    expect(readJson(dir, "r.json").server).toMatchObject({ transport: "streamable-http", tools: 2 });
  });

  it("redacts a --header-env secret the server echoes back, on every channel", async () => {
    const token = "tok-9d1f3c7ab2";
    const server = await startHttpFixture(["--auth", token, "--echo"]);
    const dir = tempDir();
    const result = await runCli(
      ["run", "--url", server.url, "--header-env", "Authorization=AUTH", "--json", "r.json", "--sarif", "r.sarif", "--fail-on", "never"],
      {
        cwd: dir,
        env: { AUTH: `Bearer ${token}` },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    // The echo lands in the server version the JSON report carries whole.
    expect(readJson(dir, "r.json").server.version).toContain("[redacted]");
    for (const text of [result.stdout, result.stderr, readFileSync(join(dir, "r.json"), "utf8"), readFileSync(join(dir, "r.sarif"), "utf8")]) {
      expect(text).not.toContain(token);
    }
  });
});
