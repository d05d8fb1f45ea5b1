// A wrapped Claude Desktop config, launched the way Claude Desktop launches it (command and args
// read back from the file), starts the proxy, which serves the server's tools under the lock
// that wrap wrote.
//
// The wrapped entry runs `npx -y mcp-lint@<version> proxy ...`. This test does not download
// mcp-lint: a fake `npx`, first on PATH, runs the local build (node dist/cli.js) for exactly
// that package spec and fails for anything else.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectProxy, fakeNpx, fixture, recordedCalls, version } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

describe.skipIf(process.platform === "win32")("a wrapped Claude Desktop config", () => {
  it("locks the server, and launched from the file's command and args, serves its tools through the proxy", async () => {
    const dir = tempDir();
    const state = join(dir, "state");
    mkdirSync(state);
    const config = join(dir, "claude_desktop_config.json");
    const original = `${JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [fixture("rug.mjs"), state] } } }, null, 2)}\n`;
    writeFileSync(config, original);

    const wrapped = await runCli(["wrap", config], { cwd: dir });
    expect(wrapped.code).toBe(0);
    const lock = join(dir, "mcp-lint-locks", "weather.lock");
    expect(wrapped.stdout).toBe(`wrapped server "weather" (lock ${lock}, written now)\n`);
    expect(wrapped.stderr).toContain(`mcp-lint: locking server "weather" (${lock})`);
    expect(JSON.parse(readFileSync(lock, "utf8")).tools).toHaveProperty("get_weather");

    // Read the entry back as Claude Desktop does, and run exactly that.
    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { weather: { command: string; args: string[] } } }).mcpServers.weather;
    expect(entry.command).toBe("npx");
    expect(entry.args).toEqual(["-y", `mcp-lint@${version}`, "proxy", "--lock", lock, "--", process.execPath, fixture("rug.mjs"), state]);
    const bin = fakeNpx(dir);
    const proxied = await connectProxy([], { cwd: dir, argv: [entry.command, ...entry.args], env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` } });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time", "send_note"]);
    const result = await proxied.client.callTool({ name: "get_time", arguments: { zone: "UTC" } });
    expect(result.isError).toBeUndefined();
    expect(recordedCalls(state)).toEqual([{ tool: "get_time", args: { zone: "UTC" } }]);
    expect(await proxied.close()).toBe(0);
    expect(proxied.stderr()).toContain("compared the server with the lock (initialize): 3 tools listed, 3 served, 0 withheld");

    expect((await runCli(["unwrap", config], { cwd: dir })).code).toBe(0);
    expect(readFileSync(config, "utf8")).toBe(original);
  });
});
