// The Claude Code adapter's pure parts: the MCP config it writes, name mapping, what it reads from a request, its reply.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCode, claudeLiteral, claudeMcpConfig, claudeNamePart } from "../../../src/crosscheck/clients/claude-code.js";
import type { RecordedRequest } from "../../../src/crosscheck/types.js";

const messages = (tools: unknown[]): RecordedRequest => ({
  method: "POST",
  path: "/v1/messages?beta=true",
  headers: {},
  body: { model: "m", stream: true, messages: [{ role: "user", content: "hi" }], tools },
});

describe("claude-code adapter", () => {
  it("writes header and server variable values as ${VAR} references, the values only in the client's environment", () => {
    const http = claudeMcpConfig({
      serverName: "target",
      server: { kind: "http", url: "https://x.test/mcp", headers: [["Authorization", "Bearer s3cret-value"]] },
    });
    expect(JSON.stringify(http.config)).not.toContain("s3cret-value");
    expect(http.config).toEqual({ mcpServers: { target: { type: "http", url: "https://x.test/mcp", headers: { Authorization: "${MCP_LINT_HEADER_0}" } } } });
    expect(http.env).toEqual({ MCP_LINT_DOLLAR: "$", MCP_LINT_HEADER_0: "Bearer s3cret-value" });
    const stdio = claudeMcpConfig({ serverName: "target", server: { kind: "stdio", command: "node", args: ["a ${HOME} b"], env: { TOKEN: "t0ken-value" } } });
    expect(JSON.stringify(stdio.config)).not.toContain("t0ken-value");
    expect(stdio.config).toEqual({
      mcpServers: {
        target: { type: "stdio", command: "node", args: ["a ${MCP_LINT_DOLLAR}{HOME} b"], env: { TOKEN: "${MCP_LINT_ENV_0}", ANTHROPIC_API_KEY: "" } },
      },
    });
  });

  // Regression (issue 37, item 6): Claude Code starts a stdio server with its own whole environment, the API key
  // included, so a server under test could post a forged tools copy to the model endpoint with the run's key.
  it("sets the stdio server's ANTHROPIC_API_KEY empty, so the run's key stays the client's; a key of the server's own is kept", () => {
    const plain = claudeMcpConfig({ serverName: "target", server: { kind: "stdio", command: "srv", args: [], env: {} } });
    expect(plain.config).toEqual({ mcpServers: { target: { type: "stdio", command: "srv", args: [], env: { ANTHROPIC_API_KEY: "" } } } });
    const own = claudeMcpConfig({ serverName: "target", server: { kind: "stdio", command: "srv", args: [], env: { ANTHROPIC_API_KEY: "users-own" } } });
    expect(own.config).toEqual({ mcpServers: { target: { type: "stdio", command: "srv", args: [], env: { ANTHROPIC_API_KEY: "${MCP_LINT_ENV_0}" } } } });
    expect(own.env.MCP_LINT_ENV_0).toBe("users-own");
  });

  it("hands the run's key to Claude Code as its API key, and reads it back only from x-api-key", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "claude-adapter-"));
    const launch = await claudeCode.prepare({
      scratch,
      bin: "claude",
      server: { kind: "http", url: "http://127.0.0.1:9000/mcp", headers: [] },
      serverName: "target",
      modelUrl: "http://127.0.0.1:4321",
      modelKey: "mcp-lint-run-key-c1a0",
      baseEnv: { PATH: "/bin" },
    });
    expect(launch.env.ANTHROPIC_API_KEY).toBe("mcp-lint-run-key-c1a0");
    expect(launch.args.join(" ")).not.toContain("mcp-lint-run-key-c1a0");
    expect(readFileSync(join(scratch, "mcp.json"), "utf8")).not.toContain("mcp-lint-run-key-c1a0");
    const head = (headers: Record<string, string>) => ({ method: "POST", path: "/v1/messages", headers });
    expect(claudeCode.keyIn(head({ "x-api-key": "k" }))).toBe("k");
    expect(claudeCode.keyIn(head({ authorization: "Bearer k" }))).toBeNull();
    expect(claudeCode.keyIn(head({}))).toBeNull();
  });

  it("keeps a literal ${ by spelling its $ as a variable Claude Code expands in one pass", () => {
    expect(claudeLiteral("plain")).toBe("plain");
    expect(claudeLiteral("$PATH and ${HOME}")).toBe("$PATH and ${MCP_LINT_DOLLAR}{HOME}");
  });

  it("maps mcp__<server>__<tool> back, with Claude Code's spelling of odd characters", () => {
    expect(claudeNamePart("get.user info")).toBe("get_user_info");
    expect(claudeCode.serverToolName("mcp__target__get_user_info", "target", ["other", "get.user info"])).toBe("get.user info");
    expect(claudeCode.serverToolName("mcp__other__ping", "target", ["ping"])).toBeNull();
    expect(claudeCode.serverToolName("Bash", "target", ["Bash"])).toBeNull();
  });

  it("reads only the server's tools from a conversation turn, and nothing from other requests", () => {
    const request = messages([
      { name: "Bash", description: "Run a command.", input_schema: { type: "object" } },
      { name: "mcp__target__ping", description: "Ping.", input_schema: { type: "object", properties: {} } },
    ]);
    expect(claudeCode.toolsIn(request, "target")).toEqual([
      { name: "mcp__target__ping", description: "Ping.", inputSchema: { type: "object", properties: {} } },
    ]);
    expect(claudeCode.modelRequest(request)).toBe(true);
    const withoutServer = messages([{ name: "Bash", description: "Run.", input_schema: {} }]);
    expect(claudeCode.toolsIn(withoutServer, "target")).toBeNull();
    expect(claudeCode.modelRequest(withoutServer)).toBe(true);
    const hello: RecordedRequest = { method: "HEAD", path: "/api/hello", headers: {}, body: null };
    expect(claudeCode.toolsIn(hello, "target")).toBeNull();
    expect(claudeCode.modelRequest(hello)).toBe(false);
  });

  it("answers a streamed turn with a one-word message that ends it", () => {
    const reply = claudeCode.reply(messages([]));
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/event-stream");
    const events = reply.body
      .split("\n\n")
      .filter((block) => block !== "")
      .map((block) => block.split("\n")[0]);
    expect(events).toEqual([
      "event: message_start",
      "event: content_block_start",
      "event: content_block_delta",
      "event: content_block_stop",
      "event: message_delta",
      "event: message_stop",
    ]);
    expect(reply.body).toContain('"stop_reason":"end_turn"');
    expect(claudeCode.reply({ method: "HEAD", path: "/api/hello", headers: {}, body: null }).status).toBe(200);
  });
});
