// End to end through the built CLI against test/fixtures/servers/live/http-server.mjs:
// --url over Streamable HTTP and the SSE fallback, auth headers, header rules, redirects, bounds.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, runCli, tempDir } from "./helpers.js";
import { expectOneLineError, fixture, seen, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const readJson = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), "utf8"));
const TOKEN = "tok-2c9a41e7";
const authEnv = { TOKEN_VAR: `Bearer ${TOKEN}` };

describe("--url", () => {
  it("locks and checks a Streamable HTTP server (transport streamable-http)", async () => {
    const server = await startHttpFixture();
    const dir = tempDir();
    const lock = await runCli(["lock", "--url", server.url, "--json", "lock-report.json"], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const locked = readJson(dir, "mcp-lint.lock");
    expect(Object.keys(locked.tools)).toEqual(["get_time", "get_weather"]);
    expect(locked.server).toMatchObject({ name: "live-fixture", version: "1.0.0" });
    expect(locked.server.command_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(locked.instructions).toEqual({ known: true, text: "Use get_weather for forecasts and get_time for clocks." });
    expect(readJson(dir, "lock-report.json").server.transport).toBe("streamable-http");

    const check = await runCli(["lock", "--check", "--url", server.url, "--json", "report.json"], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const report = readJson(dir, "report.json");
    expect(report.server).toMatchObject({ transport: "streamable-http", command_sha256: locked.server.command_sha256, tools: 2 });
  });

  it("follows tools/list pages over HTTP", async () => {
    const server = await startHttpFixture(["--pages", "3"]);
    const dir = tempDir();
    const lock = await runCli(["lock", "--url", server.url], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    expect(Object.keys(readJson(dir, "mcp-lint.lock").tools)).toEqual(["get_time", "get_weather"]);
  });

  it("falls back to the old HTTP+SSE transport when POST answers 405 (transport sse)", async () => {
    const server = await startHttpFixture(["--sse-only"]);
    const dir = tempDir();
    const lock = await runCli(["lock", "--url", server.url, "--json", "lock-report.json"], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    expect(Object.keys(readJson(dir, "mcp-lint.lock").tools)).toEqual(["get_time", "get_weather"]);
    expect(readJson(dir, "lock-report.json").server.transport).toBe("sse");
    const check = await runCli(["lock", "--check", "--url", server.url, "--json", "report.json"], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(readJson(dir, "report.json").server.transport).toBe("sse");
  });

  it("falls back to SSE with auth: headers go on the event stream and the message POSTs", async () => {
    const server = await startHttpFixture(["--sse-only", "--auth", TOKEN]);
    const dir = tempDir();
    const lock = await runCli(["lock", "--url", server.url, "--header-env", "Authorization=TOKEN_VAR", "--json", "r.json"], {
      cwd: dir,
      env: authEnv,
    });
    expect(lock.code, lock.stderr).toBe(0);
    expect(readJson(dir, "r.json").server.transport).toBe("sse");
  });

  it("reports server_changed (info) when the endpoint moves to another port", async () => {
    const first = await startHttpFixture();
    const dir = tempDir();
    expect((await runCli(["lock", "--url", first.url], { cwd: dir })).code).toBe(0);
    const second = await startHttpFixture();
    expect(second.port).not.toBe(first.port);
    const check = await runCli(["lock", "--check", "--url", second.url], { cwd: dir });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/info +server_changed/);
    expect((await runCli(["lock", "--check", "--fail-on", "info", "--url", second.url], { cwd: dir })).code).toBe(1);
  });

  it("--url together with a server command is exit 2", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--url", "http://127.0.0.1:9/mcp", "--", process.execPath, fixture("hang.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr);
    expect(result.stdout).toBe("");
  });

  it("an unreachable endpoint is exit 2 with one line", async () => {
    const server = await startHttpFixture();
    const url = server.url;
    await server.stop();
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "5", "--url", url], { cwd: dir });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });
});

describe("auth and headers", () => {
  it("--header-env Authorization=TOKEN_VAR passes --auth, in lock and --check", async () => {
    const server = await startHttpFixture(["--auth", TOKEN]);
    const dir = tempDir();
    const args = ["--url", server.url, "--header-env", "Authorization=TOKEN_VAR"];
    const lock = await runCli(["lock", ...args], { cwd: dir, env: authEnv });
    expect(lock.code, lock.stderr).toBe(0);
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).not.toContain(TOKEN);
    const check = await runCli(["lock", "--check", ...args], { cwd: dir, env: authEnv });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it("a wrong or missing token is exit 2 with one line, and nothing is written", async () => {
    const server = await startHttpFixture(["--auth", TOKEN]);
    const dir = tempDir();
    const wrongToken = "tok-wrong-77d1e0";
    const wrong = await runCli(["lock", "--timeout", "5", "--url", server.url, "--header-env", "Authorization=TOKEN_VAR"], {
      cwd: dir,
      env: { TOKEN_VAR: `Bearer ${wrongToken}` },
    });
    expect(wrong.code).toBe(2);
    expectOneLineError(wrong.stderr);
    expect(wrong.stderr + wrong.stdout).not.toContain(wrongToken);
    const missing = await runCli(["lock", "--timeout", "5", "--url", server.url], { cwd: dir });
    expect(missing.code).toBe(2);
    expectOneLineError(missing.stderr);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });

  it("--header 'X-Trace: abc' is sent as is, and is not treated as a secret", async () => {
    const server = await startHttpFixture(["--echo"]);
    const dir = tempDir();
    const lock = await runCli(["lock", "--url", server.url, "--header", "X-Trace: abc"], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const locked = readJson(dir, "mcp-lint.lock");
    expect(locked.tools.get_weather.definition.description).toContain("x-trace=abc");
    const check = await runCli(["lock", "--check", "--url", server.url, "--header", "X-Trace: abc"], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  const duplicates: [string, string[]][] = [
    ["--header twice, different case", ["--header", "X-Trace: a", "--header", "x-trace: b"]],
    ["--header and --header-env", ["--header", "Authorization: Bearer public", "--header-env", "AUTHORIZATION=TOKEN_VAR"]],
    ["--header-env twice", ["--header-env", "Authorization=TOKEN_VAR", "--header-env", "authorization=TOKEN_VAR"]],
  ];
  for (const [name, flags] of duplicates) {
    it(`the same header name twice is exit 2: ${name}`, async () => {
      const server = await startHttpFixture();
      const dir = tempDir();
      const result = await runCli(["lock", "--url", server.url, ...flags], { cwd: dir, env: authEnv });
      expect(result.code).toBe(2);
      expect(expectOneLineError(result.stderr)).toMatch(/x-trace|authorization/i);
      expect(result.stderr).not.toContain(TOKEN);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    });
  }

  for (const flags of [
    ["--header", "X-Trace: abc"],
    ["--header-env", "Authorization=TOKEN_VAR"],
  ]) {
    it(`${flags[0]} without --url is exit 2`, async () => {
      const dir = tempDir();
      const result = await runCli(["lock", ...flags, "--", process.execPath, fixture("hang.mjs")], { cwd: dir, env: authEnv });
      expect(result.code).toBe(2);
      expect(expectOneLineError(result.stderr)).toMatch(/--url/);
    });
  }

  for (const url of ["http://example.invalid/mcp", "http://10.255.255.1/mcp", "http://127.0.0.1.nip.io/mcp"]) {
    it(`--header-env over plain http:// to a non-local host is refused before connecting: ${url}`, async () => {
      const dir = tempDir();
      const result = await runCli(["lock", "--timeout", "20", "--url", url, "--header-env", "Authorization=TOKEN_VAR"], {
        cwd: dir,
        env: authEnv,
      });
      expect(result.code).toBe(2);
      const line = expectOneLineError(result.stderr);
      expect(line).toMatch(/https/);
      expect(line).not.toMatch(/ENOTFOUND|getaddrinfo|fetch failed|ECONNREFUSED|time(d)?[ -]?out/i);
      expect(line).not.toContain(TOKEN);
    });
  }

  it("--header-env over plain http:// is allowed to 127.0.0.1 and localhost", async () => {
    const server = await startHttpFixture(["--auth", TOKEN]);
    for (const url of [server.url, `http://localhost:${server.port}/mcp`]) {
      const dir = tempDir();
      const result = await runCli(["lock", "--url", url, "--header-env", "Authorization=TOKEN_VAR"], { cwd: dir, env: authEnv });
      expect(result.code, `${url}: ${result.stderr}`).toBe(0);
    }
  });
});

describe("redirects", () => {
  it("a same-origin redirect (307 /mcp -> /mcp2) is followed, with its headers", async () => {
    const server = await startHttpFixture(["--redirect", "same", "--auth", TOKEN]);
    const dir = tempDir();
    const args = ["--url", server.url, "--header-env", "Authorization=TOKEN_VAR"];
    const lock = await runCli(["lock", ...args], { cwd: dir, env: authEnv });
    expect(lock.code, lock.stderr).toBe(0);
    expect(Object.keys(readJson(dir, "mcp-lint.lock").tools)).toEqual(["get_time", "get_weather"]);
    const check = await runCli(["lock", "--check", ...args], { cwd: dir, env: authEnv });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it("a cross-origin redirect is not followed (exit 2) and no header reaches the other origin", async () => {
    const server = await startHttpFixture(["--redirect", "other", "--auth", TOKEN]);
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "5", "--url", server.url, "--header-env", "Authorization=TOKEN_VAR"], {
      cwd: dir,
      env: authEnv,
    });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr);
    expect(result.stderr).not.toContain(TOKEN);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    expect(await seen(server)).toEqual({ otherOriginHits: 0, authSeen: false });
  });

  it("a cross-origin redirect is not followed on the SSE fallback either", async () => {
    const server = await startHttpFixture(["--redirect", "other", "--sse-only", "--auth", TOKEN]);
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "5", "--url", server.url, "--header-env", "Authorization=TOKEN_VAR"], {
      cwd: dir,
      env: authEnv,
    });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr);
    expect(await seen(server)).toEqual({ otherOriginHits: 0, authSeen: false });
  });
});

describe("bounds over HTTP", () => {
  it("a 50 MB tools/list answer is refused with a size error, exit 2", async () => {
    const server = await startHttpFixture(["--huge", "50"]);
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "10", "--url", server.url], { cwd: dir });
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(/size|large|bytes|MB|MiB|limit|exceed/i);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });
});
