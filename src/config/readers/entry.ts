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

// Maps and Sets, not object literals: a `type` of "constructor" or "__proto__" must find nothing.
const REMOTE_TYPES: ReadonlyMap<string, Transport> = new Map([
  ["http", "http"],
  ["streamable-http", "http"],
  ["streamable_http", "http"],
  ["streamablehttp", "http"],
  ["sse", "sse"],
  ["ws", "ws"],
  ["websocket", "ws"],
]);
const BUILTIN_TYPES: ReadonlySet<string> = new Set(["builtin", "platform", "frontend"]);
const EXTENSION_TYPES: ReadonlySet<string> = new Set(["inline_python", "extension", "bundle"]);

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

function lowerString(value: unknown): string | null {
  return typeof value === "string" ? value.toLowerCase() : null;
}

/** A present value: JS clients treat `null` like a missing key (`if (config.command)`). */
function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Read one entry found at `at` in the document. Env, headers and every other field stay unread.
 * An entry with a command is checked whatever its `type` or `transportType` says: a client that
 * reads the type differently would launch it.
 */
export function readEntry(name: string, raw: unknown, options: EntryOptions, at: readonly (string | number)[]): ConfigServer {
  const base: ConfigServer = {
    client: options.client,
    scope: options.scope,
    name,
    transport: "stdio",
    disabled: false,
    launch: null,
    remote: null,
    problem: null,
    at,
    line: null,
  };
  if (!isObject(raw)) return { ...base, problem: { reason: "entry_not_object" } };
  const disabled = field(raw, "disabled") === true || field(raw, "enabled") === false;
  const type = lowerString(field(raw, "type"));
  const transportType = lowerString(field(raw, "transportType"));
  const url = [field(raw, "url"), field(raw, "serverUrl"), field(raw, "uri")].find(present);
  const httpUrl = field(raw, "httpUrl");
  const tcp = field(raw, "tcp");
  const withState = { ...base, disabled };
  const commandKey = present(field(raw, "command")) ? "command" : present(field(raw, "cmd")) ? "cmd" : null;

  if (commandKey !== null) {
    const launch = readLaunch(raw, commandKey);
    const remote = present(url) ? remoteOrigin(url) : present(httpUrl) ? remoteOrigin(httpUrl) : null;
    return "reason" in launch ? { ...withState, remote, problem: launch } : { ...withState, remote, launch };
  }
  if (type !== null && BUILTIN_TYPES.has(type)) return { ...withState, transport: "builtin" };
  if (type !== null && EXTENSION_TYPES.has(type)) return { ...withState, transport: "extension" };
  const remoteType = REMOTE_TYPES.get(type ?? "") ?? REMOTE_TYPES.get(transportType ?? "");
  if (remoteType !== undefined || present(url) || present(httpUrl) || present(tcp)) {
    if (present(httpUrl)) return { ...withState, transport: "http", remote: remoteOrigin(httpUrl) };
    if (!present(url) && present(tcp)) return { ...withState, transport: "ws", remote: remoteOrigin(tcp) };
    return { ...withState, transport: remoteType ?? options.urlDefault ?? "http", remote: remoteOrigin(url) };
  }
  // Zed extension servers and Continue hub blocks are installed by the client, not launched from here.
  if (present(field(raw, "settings")) || field(raw, "source") === "extension" || present(field(raw, "uses"))) {
    return { ...withState, transport: "extension" };
  }
  return { ...withState, problem: { reason: "no_command_or_url" } };
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

/** Read every entry of a `name -> entry` map found at `at`; every own key is kept, `__proto__` included. */
export function readEntryMap(map: unknown, options: EntryOptions, at: readonly (string | number)[]): ConfigServer[] {
  if (!isObject(map)) return [];
  return Object.keys(map).map((name) => readEntry(name, field(map, name), options, [...at, name]));
}
