/** Read one server entry of any client into a ConfigServer: command and args, or a remote URL's scheme and host. */

import type { ClientId, ConfigServer, EntryProblem, Launch, Transport } from "../types.js";

/** Own property of a plain object (a parsed `__proto__` key must not be inherited). */
export function field(value: unknown, key: string): unknown {
  if (!isObject(value)) return undefined;
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What differs between clients when reading an entry. */
export interface EntryOptions {
  client: ClientId;
  scope: string | null;
  /** Transport of an entry with a url and no type (Cline: sse; most: http). */
  urlDefault?: Transport;
}

const REMOTE_TYPES: Readonly<Record<string, Transport>> = {
  http: "http",
  "streamable-http": "http",
  streamable_http: "http",
  streamablehttp: "http",
  sse: "sse",
  ws: "ws",
  websocket: "ws",
};
const BUILTIN_TYPES = new Set(["builtin", "platform", "frontend"]);
const EXTENSION_TYPES = new Set(["inline_python", "extension", "bundle"]);

/**
 * `scheme://host[:port]` of a URL, dropping user info, path and query (which can hold tokens).
 * A URL that does not parse (often because of a variable) is shown without its text.
 */
export function remoteOrigin(url: unknown): string {
  if (typeof url !== "string" || url.trim() === "") return "(no url)";
  try {
    const parsed = new URL(url.trim());
    return parsed.host === "" ? parsed.protocol : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "(url not parsed)";
  }
}

function stringArray(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  return value.every((item) => typeof item === "string") ? (value as string[]) : null;
}

/** Read one entry. Env, headers and every other field stay unread. */
export function readEntry(name: string, raw: unknown, options: EntryOptions): ConfigServer {
  const base: ConfigServer = {
    client: options.client,
    scope: options.scope,
    name,
    transport: "stdio",
    disabled: false,
    launch: null,
    remote: null,
    problem: null,
  };
  if (!isObject(raw)) return { ...base, problem: { reason: "entry_not_object" } };
  const disabled = field(raw, "disabled") === true || field(raw, "enabled") === false;
  const withState = { ...base, disabled };
  const type = typeof field(raw, "type") === "string" ? (field(raw, "type") as string).toLowerCase() : null;
  const transportType = typeof field(raw, "transportType") === "string" ? (field(raw, "transportType") as string).toLowerCase() : null;
  const url = field(raw, "url") ?? field(raw, "serverUrl") ?? field(raw, "uri");
  const httpUrl = field(raw, "httpUrl");
  const tcp = field(raw, "tcp");

  if (type !== null && BUILTIN_TYPES.has(type)) return { ...withState, transport: "builtin" };
  if (type !== null && EXTENSION_TYPES.has(type)) return { ...withState, transport: "extension" };
  const remoteType = REMOTE_TYPES[type ?? ""] ?? REMOTE_TYPES[transportType ?? ""];
  const commandKey = field(raw, "command") !== undefined ? "command" : field(raw, "cmd") !== undefined ? "cmd" : null;

  if (remoteType !== undefined || (commandKey === null && (url !== undefined || httpUrl !== undefined || tcp !== undefined))) {
    if (httpUrl !== undefined) return { ...withState, transport: "http", remote: remoteOrigin(httpUrl) };
    if (url === undefined && tcp !== undefined) return { ...withState, transport: "ws", remote: remoteOrigin(tcp) };
    return { ...withState, transport: remoteType ?? options.urlDefault ?? "http", remote: remoteOrigin(url) };
  }
  if (commandKey === null) {
    // Zed extension servers and Continue hub blocks are installed by the client, not launched from here.
    if (field(raw, "settings") !== undefined || field(raw, "source") === "extension" || field(raw, "uses") !== undefined) {
      return { ...withState, transport: "extension" };
    }
    return { ...withState, problem: { reason: "no_command_or_url" } };
  }
  const launch = readLaunch(raw, commandKey);
  return "reason" in launch ? { ...withState, problem: launch } : { ...withState, launch };
}

function readLaunch(raw: Record<string, unknown>, commandKey: string): Launch | EntryProblem {
  let command = field(raw, commandKey);
  let args: unknown = field(raw, "args");
  // Older Zed settings: "command": {"path": "npx", "args": [...], "env": {...}}.
  if (isObject(command) && typeof field(command, "path") === "string") {
    args = field(command, "args");
    command = field(command, "path");
  }
  if (typeof command !== "string" || command.trim() === "") return { reason: "command_type", field: commandKey };
  const list = args === undefined || args === null ? [] : stringArray(args);
  if (list === null) return { reason: "args_type", field: "args" };
  if (list.length === 0 && /\s/.test(command.trim())) return { shell: command.trim() };
  return { argv: [command, ...list] };
}

/** Read every entry of a `name -> entry` map. */
export function readEntryMap(map: unknown, options: EntryOptions): ConfigServer[] {
  if (!isObject(map)) return [];
  return Object.keys(map).map((name) => readEntry(name, map[name], options));
}
