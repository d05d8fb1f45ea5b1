// No secret value ever appears in stdout, stderr, the --json report or the lockfile, across every
// place a server can echo one back: a --header-env value, the URL's query, the URL's user info
// (sent as Basic auth), echoed into tool descriptions, instructions and serverInfo.version,
// over Streamable HTTP and the SSE fallback. The URL's path and query are never printed or stored.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, runCli, tempDir } from "./helpers.js";
import { expectOneLineError, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const HEADER_SECRET = "hdr-SECRETH-81f3aa";
const QUERY_SECRET = "SECRETQ-55a1bb";
const USER = "fixtureuser";
const PASSWORD = "SECRETU-c3d9cc";
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");
/** Every form a secret could leak in: whole values, their distinctive cores, Basic credentials. */
const LEAKS = [HEADER_SECRET, QUERY_SECRET, PASSWORD, BASIC, "SECRETH", "SECRETQ", "SECRETU"];

type Source = "header-env" | "query" | "userinfo";
const ALL: Source[] = ["header-env", "query", "userinfo"];

/** The URL, flags and environment that send the given secrets to `base`. */
function secretRun(base: string, sources: Source[]): { args: string[]; env: Record<string, string> } {
  const url = new URL(base);
  if (sources.includes("query")) url.search = `?token=${QUERY_SECRET}`;
  if (sources.includes("userinfo")) {
    url.username = USER;
    url.password = PASSWORD;
  }
  const args = ["--url", url.href];
  if (sources.includes("header-env")) args.push("--header-env", "X-Api-Key=API_KEY_VAR");
  return { args, env: { API_KEY_VAR: HEADER_SECRET } };
}

function expectNoSecret(where: string, text: string): void {
  for (const leak of LEAKS) expect(text.includes(leak), `${where} contains ${leak}:\n${text.slice(0, 3000)}`).toBe(false);
}

function readIfExists(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

const cases: [string, Source[], string[]][] = [
  ["a --header-env value", ["header-env"], []],
  ["the URL query", ["query"], []],
  ["the URL user info", ["userinfo"], []],
  ["all three at once", ALL, []],
  ["the URL query, over the SSE fallback", ["query"], ["--sse-only"]],
  ["all three at once, over the SSE fallback", ALL, ["--sse-only"]],
];

describe("lock refuses to write a lockfile that would hold a secret", () => {
  for (const [name, sources, serverFlags] of cases) {
    it(`echoed secret from ${name}: exit 2, no file, no secret in output`, async () => {
      const server = await startHttpFixture(["--echo", ...serverFlags]);
      const dir = tempDir();
      const { args, env } = secretRun(server.url, sources);
      const result = await runCli(["lock", "--timeout", "10", "--json", "report.json", ...args], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(2);
      const line = expectOneLineError(result.stderr);
      expect(line).toMatch(/secret|redact/i);
      expectNoSecret("stdout", result.stdout);
      expectNoSecret("stderr", result.stderr);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
      const report = readIfExists(join(dir, "report.json"));
      if (report !== null) expectNoSecret("report.json", report);
    });
  }

  it("an existing lock is left byte for byte", async () => {
    const server = await startHttpFixture(["--echo"]);
    const dir = tempDir();
    const clean = await runCli(["lock", "--url", server.url], { cwd: dir });
    expect(clean.code, clean.stderr).toBe(0);
    const before = readFileSync(join(dir, "mcp-lint.lock"));
    const { args, env } = secretRun(server.url, ALL);
    for (const extra of [[], ["--accept"]]) {
      const result = await runCli(["lock", ...extra, ...args], { cwd: dir, env });
      expect(result.code).toBe(2);
      expectOneLineError(result.stderr);
      expectNoSecret("stdout", result.stdout);
      expectNoSecret("stderr", result.stderr);
      expect(readFileSync(join(dir, "mcp-lint.lock")).equals(before)).toBe(true);
    }
  });
});

describe("lock --check redacts echoed secrets", () => {
  for (const [name, sources, serverFlags] of cases) {
    it(`echoed secret from ${name}: [redacted] in stdout and --json, never the value`, async () => {
      const server = await startHttpFixture(["--echo", ...serverFlags]);
      const dir = tempDir();
      // A lock from a run that sends no secret; the echo then differs on --check.
      const clean = await runCli(["lock", "--url", server.url], { cwd: dir });
      expect(clean.code, clean.stderr).toBe(0);
      const { args, env } = secretRun(server.url, sources);
      const check = await runCli(["lock", "--check", "--timeout", "10", "--json", "report.json", ...args], { cwd: dir, env });
      expect(check.code, check.stderr).toBe(1);
      expect(check.stdout).toMatch(/description_changed/);
      const report = readFileSync(join(dir, "report.json"), "utf8");
      expectNoSecret("stdout", check.stdout);
      expectNoSecret("stderr", check.stderr);
      expectNoSecret("report.json", report);
      expectNoSecret("mcp-lint.lock", readFileSync(join(dir, "mcp-lint.lock"), "utf8"));
      expect(check.stdout).toContain("[redacted]");
      expect(report).toContain("[redacted]");
    });
  }
});

describe("the URL is never printed or stored", () => {
  it("output, report and lock show no path or query, in lock, --check and a failed connection", async () => {
    const server = await startHttpFixture();
    const dir = tempDir();
    const url = `${server.url}?token=${QUERY_SECRET}`;
    const pathLeak = `${server.port}/mcp`;
    const lock = await runCli(["lock", "--url", url, "--json", "lock-report.json"], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--url", url, "--json", "report.json"], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const texts: [string, string][] = [
      ["lock stdout", lock.stdout],
      ["lock stderr", lock.stderr],
      ["check stdout", check.stdout],
      ["check stderr", check.stderr],
      ["lockfile", readFileSync(join(dir, "mcp-lint.lock"), "utf8")],
      ["lock report", readFileSync(join(dir, "lock-report.json"), "utf8")],
      ["check report", readFileSync(join(dir, "report.json"), "utf8")],
    ];

    const guarded = await startHttpFixture(["--auth", "right-token"]);
    const failed = await runCli(["lock", "--timeout", "5", "--url", `${guarded.url}?token=${QUERY_SECRET}`], { cwd: tempDir() });
    expect(failed.code).toBe(2);
    const line = expectOneLineError(failed.stderr);
    expect(line).toContain("127.0.0.1");
    texts.push(["failed stdout", failed.stdout], ["failed stderr", failed.stderr]);

    for (const [where, text] of texts) {
      expectNoSecret(where, text);
      expect(text, where).not.toContain("token=");
      expect(text, where).not.toContain(pathLeak);
      expect(text, where).not.toContain(`${guarded.port}/mcp`);
    }
  });

  it("command_sha256 ignores the query, user info and header values, but not the path", async () => {
    // --redirect same: /mcp2 serves directly and /mcp redirects to it, so both paths list the same tools.
    // Query values are secrets, so they must not occur in the tools' text (short ones like "one" would, in "zone").
    const server = await startHttpFixture(["--redirect", "same"]);
    const dir = tempDir();
    const direct = `http://127.0.0.1:${server.port}/mcp2`;
    const first = await runCli(["lock", "--url", `${direct}?token=rotate-AAA111`, "--header-env", "X-Api-Key=KEY"], {
      cwd: dir,
      env: { KEY: "first-key-value" },
    });
    expect(first.code, first.stderr).toBe(0);
    const sha = JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).server.command_sha256;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);

    const rotated = new URL(direct);
    rotated.search = "?token=rotate-BBB222&extra=zzz333";
    rotated.username = "someone";
    rotated.password = "rotated-password";
    const same = await runCli(["lock", "--check", "--json", "report.json", "--url", rotated.href, "--header-env", "X-Api-Key=KEY"], {
      cwd: dir,
      env: { KEY: "second-key-value" },
    });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).not.toMatch(/server_changed/);
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8")).server.command_sha256).toBe(sha);

    const otherPath = await runCli(["lock", "--check", "--json", "report2.json", "--url", server.url], { cwd: dir });
    expect(otherPath.code, otherPath.stdout + otherPath.stderr).toBe(0);
    expect(otherPath.stdout).toMatch(/info +server_changed/);
    expect(JSON.parse(readFileSync(join(dir, "report2.json"), "utf8")).server.command_sha256).not.toBe(sha);
  });
});
