// Issue 26 item 6: `wrap --include-remote` puts the proxy in front of a server behind an OAuth
// login, and the wrapped server keeps working. The wrap logs in once (browser) to lock it; the
// client then launches the wrapped entry, and the proxy serves it with the stored token (no second
// login), driven by the SDK's own client over stdio; once the login is forgotten, the proxy logs in
// again by itself, once.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seen, startOAuthFixture } from "../fixtures/servers/live/oauth-harness.js";
import { cliPath, connectProxy } from "../fixtures/servers/proxy/harness.js";
import { repo, runCli, tempDir } from "./helpers.js";

const follow = join(repo, "test/fixtures/browser/follow.mjs");

describe.skipIf(process.platform === "win32")("the proxy in front of a server behind an OAuth login", () => {
  it("leaves a server that echoes its token as it is (the lock is refused), never showing the token", async () => {
    const server = await startOAuthFixture(["--echo-token"]);
    const dir = tempDir();
    const config = join(dir, ".mcp.json");
    writeFileSync(config, `${JSON.stringify({ mcpServers: { weather: { type: "http", url: server.url } } }, null, 2)}\n`);
    const home = { XDG_CONFIG_HOME: join(dir, "config"), DISPLAY: "" };

    // The server echoes the token in every description: the lock is refused, so the wrap leaves it.
    const refused = await runCli(["wrap", config, "--include-remote", "--lock-dir", join(dir, "locks")], {
      cwd: dir,
      env: { ...home, BROWSER: `${process.execPath} ${follow}` },
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('left server "weather" as it is: it could not be locked');
    const token = (
      JSON.parse(readFileSync(join(dir, "config", "mcp-lint", "oauth", readStoreName(dir)), "utf8")) as { login: { tokens: { access_token: string } } }
    ).login.tokens.access_token;
    expect(refused.stdout + refused.stderr).not.toContain(token);
  });

  it("serves the wrapped server with the stored token, withholding nothing, and logs in by itself once the login is forgotten", async () => {
    const server = await startOAuthFixture();
    const dir = tempDir();
    const config = join(dir, ".mcp.json");
    writeFileSync(config, `${JSON.stringify({ mcpServers: { weather: { type: "http", url: server.url } } }, null, 2)}\n`);
    const home = { XDG_CONFIG_HOME: join(dir, "config"), DISPLAY: "" };
    const locks = join(dir, "locks");
    const wrapped = await runCli(["wrap", config, "--include-remote", "--lock-dir", locks], {
      cwd: dir,
      env: { ...home, BROWSER: `${process.execPath} ${follow}` },
    });
    expect(wrapped.code).toBe(0);
    const lock = join(locks, "claude-code", "weather.lock");
    expect(wrapped.stdout).toBe(
      `wrapped remote server "weather" (lock ${lock}, written now)\n${config}: 1 of 1 server wrapped now; the file as it was is in .mcp.json.mcp-lint.bak\n`,
    );
    expect(await seen(server)).toMatchObject({ authorize: 1 });

    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { weather: { command: string; args: string[]; env?: Record<string, string> } } })
      .mcpServers.weather;
    expect(entry.args).toEqual([cliPath, "proxy", "--lock", lock, "--from-config", config, "--entry", "weather", "--url", server.url]);

    // As the client launches it, with no browser at all: the stored login is enough.
    const proxied = await connectProxy([], { cwd: dir, argv: [entry.command, ...entry.args], env: { ...entry.env, ...home, BROWSER: "false" } });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
    const answer = await proxied.client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    expect(answer.content).toEqual([{ type: "text", text: 'get_weather {"city":"Oslo"}' }]);
    expect(await proxied.close()).toBe(0);
    expect(proxied.stderr()).toContain("2 tools listed, 2 served, 0 withheld");
    expect(proxied.stderr()).not.toContain("log in");
    expect(await seen(server)).toMatchObject({ authorize: 1 });

    // Forgotten: the proxy opens the browser once, and then serves as before.
    expect((await runCli(["logout", server.url], { cwd: dir, env: home })).code).toBe(0);
    const again = await connectProxy([], {
      cwd: dir,
      argv: [entry.command, ...entry.args],
      env: { ...entry.env, ...home, BROWSER: `${process.execPath} ${follow}` },
    });
    expect((await again.client.listTools()).tools).toHaveLength(2);
    expect(await again.close()).toBe(0);
    expect(again.stderr()).toContain(`mcp-lint: log in to ${server.origin} in the browser`);
    expect(await seen(server)).toMatchObject({ authorize: 2 });
  });
});

function readStoreName(dir: string): string {
  return readdirSync(join(dir, "config", "mcp-lint", "oauth"))[0] as string;
}
