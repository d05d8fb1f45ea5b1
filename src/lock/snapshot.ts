/** What one run saw of a server: its tools as sent, its instructions and who it is. Pure. */

import type { ArtifactRecord } from "../artifact/types.js";
import { ToolListError } from "../errors.js";
import { isJsonObject, type JsonObject, ownField } from "../json/value.js";
import { maxDepth, parsedWithinDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH, MAX_TOOLS } from "../limits.js";
import { thousands } from "../numbers.js";

/** Parsed JSON is read through the shared helpers (own keys only, so `__proto__` stays data). */
export { isJsonObject, type JsonObject, ownField } from "../json/value.js";

/** The server's instructions: known (possibly absent) or not known by this run. */
export type Instructions = { known: true; text: string | null } | { known: false };

/** How the tools were obtained. */
export type Transport = "stdio" | "streamable-http" | "sse" | "file";

/** Everything one run learned about a server. */
export interface ServerSnapshot {
  /** Tool definitions exactly as the server sent them, in the order sent. */
  tools: JsonObject[];
  instructions: Instructions;
  name: string | null;
  version: string | null;
  /** SHA-256 of the launch command or endpoint; null when read from a file. */
  commandSha256: string | null;
  transport: Transport;
  /**
   * Prompt, resource and resource-template definitions as sent, when the server advertises them
   * (or a file holds them); absent when this run did not read them.
   */
  prompts?: JsonObject[];
  resources?: JsonObject[];
  resourceTemplates?: JsonObject[];
  /** The client identity (`clientInfo`) the server was read as, when not mcp-lint's own. */
  readAs?: { name: string; version: string };
  /** Where a secret the server echoed back was redacted (never the value), the first few; absent when none was. */
  echoed?: { places: string[]; more: boolean };
  /** `serverInfo.icons` as sent (null when the server sends none); absent when this run did not read serverInfo. */
  icons?: unknown;
  /** What the launch runs (its package, tree and provenance); null when nothing can be pinned, absent when this run did not read it. */
  artifact?: ArtifactRecord | null;
}

/** The kinds of definition besides tools that a lock can pin, with the field that names each. */
export const ENTRY_SECTIONS = [
  { section: "prompts", key: "name", what: "prompt" },
  { section: "resources", key: "uri", what: "resource" },
  { section: "resourceTemplates", key: "uriTemplate", what: "resource template" },
] as const;

/** One of the sections in ENTRY_SECTIONS. */
export type EntrySection = (typeof ENTRY_SECTIONS)[number]["section"];

/** The error for a list over MAX_TOOLS; `count` is how many were read (at least that many were sent). */
export function tooManyTools(source: string, count: number): ToolListError {
  return new ToolListError(
    `${source}: ${thousands(count)} tools, more than the ${thousands(MAX_TOOLS)} mcp-lint reads in one list (no MCP client loads that many); refusing to analyse it`,
  );
}

/**
 * Check a tools array as sent by a server or file: every entry an object with a string name and
 * bounded depth. Anything else cannot be locked, so it is an error rather than a silent skip.
 */
export function validateToolList(tools: unknown, source: string, options: { numbersChecked?: boolean; depthChecked?: boolean } = {}): JsonObject[] {
  if (!Array.isArray(tools)) {
    throw new ToolListError(`${source}: "tools" is not an array`);
  }
  if (tools.length > MAX_TOOLS) throw tooManyTools(source, tools.length);
  tools.forEach((tool: unknown, index) => {
    if (!isJsonObject(tool)) {
      throw new ToolListError(`${source}: tool #${index + 1} is not a JSON object`);
    }
    const name = ownField(tool, "name");
    if (typeof name !== "string") {
      throw new ToolListError(`${source}: tool #${index + 1} has no string "name"`);
    }
    if (options.depthChecked !== true && maxDepth(tool, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
      throw new ToolListError(`${source}: tool ${JSON.stringify(name)} is nested deeper than ${MAX_DEFINITION_DEPTH} levels; refusing to analyse it`);
    }
    // A parsed file was checked for out-of-range numbers already; a live answer was not.
    const huge = options.numbersChecked === true ? null : nonFinitePath(tool);
    if (huge !== null) {
      throw new ToolListError(`${source}: tool ${JSON.stringify(name)} has a number out of range at ${huge} (larger than about 1.8e308); it cannot be locked`);
    }
  });
  return tools as JsonObject[];
}

/**
 * Check prompts, resources or templates as sent: objects with a string `key` field (name, uri,
 * uriTemplate), bounded depth, finite numbers, no two with the same key (a lock keyed by it could
 * not hold both, and a client may pick either).
 */
export function validateEntries(items: unknown, key: string, what: string, source: string): JsonObject[] {
  if (!Array.isArray(items)) throw new ToolListError(`${source}: the ${what}s are not an array`);
  const seen = new Set<string>();
  items.forEach((item: unknown, index) => {
    if (!isJsonObject(item)) throw new ToolListError(`${source}: ${what} #${index + 1} is not a JSON object`);
    const name = ownField(item, key);
    if (typeof name !== "string") throw new ToolListError(`${source}: ${what} #${index + 1} has no string "${key}"`);
    if (seen.has(name))
      throw new ToolListError(
        `${source}: more than one ${what} has the ${key} ${JSON.stringify(name)}; a client may pick either, so there is nothing safe to lock`,
      );
    seen.add(name);
    if (maxDepth(item, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
      throw new ToolListError(`${source}: ${what} ${JSON.stringify(name)} is nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
    }
    const huge = nonFinitePath(item);
    if (huge !== null) throw new ToolListError(`${source}: ${what} ${JSON.stringify(name)} has a number out of range at ${huge}`);
  });
  return items as JsonObject[];
}

/**
 * JSON Pointer to the first number that parsed as Infinity (a server sent `1e400`), or null. A
 * file is checked when it is parsed; this catches the same thing in what a live server sent.
 */
function nonFinitePath(root: unknown): string | null {
  if (!hasNonFinite(root)) return null;
  const stack: Array<[unknown, string]> = [[root, ""]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === "number" && !Number.isFinite(value)) return path === "" ? "/" : path;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push([item, `${path}/${index}`]);
    } else if (isJsonObject(value)) {
      for (const key of Object.keys(value)) stack.push([value[key], `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
    }
  }
  return null;
}

/** The fast check behind nonFinitePath: no path strings built unless something is found. */
function hasNonFinite(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (isJsonObject(value)) {
      for (const key of Object.keys(value)) stack.push(value[key]);
    }
  }
  return false;
}

/**
 * Turn a parsed `--from` file into a snapshot. Three shapes are accepted: `{tools, instructions?,
 * serverInfo?}`, a JSON-RPC response whose `result` holds `tools`, or a bare array of tools.
 */
export function snapshotFromFile(parsed: unknown, source: string): ServerSnapshot {
  let body: JsonObject | null = null;
  let tools: unknown;
  if (Array.isArray(parsed)) {
    tools = parsed;
  } else if (isJsonObject(parsed)) {
    if (ownField(parsed, "lockfile_version") !== undefined) {
      throw new ToolListError(
        `${source} is an mcp-lint lock, not a tools/list result; to compare a server with it, run mcp-lint lock --check --lock ${source} -- <server command> (or --from a saved tools/list)`,
      );
    }
    const result = ownField(parsed, "result");
    if (ownField(parsed, "jsonrpc") !== undefined || (isJsonObject(result) && !Object.hasOwn(parsed, "tools"))) {
      if (ownField(parsed, "error") !== undefined) {
        throw new ToolListError(`${source}: the JSON-RPC response is an error, not a tools/list result`);
      }
      if (!isJsonObject(result)) {
        throw new ToolListError(`${source}: the JSON-RPC response has no "result" object`);
      }
      body = result;
    } else {
      body = parsed;
    }
    if (!Object.hasOwn(body, "tools")) {
      throw new ToolListError(`${source}: no "tools" array; expected {"tools": [...]}, a JSON-RPC tools/list response or an array of tools`);
    }
    tools = body.tools;
  } else {
    throw new ToolListError(`${source}: expected {"tools": [...]}, a JSON-RPC tools/list response or an array of tools`);
  }
  const instructions = body === null ? undefined : ownField(body, "instructions");
  if (instructions !== undefined && instructions !== null && typeof instructions !== "string") {
    throw new ToolListError(`${source}: "instructions" must be a string`);
  }
  const serverInfo = body === null ? undefined : ownField(body, "serverInfo");
  const info = isJsonObject(serverInfo) ? serverInfo : null;
  const snapshot: ServerSnapshot = {
    // A file parsed no deeper than a definition may be needs no walk per tool.
    tools: validateToolList(tools, source, { numbersChecked: true, depthChecked: parsedWithinDepth(parsed, MAX_DEFINITION_DEPTH) }),
    instructions: instructions === undefined ? { known: false } : { known: true, text: instructions || null },
    name: stringOrNull(info && ownField(info, "name")),
    version: stringOrNull(info && ownField(info, "version")),
    commandSha256: null,
    transport: "file",
    // A saved list says nothing of icons unless it has the key (it may have been saved without them).
    ...(info === null || ownField(info, "icons") === undefined ? {} : { icons: serverIcons(ownField(info, "icons"), source) }),
  };
  // A saved list may also hold the other definitions a lock pins (the shape `lock` reads live).
  for (const { section, key, what } of ENTRY_SECTIONS) {
    const items = body === null ? undefined : ownField(body, section);
    if (items !== undefined) snapshot[section] = validateEntries(items, key, what, source);
  }
  return snapshot;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** `serverInfo.icons` as the lock records it (null for none), bounded like a definition. */
export function serverIcons(value: unknown, where: string): unknown {
  if (value === undefined || value === null) return null;
  if (maxDepth(value, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
    throw new ToolListError(`${where}: serverInfo.icons is nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
  }
  return value;
}
