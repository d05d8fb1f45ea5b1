/** Strict JSON reading: native JSON.parse for speed, plus duplicate-key rejection and one-line, located error messages. */

import { Buffer, isUtf8 } from "node:buffer";
import { createRequire } from "node:module";

/**
 * jsonc-parser is needed only on the slow paths (a syntax error, a suspected duplicate key), so it
 * is loaded on first use rather than on every start: the commit hook runs mcp-lint on every commit.
 */
const requireModule = createRequire(import.meta.url);
let jsoncModule: typeof import("jsonc-parser") | null = null;
export function jsonc(): typeof import("jsonc-parser") {
  jsoncModule ??= requireModule("jsonc-parser") as typeof import("jsonc-parser");
  return jsoncModule;
}
import { JsonInputError } from "../errors.js";
import { exportsOf } from "../interop.js";

/**
 * Load the slow-path JSON tools now (before a server that could tamper with files runs). The
 * dynamic import is bundled into the CLI's chunks; require() on first use reads node_modules.
 */
export async function preloadJsonTools(): Promise<void> {
  const loaded = (await import("jsonc-parser")) as typeof import("jsonc-parser") & { default?: typeof import("jsonc-parser") };
  jsoncModule ??= exportsOf(loaded, "createScanner");
}

// jsonc-parser declares its SyntaxKind / ParseErrorCode as ambient `const enum`s, which
// `verbatimModuleSyntax` (isolated modules) cannot read, so the few values we need are copied here.
const TOKEN_OPEN_BRACE = 1;
const TOKEN_CLOSE_BRACE = 2;
const TOKEN_OPEN_BRACKET = 3;
const TOKEN_CLOSE_BRACKET = 4;
const TOKEN_COMMA = 5;
const TOKEN_STRING = 10;
const TOKEN_NUMBER = 11;
const TOKEN_EOF = 17;

const ERR_INVALID_SYMBOL = 1;
const ERR_PROPERTY_NAME_EXPECTED = 3;
const ERR_VALUE_EXPECTED = 4;
const ERR_COMMA_EXPECTED = 6;
const ERR_INVALID_UNICODE = 14;
const ERR_INVALID_ESCAPE = 15;
const ERR_INVALID_CHARACTER = 16;

/** jsonc-parser's ParseErrorCode values in plain words (code 6 depends on the container, see describeError). */
const ERROR_WORDS: Readonly<Record<number, string>> = {
  1: "unexpected character",
  2: "invalid number",
  3: "expected a property name in double quotes",
  4: "expected a value",
  5: "expected a colon after the property name",
  6: "expected a comma",
  7: "expected a closing brace",
  8: "expected a closing bracket",
  9: "unexpected text after the end of the JSON value",
  10: "comments are not allowed in JSON",
  11: "unterminated comment",
  12: "unterminated string",
  13: "incomplete number",
  14: "invalid \\u escape (it needs four hex digits)",
  15: "invalid escape sequence in string",
  16: "control character in string (it must be written as an escape)",
};

/** Longest key or token (in UTF-16 code units) quoted in a message before it is cut short. */
const MAX_SHOWN_CHARS = 60;

/** Words JSON rejects that people (and JavaScript) write by mistake; safe to quote in an error. */
const JS_WORDS: ReadonlySet<string> = new Set([
  "NaN",
  "Infinity",
  "-Infinity",
  "+Infinity",
  "undefined",
  "True",
  "False",
  "None",
  "TRUE",
  "FALSE",
  "NULL",
  "Null",
]);

/** A located problem found by the slow path. */
interface Problem {
  offset: number;
  message: string;
}

/** Parse JSON text from `source` (a file name used in messages). Throws JsonInputError with one clear line. */
export function parseJsonStrict(text: string, source: string): unknown {
  // RFC 8259 lets a parser ignore a byte order mark; JSON.parse does not, so drop it here too.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch (error) {
    throw syntaxError(body, source, error);
  }
  // Fast duplicate check. JSON.parse silently keeps the last copy of a repeated key, so compare
  // two counts:
  //   K = own keys summed over every object in the parsed value (what survived parsing);
  //   T = colons in the text that follow a closing quote (an upper bound on the keys as written).
  // Each object in the text becomes exactly one object in the value (no reviver, no sharing), and
  // JSON.parse stores each key as an own, enumerable, string-named data property (even
  // "__proto__"), so per object K_i = distinct keys <= key tokens, with equality exactly when that
  // object has no repeated key (after unescaping, so "a" and "\u0061" collide). Every key token is
  // counted in T, and T counts nothing else but a string that starts with a colon, so
  // K <= keys <= T, and K === T proves there is no duplicate anywhere; only when they differ do we
  // pay for a tokenizing pass. The check fails safe both ways: an undercount of K or an overcount
  // of T only costs that pass. An overcount of K could hide a duplicate, which is why
  // measureParsed counts own keys only.
  const parsed = measureParsed(value);
  if (parsed.nonFinite) throw numberOutOfRange(body, source);
  if (parsed.keys !== countKeyColons(body)) {
    const duplicate = findDuplicateKey(body);
    if (duplicate !== undefined) {
      const { line, column } = lineAndColumn(body, duplicate.offset);
      throw new JsonInputError(`${source}: duplicate key ${showKey(duplicate.key)} at line ${line} column ${column}; remove one copy`);
    }
    // Only a string that starts with a colon gets here; the tokenizer is authoritative, so accept the value.
  }
  if (typeof value === "object" && value !== null) measuredDepths.set(value, parsed.depth);
  return value;
}

/** Decode bytes as UTF-8, rejecting invalid sequences (JsonInputError naming the byte offset); strips a leading BOM. */
export function decodeUtf8Strict(bytes: Uint8Array, source: string): string {
  // isUtf8 is a native validator, several times faster than a fatal TextDecoder on large files.
  if (isUtf8(bytes)) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  try {
    // fatal: throw instead of inserting U+FFFD; ignoreBOM (default false) means one leading BOM is removed.
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // TextDecoder does not say where the bad byte is, so find it ourselves (only on this rare path).
    const bad = firstInvalidUtf8(bytes);
    const where = bad === undefined ? "" : ` at byte offset ${bad.offset}: byte 0x${hexByte(bad.byte)} ${bad.reason}`;
    throw new JsonInputError(`${source}: invalid UTF-8${where}; save the file as UTF-8`);
  }
}

/** Nesting depth of objects/arrays (a scalar is 0, `{}` is 1); returns `limit + 1` as soon as the depth exceeds `limit`. */
export function maxDepth(value: unknown, limit: number): number {
  // Iterative, because JSON.parse (iterative in V8) happily returns values nested 100,000 deep.
  if (typeof value !== "object" || value === null) return 0;
  const values: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  for (;;) {
    const current = values.pop();
    const depth = depths.pop();
    if (current === undefined || depth === undefined) return deepest;
    if (depth > limit) return limit + 1;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(current)) {
      for (const child of current as unknown[]) {
        if (typeof child === "object" && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = current as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (typeof child === "object" && child !== null && Object.hasOwn(record, key)) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
}

/**
 * Nesting depth (as maxDepth counts it) of each value parseJsonStrict returned, measured in the
 * same walk that counts its keys. A caller holding a part of such a value knows that part is no
 * deeper, so it can skip its own depth walk (see depthOfParsed). Values are never mutated after
 * parsing here; one that was would not be in this map, which only costs a walk.
 */
const measuredDepths = new WeakMap<object, number>();

/** The depth parseJsonStrict measured for a value it returned, or undefined for any other value. */
export function depthOfParsed(value: unknown): number | undefined {
  return typeof value === "object" && value !== null ? measuredDepths.get(value) : undefined;
}

/** Whether `value` came from parseJsonStrict no deeper than `limit`, so no part of it is deeper either. */
export function parsedWithinDepth(value: unknown, limit: number): boolean {
  return (depthOfParsed(value) ?? Number.POSITIVE_INFINITY) <= limit;
}

/**
 * K in the argument above: own keys of every (non-array) object, walked iteratively, with the
 * nesting depth. The same walk notices a number JSON.parse turned into Infinity (`1e400`), which
 * no lock or hash can hold.
 */
function measureParsed(root: unknown): { keys: number; depth: number; nonFinite: boolean } {
  let count = 0;
  let deepest = 0;
  let nonFinite = typeof root === "number" && !Number.isFinite(root);
  if (typeof root !== "object" || root === null) return { keys: 0, depth: 0, nonFinite };
  // Containers and their depths, pushed and popped together.
  const stack: object[] = [root];
  const depths: number[] = [1];
  for (;;) {
    const current = stack.pop();
    const depth = depths.pop() as number;
    if (current === undefined) return { keys: count, depth: deepest, nonFinite };
    if (depth > deepest) deepest = depth;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) {
        if (typeof item === "object" && item !== null) {
          stack.push(item);
          depths.push(depth + 1);
        } else if (typeof item === "number" && !Number.isFinite(item)) nonFinite = true;
      }
    } else {
      // for-in with an own-key test counts exactly the own enumerable string keys (an own
      // "__proto__" included) without allocating a key array per object, which matters on 10 MB.
      const record = current as Record<string, unknown>;
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue;
        count++;
        const item = record[key];
        if (typeof item === "object" && item !== null) {
          stack.push(item);
          depths.push(depth + 1);
        } else if (typeof item === "number" && !Number.isFinite(item)) nonFinite = true;
      }
    }
  }
}

/** The one-line error for a number too large for a double, located by the tokenizer. */
function numberOutOfRange(text: string, source: string): JsonInputError {
  const scanner = jsonc().createScanner(text, true);
  for (let kind: number = scanner.scan(); kind !== TOKEN_EOF; kind = scanner.scan()) {
    if (kind === TOKEN_NUMBER && !Number.isFinite(Number(scanner.getTokenValue()))) {
      const { line, column } = lineAndColumn(text, scanner.getTokenOffset());
      return new JsonInputError(`${source}: number out of range at line ${line} column ${column}: JSON numbers must stay under about 1.8e308 in size`);
    }
  }
  return new JsonInputError(`${source}: a number is out of range (larger than about 1.8e308)`);
}

/**
 * T in the argument above: colons that follow, after optional whitespace, a double quote with an
 * even run of backslashes before it. Sound only because the text already parsed: outside strings
 * every quote is a delimiter and a colon follows a key's closing quote; inside a string a quote is
 * either escaped (an odd run of backslashes, since backslashes only occur as escape pairs) or the
 * string's own opening quote. indexOf finds the colons natively; there are about as many as keys,
 * far fewer than the quotes of every string, and no regex runs (V8 grows a regex's backtrack stack
 * per escape and throws on a string with a few million of them).
 */
export function countKeyColons(text: string): number {
  let count = 0;
  for (let colon = text.indexOf(":"); colon >= 0; colon = text.indexOf(":", colon + 1)) {
    let quote = colon - 1;
    let c = text.charCodeAt(quote);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(--quote);
    if (c !== 0x22) continue;
    let before = quote - 1;
    while (text.charCodeAt(before) === 0x5c) before--;
    if ((quote - 1 - before) % 2 === 0) count++;
  }
  return count;
}

/**
 * First repeated key in valid JSON text, using jsonc-parser's tokenizer with an explicit stack of
 * key sets (iterative, unlike jsonc-parser's recursive `visit`, so any depth that JSON.parse
 * accepted is handled). The tokenizer unescapes keys, so "a" and "\u0061" are the same key.
 */
function findDuplicateKey(text: string): { key: string; offset: number } | undefined {
  const scanner = jsonc().createScanner(text, true);
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (;;) {
    const kind: number = scanner.scan();
    switch (kind) {
      case TOKEN_EOF:
        return undefined;
      case TOKEN_OPEN_BRACE:
        stack.push(new Set());
        expectKey = true;
        break;
      case TOKEN_OPEN_BRACKET:
        stack.push(null);
        expectKey = false;
        break;
      case TOKEN_CLOSE_BRACE:
      case TOKEN_CLOSE_BRACKET:
        stack.pop();
        expectKey = false;
        break;
      case TOKEN_COMMA:
        expectKey = (stack[stack.length - 1] ?? null) !== null;
        break;
      case TOKEN_STRING: {
        const keys = stack[stack.length - 1];
        if (expectKey && keys) {
          const key = scanner.getTokenValue();
          if (keys.has(key)) return { key, offset: scanner.getTokenOffset() };
          keys.add(key);
        }
        expectKey = false;
        break;
      }
      default:
        expectKey = false;
    }
  }
}

/** Build the one-line error for text that JSON.parse rejected. */
function syntaxError(text: string, source: string, nativeError: unknown): JsonInputError {
  if (text.trim() === "") return new JsonInputError(`${source}: invalid JSON: the file is empty`);
  let problem: Problem | undefined;
  try {
    problem = firstSyntaxProblem(text);
  } catch (error) {
    // jsonc-parser's visit recurses once per nesting level and overflows the stack somewhere past
    // ~5,000 levels; fall back to the position V8 reports.
    if (!(error instanceof RangeError)) throw error;
  }
  problem ??= problemFromNativeError(text, nativeError);
  if (problem === undefined) {
    // No position anywhere (V8 says e.g. `Unexpected token 'x', ..."<snippet>"... is not valid JSON`):
    // keep its first clause, without the snippet, which can be long.
    const native = nativeError instanceof Error ? nativeError.message.replace(/, (?:\.\.\.)?".*$/s, "") : "";
    const detail = native === "" ? "" : `: ${native.charAt(0).toLowerCase()}${native.slice(1)}`;
    return new JsonInputError(`${source}: invalid JSON${detail}`);
  }
  const { line, column } = lineAndColumn(text, problem.offset);
  return new JsonInputError(`${source}: invalid JSON at line ${line} column ${column}: ${problem.message}`);
}

/** Aborts jsonc-parser's visit at the first error; there is nothing to gain from its error recovery. */
class StopVisit extends Error {}

/** First error that jsonc-parser (no comments, no trailing commas) finds, in plain words. */
function firstSyntaxProblem(text: string): Problem | undefined {
  // Open containers, to say "brace" or "bracket" when a comma is missing.
  const open: ("object" | "array")[] = [];
  let found: Problem | undefined;
  try {
    jsonc().visit(
      text,
      {
        onObjectBegin: () => {
          open.push("object");
        },
        onArrayBegin: () => {
          open.push("array");
        },
        onObjectEnd: () => {
          open.pop();
        },
        onArrayEnd: () => {
          open.pop();
        },
        onError: (code: number, offset: number, length: number) => {
          found = describeError(text, code, offset, length, open[open.length - 1]);
          throw new StopVisit();
        },
      },
      { disallowComments: true, allowTrailingComma: false },
    );
  } catch (error) {
    if (!(error instanceof StopVisit)) throw error;
  }
  return found;
}

/** Turn one jsonc-parser error into a Problem, pointing at the most useful offset. */
function describeError(text: string, code: number, offset: number, length: number, container: "object" | "array" | undefined): Problem {
  const atEnd = offset >= text.length;
  if (code === ERR_PROPERTY_NAME_EXPECTED || code === ERR_VALUE_EXPECTED) {
    // `[1,]` and `{"a":1,}` surface as "expected a value/name" at the closing character.
    const close = text.charCodeAt(offset);
    if (close === 0x5d || close === 0x7d) {
      const comma = previousNonWhitespace(text, offset);
      if (comma >= 0 && text.charCodeAt(comma) === 0x2c) {
        return { offset: comma, message: "trailing comma is not allowed" };
      }
    }
  }
  if (code === ERR_INVALID_SYMBOL) {
    // A word-like token (NaN, undefined, an unquoted key) reads best whole; anything else, such as
    // a no-break space the tokenizer glued to the next number, is shown as its first character.
    const first = String.fromCodePoint(text.codePointAt(offset) ?? 0);
    if (/^[\w$.+-]/.test(first)) {
      const token = text.slice(offset, offset + Math.max(1, Math.min(length, MAX_SHOWN_CHARS)));
      // A file that is not JSON at all may be a token file behind a symlink: name the position and
      // quote only words that are plainly JSON mistakes, never arbitrary content.
      if (token.length <= 1 || JS_WORDS.has(token)) return { offset, message: `unexpected ${showText(token)}` };
      return {
        offset,
        message: `unexpected text (${token.length} characters${token.length >= MAX_SHOWN_CHARS ? " or more" : ""}) where a JSON value or key belongs`,
      };
    }
    return { offset, message: `unexpected character ${showText(first)}` };
  }
  if (code === ERR_INVALID_ESCAPE || code === ERR_INVALID_UNICODE || code === ERR_INVALID_CHARACTER) {
    // jsonc-parser reports the start of the string; point at the offending character instead.
    offset = badCharacterInString(text, offset, offset + length);
  }
  if (code === ERR_COMMA_EXPECTED && isDigit(text.charCodeAt(offset)) && isDigit(text.charCodeAt(offset - 1))) {
    // The tokenizer splits `01` into `0` and `1`; say what is actually wrong.
    return { offset: offset - 1, message: "invalid number (leading zeros are not allowed)" };
  }
  let words = ERROR_WORDS[code] ?? `syntax error (code ${code})`;
  if (code === ERR_COMMA_EXPECTED) {
    words = container === "array" ? "expected a comma or closing bracket" : "expected a comma or closing brace";
  }
  if (atEnd) {
    return { offset, message: `unexpected end of file; ${words}` };
  }
  return { offset, message: words };
}

/** Offset of the first bad escape or raw control character inside the string token [start, end). */
function badCharacterInString(text: string, start: number, end: number): number {
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) return i;
    if (c !== 0x5c) continue;
    const next = text[i + 1] ?? "";
    if (next === "u") {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return i;
      i += 5;
    } else if (next !== "" && '"\\/bfnrt'.includes(next)) {
      i += 1;
    } else {
      return i;
    }
  }
  return start;
}

/** Use V8's own "at position N" when jsonc-parser could not locate the error. */
function problemFromNativeError(text: string, error: unknown): Problem | undefined {
  const message = error instanceof Error ? error.message : "";
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) {
    const words = message.replace(/\s*in JSON at position \d+.*$/s, "");
    return { offset: Number(position), message: words.charAt(0).toLowerCase() + words.slice(1) };
  }
  if (/Unexpected end of JSON input/.test(message)) {
    return { offset: text.length, message: "unexpected end of file" };
  }
  return undefined;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function previousNonWhitespace(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /[\t\n\r ]/.test(text[i] ?? "")) i--;
  return i;
}

/** 1-based line and column (in UTF-16 code units, as editors count) of `offset`; \n, \r\n and \r end lines. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A key as a quoted, escaped string (invisible and non-ASCII characters as \uXXXX), cut to MAX_SHOWN_CHARS. */
function showKey(key: string): string {
  if (key.length <= MAX_SHOWN_CHARS) return showText(key);
  // Do not cut between the halves of a surrogate pair.
  let cut = MAX_SHOWN_CHARS;
  const last = key.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${showText(key.slice(0, cut))}...`;
}

/** JSON string literal with everything outside printable ASCII escaped, so the message shows what is really there. */
function showText(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function hexByte(byte: number): string {
  return byte.toString(16).padStart(2, "0");
}

/** First ill-formed UTF-8 sequence (same acceptance rules as TextDecoder), reported at its first byte. */
function firstInvalidUtf8(bytes: Uint8Array): { offset: number; byte: number; reason: string } | undefined {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i] ?? 0;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let need: number;
    // Narrower second-byte ranges exclude overlong forms, UTF-16 surrogates and values past U+10FFFF.
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) {
      need = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else {
      return { offset: i, byte: lead, reason: "cannot start a character" };
    }
    for (let j = 1; j <= need; j++) {
      const next = bytes[i + j];
      if (next === undefined) return { offset: i, byte: lead, reason: "starts a character cut off by the end of the file" };
      if (next < low || next > high) return { offset: i, byte: lead, reason: "starts an invalid multi-byte sequence" };
      low = 0x80;
      high = 0xbf;
    }
    i += need + 1;
  }
  return undefined;
}
