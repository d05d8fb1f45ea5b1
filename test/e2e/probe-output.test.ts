// End to end: what probing prints and writes stays safe and honest. Secrets a probe expands are redacted
// from every channel, hostile answers are inert, --include-responses keeps whole answers, --fail-under
// reads the measured score, probes work over HTTP, and misuse is a one-line usage error.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { sarifErrors } from "../fixtures/sarif/validate.js";
import { type HttpProbeServer, probeFixtures, probeLaunch, startHttpProbeServer } from "../fixtures/servers/probe/harness.js";
import { cliPath, runCli, tempDir, writeJson } from "./helpers.js";
import { expectInert } from "../hostile-strings.js";

const SECRET = "sk-probe-7f3a9c2e4b1d8f60";

let http: HttpProbeServer | null = null;
beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(() => {
  http?.stop();
  http = null;
});

describe("run --probe output", () => {
  it("redacts a ${NAME} value the server echoes, everywhere, and keeps hostile answers inert", async () => {
    const dir = tempDir();
    const fixtures = writeJson(dir, "f.json", {
      version: 1,
      probes: [
        { tool: "get_record_lenient", label: "echo", args: { record_id: "${MCP_LINT_PROBE_SECRET}" } },
        { tool: "get_banner", label: "hostile" },
      ],
    });
    const result = await runCli(["run", "--probe", fixtures, "--json", "r.json", "--include-responses", "--fail-on", "never", "--", ...probeLaunch], {
      cwd: dir,
      env: { MCP_LINT_PROBE_SECRET: SECRET },
    });
    expect(result.code, result.stderr).toBe(0);
    const json = readFileSync(join(dir, "r.json"), "utf8");
    for (const [channel, text] of [
      ["stdout", result.stdout],
      ["stderr", result.stderr],
      ["json", json],
    ] as const)
      expect(text, channel).not.toContain(SECRET);
    const report = JSON.parse(json) as { probes: { label: string; response: string }[] };
    expect(report.probes[0]?.response).toContain("Record [redacted]");
    const banner = report.probes[1]?.response ?? "";
    expectInert("json response", banner.replaceAll("\n", " "));
    expect(banner).toContain("Welcome\\u{1B}[2J\\u{1B}]8;;https://evil.example\\u{7}click");
    expect(banner.split("\n")[1]).toBe("::error::injected");
    expectInert("stdout", result.stdout);
  });

  it("--fail-under reads the score with measured waste", async () => {
    const dir = tempDir();
    const fixtures = writeJson(dir, "f.json", { version: 1, probes: [{ tool: "read_big_file", args: { path: "/big.txt" } }] });
    const plain = await runCli(["run", "--fail-on", "never", "--fail-under", "80", "--", ...probeLaunch], { cwd: dir });
    expect(plain.code, plain.stdout).toBe(0);
    const probed = await runCli(["run", "--probe", fixtures, "--fail-on", "never", "--fail-under", "80", "--", ...probeLaunch], { cwd: dir });
    expect(probed.code).toBe(1);
    expect(probed.stdout).toMatch(/\nScore (\d+) is under --fail-under 80\.\n/);
  });

  it("writes probe findings to SARIF as results of the P rules", async () => {
    const dir = tempDir();
    const result = await runCli(
      ["run", "--probe", probeFixtures("rules.json"), "--probe-timeout", "1", "--sarif", "r.sarif", "--fail-on", "never", "--", ...probeLaunch],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(0);
    const log = JSON.parse(readFileSync(join(dir, "r.sarif"), "utf8"));
    expect(sarifErrors(log)).toBeNull();
    const rules = new Set((log.runs[0].results as { ruleId: string }[]).map((entry) => entry.ruleId));
    for (const rule of ["P1", "P2", "P3", "P4", "P5", "format-parity"]) expect(rules.has(rule), rule).toBe(true);
  });

  it("probes a remote server over HTTP", async () => {
    http = await startHttpProbeServer();
    const dir = tempDir();
    const fixtures = writeJson(dir, "f.json", { version: 1, probes: [{ tool: "list_ids" }, { tool: "delete_record", args: { record_id: "x" } }] });
    const result = await runCli(["run", "--probe", fixtures, "--url", http.url, "--json", "r.json", "--fail-on", "never"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { server: { transport: string }; probes: { status: string }[] };
    expect(report.server.transport).toBe("streamable-http");
    expect(report.probes.map((entry) => entry.status)).toEqual(["ok", "blocked"]);
  });

  it.each([
    [["check", "tools.json", "--probe", "f.json"], /^mcp-lint: unknown option --probe( \(did you mean [^)]*\))?; see mcp-lint --help\n$/],
    [["run", "--include-responses", "--", "node", "x.mjs"], /^mcp-lint: --include-responses needs --probe FIXTURES or --error-probes\n$/],
    [["run", "--error-probes", "--probe-timeout", "0", "--", "node", "x.mjs"], /^mcp-lint: --probe-timeout takes seconds between 0 and 86400, not "0"\n$/],
    [["run", "--probe", "missing.json", "--", "node", "x.mjs"], /^mcp-lint: --probe fixtures file missing\.json does not exist\n$/],
  ])("refuses %j with one line", async (args, message) => {
    const result = await runCli(args, { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it("refuses a malformed fixtures file before the server starts", async () => {
    const dir = tempDir();
    const fixtures = writeJson(dir, "f.json", { version: 1, probes: [{ tool: "list_ids", alow_destructive: true }] });
    const result = await runCli(["run", "--probe", fixtures, "--", ...probeLaunch], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `mcp-lint: fixtures file ${fixtures}: probes[0]: unknown key "alow_destructive" (allowed: tool, label, args, expect_error, allow_destructive, skip)\n`,
    );
  });
});
