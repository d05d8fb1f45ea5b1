// A wrapped Claude Desktop config, launched the way Claude Desktop launches it (command and args
// read back from the file), starts the proxy, which serves the server's tools under the lock
// that wrap wrote.
//
// By default the wrapped entry runs this node and this mcp-lint's dist/cli.js by absolute path, so
// it works offline and runs the very build that locked the server. `--npx` writes
// `npx -y mcp-lint@<version>` only when the registry npm uses has that version (a local registry
// here); a fake `npx`, first on PATH, runs the local build for exactly that package spec.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, connectProxy, fakeNpx, fixture, recordedCalls, version } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

/** A Claude Desktop config in a new folder with one stdio server (rug.mjs, not pulled), and the server's state folder. */
function weatherConfig(): { dir: string; state: string; config: string; original: string } {
  const dir = tempDir();
  const state = join(dir, "state");
  mkdirSync(state);
  const config = join(dir, "claude_desktop_config.json");
  const original = `${JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [fixture("rug.mjs"), state] } } }, null, 2)}\n`;
  writeFileSync(config, original);
  return { dir, state, config, original };
}

describe.skipIf(process.platform === "win32")("a wrapped Claude Desktop config", () => {
  it("locks the server, and launched from the file's command and args, serves its tools through the proxy", async () => {
    const { dir, state, config, original } = weatherConfig();

    const wrapped = await runCli(["wrap", config], { cwd: dir });
    expect(wrapped.code).toBe(0);
    const lock = join(dir, "mcp-lint-locks", "weather.lock");
    // Issue 37 item 7: one line for the server and one for the file; the lock's listing only with --verbose.
    expect(wrapped.stdout).toBe(
      `wrapped server "weather" (lock ${lock}, written now)\n${config}: 1 of 1 server wrapped now; the file as it was is in claude_desktop_config.json.mcp-lint.bak\n`,
    );
    expect(wrapped.stderr).toBe("");
    expect(JSON.parse(readFileSync(lock, "utf8")).tools).toHaveProperty("get_weather");

    // Read the entry back as Claude Desktop does, and run exactly that.
    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { weather: { command: string; args: string[] } } }).mcpServers.weather;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args).toEqual([
      cliPath,
      "proxy",
      "--lock",
      lock,
      "--from-config",
      config,
      "--entry",
      "weather",
      "--",
      process.execPath,
      fixture("rug.mjs"),
      state,
    ]);
    const proxied = await connectProxy([], { cwd: dir, argv: [entry.command, ...entry.args] });
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

type Entry = { command: string; args: string[]; env?: Record<string, string> };

/** The env a client gives an entry: its `env`, with `${NAME}` and `${input:ID}` filled in as the client fills them. */
function clientEnv(entry: Entry, values: Record<string, string>): Record<string, string> {
  const fill = (text: string) => text.replace(/\$\{(?:input:)?([^}]+)\}/g, (_whole, name: string) => values[name] ?? "");
  return Object.fromEntries(Object.entries(entry.env ?? {}).map(([name, value]) => [name, fill(value)]));
}

describe.skipIf(process.platform === "win32")("wrap locks what the client launches (issue 21)", () => {
  for (const [label, file, key, variables] of [
    ["a Claude Desktop env placeholder", "claude_desktop_config.json", "mcpServers", { TOKEN: "tok-wrap-test-1234" }],
    ["a VS Code input", ".vscode/mcp.json", "servers", { "input:api_key": "tok-wrap-test-5678" }],
  ] as const) {
    it(`${label}: the first session serves every tool; after a version bump only the changed tool is withheld`, async () => {
      const dir = tempDir();
      const config = join(dir, file);
      mkdirSync(join(config, ".."), { recursive: true });
      const placeholder = Object.keys(variables)[0] as string;
      const value = Object.values(variables)[0] as string;
      const entry = { command: process.execPath, args: [fixture("env-tools.mjs"), "1.0.0"], env: { API_KEY: `\${${placeholder}}` } };
      writeFileSync(config, `${JSON.stringify({ [key]: { search: entry } }, null, 2)}\n`);
      // What the client would fill in, as wrap's shell has it: the variable, or MCP_LINT_INPUT_<ID> for an input prompt.
      const shell = placeholder.startsWith("input:") ? { MCP_LINT_INPUT_API_KEY: value } : { [placeholder]: value };
      const wrapped = await runCli(["wrap", config], { cwd: dir, env: shell });
      expect(wrapped.code, wrapped.stderr).toBe(0);
      expect(wrapped.stdout + wrapped.stderr).not.toContain(value);

      const read = () => (JSON.parse(readFileSync(config, "utf8")) as Record<string, { search: Entry }>)[key]?.search as Entry;
      const launch = async () => {
        const current = read();
        const proxied = await connectProxy([], {
          cwd: dir,
          argv: [current.command, ...current.args],
          env: clientEnv(current, { [placeholder.replace(/^input:/, "")]: value }),
        });
        const names = (await proxied.client.listTools()).tools.map((tool) => tool.name);
        const call = await proxied.client.callTool({ name: "search", arguments: { query: "x" } });
        await proxied.close();
        return { names, call, stderr: proxied.stderr() };
      };
      const first = await launch();
      expect(first.names).toEqual(["search", "premium_search"]);
      expect(first.call.isError ?? false).toBe(false);
      expect(first.stderr).toContain("2 tools listed, 2 served, 0 withheld");

      // The user bumps the server's version in the wrapped entry: the launch command changed, and so did one tool.
      const bumped = readFileSync(config, "utf8").replace('"1.0.0"', '"2.0.0"');
      writeFileSync(config, bumped);
      const second = await launch();
      expect(second.names).toEqual(["premium_search"]);
      expect(second.call.isError).toBe(true);
      expect(second.stderr).toContain('the server changed since it was locked (version "1.0.0" -> "2.0.0", launch command)');
      expect(second.stderr).toMatch(/withheld tool "search" \(error: description_changed/);
      expect(second.stderr).not.toContain(value);
    });
  }
});

/** A registry on 127.0.0.1 that knows mcp-lint at the given versions (none: every request is a 404). */
async function localRegistry(versions: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    if (versions.length === 0 || !/^\/mcp-lint(\/|$|\?)/.test(request.url ?? "")) {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      return;
    }
    const manifest = (v: string) => ({ name: "mcp-lint", version: v, dist: { tarball: `http://127.0.0.1/mcp-lint-${v}.tgz`, shasum: "0".repeat(40) } });
    const body = { name: "mcp-lint", "dist-tags": { latest: versions.at(-1) }, versions: Object.fromEntries(versions.map((v) => [v, manifest(v)])) };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${address.port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

describe.skipIf(process.platform === "win32")("wrap --npx (issue 21 item 2)", () => {
  it("refuses, writing nothing, unless the registry npm uses has this exact version; then writes npx -y mcp-lint@<version>", async () => {
    const { dir, config, original } = weatherConfig();
    const npmEnv = (registry: string) => ({ npm_config_registry: registry, npm_config_cache: join(dir, "npm-cache"), npm_config_offline: "false" });

    const empty = await localRegistry([]);
    try {
      const refused = await runCli(["wrap", "--npx", config], { cwd: dir, env: npmEnv(empty.url) });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(`^mcp-lint: --npx: mcp-lint@${version.replaceAll(".", "\\.")} is not published on the npm registry your npm uses.*wrap without --npx.*\\n$`),
      );
      const dry = await runCli(["wrap", "--npx", "--dry-run", config], { cwd: dir, env: npmEnv(empty.url) });
      expect(dry.code).toBe(2);
      expect(readFileSync(config, "utf8")).toBe(original);
    } finally {
      await empty.close();
    }
    // Nobody listens there: offline is a refusal too.
    const offline = await runCli(["wrap", "--npx", config], { cwd: dir, env: { ...npmEnv("http://127.0.0.1:9/"), npm_config_fetch_retries: "0" } });
    expect(offline.code).toBe(2);
    expect(offline.stderr).toMatch(/^mcp-lint: --npx: could not ask the npm registry whether mcp-lint@.* is published/);
    expect(readFileSync(config, "utf8")).toBe(original);

    const published = await localRegistry(["0.0.1", version]);
    try {
      const wrapped = await runCli(["wrap", "--npx", config], { cwd: dir, env: npmEnv(published.url) });
      expect(wrapped.code, wrapped.stderr).toBe(0);
    } finally {
      await published.close();
    }
    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { weather: { command: string; args: string[] } } }).mcpServers.weather;
    expect([entry.command, ...entry.args.slice(0, 3)]).toEqual(["npx", "-y", `mcp-lint@${version}`, "proxy"]);
    const bin = fakeNpx(dir);
    const proxied = await connectProxy([], { cwd: dir, argv: [entry.command, ...entry.args], env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` } });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time", "send_note"]);
    expect(await proxied.close()).toBe(0);
  });
});
