/**
 * Read what a connected server tells a model: its serverInfo and instructions (from `initialize`,
 * or from `server/discover` for a 2026-07-28 server), and every tools/list page as sent.
 */

import type { Client } from "@modelcontextprotocol/client";
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ConnectionError, ToolListError } from "../errors.js";
import { MAX_TOOLS } from "../limits.js";
import {
  type EntrySection,
  isJsonObject,
  type ServerSnapshot,
  serverIcons,
  type Transport,
  tooManyTools,
  validateEntries,
  validateToolList,
} from "../lock/snapshot.js";
import { type Bound, deadlineText, type RunClock } from "./bounds.js";

/** Most `tools/list` pages followed: a list that never ends is an error, never a partial lock. */
export const MAX_PAGES = 100;

/** The list methods a session reads. */
export type ListMethod = "tools/list" | "prompts/list" | "resources/list" | "resources/templates/list";

/**
 * What `readSession` needs of a connected client, whichever SDK it comes from: the SDK v2 client
 * of lock, check and run (connect/client.ts), or the v1 client the proxy still reads through.
 */
export interface ListingLink {
  /** The server's self-description as connected (`serverInfo`), unchecked. */
  serverInfo: () => unknown;
  instructions: () => unknown;
  capabilities: () => Record<string, unknown>;
  /** One page of a list, as sent; rejects with the SDK's error. */
  list: (method: ListMethod, params: Record<string, unknown>, timeoutMs: number) => Promise<Record<string, unknown>>;
}

/** What `readSession` reads through a v1 SDK client (the proxy's, which stays on SDK 1.x and the legacy era). */
export function v1Listing(client: V1Client): ListingLink {
  return {
    serverInfo: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    capabilities: () => client.getServerCapabilities() ?? {},
    // A permissive result schema: the list is taken as sent, not validated and trimmed item by item.
    list: (method, params, timeoutMs) => client.request({ method, params }, ResultSchema, { timeout: timeoutMs }),
  };
}

/** JSON-RPC's "method not found", which both SDKs' errors carry as their `code`. */
const METHOD_NOT_FOUND = -32601;

/** How a session is read, and how its failures are worded. */
export interface SessionOptions {
  where: string;
  timeoutMs: number;
  clock: RunClock;
  transport: Transport;
  commandSha256: string;
  /** One line on why a step failed; `step` and `bound` let it name a timeout. */
  failure: (error: unknown, step: string, bound: Bound) => string;
  /**
   * Also read prompts, resources and templates (only a v2 lock needs them; a server may fail those):
   * all of them, or only the sections named (the proxy reads what its lock pins).
   */
  catalog?: boolean | readonly EntrySection[];
}

/**
 * Read the snapshot from a connected client (after `initialize` or `server/discover`): every page of `tools/list`, and,
 * with `catalog` and when the server advertises them, of `prompts/list`, `resources/list` and
 * `resources/templates/list` (definitions only, never contents).
 */
export async function readSession(client: ListingLink, options: SessionOptions): Promise<ServerSnapshot> {
  const info = client.serverInfo();
  const instructions = client.instructions();
  const capabilities = client.capabilities();
  const tools = await readPaged(client, "tools/list", "tools", options);
  const snapshot: ServerSnapshot = {
    tools: validateToolList(tools, options.where),
    instructions: { known: true, text: typeof instructions === "string" && instructions !== "" ? instructions : null },
    name: isJsonObject(info) && typeof info.name === "string" ? info.name : null,
    version: isJsonObject(info) && typeof info.version === "string" ? info.version : null,
    commandSha256: options.commandSha256,
    transport: options.transport,
    icons: isJsonObject(info) ? serverIcons(info.icons, options.where) : null,
  };
  const catalog = options.catalog ?? false;
  if (catalog === false) return snapshot;
  const wanted = (section: EntrySection) => catalog === true || catalog.includes(section);
  if (isJsonObject(capabilities.prompts) && wanted("prompts")) {
    snapshot.prompts = validateEntries(await readPaged(client, "prompts/list", "prompts", options), "name", "prompt", options.where);
  }
  if (isJsonObject(capabilities.resources) && wanted("resources")) {
    snapshot.resources = validateEntries(await readPaged(client, "resources/list", "resources", options), "uri", "resource", options.where);
  }
  if (isJsonObject(capabilities.resources) && wanted("resourceTemplates")) {
    // Templates are optional even for a server with resources: "method not found" means none.
    const templates = await readPaged(client, "resources/templates/list", "resourceTemplates", options, { missingIsEmpty: true });
    snapshot.resourceTemplates = validateEntries(templates, "uriTemplate", "resource template", options.where);
  }
  return snapshot;
}

/**
 * Every page of one list method, following `nextCursor` up to MAX_PAGES; a repeated cursor or a
 * page without the array is an error, never a partial list.
 */
async function readPaged(
  client: ListingLink,
  method: ListMethod,
  key: string,
  options: SessionOptions,
  how: { missingIsEmpty?: boolean } = {},
): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw new ToolListError(`${options.where} sent more than ${MAX_PAGES} pages of ${method}; refusing to lock a list that may not end`);
    }
    const step = page === 1 ? method : `${method} page ${page}`;
    if (options.clock.expired) throw new ConnectionError(`${options.where}: ${deadlineText(options.clock.deadlineMs, step)}`);
    const bound = options.clock.bound(options.timeoutMs);
    let result: Record<string, unknown>;
    try {
      result = await client.list(method, cursor === undefined ? {} : { cursor }, bound.ms);
    } catch (error) {
      if (how.missingIsEmpty === true && page === 1 && (error as { code?: unknown } | null)?.code === METHOD_NOT_FOUND) return [];
      throw new ConnectionError(`${method} failed on ${options.where}: ${options.failure(error, step, bound)}`);
    }
    const pageItems = result[key];
    if (!Array.isArray(pageItems)) throw new ToolListError(`${options.where} answered ${method} without a "${key}" array`);
    for (const item of pageItems) items.push(item);
    // Stop reading at once rather than after up to 100 pages of a list no client could load.
    if (key === "tools" && items.length > MAX_TOOLS) throw tooManyTools(options.where, items.length);
    const next = result.nextCursor;
    if (next === undefined || next === null) break;
    if (typeof next !== "string") throw new ToolListError(`${options.where} sent a ${method} nextCursor that is not a string`);
    if (seen.has(next)) throw new ToolListError(`${options.where} repeated a ${method} cursor; the list would never end`);
    seen.add(next);
    cursor = next;
  }
  return items;
}

/** First line of an error's message, for a one-line report. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").trim() || "unknown error";
}

/** A connected session kept open after the list was read, for callers that go on to send requests (probes). */
export interface OpenSession {
  /** The SDK v2 client, connected in the server's era; requests sent on it reach the server under test. */
  client: Client;
  /** What the server served, read exactly as `readSession` reads it (not yet redacted). */
  snapshot: ServerSnapshot;
  /** Read the whole list again the same way, within the same run deadline (after a list_changed). */
  reread: () => Promise<ServerSnapshot>;
  /** One line on why a request failed (for a launched server, with the stderr lines that explain it); secrets redacted. */
  explain: (error: unknown, step: string) => string;
  /** How the server went away ("exited with code 3"), once it has; null while it runs, or over HTTP. */
  ended: () => string | null;
  /** Close the client and, for a launched server, end its whole process group and every descendant. */
  close: () => Promise<void>;
}
