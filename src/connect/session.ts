/** Read what a connected server tells a model: initialize's serverInfo and instructions, and every tools/list page as sent. */

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ConnectionError, ToolListError } from "../errors.js";
import { isJsonObject, type ServerSnapshot, type Transport, validateToolList } from "../lock/snapshot.js";
import { type Bound, deadlineText, type RunClock } from "./bounds.js";

/** Most `tools/list` pages followed: a list that never ends is an error, never a partial lock. */
export const MAX_PAGES = 100;

/** Read the snapshot from a client that has completed `initialize`. */
export async function readSession(
  client: Client,
  options: {
    where: string;
    timeoutMs: number;
    clock: RunClock;
    transport: Transport;
    commandSha256: string;
    /** One line on why a step failed; `step` and `bound` let it name a timeout. */
    failure: (error: unknown, step: string, bound: Bound) => string;
  },
): Promise<ServerSnapshot> {
  const info = client.getServerVersion();
  const instructions = client.getInstructions();
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw new ToolListError(`${options.where} sent more than ${MAX_PAGES} pages of tools/list; refusing to lock a list that may not end`);
    }
    const step = page === 1 ? "tools/list" : `tools/list page ${page}`;
    if (options.clock.expired) throw new ConnectionError(`${options.where}: ${deadlineText(options.clock.deadlineMs, step)}`);
    const bound = options.clock.bound(options.timeoutMs);
    let result: Record<string, unknown>;
    try {
      // A permissive result schema: the list is taken as sent, not validated and trimmed tool by tool.
      result = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        ResultSchema,
        { timeout: bound.ms },
      );
    } catch (error) {
      throw new ConnectionError(`tools/list failed on ${options.where}: ${options.failure(error, step, bound)}`);
    }
    const pageTools = result.tools;
    if (!Array.isArray(pageTools)) throw new ToolListError(`${options.where} answered tools/list without a "tools" array`);
    for (const tool of pageTools) tools.push(tool);
    const next = result.nextCursor;
    if (next === undefined || next === null) break;
    if (typeof next !== "string") throw new ToolListError(`${options.where} sent a tools/list nextCursor that is not a string`);
    if (seen.has(next)) throw new ToolListError(`${options.where} repeated a tools/list cursor; the list would never end`);
    seen.add(next);
    cursor = next;
  }
  return {
    tools: validateToolList(tools, options.where),
    instructions: { known: true, text: typeof instructions === "string" && instructions !== "" ? instructions : null },
    name: isJsonObject(info) && typeof info.name === "string" ? info.name : null,
    version: isJsonObject(info) && typeof info.version === "string" ? info.version : null,
    commandSha256: options.commandSha256,
    transport: options.transport,
  };
}

/** First line of an error's message, for a one-line report. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split("\n")[0] ?? "").trim() || "unknown error";
}
