/**
 * What a client would launch or call for one config entry: argv, env, URL and headers, with
 * `${VAR}`, `${env:VAR}`, `${VAR:-default}`, `${input:ID}` and `${workspaceFolder}` resolved. Pure.
 * The values are secrets: only `lock --config` uses this, and they go to the server alone.
 */

import { UsageError } from "../errors.js";
import { neutralize } from "../text/neutralize.js";
import { field, isObject } from "./readers/entry.js";
import type { ConfigServer } from "./types.js";

/** Where a placeholder looks for its value. */
export interface PlaceholderContext {
  env: Readonly<Record<string, string | undefined>>;
  /** The project folder a `${workspaceFolder}` means (the folder that holds `.vscode/`), or null when unknown. */
  workspaceFolder: string | null;
}

/** An entry ready to resolve into a target (see connect/target.ts). */
export interface EntryLaunch {
  argv: string[] | null;
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  /** What every placeholder read from the environment resolved to, in any field (args too): secrets. */
  resolved: string[];
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** The environment variable that answers a `${input:ID}` prompt, which mcp-lint cannot show: MCP_LINT_INPUT_<ID>. */
export function inputVariable(id: string): string {
  return `MCP_LINT_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/**
 * Replace every placeholder in `text`; one that cannot be resolved stops the run with one line
 * naming the server and the placeholder (never a value).
 */
export function resolvePlaceholders(text: string, context: PlaceholderContext, where: string, resolved: string[] = []): string {
  return text.replace(PLACEHOLDER, (whole, inner: string) => {
    const value = placeholderValue(inner, context);
    // A folder path is not a secret; a value from the environment (or an input prompt's variable) may be.
    if (value !== undefined && inner !== "workspaceFolder" && !isDefaultOnly(inner, context)) resolved.push(value);
    if (value !== undefined) return value;
    const hint = inner.startsWith("input:")
      ? `an input prompt mcp-lint cannot show; set ${inputVariable(inner.slice(6))} in the environment`
      : inner === "workspaceFolder"
        ? "the folder is not known for this config file"
        : `set ${variableName(inner)} in the environment`;
    throw new UsageError(`${where}: cannot resolve ${neutralize(whole)}: ${hint}`);
  });
}

/** `${VAR:-default}` that fell back to its default: the value is written in the config file, not a secret. */
function isDefaultOnly(inner: string, context: PlaceholderContext): boolean {
  const name = inner.startsWith("env:") ? inner.slice(4) : inner;
  const cut = name.indexOf(":-");
  if (cut < 0) return false;
  const value = context.env[name.slice(0, cut)];
  return value === undefined || value === "";
}

function variableName(inner: string): string {
  const name = inner.startsWith("env:") ? inner.slice(4) : inner;
  const cut = name.indexOf(":-");
  return neutralize(cut < 0 ? name : name.slice(0, cut));
}

function placeholderValue(inner: string, context: PlaceholderContext): string | undefined {
  if (inner === "workspaceFolder") return context.workspaceFolder ?? undefined;
  if (inner.startsWith("input:")) return context.env[inputVariable(inner.slice(6))];
  const name = inner.startsWith("env:") ? inner.slice(4) : inner;
  const cut = name.indexOf(":-");
  if (cut >= 0) {
    const value = context.env[name.slice(0, cut)];
    return value === undefined || value === "" ? name.slice(cut + 2) : value;
  }
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? context.env[name] : undefined;
}

/** The raw entry object of a server, found again in the parsed file through `server.at`. */
export function rawEntry(parsed: unknown, server: ConfigServer): unknown {
  let node: unknown = parsed;
  for (const key of server.at) {
    if (Array.isArray(node) && typeof key === "number") node = node[key];
    else if (isObject(node) && typeof key === "string") node = field(node, key);
    else return undefined;
  }
  return node;
}

/** String values of an object (env or headers), ignoring other types; own keys only. */
function stringMap(value: unknown): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (!isObject(value)) return out;
  for (const key of Object.keys(value)) {
    const item = field(value, key);
    if (typeof item === "string") out[key] = item;
    else if (typeof item === "number" || typeof item === "boolean") out[key] = String(item);
  }
  return out;
}

/**
 * Read what the client would use for this entry. The argv comes from the reader (which already
 * understands every client's shape); env, URL and headers from the raw entry, under the names
 * clients use (`env`/`envs`, Zed's `command.env`; `url`/`httpUrl`/`serverUrl`/`uri`;
 * `headers`/`http_headers`).
 */
export function entryLaunch(server: ConfigServer, raw: unknown, context: PlaceholderContext, where: string): EntryLaunch {
  const resolved: string[] = [];
  const resolve = (text: string) => resolvePlaceholders(text, context, where, resolved);
  const command = isObject(raw) ? field(raw, "command") : undefined;
  const env = {
    ...stringMap(isObject(raw) ? field(raw, "envs") : undefined),
    ...stringMap(isObject(command) ? field(command, "env") : undefined),
    ...stringMap(isObject(raw) ? field(raw, "env") : undefined),
  };
  const headers = { ...stringMap(isObject(raw) ? field(raw, "http_headers") : undefined), ...stringMap(isObject(raw) ? field(raw, "headers") : undefined) };
  let url: string | null = null;
  for (const key of ["url", "httpUrl", "serverUrl", "uri"]) {
    const value = isObject(raw) ? field(raw, key) : undefined;
    if (typeof value === "string" && value !== "") {
      url = value;
      break;
    }
  }
  const launch = server.launch;
  const argv = launch === null ? null : "argv" in launch ? launch.argv : ["sh", "-c", launch.shell];
  return {
    argv: argv === null ? null : argv.map(resolve),
    env: Object.fromEntries(Object.entries(env).map(([name, value]) => [name, resolve(value)])),
    url: argv === null && url !== null ? resolve(url) : null,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, resolve(value)])),
    resolved,
  };
}
