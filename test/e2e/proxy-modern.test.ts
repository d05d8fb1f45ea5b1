// End to end: a client of the 2025 protocol (the v1 SDK) through `mcp-lint proxy` to a server that
// speaks only MCP 2026-07-28 (test/fixtures/servers/modern/modern-only.mjs, which refuses
// `initialize`), and to its legacy twin the same way: lists and calls pass, the lock is enforced,
// and the guard follows the modern server's list changes through a `subscriptions/listen` it opens
// itself, passing on no notification from a subscription it did not open.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { connectProxy, listedToolNames, resultText, waitFor } from "../fixtures/servers/proxy/harness.js";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

const modernDir = join(repo, "test/fixtures/servers/modern");
/** The variants travel in the environment, passed to the server by name as any secret would be. */
const PASS = ["--pass-env", "MODERN_TOKEN_HEADER", "--pass-env", "MODERN_FLIP"];

const text = resultText;

const toolNames = listedToolNames;

/** Lock the server as it starts without variants; the lock's path. */
async function lockServer(dir: string, server: string[]): Promise<string> {
  const lock = join(dir, "mcp-lint.lock");
  const locked = await runCli(["lock", "--lock", lock, ...PASS, "--", ...server], { cwd: dir, env: { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "" } });
  expect(locked.code, locked.stderr).toBe(0);
  return lock;
}

describe.each([
  ["the modern-only server", "modern-only.mjs", true],
  ["its legacy twin", "legacy-twin.mjs", false],
])("a 2025 client through the proxy to %s", (_label, script, modern) => {
  const server = [process.execPath, join(modernDir, script)];

  it.each([
    ["without a lock", false],
    ["with --lock", true],
  ])("lists every page and calls tools %s", async (_how, guarded) => {
    const dir = tempDir();
    const args = guarded ? ["--lock", await lockServer(dir, server)] : [];
    const proxied = await connectProxy([...args, ...PASS, "--", ...server], { cwd: dir, env: { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "" } });
    try {
      const { client } = proxied;
      // What server/discover said reaches the client as its initialize answer.
      expect(client.getServerVersion()).toMatchObject({ name: "modern-fixture", version: "1.0.0" });
      expect(client.getInstructions()).toBe("Modern instructions.");
      expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
      expect(await toolNames(proxied)).toEqual(["search", "login"]);
      const answer = await client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(answer.isError ?? false).toBe(false);
      expect(JSON.parse(text(answer))).toEqual({ tool: "login", arguments: { token: "t0k" } });
      // The revision has no ping; the proxy answers it, so a 2025 client's liveness check still works.
      await expect(client.ping()).resolves.toBeDefined();
      if (modern) expect(proxied.stderr()).toContain("the server refused initialize and speaks MCP 2026-07-28");
      else expect(proxied.stderr()).not.toContain("2026-07-28");
    } finally {
      expect(await proxied.close()).toBe(0);
    }
  });

  it("withholds a locked tool the server changed (x-mcp-header added to login's token) and refuses its call", async () => {
    const dir = tempDir();
    const lock = await lockServer(dir, server);
    const proxied = await connectProxy(["--lock", lock, ...PASS, "--", ...server], { cwd: dir, env: { MODERN_TOKEN_HEADER: "1", MODERN_FLIP: "" } });
    try {
      expect(await toolNames(proxied)).toEqual(["search"]);
      const refused = await proxied.client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("login");
      expect(text(refused)).not.toContain("t0k");
      expect(proxied.stderr()).toContain('withheld tool "login" (error: mcp_header_changed)');
      await waitFor(() => proxied.stderr().includes('refused a call to withheld tool "login" (mcp_header_changed)'));
    } finally {
      await proxied.close();
    }
  });
});

describe("the guard follows subscriptions/listen on a 2026-07-28 server", () => {
  const server = [process.execPath, join(modernDir, "modern-only.mjs")];

  it("re-reads when the server announces a changed list on the proxy's subscription, and withholds the changed tool", async () => {
    const dir = tempDir();
    const lock = await lockServer(dir, server);
    const proxied = await connectProxy(["--lock", lock, ...PASS, "--", ...server], { cwd: dir, env: { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "1" } });
    try {
      let changed = 0;
      proxied.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed += 1;
      });
      expect(proxied.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
      expect(await toolNames(proxied)).toEqual(["search", "login"]);
      // "flip" adds x-mcp-header to login's token and announces it on the subscription.
      await proxied.client.callTool({ name: "search", arguments: { query: "flip" } });
      await waitFor(() => changed === 1);
      expect(proxied.stderr()).toContain("compared the server with the lock (list_changed): 2 tools listed, 1 served, 1 withheld");
      expect(await toolNames(proxied)).toEqual(["search"]);
      const refused = await proxied.client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(refused.isError).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it("regression: a list_changed from no subscription, or from one the proxy did not open, is never passed on", async () => {
    const dir = tempDir();
    // No lock: every notification would pass as sent, and in order, were it not dropped.
    const proxied = await connectProxy([...PASS, "--", ...server], { cwd: dir, env: { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "1" } });
    try {
      let changed = 0;
      proxied.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed += 1;
      });
      // The fixture writes both stray notifications before this call's answer.
      await proxied.client.callTool({ name: "search", arguments: { query: "stray" } });
      expect(changed).toBe(0);
      await waitFor(() => (proxied.stderr().match(/dropped a "notifications\/tools\/list_changed" notification/g) ?? []).length === 2);
      expect(proxied.stderr()).toContain("it came from no subscription");
      expect(proxied.stderr()).toContain("it came from a subscription the proxy did not open");
      // The proxy's own subscription still delivers.
      await proxied.client.callTool({ name: "search", arguments: { query: "flip" } });
      await waitFor(() => changed === 1);
    } finally {
      await proxied.close();
    }
  });
});

/** A 2026-07-28 client (the SDK v2 client, pinned to the revision: no fallback) through `mcp-lint proxy`. */
async function modernThroughProxy(dir: string, args: string[], env: Record<string, string>, pin = true) {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "proxy", ...args],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new ModernClient(
    { name: "modern-test", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: pin ? { mode: { pin: "2026-07-28" } } : { mode: "auto" } },
  );
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("a 2026-07-28 client (the SDK v2 client) through the proxy", () => {
  it.each([
    ["the modern-only server", "modern-only.mjs"],
    ["its legacy twin", "legacy-twin.mjs"],
  ])("is answered server/discover and served the locked list of %s in the revision", async (_label, script) => {
    const dir = tempDir();
    const server = [process.execPath, join(modernDir, script)];
    const lock = await lockServer(dir, server);
    const { client, stderr } = await modernThroughProxy(dir, ["--lock", lock, ...PASS, "--", ...server], { MODERN_TOKEN_HEADER: "1", MODERN_FLIP: "" });
    try {
      // Pinned to the revision, the client would have failed to connect had the proxy not answered server/discover.
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getServerVersion()).toMatchObject({ name: "modern-fixture", version: "1.0.0" });
      // The server's instructions, then the proxy's line on what it withholds.
      expect(client.getInstructions()).toMatch(/^Modern instructions\.\n\nmcp-lint withheld 1 tool of this server until the user reviews them: "login"/);
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["search"]);
      const answer = await client.callTool({ name: "search", arguments: { query: "q" } });
      // The envelope the client stamps on each request is the link's business: the server's handler never sees it.
      expect(JSON.parse(text(answer))).toEqual({ tool: "search", arguments: { query: "q" } });
      const refused = await client.callTool({ name: "login", arguments: { token: "t0k" } });
      expect(refused.isError).toBe(true);
      expect(stderr()).toContain('withheld tool "login" (error: mcp_header_changed)');
      expect(stderr()).toContain("the client speaks MCP 2026-07-28; the proxy speaks that revision to it");
    } finally {
      await client.close();
    }
  });

  it("answers a server/discover sent on its own connection (no sibling probe) with the guarded server's discover", async () => {
    const dir = tempDir();
    const server = [process.execPath, join(modernDir, "legacy-twin.mjs")];
    const lock = await lockServer(dir, server);
    const proxy = spawn(process.execPath, [cliPath, "proxy", "--lock", lock, ...PASS, "--", ...server], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", MODERN_TOKEN_HEADER: "1", MODERN_FLIP: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines: Record<string, unknown>[] = [];
    let buffered = "";
    proxy.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const part of parts) if (part.trim() !== "") lines.push(JSON.parse(part));
    });
    const envelope = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" } };
    try {
      proxy.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: "hello", method: "server/discover", params: { _meta: envelope } })}\n`);
      proxy.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope } })}\n`);
      const answered = (id: unknown) => lines.find((line) => line.id === id);
      await waitFor(() => answered(2) !== undefined);
      expect(lines[0]).toMatchObject({ id: "hello", result: { supportedVersions: expect.arrayContaining(["2026-07-28"]), resultType: "complete" } });
      const discovered = answered("hello") as { result: { instructions: string } };
      expect(discovered.result.instructions).toContain('mcp-lint withheld 1 tool of this server until the user reviews them: "login"');
      expect(answered(2)).toMatchObject({ id: 2, result: { tools: [{ name: "search" }], resultType: "complete", ttlMs: 0, cacheScope: "private" } });
    } finally {
      proxy.stdin.end();
      await new Promise((done) => proxy.once("exit", done));
    }
  });

  it("an auto-negotiating v2 client speaks the revision to the proxy too", async () => {
    const dir = tempDir();
    const server = [process.execPath, join(modernDir, "legacy-twin.mjs")];
    const { client } = await modernThroughProxy(dir, [...PASS, "--", ...server], { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "" }, false);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "login"]);
    } finally {
      await client.close();
    }
  });

  it("delivers a changed list on the client's own subscription, after the guard re-read it, and only there", async () => {
    const dir = tempDir();
    const server = [process.execPath, join(modernDir, "modern-only.mjs")];
    const lock = await lockServer(dir, server);
    const { client, stderr } = await modernThroughProxy(dir, ["--lock", lock, ...PASS, "--", ...server], { MODERN_TOKEN_HEADER: "", MODERN_FLIP: "1" });
    try {
      let changed = 0;
      client.setNotificationHandler("notifications/tools/list_changed", () => {
        changed += 1;
      });
      expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search", "login"]);
      // Before the client listens, a change reaches the guard but not the client.
      await client.callTool({ name: "search", arguments: { query: "flip" } });
      await waitFor(() => stderr().includes("compared the server with the lock (list_changed): 2 tools listed, 1 served, 1 withheld"));
      expect(changed).toBe(0);
      const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
      // The server can announce only tool list changes: that is all the proxy agrees to.
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await client.callTool({ name: "search", arguments: { query: "flip" } });
      await waitFor(() => changed === 1);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["search"]);
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});
