// Issue 26: `--url` runs log in to a server that asks for it (the MCP authorization flow), against
// the local OAuth fixture over real HTTP: the login kept private on disk and used again, refreshed,
// forgotten by logout; tokens never shown; credentials never sent to another origin; a machine with
// no browser prints the address and waits; client credentials for CI; a header token still wins.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type OAuthFixture, seen, startOAuthFixture } from "../fixtures/servers/live/oauth-harness.js";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";

const follow = join(repo, "test/fixtures/browser/follow.mjs");

/** A home of its own for the login store, a BROWSER that follows the login page's redirect, and no display. */
function loginEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { XDG_CONFIG_HOME: join(dir, "config"), BROWSER: `${process.execPath} ${follow}`, DISPLAY: "", WAYLAND_DISPLAY: "", ...extra };
}

function storeFolder(dir: string): string {
  return join(dir, "config", "mcp-lint", "oauth");
}

/** The one stored login file, and the tokens in it. */
function storedLogin(dir: string): { path: string; access: string; refresh: string | undefined } {
  const names = readdirSync(storeFolder(dir));
  expect(names).toHaveLength(1);
  const path = join(storeFolder(dir), names[0] as string);
  const login = (JSON.parse(readFileSync(path, "utf8")) as { login: { tokens: { access_token: string; refresh_token?: string } } }).login;
  return { path, access: login.tokens.access_token, refresh: login.tokens.refresh_token };
}

function lock(server: OAuthFixture, dir: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return runCli(["lock", "--url", server.url, "--lock", join(dir, "mcp-lint.lock"), ...extra], { cwd: dir, env: loginEnv(dir, env) });
}

describe.skipIf(process.platform === "win32")("the MCP authorization flow on --url", () => {
  it("logs in through the browser, keeps the login private (0600 in 0700), and the next run uses it without a login", async () => {
    const server = await startOAuthFixture();
    const dir = tempDir();
    const first = await lock(server, dir);
    expect(first.stderr).toContain(`mcp-lint: log in to ${server.origin} in the browser`);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("2 tools");
    const { path, access, refresh } = storedLogin(dir);
    expect(statSync(storeFolder(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // The lock is committed: no token, no client registration in it.
    const lockText = readFileSync(join(dir, "mcp-lint.lock"), "utf8");
    for (const secret of [access, refresh ?? "none"]) {
      expect(lockText).not.toContain(secret);
      expect(first.stdout + first.stderr).not.toContain(secret);
    }
    expect(await seen(server)).toMatchObject({ register: 1, authorize: 1, token: { authorization_code: 1 } });

    const check = await runCli(["lock", "--check", "--url", server.url, "--lock", join(dir, "mcp-lint.lock")], {
      cwd: dir,
      env: loginEnv(dir, { BROWSER: "false" }),
    });
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("No changes.");
    expect(await seen(server)).toMatchObject({ register: 1, authorize: 1 });
  });

  it("refuses a login store that other users may read, naming the fix, and logs in again after logout", async () => {
    const server = await startOAuthFixture();
    const dir = tempDir();
    expect((await lock(server, dir)).code).toBe(0);
    const { path } = storedLogin(dir);
    chmodSync(path, 0o644);
    const loose = await lock(server, dir);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toBe(`mcp-lint: the OAuth login store ${path} may be read by other users (mode 644); run chmod 600 ${path}, or mcp-lint logout\n`);
    chmodSync(path, 0o600);
    chmodSync(storeFolder(dir), 0o755);
    const looseFolder = await lock(server, dir);
    expect(looseFolder.code).toBe(2);
    expect(looseFolder.stderr).toContain("may be read by other users (mode 755); run chmod 700");
    chmodSync(storeFolder(dir), 0o700);

    const out = await runCli(["logout", server.url], { cwd: dir, env: loginEnv(dir) });
    expect(out).toMatchObject({ code: 0, stdout: `Forgot the OAuth login to ${server.url}.\n` });
    expect(existsSync(path)).toBe(false);
    expect((await runCli(["logout", server.url], { cwd: dir, env: loginEnv(dir) })).stdout).toBe(`No OAuth login is kept for ${server.url}.\n`);
    expect((await lock(server, dir)).code).toBe(0);
    expect((await seen(server)).authorize).toBe(2);
    expect((await runCli(["logout"], { cwd: dir, env: loginEnv(dir) })).stdout).toBe("Forgot 1 OAuth login.\n");
  });

  it("refreshes a token about to expire before using it, with no second login", async () => {
    const server = await startOAuthFixture(["--expires-in", "30"]);
    const dir = tempDir();
    expect((await lock(server, dir)).code).toBe(0);
    const before = storedLogin(dir);
    // Within a minute of expiry: refreshed ahead, so the server never sees the old token again.
    const again = await lock(server, dir, [], { BROWSER: "false" });
    expect(again.stderr).not.toContain("log in");
    expect(again.code).toBe(0);
    const after = storedLogin(dir);
    expect(after.access).not.toBe(before.access);
    expect(await seen(server)).toMatchObject({ authorize: 1, token: { authorization_code: 1, refresh_token: 1 } });
  });

  it("never shows a token the server echoes back: lock refuses to record it, run redacts it", async () => {
    const server = await startOAuthFixture(["--echo-token"]);
    const dir = tempDir();
    const locked = await lock(server, dir);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain("a server echoed back a secret");
    const { access } = storedLogin(dir);
    expect(locked.stdout + locked.stderr).not.toContain(access);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);

    // The refusal itself shows the token was known to the redactor the moment it arrived.
    expect(locked.stderr).toContain("get_weather");
    const run = await runCli(["run", "--url", server.url, "--json", "-", "--sarif", "run.sarif"], { cwd: dir, env: loginEnv(dir) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"rule": "S1"');
    expect(run.stdout + run.stderr).not.toContain(access);
    const sarif = readFileSync(join(dir, "run.sarif"), "utf8");
    expect(sarif).toContain('"ruleId": "S1"');
    expect(sarif).not.toContain(access);
    // init-fixtures would write the descriptions too: refused the same way.
    const fixtures = await runCli(["init-fixtures", "probes.json", "--url", server.url], { cwd: dir, env: loginEnv(dir) });
    expect(fixtures).toMatchObject({ code: 2, stdout: "" });
    expect(fixtures.stderr).toContain("refusing to write probes.json: the server echoed back a secret (an OAuth token,");
    expect(fixtures.stderr).not.toContain(access);
    // Every file mcp-lint wrote in the folder, the login store aside, is free of the token.
    expect(readdirSync(dir).filter((entry) => entry !== "config")).toEqual(["run.sarif"]);
    for (const name of readdirSync(dir).filter((entry) => entry !== "config")) expect(readFileSync(join(dir, name), "utf8")).not.toContain(access);
  });

  it("refuses to send credentials to a token endpoint on another origin than the authorization server", async () => {
    const server = await startOAuthFixture(["--token-origin", "other"]);
    const dir = tempDir();
    const result = await lock(server, dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^mcp-lint: could not connect to ${server.origin}: the authorization server ${server.origin} names its token_endpoint on another origin \\(http://127\\.0\\.0\\.1:\\d+\\); refusing to send credentials there\\n$`,
      ),
    );
    expect(await seen(server)).toMatchObject({ foreignTokenEndpointHits: 0, authorize: 0 });
  });

  it("with no browser to open, prints the login address and waits for it, bounded by --startup-timeout", async () => {
    const server = await startOAuthFixture();
    const dir = tempDir();
    const env = { ...process.env, ...loginEnv(dir), BROWSER: "", NO_COLOR: "1" };
    const child = spawn(process.execPath, [cliPath, "lock", "--url", server.url, "--lock", join(dir, "mcp-lint.lock")], {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const address = await new Promise<string>((found) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const match = /open this address in a browser \(waiting up to 120 s\): (\S+)\n/.exec(stderr);
        if (match) found(match[1] as string);
      });
    });
    expect(new URL(address).origin).toBe(server.origin);
    // The user opens it: the page redirects to the loopback callback.
    await (await fetch(address)).text();
    const code = await new Promise((done) => child.once("close", done));
    expect(code).toBe(0);
    expect(stdout).toContain("2 tools");

    const other = tempDir();
    const late = await runCli(["lock", "--url", server.url, "--lock", join(other, "x.lock"), "--startup-timeout", "1"], {
      cwd: other,
      env: loginEnv(other, { BROWSER: "" }),
    });
    expect(late.code).toBe(2);
    expect(late.stderr.trimEnd().split("\n").pop()).toBe(
      `mcp-lint: the login to ${server.origin} was not finished within 1 s; run again and log in in the browser, or raise --startup-timeout`,
    );
  });

  it("logs in with client credentials (no browser, nothing stored), the secret from the environment and never shown", async () => {
    const secret = "cc-secret-5e1b77d0a9";
    const server = await startOAuthFixture(["--client-id", "ci-client", "--client-secret", secret]);
    const dir = tempDir();
    const result = await lock(server, dir, ["--oauth-client-credentials", "--oauth-client-id", "ci-client", "--oauth-client-secret-env", "CC_SECRET"], {
      CC_SECRET: secret,
      BROWSER: "false",
    });
    expect(result.stderr).toBe(
      `mcp-lint: warning: --oauth-client-credentials without --oauth-issuer: ${server.origin} decides which authorization server gets the client's credentials; give --oauth-issuer URL to pin it\nWrote ${join(dir, "mcp-lint.lock")} (2 tools)\n`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(existsSync(storeFolder(dir))).toBe(false);
    expect(await seen(server)).toMatchObject({ authorize: 0, token: { client_credentials: 1 } });

    // Pinned to the issuer: no warning; pinned to another one, the secret is not sent.
    const pinned = await lock(
      server,
      dir,
      ["--oauth-client-credentials", "--oauth-client-id", "ci-client", "--oauth-client-secret-env", "CC_SECRET", "--oauth-issuer", server.origin],
      {
        CC_SECRET: secret,
      },
    );
    expect(pinned).toMatchObject({ code: 0, stderr: `Unchanged: ${join(dir, "mcp-lint.lock")} (2 tools)\n` });
    const elsewhere = await lock(
      server,
      dir,
      ["--oauth-client-credentials", "--oauth-client-id", "ci-client", "--oauth-client-secret-env", "CC_SECRET", "--oauth-issuer", "https://auth.example.com"],
      {
        CC_SECRET: secret,
      },
    );
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stdout + elsewhere.stderr).not.toContain(secret);
    expect((await seen(server)).token.client_credentials).toBe(2);

    const missing = await lock(server, dir, ["--oauth-client-credentials", "--oauth-client-id", "ci-client", "--oauth-client-secret-env", "NOT_SET_ANYWHERE"]);
    expect(missing).toMatchObject({ code: 2, stderr: "mcp-lint: --oauth-client-secret-env: environment variable NOT_SET_ANYWHERE is not set\n" });
  });

  it("sends a token given with --header-env as it is, with no login; --no-oauth turns the login off", async () => {
    const server = await startOAuthFixture();
    const dir = tempDir();
    const header = await lock(server, dir, ["--header-env", "Authorization=MY_TOKEN"], { MY_TOKEN: "Bearer not-a-fixture-token" });
    expect(header.code).toBe(2);
    expect(header.stderr).toContain("the server answered HTTP 401");
    const off = await lock(server, dir, ["--no-oauth"]);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain("the server answered HTTP 401");
    expect(await seen(server)).toMatchObject({ authorize: 0, register: 0 });
  });
});
