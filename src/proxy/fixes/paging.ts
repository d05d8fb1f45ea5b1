/** The paging fix (seed 003): long tool results are cut to a page of lines, and every tool gains `offset`/`limit` to ask for the rest. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../../lock/snapshot.js";

/** A response over this many estimated tokens is cut to a page. */
export const PAGE_TOKENS = 2000;
/** The estimate mcp-lint uses everywhere: four characters per token. */
export const CHARS_PER_TOKEN = 4;
/** Characters in one page, the note included. */
export const PAGE_CHARS = PAGE_TOKENS * CHARS_PER_TOKEN;
/** Room kept for the note at the end of a page. */
const NOTE_RESERVE = 120;

/** The two parameters every tool gains. */
export const PAGING_PARAMETERS = {
  offset: {
    type: "integer",
    minimum: 0,
    description: "Lines of the result to skip (added by mcp-lint: long results come in pages; the note at the end of a page gives the next offset).",
  },
  limit: {
    type: "integer",
    minimum: 1,
    description: "Most lines of the result to return (added by mcp-lint; default: as many as fit in about 2,000 tokens).",
  },
} as const;

/** The paging arguments of one call; null where the caller did not give one. */
export interface PageRequest {
  offset: number | null;
  limit: number | null;
}

/**
 * Whether the tool has an `offset` or `limit` parameter of its own: then it pages itself, and its
 * schema, arguments and results are left alone (two meanings for one name would confuse the model).
 */
export function hasOwnPaging(tool: JsonObject): boolean {
  const schema = ownField(tool, "inputSchema");
  const properties = isJsonObject(schema) ? ownField(schema, "properties") : undefined;
  return isJsonObject(properties) && (Object.hasOwn(properties, "offset") || Object.hasOwn(properties, "limit"));
}

/** The tool with `offset` and `limit` added to its input schema (a new object; the input is not changed). */
export function withPagingParameters(tool: JsonObject): JsonObject {
  const schema = ownField(tool, "inputSchema");
  if (hasOwnPaging(tool) || !isJsonObject(schema)) return tool;
  const type = ownField(schema, "type");
  if (type !== undefined && type !== "object") return tool;
  const properties = ownField(schema, "properties");
  const own = isJsonObject(properties) ? properties : {};
  return { ...tool, inputSchema: { ...schema, properties: { ...own, ...PAGING_PARAMETERS } } };
}

/**
 * Take `offset` and `limit` out of a call's arguments (the server does not know them). Returns the
 * remaining arguments and the request, or an error text for a value that is not a whole number in
 * range. Numeric strings are accepted: models often send numbers as text.
 */
export function takePagingArguments(args: unknown): { args: unknown; request: PageRequest } | { error: string } {
  if (!isJsonObject(args)) return { args, request: { offset: null, limit: null } };
  const rest: JsonObject = {};
  for (const key of Object.keys(args)) if (key !== "offset" && key !== "limit") rest[key] = args[key];
  const offset = wholeNumber(ownField(args, "offset"), 0);
  const limit = wholeNumber(ownField(args, "limit"), 1);
  if (offset === "invalid") return { error: "mcp-lint paging: offset must be a whole number of lines, 0 or more" };
  if (limit === "invalid") return { error: "mcp-lint paging: limit must be a whole number of lines, 1 or more" };
  return { args: rest, request: { offset, limit } };
}

function wholeNumber(value: unknown, min: number): number | null | "invalid" {
  if (value === undefined || value === null) return null;
  const number = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number) || number < min) return "invalid";
  return number;
}

/**
 * Page a `tools/call` result. Without paging arguments, a result whose text is at most PAGE_TOKENS
 * estimated tokens is returned as is. Otherwise the text blocks are joined into lines and the
 * requested lines (by default, from `offset` as many as fit in a page) replace them, followed by
 * a note: `[showing lines 1-112 of 8000; pass offset=112 for more]`. A line longer than a page is
 * split into page-sized pieces, each counted as a line, so every character stays reachable. Other
 * content (images, resources) and `structuredContent` are kept as sent.
 */
export function pageResult(result: JsonObject, request: PageRequest): JsonObject {
  const content = ownField(result, "content");
  if (!Array.isArray(content)) return result;
  const textIndexes: number[] = [];
  content.forEach((block: unknown, index) => {
    if (isJsonObject(block) && block.type === "text" && typeof block.text === "string") textIndexes.push(index);
  });
  if (textIndexes.length === 0) return result;
  const isText = new Set(textIndexes);
  const text = textIndexes.map((index) => (content[index] as JsonObject).text as string).join("\n");
  const asked = request.offset !== null || request.limit !== null;
  if (!asked && text.length <= PAGE_CHARS) return result;

  const lines = splitLines(text);
  const total = lines.length;
  const start = request.offset ?? 0;
  let end: number;
  if (request.limit !== null) {
    end = Math.min(total, start + request.limit);
  } else {
    end = start;
    let used = 0;
    const budget = PAGE_CHARS - NOTE_RESERVE;
    while (end < total) {
      const size = (lines[end] as string).length + 1;
      if (end > start && used + size > budget) break;
      used += size;
      end++;
    }
  }
  let page: string;
  if (start >= total) {
    page = `[offset ${start} is past the end: the result has ${total} line${total === 1 ? "" : "s"}]`;
  } else {
    const more = end < total ? `; pass offset=${end} for more` : "";
    page = `${lines.slice(start, end).join("\n")}\n[showing lines ${start + 1}-${end} of ${total}${more}]`;
  }
  const first = textIndexes[0] as number;
  const blocks: unknown[] = [];
  content.forEach((block: unknown, index) => {
    if (index === first) blocks.push({ ...(block as JsonObject), text: page });
    else if (!isText.has(index)) blocks.push(block);
  });
  return { ...result, content: blocks };
}

/** Lines of a text, with lines longer than a page cut into page-sized pieces. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  const piece = PAGE_CHARS - NOTE_RESERVE;
  for (const line of text.split("\n")) {
    if (line.length <= piece) {
      lines.push(line);
      continue;
    }
    for (let at = 0; at < line.length; at += piece) lines.push(line.slice(at, at + piece));
  }
  return lines;
}
