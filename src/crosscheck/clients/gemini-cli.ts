/** Gemini CLI (`@google/gemini-cli`): run `gemini -p` with a scratch home against the loopback Gemini API and read the MCP tools of its generateContent request. */

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isJsonObject, ownField } from "../../json/value.js";
import type { ClientLaunch, ModelClientAdapter, PrepareInput, RecordedRequest, RecorderReply, RenderedTool } from "../types.js";
import { carrier, matchRenderedName } from "./names.js";

/**
 * A fixed model skips the "auto" router, whose classifier request (JSON mode, no tools) would come
 * first. The tool declarations are the same for every model in 0.61.0.
 */
const MODEL = "gemini-2.5-flash";

/** Gemini CLI's longest function name (its limit is 64, it keeps one below). */
const MAX_NAME = 63;

/** Spelled as Gemini CLI's `generateValidName` does: `mcp_` first unless there, anything but letters, digits and `_ - . :` as `_`. */
function validName(name: string): string {
  return (name.startsWith("mcp_") ? name : `mcp_${name}`).replace(/[^a-zA-Z0-9_\-.:]/g, "_");
}

/**
 * The name Gemini CLI gives a server's tool: `mcp_<server>_<tool>`, spelled valid, and a name over
 * 63 characters keeps its first and last 30 around `...`.
 */
export function geminiToolName(serverName: string, tool: string): string {
  const name = validName(`${serverName}_${tool}`);
  return name.length > MAX_NAME ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
}

/** Whether a declared name is one of this server's tools (a cut name keeps only its first 30 characters). */
export function isServerTool(name: string, serverName: string): boolean {
  const prefix = validName(`${serverName}_`);
  if (name.startsWith(prefix)) return true;
  return prefix.length > 30 && name.length === MAX_NAME && name.slice(30, 33) === "..." && name.startsWith(prefix.slice(0, 30));
}

/**
 * Gemini CLI expands `$NAME`, `${NAME}` and `${NAME:-default}` in every string of settings.json
 * when it loads it, with no escape. A `$` written as `${…:-$}` of a variable no launch sets comes
 * out as itself.
 */
export function settingsLiteral(value: string): string {
  return value.replaceAll("$", "${MCP_LINT_UNSET_DOLLAR:-$}");
}

/**
 * Header and server-variable values are expanded a second time (dotenv-expand: unset names become
 * empty, `\$` is the escape) after the settings-file pass has put the carrier's value in.
 */
export function expandedLiteral(value: string): string {
  return value.replaceAll("$", "\\$");
}

/** The variable Gemini CLI reads its API key from: the run's model key travels in it. */
const KEY_VAR = "GEMINI_API_KEY";

/**
 * The user settings file: the server under `serverName`, Gemini API key auth, nothing that calls
 * home. Gemini CLI 0.61.0 leaves variables named like keys out of a stdio server's environment;
 * the entry sets GEMINI_API_KEY empty as well (unless the server is given one of its own), so the
 * run's key stays the client's whatever a later release passes on.
 */
export function geminiSettings(input: Pick<PrepareInput, "server" | "serverName">): { settings: unknown; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const { server } = input;
  let entry: Record<string, unknown>;
  if (server.kind === "stdio") {
    const serverEnv: Record<string, string> = {};
    Object.entries(server.env).forEach(([name, value], index) => {
      env[carrier("ENV", index)] = expandedLiteral(value);
      serverEnv[name] = `\${${carrier("ENV", index)}}`;
    });
    if (!Object.hasOwn(serverEnv, KEY_VAR)) serverEnv[KEY_VAR] = "";
    // `trust`: a headless run denies every tool no policy rule allows, so an untrusted server's tools never reach the model.
    entry = { command: settingsLiteral(server.command), args: server.args.map(settingsLiteral), env: serverEnv, trust: true };
  } else {
    const headers: Record<string, string> = {};
    server.headers.forEach(([name, value], index) => {
      env[carrier("HEADER", index)] = expandedLiteral(value);
      headers[name] = `\${${carrier("HEADER", index)}}`;
    });
    // `httpUrl` is Streamable HTTP (a bare `url` may mean SSE).
    entry = { httpUrl: settingsLiteral(server.url), headers, trust: true };
  }
  const settings = {
    mcpServers: { [input.serverName]: entry },
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ide: { enabled: false },
  };
  return { settings, env };
}

async function prepare(input: PrepareInput): Promise<ClientLaunch> {
  const home = join(input.scratch, "home");
  const cwd = join(input.scratch, "work");
  await Promise.all([join(home, ".gemini"), cwd].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  const { settings, env } = geminiSettings(input);
  await writeFile(join(home, ".gemini", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  // Gemini CLI looks for a .env from its folder up to / and loads it; an empty one here ends the search.
  await writeFile(join(cwd, ".env"), "", { mode: 0o600 });
  return {
    command: input.bin,
    // `--yolo`: headless, Gemini CLI's default policy hides write tools, and its check compares an MCP
    // tool's bare name with its own built-ins, so a server's `write_file` vanished too; an interactive
    // run shows it. The fake model never calls a tool, so approving every call changes nothing else.
    args: ["-p", "Say ok.", "-m", MODEL, "--allowed-mcp-server-names", input.serverName, "--yolo"],
    cwd,
    env: {
      ...input.baseEnv,
      ...env,
      HOME: home,
      GEMINI_CLI_HOME: home,
      // Not /etc/gemini-cli: the system settings and defaults files would override ours.
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(input.scratch, "system-settings.json"),
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(input.scratch, "system-defaults.json"),
      // Sent as `x-goog-api-key` on every request; the endpoint reads nothing without it.
      [KEY_VAR]: input.modelKey ?? "",
      GOOGLE_GEMINI_BASE_URL: input.modelUrl ?? "http://127.0.0.1:9",
      // One process instead of a launcher that re-spawns node with a larger heap.
      GEMINI_CLI_NO_RELAUNCH: "true",
      GEMINI_TELEMETRY_ENABLED: "false",
      NO_COLOR: "1",
    },
  };
}

const GENERATE = /^\/[^/?]+\/models\/[^/?:]+:(generateContent|streamGenerateContent|countTokens)(\?|$)/;

function generateKind(request: RecordedRequest): string | null {
  if (request.method !== "POST") return null;
  return GENERATE.exec(request.path)?.[1] ?? null;
}

function json(status: number, value: unknown): RecorderReply {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(value) };
}

/** The Gemini API's answer to a request without a valid key. */
function refusal(): RecorderReply {
  return json(401, { error: { code: 401, message: "API key not valid. Please pass a valid API key.", status: "UNAUTHENTICATED" } });
}

/**
 * A one-word answer that ends the turn: `gemini -p` prints it and exits 0. A JSON-mode request
 * (the router's classifier, other side calls) gets `{}`, which fails their schema and makes them
 * fall back at once; plain text there is retried with backoff for about a minute.
 */
function reply(request: RecordedRequest): RecorderReply {
  const kind = generateKind(request);
  if (kind === null) return json(404, { error: { code: 404, message: "mcp-lint crosscheck: no such endpoint", status: "NOT_FOUND" } });
  if (kind === "countTokens") return json(200, { totalTokens: 1 });
  const body = isJsonObject(request.body) ? request.body : {};
  const config = ownField(body, "generationConfig");
  const jsonMode = isJsonObject(config) && ownField(config, "responseMimeType") === "application/json";
  const response = {
    candidates: [{ content: { role: "model", parts: [{ text: jsonMode ? "{}" : "ok" }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: MODEL,
  };
  if (kind === "streamGenerateContent") {
    return { status: 200, headers: { "content-type": "text/event-stream" }, body: `data: ${JSON.stringify(response)}\n\n` };
  }
  return json(200, response);
}

/** The function declarations of a generate request, or null when it is not one or declares no tools. */
function declarations(request: RecordedRequest): unknown[] | null {
  const kind = generateKind(request);
  if (kind !== "generateContent" && kind !== "streamGenerateContent") return null;
  if (!isJsonObject(request.body) || !Array.isArray(ownField(request.body, "contents"))) return null;
  const tools = ownField(request.body, "tools");
  if (!Array.isArray(tools)) return null;
  return tools.flatMap((tool) => {
    const list = isJsonObject(tool) ? ownField(tool, "functionDeclarations") : undefined;
    return Array.isArray(list) ? list : [];
  });
}

/** A conversation turn offering tools; the router's classifier and other JSON-mode side calls offer none. */
function modelRequest(request: RecordedRequest): boolean {
  return declarations(request) !== null;
}

function toolsIn(request: RecordedRequest, serverName: string): RenderedTool[] | null {
  const list = declarations(request);
  if (list === null) return null;
  const found = list.flatMap((declaration): RenderedTool[] => {
    if (!isJsonObject(declaration)) return [];
    const name = ownField(declaration, "name");
    if (typeof name !== "string" || !isServerTool(name, serverName)) return [];
    const description = ownField(declaration, "description");
    // The SDK's older `parameters` (OpenAPI subset) when a declaration has no `parametersJsonSchema`.
    const schema = ownField(declaration, "parametersJsonSchema") ?? ownField(declaration, "parameters");
    return [{ name, description: typeof description === "string" ? description : null, inputSchema: schema }];
  });
  return found.length === 0 ? null : found;
}

export const geminiCli: ModelClientAdapter = {
  kind: "model",
  id: "gemini-cli",
  label: "Gemini CLI",
  bin: "gemini",
  npmPackage: "@google/gemini-cli",
  testedVersion: "0.61.0",
  prepare,
  // The Gen AI SDK sends an API key as `x-goog-api-key`, not in the query.
  keyIn: (request) => request.headers["x-goog-api-key"] ?? null,
  refusal,
  reply,
  modelRequest,
  toolsIn,
  // Tools that spell alike share one registry entry, and the one registered last (listed last) fills it.
  serverToolName: (rendered, serverName, serverTools) => matchRenderedName(rendered, [...serverTools].reverse(), (tool) => geminiToolName(serverName, tool)),
};
