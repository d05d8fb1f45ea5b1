/** The paging fix (seed 003): long tool results are cut to a page of lines on every surface, and every tool gains `offset`/`limit` to ask for the rest. Pure. */

import { maxDepth } from "../../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../../limits.js";
import { isJsonObject, type JsonObject, ownField } from "../../lock/snapshot.js";
import { checkInstance } from "../../schema/validate.js";

/** A response over this many estimated tokens is cut to a page. */
export const PAGE_TOKENS = 2000;
/** The estimate mcp-lint uses everywhere: four characters per token. */
export const CHARS_PER_TOKEN = 4;
/**
 * Characters of page text in one response, the note included, counted as JSON (an escape such as
 * `\n` counts as two): the copy in `content` and the one in `structuredContent` together.
 */
export const PAGE_CHARS = PAGE_TOKENS * CHARS_PER_TOKEN;
/** Room kept for the note at the end of a page. */
const NOTE_RESERVE = 120;
/**
 * Longest piece of a line, in JSON characters: half a page, so that a piece fits even when the
 * page goes out twice (in `content` and in `structuredContent`). Fixed, so that line numbers do
 * not depend on how a result is sent.
 */
const PIECE_CHARS = PAGE_CHARS / 2 - NOTE_RESERVE;
/** A `structuredContent` with no copy of the text is kept beside the page when its JSON is at most this long. */
const KEEP_CHARS = PAGE_CHARS / 2;
/** Fields beside the text in a paged `structuredContent` may add at most this many JSON characters. */
const REST_CHARS = 500;
/** The longest reason a note gives (part of it can be the server's schema). */
const REASON_CHARS = 200;

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
    description: "Most lines of the result to return (added by mcp-lint; a page never holds more than fit in about 2,000 tokens, which is also the default).",
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
  // Spread and delete keep an own `__proto__` argument as data (assignment would set the prototype and drop it).
  const rest: JsonObject = { ...args };
  delete rest.offset;
  delete rest.limit;
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

/** The tool's output schema, when the tool declares one (an object); null otherwise. */
export function outputSchemaOf(tool: JsonObject | undefined): JsonObject | null {
  const schema = tool === undefined ? undefined : ownField(tool, "outputSchema");
  return isJsonObject(schema) ? schema : null;
}

/** What happens to `structuredContent` beside a page. */
type Plan = { kind: "absent" } | { kind: "keep"; chars: number } | { kind: "page"; path: readonly (string | number)[] } | { kind: "withhold"; reason: string };

/**
 * Page a `tools/call` result. A result whose JSON is at most PAGE_CHARS long is returned as is
 * unless `offset` or `limit` is given. Otherwise the text blocks are joined into lines and the
 * requested lines (from `offset`, at most `limit`, never more than fit in a page) replace them,
 * followed by a note: `[showing lines 1-112 of 8000; pass offset=112 for more]`. A text ending in
 * a newline has one line per newline. A line longer than half a page is split into pieces, each
 * counted as a line, so every character stays reachable.
 *
 * `structuredContent` goes with the page, so a client reading either surface gets the fix:
 * - a string in it that is the whole text (at most one, with at most REST_CHARS beside it) is
 *   replaced by the same page, note included, and the page is sized so both copies fit in
 *   PAGE_CHARS; when the tool's `outputSchema` rejects that, it is withheld instead;
 * - one without a copy of the text is kept when it is short (KEEP_CHARS), withheld otherwise;
 * - a result without text blocks pages the pretty-printed JSON of its `structuredContent`.
 * Withholding adds a note saying why, and makes the result an error when the tool has an
 * `outputSchema` (MCP accepts a result without `structuredContent` from such a tool only as an
 * error; SDK clients throw on anything else). Other content (images, resources) is kept as sent.
 */
export function pageResult(result: JsonObject, request: PageRequest, outputSchema: JsonObject | null = null): JsonObject {
  const content = ownField(result, "content");
  if (!Array.isArray(content)) return result;
  const hasStructured = Object.hasOwn(result, "structuredContent");
  const structured = ownField(result, "structuredContent");
  const textIndexes: number[] = [];
  content.forEach((block: unknown, index) => {
    if (isJsonObject(block) && ownField(block, "type") === "text" && typeof ownField(block, "text") === "string") textIndexes.push(index);
  });
  const asked = request.offset !== null || request.limit !== null;
  if (!asked && jsonLength(result) <= PAGE_CHARS) return result;

  let text: string;
  let plan: Plan;
  if (textIndexes.length > 0) {
    text = textIndexes.map((index) => (content[index] as JsonObject).text as string).join("\n");
    plan = hasStructured ? planBeside(structured, text) : { kind: "absent" };
  } else {
    if (!hasStructured || jsonLength(structured) <= KEEP_CHARS) return result;
    const json = maxDepth(structured, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH ? null : JSON.stringify(structured, null, 2);
    text = json ?? "";
    plan = {
      kind: "withhold",
      reason: json === null ? `it is nested deeper than ${MAX_DEFINITION_DEPTH} levels` : "it is too long to send whole; its JSON is paged here as text",
    };
  }

  const lines = splitLines(text);
  let page: string;
  if (plan.kind === "page") {
    page = pageText(lines, request, PIECE_CHARS);
    const candidate = replaceAt(structured, plan.path, page);
    const check = outputSchema === null ? null : checkInstance(outputSchema, candidate, "output schema");
    // A schema ajv cannot compile checks nothing here, and no client could check the page against it either.
    if (check === null || check.ok !== false) return withPage(result, content, textIndexes, page, { structuredContent: candidate });
    const error = check.errors[0];
    const why = error === undefined ? "" : ` (${error.instancePath || "/"} ${error.message ?? error.keyword})`;
    plan = { kind: "withhold", reason: `the tool's output schema does not accept a page of it${why}` };
  }
  if (plan.kind === "keep") {
    page = pageText(lines, request, PAGE_CHARS - NOTE_RESERVE - plan.chars);
    return withPage(result, content, textIndexes, page, {});
  }
  if (plan.kind === "absent") return withPage(result, content, textIndexes, pageText(lines, request, PAGE_CHARS - NOTE_RESERVE), {});
  const note = `[mcp-lint paging: structuredContent withheld: ${plan.reason.slice(0, REASON_CHARS)}]`;
  // Nothing to page when there is no text and the JSON could not be written: the note alone.
  page = textIndexes.length === 0 && text === "" ? note : `${pageText(lines, request, PAGE_CHARS - NOTE_RESERVE - jsonLength(note))}\n${note}`;
  const fixed = withPage(result, content, textIndexes, page, outputSchema === null ? {} : { isError: true });
  delete fixed.structuredContent;
  return fixed;
}

/** What to do with a `structuredContent` beside text that is being paged. */
function planBeside(structured: unknown, text: string): Plan {
  if (maxDepth(structured, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
    return { kind: "withhold", reason: `it is nested deeper than ${MAX_DEFINITION_DEPTH} levels` };
  }
  const paths: (string | number)[][] = [];
  findText(structured, text, [], paths);
  const chars = jsonLength(structured);
  if (paths.length > 1) return { kind: "withhold", reason: `it holds the text ${paths.length} times` };
  if (paths.length === 0) {
    if (chars <= KEEP_CHARS) return { kind: "keep", chars };
    return { kind: "withhold", reason: `it is too long to send whole (${chars} characters) and holds no copy of the text to page` };
  }
  const rest = chars - jsonLength(text);
  if (rest > REST_CHARS) return { kind: "withhold", reason: `beside the text it holds ${rest} more characters` };
  return { kind: "page", path: paths[0] as (string | number)[] };
}

/** Paths of the strings equal to `text` (own keys only, so `__proto__` is data); stops at two. The depth is already bounded. */
function findText(value: unknown, text: string, path: (string | number)[], found: (string | number)[][]): void {
  if (found.length > 1) return;
  if (value === text) {
    found.push([...path]);
    return;
  }
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((child: unknown, index) => [index, child])
    : isJsonObject(value)
      ? Object.keys(value).map((key) => [key, ownField(value, key)])
      : [];
  for (const [key, child] of children) {
    if (typeof child !== "object" && typeof child !== "string") continue;
    path.push(key);
    findText(child, text, path, found);
    path.pop();
  }
}

/** A copy of `value` with the string at `path` replaced; an own `__proto__` key stays an own key. */
function replaceAt(value: unknown, path: readonly (string | number)[], leaf: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return leaf;
  if (Array.isArray(value)) {
    const copy = value.slice();
    copy[head as number] = replaceAt(value[head as number], rest, leaf);
    return copy;
  }
  const object = value as JsonObject;
  const copy = { ...object };
  // Assignment would set the prototype for `__proto__`; defining the property keeps it data.
  Object.defineProperty(copy, head, { value: replaceAt(ownField(object, String(head)), rest, leaf), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The result with its text blocks replaced by one block holding `page` (where the first was), other content kept. */
function withPage(result: JsonObject, content: unknown[], textIndexes: readonly number[], page: string, changes: JsonObject): JsonObject {
  const isText = new Set(textIndexes);
  const first = textIndexes[0];
  const blocks: unknown[] = [];
  content.forEach((block: unknown, index) => {
    if (index === first) blocks.push({ ...(block as JsonObject), text: page });
    else if (!isText.has(index)) blocks.push(block);
  });
  if (first === undefined) blocks.push({ type: "text", text: page });
  return { ...result, content: blocks, ...changes };
}

/** The requested lines and the note, the lines at most `budget` JSON characters (at least one line, so every page moves on). */
function pageText(lines: readonly string[], request: PageRequest, budget: number): string {
  const total = lines.length;
  const start = request.offset ?? 0;
  if (start >= total) return `[offset ${start} is past the end: the result has ${total} line${total === 1 ? "" : "s"}]`;
  const last = request.limit === null ? total : Math.min(total, start + request.limit);
  let end = start;
  let used = 0;
  while (end < last) {
    // Each line goes out with the newline after it, an escape of two characters.
    const size = jsonLength(lines[end] as string) + 2;
    if (end > start && used + size > budget) break;
    used += size;
    end++;
  }
  const more = end < total ? `; pass offset=${end} for more` : "";
  return `${lines.slice(start, end).join("\n")}\n[showing lines ${start + 1}-${end} of ${total}${more}]`;
}

/**
 * Lines of a text, as a reader counts them: a text ending in a newline has one line per newline
 * (no empty line after the last), and lines longer than PIECE_CHARS are cut into pieces.
 */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  const lines: string[] = [];
  for (const line of parts) {
    if (jsonLength(line) <= PIECE_CHARS) lines.push(line);
    else splitLine(line, lines);
  }
  return lines;
}

/** Cut a line into pieces of at most PIECE_CHARS JSON characters, never inside a surrogate pair. */
function splitLine(line: string, into: string[]): void {
  let start = 0;
  let used = 0;
  for (let at = 0; at < line.length; ) {
    const code = line.charCodeAt(at);
    const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(line.charCodeAt(at + 1));
    const width = pair ? 2 : 1;
    const cost = pair ? 2 : escapedLength(code);
    if (used + cost > PIECE_CHARS) {
      into.push(line.slice(start, at));
      start = at;
      used = 0;
    }
    used += cost;
    at += width;
  }
  into.push(line.slice(start));
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Characters one UTF-16 unit takes in JSON.stringify's output (a lone surrogate is escaped). */
function escapedLength(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code >= 0xd800 && code <= 0xdfff) return 6;
  return 1;
}

/** Characters of a value's JSON; a value JSON.stringify cannot write (nested too deeply for its stack) counts as endless. */
function jsonLength(value: unknown): number {
  if (typeof value === "string") return JSON.stringify(value).length - 2;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
