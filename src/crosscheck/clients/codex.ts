/** OpenAI Codex CLI (`@openai/codex`): run `codex exec` with an isolated CODEX_HOME against the loopback Responses endpoint and read the `mcp__<server>` namespace of its first request. */

import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { isJsonObject, ownField } from "../../json/value.js";
import { bearerToken } from "../model-key.js";
import { carrier } from "./names.js";
import type { ClientLaunch, ModelClientAdapter, PrepareInput, RecordedRequest, RecorderReply, RenderedTool } from "../types.js";

/** The provider id and the variable the run's model key travels in (`env_key`): no login, no `auth.json`; Codex gives a server no variable of its own but HOME, PATH and the like. */
const PROVIDER = "mcp-lint";
const KEY_VAR = "MCP_LINT_API_KEY";
/**
 * A model Codex has no metadata for: it then sends every MCP tool's schema in the first request.
 * For a model of its own catalog, Codex 0.171.0 lists the server only as a deferred namespace and
 * shows the schemas when the model asks for them.
 */
const MODEL = "mcp-lint-model";

/** Codex's limit on `namespace` + `__` + `name`, and the hash suffix it uses to stay within it. */
const MAX_NAME_LENGTH = 128;
const DELIMITER = "__";
const HASH_LENGTH = 12;

/** How Codex spells a server or tool name for the model: anything but ASCII letters, digits and `_` becomes `_` (one per character). */
export function codexNamePart(name: string): string {
  let out = "";
  for (const char of name) out += /^[A-Za-z0-9_]$/.test(char) ? char : "_";
  return out === "" ? "_" : out;
}

/** The namespace the server's tools sit in (`mcp__target`); a name already starting with `mcp__` is not prefixed twice. */
export function codexNamespace(serverName: string): string {
  const part = codexNamePart(serverName);
  return part.startsWith("mcp__") ? part : `mcp__${part}`;
}

function hashSuffix(identity: string): string {
  return `_${createHash("sha1").update(identity, "utf8").digest("hex").slice(0, HASH_LENGTH)}`;
}

/** Rust orders these identities as UTF-8 bytes, which is not JavaScript's UTF-16 order. */
function byteOrder(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}

/**
 * The name the model sees for each server tool (`mcp__target__search_notes`), as Codex allocates it
 * (codex-rs/codex-mcp/src/tools.rs): sanitized names; a `_<sha1[:12]>` suffix on names that sanitize
 * alike; a tool name cut short and suffixed when the whole would pass 128 characters. The hash is
 * over `server\0server\0\0tool\0tool`, so the name is computed, not guessed. A tool listed twice
 * keeps its first entry.
 */
export function codexToolNames(serverName: string, serverTools: readonly string[]): Map<string, string> {
  const namespace = codexNamespace(serverName);
  const identityOf = (tool: string) => `${serverName}\0${serverName}\0\0${tool}\0${tool}`;
  const tools = [...new Set(serverTools)];
  const bySanitized = new Map<string, number>();
  for (const tool of tools) bySanitized.set(codexNamePart(tool), (bySanitized.get(codexNamePart(tool)) ?? 0) + 1);
  const candidates = tools
    .map((tool) => {
      const sanitized = codexNamePart(tool);
      const identity = identityOf(tool);
      return { tool, identity, name: (bySanitized.get(sanitized) ?? 0) > 1 ? `${sanitized}${hashSuffix(identity)}` : sanitized };
    })
    .sort((left, right) => byteOrder(left.identity, right.identity));
  const used = new Set<string>();
  const names = new Map<string, string>();
  for (const candidate of candidates) {
    let [space, name] = [namespace, candidate.name];
    if (space.length + DELIMITER.length + name.length > MAX_NAME_LENGTH || used.has(space + name)) {
      for (let attempt = 0; ; attempt++) {
        const suffix = hashSuffix(attempt === 0 ? candidate.identity : `${candidate.identity}\0${attempt}`);
        const room = MAX_NAME_LENGTH - namespace.length - DELIMITER.length;
        [space, name] =
          room >= suffix.length
            ? [namespace, candidate.name.slice(0, room - suffix.length) + suffix]
            : [namespace.slice(0, MAX_NAME_LENGTH - suffix.length - DELIMITER.length), suffix];
        if (!used.has(space + name)) break;
      }
    }
    used.add(space + name);
    names.set(`${space}${DELIMITER}${name}`, candidate.tool);
  }
  return names;
}

/** Server variables Codex itself would read if they sat in its own environment: these are written as values instead of forwarded. */
const CODEX_READS = /^(PATH|HOME|CODEX_.*|OPENAI_.*|RUST_.*|SSL_CERT_.*|(HTTPS?|ALL|NO)_PROXY)$/i;

/** The config.toml: the loopback provider, the server under `serverName`, and the features that would reach the network off. */
export function codexConfig(input: Pick<PrepareInput, "server" | "serverName" | "modelUrl" | "baseEnv">): {
  config: Record<string, unknown>;
  env: Record<string, string>;
} {
  const env: Record<string, string> = {};
  const { server } = input;
  // Required: a server that fails to start or list its tools stops Codex with an error instead of a turn
  // without them (an optional server gets a 1 s grace and is then left out). Crosscheck bounds the run itself.
  let entry: Record<string, unknown> = { required: true, startup_timeout_sec: 120 };
  if (server.kind === "stdio") {
    // Codex gives a server only HOME, PATH and the like from its own environment, plus what is named here.
    const forwarded: string[] = [];
    const written: Record<string, string> = {};
    for (const [name, value] of Object.entries(server.env)) {
      if (CODEX_READS.test(name) || Object.hasOwn(input.baseEnv, name) || name === KEY_VAR || name.startsWith("MCP_LINT_")) written[name] = value;
      else {
        // `env_vars` forwards a variable of Codex's environment by name: the value stays out of the file.
        forwarded.push(name);
        env[name] = value;
      }
    }
    entry = { command: server.command, args: server.args, ...entry };
    if (forwarded.length > 0) entry.env_vars = forwarded;
    if (Object.keys(written).length > 0) entry.env = written;
  } else {
    const headers: Record<string, string> = {};
    server.headers.forEach(([name, value], index) => {
      env[carrier("HEADER", index)] = value;
      headers[name] = carrier("HEADER", index);
    });
    entry = { url: server.url, ...entry };
    if (server.headers.length > 0) entry.env_http_headers = headers;
  }
  const config = {
    model: MODEL,
    model_provider: PROVIDER,
    check_for_update_on_startup: false,
    web_search: "disabled",
    // The plugin marketplace sync runs `git ls-remote https://github.com/openai/plugins`; the rest are quiet either way.
    features: { plugins: false, remote_plugin: false, apps: false, shell_snapshot: false },
    analytics: { enabled: false },
    model_providers: {
      [PROVIDER]: {
        name: "mcp-lint recorder",
        base_url: `${input.modelUrl ?? "http://127.0.0.1:9"}/v1`,
        env_key: KEY_VAR,
        wire_api: "responses",
        // One request, even if a reply is ever refused (a 5xx is retried up to 30 times otherwise).
        request_max_retries: 0,
        stream_max_retries: 0,
      },
    },
    mcp_servers: { [input.serverName]: entry },
  };
  return { config, env };
}

async function prepare(input: PrepareInput): Promise<ClientLaunch> {
  const home = join(input.scratch, "home");
  const codexHome = join(input.scratch, "codex-home");
  const cwd = join(input.scratch, "work");
  await Promise.all([home, codexHome, cwd].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  const { config, env } = codexConfig(input);
  await writeFile(join(codexHome, "config.toml"), `${stringify(config)}\n`, { mode: 0o600 });
  return {
    command: input.bin,
    // The working folder is no Git repository; read-only sandbox, and nothing of the session kept.
    // Codex reads stdin to its end before the first request when stdin is not a terminal: start it with stdin closed.
    args: ["exec", "--skip-git-repo-check", "--ephemeral", "--sandbox", "read-only", "--color", "never", "Say ok."],
    cwd,
    // Sent as `Authorization: Bearer` on every request; the endpoint reads nothing without it.
    env: { ...input.baseEnv, ...env, HOME: home, CODEX_HOME: codexHome, [KEY_VAR]: input.modelKey ?? "" },
  };
}

/** OpenAI's answer to a request without a valid key. */
function refusal(): RecorderReply {
  const body = { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } };
  return { status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

function isResponses(request: RecordedRequest): boolean {
  return request.method === "POST" && /\/responses(\?|$)/.test(request.path);
}

/** A turn of the conversation (it carries input items); compaction and model listing are not. */
function modelRequest(request: RecordedRequest): boolean {
  return isResponses(request) && isJsonObject(request.body) && Array.isArray(ownField(request.body, "input"));
}

const MESSAGE = {
  type: "message",
  id: "msg_mcp_lint",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text: "ok", annotations: [] }],
};
const USAGE = {
  input_tokens: 1,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 1,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 2,
};

/** A completed one-word answer: `codex exec` prints it and exits 0 after one request. */
function reply(request: RecordedRequest): RecorderReply {
  if (!isResponses(request)) {
    // Model listing: an empty list; anything else: not found (refusals are not retried, see request_max_retries).
    const models = request.method === "GET" && /\/models(\?|$)/.test(request.path);
    return { status: models ? 200 : 404, headers: { "content-type": "application/json" }, body: models ? '{"object":"list","data":[]}' : "{}" };
  }
  const body = isJsonObject(request.body) ? request.body : {};
  const model = typeof ownField(body, "model") === "string" ? (ownField(body, "model") as string) : MODEL;
  const response = (status: string, output: unknown[]) => ({
    id: "resp_mcp_lint",
    object: "response",
    status,
    model,
    output,
    ...(status === "completed" ? { usage: USAGE } : {}),
  });
  if (ownField(body, "stream") === false)
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(response("completed", [MESSAGE])) };
  const events: [string, unknown][] = [
    ["response.created", { response: response("in_progress", []) }],
    ["response.output_item.done", { output_index: 0, item: MESSAGE }],
    ["response.completed", { response: response("completed", [MESSAGE]) }],
  ];
  const text = events.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`).join("");
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: text };
}

/** The tool lists of a request: `tools`, and the `additional_tools` input items Codex uses for some models. */
function toolLists(body: Record<string, unknown>): unknown[][] {
  const lists: unknown[][] = [];
  const tools = ownField(body, "tools");
  if (Array.isArray(tools)) lists.push(tools);
  const input = ownField(body, "input");
  if (Array.isArray(input)) {
    for (const item of input) {
      if (isJsonObject(item) && ownField(item, "type") === "additional_tools" && Array.isArray(ownField(item, "tools")))
        lists.push(ownField(item, "tools") as unknown[]);
    }
  }
  return lists;
}

function rendered(tool: unknown, name: string): RenderedTool[] {
  if (!isJsonObject(tool) || ownField(tool, "type") !== "function") return [];
  const description = ownField(tool, "description");
  // Codex sends `""` for a tool without a description; it is kept as sent.
  return [{ name, description: typeof description === "string" ? description : null, inputSchema: ownField(tool, "parameters") }];
}

function toolsIn(request: RecordedRequest, serverName: string): RenderedTool[] | null {
  if (!modelRequest(request)) return null;
  const namespace = codexNamespace(serverName);
  const found = toolLists(request.body as Record<string, unknown>).flatMap((list) =>
    list.flatMap((entry): RenderedTool[] => {
      if (!isJsonObject(entry)) return [];
      const name = ownField(entry, "name");
      const nested = ownField(entry, "tools");
      // 0.171.0: one `namespace` entry per server holding plain-named function tools.
      if (ownField(entry, "type") === "namespace" && name === namespace && Array.isArray(nested)) {
        return nested.flatMap((tool) => {
          const toolName = isJsonObject(tool) ? ownField(tool, "name") : undefined;
          return typeof toolName === "string" ? rendered(tool, `${namespace}${DELIMITER}${toolName}`) : [];
        });
      }
      // Older releases: flat `mcp__<server>__<tool>` function tools.
      return typeof name === "string" && name.startsWith(`${namespace}${DELIMITER}`) ? rendered(entry, name) : [];
    }),
  );
  return found.length === 0 ? null : found;
}

export const codex: ModelClientAdapter = {
  kind: "model",
  id: "codex",
  label: "Codex",
  bin: "codex",
  npmPackage: "@openai/codex",
  testedVersion: "0.171.0",
  prepare,
  keyIn: (request) => bearerToken(request.headers.authorization),
  refusal,
  reply,
  modelRequest,
  toolsIn,
  serverToolName: (name, serverName, serverTools) => codexToolNames(serverName, serverTools).get(name) ?? null,
};
