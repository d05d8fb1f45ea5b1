// End to end: a client of the 2025 protocol (the v1 SDK) through `mcp-lint proxy --url` to a remote
// server that speaks only MCP 2026-07-28 over Streamable HTTP (test/fixtures/servers/modern/
// modern-only.mjs --http, on the SDK v2 server, which refuses `initialize` with HTTP 400 and checks
// every call's Mcp-Param-* headers against the tool's x-mcp-header declarations), and to its legacy
// twin over HTTP the same way. Lists, calls and a lock taken with `lock --url` pass through the link;
// a credential bound for a header is refused before it leaves; a tool whose declarations a client
// must refuse is left out.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";
import { connectProxy, listedToolNames, resultText } from "../fixtures/servers/proxy/harness.js";
import { cliPath, runCli, tempDir } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const SECRET = "ghp_0123456789abcdefghijKLMNOPQRSTuvwx";

const text = resultText;

const toolNames = listedToolNames;

/** Start a fixture over HTTP that logs every call it receives to <dir>/calls.jsonl; its URL and that log. */
async function serve(script: string, dir: string, flags: string[] = []) {
  const log = join(dir, "calls.jsonl");
  // The modern server checks every call's Mcp-Param-* headers, as one built on the SDK's McpServer does.
  const checks = script === "modern-only.mjs" ? ["--check-params"] : [];
  const server = await startHttpFixture(["--http", "--call-log", log, ...checks, ...flags], `../modern/${script}`);
  const calls = (): { tool: string; arguments: Record<string, unknown> }[] =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  return { url: server.url, calls, log };
}

describe.each([
  ["the modern-only server", "modern-only.mjs", true],
  ["its legacy twin", "legacy-twin.mjs", false],
])("a 2025 client through proxy --url to %s", (_label, script, modern) => {
  it.each([
    ["without a lock", false],
    ["with --lock (taken with lock --url)", true],
  ])("lists both pages and calls tools, a header parameter included, %s", async (_how, guarded) => {
    const dir = tempDir();
    const { url, calls } = await serve(script, dir);
    const lock = join(dir, "mcp-lint.lock");
    if (guarded) {
      const locked = await runCli(["lock", "--lock", lock, "--url", url], { cwd: dir });
      expect(locked.code, locked.stderr).toBe(0);
    }
    const proxied = await connectProxy([...(guarded ? ["--lock", lock] : []), "--url", url], { cwd: dir });
    try {
      const { client } = proxied;
      expect(client.getServerVersion()).toMatchObject({ name: "modern-fixture", version: "1.0.0" });
      expect(client.getInstructions()).toBe("Modern instructions.");
      expect(await toolNames(proxied)).toEqual(["search", "login"]);
      const login = await client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(JSON.parse(text(login))).toEqual({ tool: "login", arguments: { token: "t0k" } });
      // `region` declares x-mcp-header "Region": the modern server refuses the call (HTTP 400, -32020) unless Mcp-Param-Region carries it.
      for (const region of ["eu-west", "Zürich", " padded ", "=?base64?ZXU=?="]) {
        const answer = await client.callTool({ name: "search", arguments: { query: "maps", region } });
        expect(answer.isError ?? false, text(answer)).toBe(false);
        expect(JSON.parse(text(answer))).toEqual({ tool: "search", arguments: { query: "maps", region } });
      }
      expect(calls().map((call) => call.tool)).toEqual(["login", "search", "search", "search", "search"]);
      await expect(client.ping()).resolves.toBeDefined();
      if (modern) expect(proxied.stderr()).toContain("the server refused initialize and speaks MCP 2026-07-28");
      else expect(proxied.stderr()).not.toContain("2026-07-28");
      if (guarded) expect(proxied.stderr()).toContain("2 tools listed, 2 served, 0 withheld");
    } finally {
      expect(await proxied.close()).toBe(0);
    }
  });

  it("enforces a lock taken with lock --url: a tool whose token gained an x-mcp-header is withheld", async () => {
    const dir = tempDir();
    const lock = join(dir, "mcp-lint.lock");
    const before = await serve(script, dir);
    const locked = await runCli(["lock", "--lock", lock, "--url", before.url], { cwd: dir });
    expect(locked.code, locked.stderr).toBe(0);
    const after = await serve(script, dir, ["--token-header"]);
    const proxied = await connectProxy(["--lock", lock, "--url", after.url], { cwd: dir });
    try {
      expect(await toolNames(proxied)).toEqual(["search"]);
      const refused = await proxied.client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(refused.isError).toBe(true);
      expect(proxied.stderr()).toContain('withheld tool "login" (error: mcp_header_changed)');
      expect(after.calls()).toEqual([]);
    } finally {
      await proxied.close();
    }
  });
});

describe("proxy --url to a 2026-07-28 server: what a header would carry", () => {
  it("refuses a call whose header value has the form of a credential; it never reaches the server, and no output repeats it", async () => {
    const dir = tempDir();
    const { url, calls } = await serve("modern-only.mjs", dir);
    const audit = join(dir, "audit.jsonl");
    const proxied = await connectProxy(["--audit", audit, "--url", url], { cwd: dir });
    try {
      expect(await toolNames(proxied)).toEqual(["search", "login"]);
      const refused = await proxied.client.callTool({ name: "search", arguments: { query: "maps", region: `Bearer ${SECRET}` } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("Mcp-Param-Region");
      expect(text(refused)).toContain("the form of a credential");
      expect(JSON.stringify(refused)).not.toContain(SECRET);
      // The same secret in a parameter that is not copied into a header is an ordinary argument.
      const plain = await proxied.client.callTool({ name: "search", arguments: { query: SECRET, region: "eu" } });
      expect(plain.isError ?? false).toBe(false);
      expect(calls()).toEqual([{ tool: "search", arguments: { query: SECRET, region: "eu" } }]);
    } finally {
      await proxied.close();
    }
    expect(proxied.stderr()).toContain(
      'mcp-lint proxy: refused a call to tool "search": the value for its header Mcp-Param-Region has the form of a credential',
    );
    expect(proxied.stderr()).not.toContain(SECRET);
    const records = readFileSync(audit, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(records).toContainEqual(expect.objectContaining({ event: "header_refused", tool: "search", header: "Mcp-Param-Region" }));
    expect(readFileSync(audit, "utf8")).not.toContain(SECRET);
  });

  it("hostile: leaves out each tool whose x-mcp-header declarations a client must refuse, reports each once, and sends no call to one", async () => {
    const dir = tempDir();
    const { url, calls } = await serve("modern-only.mjs", dir, ["--bad-headers"]);
    const proxied = await connectProxy(["--url", url], { cwd: dir });
    try {
      // A header named like another (Authorization, Mcp-Method) is no reason to leave a tool out.
      const served = ["named_authorization", "named_mcp_method", "search", "login"];
      expect(await toolNames(proxied)).toEqual(served);
      // Read again: nothing new to report.
      expect(await toolNames(proxied)).toEqual(served);
      const refused = await proxied.client.callTool({ name: "bad_twice", arguments: { zone: "a", area: "b" } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("left out of the tool list");
      expect(calls()).toEqual([]);
    } finally {
      await proxied.close();
    }
    const stderr = proxied.stderr();
    for (const [tool, why] of [
      ["bad_token", 'x-mcp-header "a b" is not a header name'],
      ["bad_twice", `x-mcp-header "zone" repeats another declaration's name`],
      ["bad_items", 'x-mcp-header "Tag" is not on a parameter reached from the root through properties alone'],
      ["bad_object", 'x-mcp-header "Filter" is on a parameter that is not a string, integer or boolean'],
    ]) {
      const lines = stderr.split("\n").filter((line) => line.startsWith(`mcp-lint proxy: left tool "${tool}" out of the list:`));
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toContain(why);
    }
  });
});

describe("the 2025 HTTP paths still work through the link (SDK v2 transports)", () => {
  it.each([
    ["a server of the older HTTP+SSE transport (its POST answers 405)", ["--sse-only"], [], {}],
    ["a same-origin redirect", ["--redirect", "same"], [], {}],
    [
      "a token given in a header (--header-env)",
      ["--auth", "tok-4417-fixture"],
      ["--header-env", "Authorization=FIXTURE_AUTH"],
      { FIXTURE_AUTH: "Bearer tok-4417-fixture" },
    ],
  ])("serves %s", async (_label, flags, args, env) => {
    const dir = tempDir();
    const server = await startHttpFixture(flags as string[]);
    const proxied = await connectProxy([...(args as string[]), "--url", server.url], { cwd: dir, env: env as Record<string, string> });
    try {
      expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
      expect(proxied.client.getInstructions()).toBe("Use get_weather for forecasts and get_time for clocks.");
      expect(proxied.stderr()).not.toContain("2026-07-28");
    } finally {
      expect(await proxied.close()).toBe(0);
    }
  });
});
