// wrap --include-remote: a remote server in a JSON config becomes `mcp-lint proxy --url` with its
// header values moved into the entry's env; launched as the client would, the proxy reaches the
// server over Streamable HTTP under the lock; unwrap restores the entry byte for byte.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";
import { cliPath, connectProxy } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

afterEach(stopAllHttpFixtures);

describe.skipIf(process.platform === "win32")("wrap --include-remote", () => {
  it("wraps a remote entry into the proxy with --url, which serves it under the lock, and unwraps it exactly", async () => {
    const token = "tok-remote-4c1f9e27";
    const server = await startHttpFixture(["--auth", token]);
    const dir = tempDir();
    const config = join(dir, ".mcp.json");
    const original = `{\n  // a remote server\n  "mcpServers": {\n    "weather": { "type": "http", "url": "${server.url}", "headers": { "Authorization": "Bearer ${token}" } }\n  }\n}\n`;
    writeFileSync(config, original);

    const locks = join(dir, "locks");
    const wrapped = await runCli(["wrap", config, "--include-remote", "--lock-dir", locks], { cwd: dir });
    expect(wrapped.stderr).not.toContain(token);
    expect(wrapped.code).toBe(0);
    const lock = join(locks, "claude-code", "weather.lock");
    expect(wrapped.stdout).toBe(
      `wrapped remote server "weather" (lock ${lock}, written now)\n${config}: 1 of 1 server wrapped now; the file as it was is in .mcp.json.mcp-lint.bak\n`,
    );
    expect(readFileSync(lock, "utf8")).not.toContain(token);

    const text = readFileSync(config, "utf8");
    expect(text).toContain("// a remote server");
    const entry = (
      JSON.parse(text.replace("  // a remote server\n", "")) as {
        mcpServers: { weather: { type: string; command: string; args: string[]; env: Record<string, string> } };
      }
    ).mcpServers.weather;
    expect(entry.type).toBe("stdio");
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([
      cliPath,
      "proxy",
      "--header-env",
      "Authorization=MCP_LINT_HEADER_1",
      "--lock",
      lock,
      "--from-config",
      config,
      "--entry",
      "weather",
      "--url",
      server.url,
    ]);
    expect(entry.env.MCP_LINT_HEADER_1).toBe(`Bearer ${token}`);

    // Launched as the client does: the entry's command and args, with its env.
    const proxied = await connectProxy([], { cwd: dir, argv: [entry.command, ...entry.args], env: entry.env });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
    expect(await proxied.close()).toBe(0);
    expect(proxied.stderr()).toContain("2 tools listed, 2 served, 0 withheld");
    expect(proxied.stderr()).not.toContain(token);

    expect((await runCli(["unwrap", config], { cwd: dir })).stdout).toBe('unwrapped server "weather"\n');
    expect(readFileSync(config, "utf8")).toBe(original);
  });
});

describe.skipIf(process.platform === "win32")("wrap --include-remote and a server behind a login (issue 21 item 7)", () => {
  it("leaves an entry the server turns away (HTTP 401) as it is, with one line saying why, and wraps the one that has its token", async () => {
    const token = "tok-remote-login-77aa1c";
    const server = await startHttpFixture(["--auth", token]);
    const dir = tempDir();
    const config = join(dir, ".mcp.json");
    const entries = {
      mcpServers: {
        login: { type: "http", url: server.url },
        keyed: { type: "http", url: server.url, headers: { Authorization: `Bearer ${token}` } },
      },
    };
    writeFileSync(config, `${JSON.stringify(entries, null, 2)}\n`);
    const locks = join(dir, "locks");
    const wrapped = await runCli(["wrap", config, "--include-remote", "--lock-dir", locks], { cwd: dir });
    expect(wrapped.code).toBe(1);
    expect(wrapped.stdout).toContain(
      'left server "login" as it is: it needs a login (the server answered HTTP 401) but offers no OAuth metadata to log in with (the MCP authorization flow), so the proxy could not reach it; left for the client to connect to directly\n',
    );
    expect(wrapped.stdout).toContain('wrapped remote server "keyed"');
    const after = JSON.parse(readFileSync(config, "utf8")) as { mcpServers: Record<string, unknown> };
    expect(after.mcpServers.login).toEqual(entries.mcpServers.login);
    expect(wrapped.stdout + wrapped.stderr).not.toContain(token);
  });
});
