/** Claude Code (`@anthropic-ai/claude-code`): run `claude -p` with an isolated config folder against the loopback Anthropic endpoint and read the tools of its Messages request. */

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isJsonObject, ownField } from "../../json/value.js";
import type { ClientLaunch, ModelClientAdapter, PrepareInput, RecordedRequest, RecorderReply, RenderedTool } from "../types.js";
import { carrier, matchRenderedName } from "./names.js";

/** How Claude Code spells a server or tool name inside `mcp__<server>__<tool>`: anything but letters, digits, `_` and `-` becomes `_`. */
export function claudeNamePart(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_");
}

function prefix(serverName: string): string {
  return `mcp__${claudeNamePart(serverName)}__`;
}

/** Holds `$` for claudeLiteral: Claude Code expands it in one pass, so what it yields is not read again. */
const DOLLAR_VAR = "MCP_LINT_DOLLAR";

/**
 * A string Claude Code reads back as itself: it expands `${NAME}` in the command, arguments, URL and
 * headers of an MCP config, so a literal `${` (a folder named `a${HOME}b`) is written as `${MCP_LINT_DOLLAR}{`.
 */
export function claudeLiteral(value: string): string {
  return value.replaceAll("${", `\${${DOLLAR_VAR}}{`);
}

/** The variable Claude Code reads its API key from: the run's model key travels in it. */
const KEY_VAR = "ANTHROPIC_API_KEY";

/**
 * The MCP config for `--mcp-config`: values as `${VAR}` references Claude Code expands from its own
 * environment. Claude Code starts a stdio server with its own whole environment under the config's
 * `env`, so the config sets ANTHROPIC_API_KEY empty there (unless the server is given one of its own):
 * the run's key is the client's, and a server holding it could post to the model endpoint as the client.
 */
export function claudeMcpConfig(input: Pick<PrepareInput, "server" | "serverName">): { config: unknown; env: Record<string, string> } {
  const env: Record<string, string> = { [DOLLAR_VAR]: "$" };
  const { server } = input;
  let entry: Record<string, unknown>;
  if (server.kind === "stdio") {
    const serverEnv: Record<string, string> = {};
    Object.entries(server.env).forEach(([name, value], index) => {
      env[carrier("ENV", index)] = value;
      serverEnv[name] = `\${${carrier("ENV", index)}}`;
    });
    if (!Object.hasOwn(serverEnv, KEY_VAR)) serverEnv[KEY_VAR] = "";
    entry = { type: "stdio", command: claudeLiteral(server.command), args: server.args.map(claudeLiteral), env: serverEnv };
  } else {
    const headers: Record<string, string> = {};
    server.headers.forEach(([name, value], index) => {
      env[carrier("HEADER", index)] = value;
      headers[name] = `\${${carrier("HEADER", index)}}`;
    });
    entry = { type: "http", url: claudeLiteral(server.url), headers };
  }
  return { config: { mcpServers: { [input.serverName]: entry } }, env };
}

async function prepare(input: PrepareInput): Promise<ClientLaunch> {
  const home = join(input.scratch, "home");
  const configDir = join(input.scratch, "claude-config");
  const cwd = join(input.scratch, "work");
  await Promise.all([home, configDir, cwd].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  const { config, env } = claudeMcpConfig(input);
  const configFile = join(input.scratch, "mcp.json");
  await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return {
    command: input.bin,
    args: ["-p", "Say ok.", "--mcp-config", configFile, "--strict-mcp-config", "--output-format", "json", "--max-turns", "1"],
    cwd,
    env: {
      ...input.baseEnv,
      ...env,
      HOME: home,
      CLAUDE_CONFIG_DIR: configDir,
      ANTHROPIC_BASE_URL: input.modelUrl ?? "http://127.0.0.1:9",
      // Sent as `x-api-key` on every request; the endpoint reads nothing without it.
      [KEY_VAR]: input.modelKey ?? "",
      // Every tool's schema in the first request, not a search tool that loads them on demand.
      ENABLE_TOOL_SEARCH: "false",
      // A server started with npx may take long; crosscheck bounds the whole run itself.
      MCP_TIMEOUT: "120000",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  };
}

const STREAM_EVENTS = (model: string) =>
  [
    [
      "message_start",
      {
        message: {
          id: "msg_mcp_lint",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ],
    ["content_block_start", { index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { index: 0, delta: { type: "text_delta", text: "ok" } }],
    ["content_block_stop", { index: 0 }],
    ["message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }],
    ["message_stop", {}],
  ] as const;

/** A one-word answer that ends the turn: `claude -p` then prints it and exits. */
function reply(request: RecordedRequest): RecorderReply {
  if (!isMessages(request)) {
    // The reachability check (HEAD /api/hello) and anything else: an empty success.
    return { status: request.method === "HEAD" || request.method === "GET" ? 200 : 404, headers: { "content-type": "application/json" }, body: "{}" };
  }
  const body = isJsonObject(request.body) ? request.body : {};
  const model = typeof body.model === "string" ? body.model : "claude";
  if (body.stream === true) {
    const text = STREAM_EVENTS(model)
      .map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
      .join("");
    return { status: 200, headers: { "content-type": "text/event-stream" }, body: text };
  }
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      id: "msg_mcp_lint",
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    }),
  };
}

/** Anthropic's answer to a request without a valid key. */
function refusal(): RecorderReply {
  const body = { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } };
  return { status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

function isMessages(request: RecordedRequest): boolean {
  return request.method === "POST" && /^\/v1\/messages(\?|$)/.test(request.path);
}

/** A conversation turn (it carries messages); token counting and other side requests are not. */
function modelRequest(request: RecordedRequest): boolean {
  return isMessages(request) && isJsonObject(request.body) && Array.isArray(request.body.messages) && Array.isArray(request.body.tools);
}

function toolsIn(request: RecordedRequest, serverName: string): RenderedTool[] | null {
  if (!modelRequest(request)) return null;
  const tools = ownField(request.body as Record<string, unknown>, "tools") as unknown[];
  const start = prefix(serverName);
  const found = tools.flatMap((tool): RenderedTool[] => {
    if (!isJsonObject(tool)) return [];
    const name = ownField(tool, "name");
    if (typeof name !== "string" || !name.startsWith(start)) return [];
    const description = ownField(tool, "description");
    return [{ name, description: typeof description === "string" ? description : null, inputSchema: ownField(tool, "input_schema") }];
  });
  return found.length === 0 ? null : found;
}

export const claudeCode: ModelClientAdapter = {
  kind: "model",
  id: "claude-code",
  label: "Claude Code",
  bin: "claude",
  npmPackage: "@anthropic-ai/claude-code",
  testedVersion: "2.1.332",
  prepare,
  // The Anthropic SDK sends an API key as `x-api-key` (a bearer token is ANTHROPIC_AUTH_TOKEN's, not set here).
  keyIn: (request) => request.headers["x-api-key"] ?? null,
  refusal,
  reply,
  modelRequest,
  toolsIn,
  serverToolName: (rendered, serverName, serverTools) => matchRenderedName(rendered, serverTools, (tool) => `${prefix(serverName)}${claudeNamePart(tool)}`),
};
