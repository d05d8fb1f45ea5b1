/** Parse a config file's text as JSONC, TOML or YAML, recognised from the content, into prototype-free values with line lookup; errors name a line, never a value. */

import { type Node as JsonNode, type ParseError, parseTree } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { type Document, isMap, isScalar, isSeq, LineCounter, type Pair, parseDocument, type YAMLMap } from "yaml";
import { JsonInputError } from "../../errors.js";
import { neutralize } from "../../text/neutralize.js";
import { tomlKeyLines } from "./toml-lines.js";

/** Where a value sits in a document: object keys and array indexes. */
export type DocPath = readonly (string | number)[];

/** A parsed config file. */
export interface ParsedText {
  syntax: "json" | "toml" | "yaml";
  /** Objects have no prototype, so every key a client reads (`__proto__`, `constructor`) is an ordinary key. */
  value: unknown;
  /** JSON that also parses as strict JSON (no comments, no trailing commas). */
  strictJson: boolean;
  /** The 1-based line where the key (or array item) at `path` starts, or null when unknown. */
  lineOf(path: DocPath): number | null;
}

/** Values nested deeper than this are refused (a parser would otherwise run out of stack). */
const MAX_DEPTH = 512;

/** First character that is not whitespace or a comment. */
function firstSignificant(text: string): string {
  const stripped = text.replace(/^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|#[^\n]*)*/, "");
  return stripped.charAt(0);
}

/** Start offset of every line, for offset-to-line lookups. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

/** The 1-based line holding `offset`. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

function position(starts: readonly number[], offset: number): string {
  const line = lineAt(starts, offset);
  return `line ${line} column ${offset - (starts[line - 1] as number) + 1}`;
}

const JSONC_ERRORS: Readonly<Record<number, string>> = {
  1: "unexpected character",
  2: "invalid number",
  3: "expected a property name",
  4: "expected a value",
  5: "expected a colon",
  6: "expected a comma",
  7: "expected a closing brace",
  8: "expected a closing bracket",
  9: "unexpected text after the end",
  11: "unterminated comment",
  12: "unterminated string",
};

/** A fresh object with no prototype: `__proto__` and `constructor` are plain keys in it. */
function bareObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

function tooDeep(source: string, where: string): JsonInputError {
  return new JsonInputError(`${source}: nests deeper than ${MAX_DEPTH} levels at ${where}`);
}

function parseJsonText(text: string, source: string): ParsedText {
  const errors: ParseError[] = [];
  const starts = lineStarts(text);
  let root: JsonNode | undefined;
  try {
    root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  } catch (error) {
    // jsonc-parser recurses once per level and runs out of stack on very deep input.
    if (error instanceof RangeError) throw tooDeep(source, "some point");
    throw error;
  }
  const first = errors[0];
  if (first !== undefined) {
    throw new JsonInputError(`${source}: invalid JSON at ${position(starts, first.offset)}: ${JSONC_ERRORS[first.error] ?? "syntax error"}`);
  }
  const value = root === undefined ? undefined : jsonValue(root, 0, source, starts);
  let strictJson = true;
  try {
    JSON.parse(text);
  } catch {
    strictJson = false;
  }
  const propertyOf = keyedLookup((node: JsonNode) => {
    const out: [string, JsonNode][] = [];
    for (const child of node.children ?? []) {
      const key: unknown = child.children?.[0]?.value;
      if (typeof key === "string") out.push([key, child]);
    }
    return out;
  });
  return { syntax: "json", value, strictJson, lineOf: (path) => jsonLine(root, path, starts, propertyOf) };
}

/** The value of a JSON tree node, objects without prototype; a repeated key keeps its last value, as JSON.parse does. */
function jsonValue(node: JsonNode, depth: number, source: string, starts: readonly number[]): unknown {
  if (depth > MAX_DEPTH) throw tooDeep(source, position(starts, node.offset));
  if (node.type === "object") {
    const object = bareObject();
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (key === undefined || typeof key.value !== "string") continue;
      object[key.value] = value === undefined ? null : jsonValue(value, depth + 1, source, starts);
    }
    return object;
  }
  if (node.type === "array") return (node.children ?? []).map((child) => jsonValue(child, depth + 1, source, starts));
  return node.value as unknown;
}

/**
 * A lookup of a container's children by key (the last of a repeated key, as parsers read it),
 * indexed on the first lookup in each container. Finding a line per server by scanning the
 * container each time was quadratic: 100,000 servers took minutes.
 */
function keyedLookup<Node extends object, Child>(entries: (node: Node) => Iterable<[string, Child]>): (node: Node, key: string) => Child | undefined {
  const index = new WeakMap<Node, Map<string, Child>>();
  return (node, key) => {
    let children = index.get(node);
    if (children === undefined) {
      children = new Map(entries(node));
      index.set(node, children);
    }
    return children.get(key);
  };
}

function jsonLine(
  root: JsonNode | undefined,
  path: DocPath,
  starts: readonly number[],
  propertyOf: (node: JsonNode, key: string) => JsonNode | undefined,
): number | null {
  let node = root;
  let offset: number | null = null;
  for (const segment of path) {
    if (node === undefined) return null;
    if (node.type === "object" && typeof segment === "string") {
      const property = propertyOf(node, segment);
      if (property === undefined) return null;
      offset = property.offset;
      node = property.children?.[1];
    } else if (node.type === "array" && typeof segment === "number") {
      node = node.children?.[segment];
      if (node === undefined) return null;
      offset = node.offset;
    } else {
      return null;
    }
  }
  return offset === null ? null : lineAt(starts, offset);
}

/** A parsed value copied into prototype-free objects (smol-toml and yaml build ordinary ones). */
function bare(value: unknown, depth: number, source: string): unknown {
  if (depth > MAX_DEPTH) throw tooDeep(source, "some point");
  if (Array.isArray(value)) return value.map((item) => bare(item, depth + 1, source));
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  const object = bareObject();
  for (const key of Object.keys(value)) object[key] = bare((value as Record<string, unknown>)[key], depth + 1, source);
  return object;
}

function tryToml(text: string, source: string): Omit<ParsedText, "syntax" | "strictJson"> | { error: string } {
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch (error) {
    const { line, column } = (error ?? {}) as { line?: unknown; column?: unknown };
    return { error: typeof line === "number" ? `invalid TOML at line ${line} column ${String(column)}` : "invalid TOML" };
  }
  let lines: Map<string, number> | null = null;
  return {
    value: bare(parsed, 0, source),
    lineOf(path) {
      lines ??= tomlKeyLines(text);
      if (path.some((segment) => typeof segment !== "string")) return null;
      return lines.get(JSON.stringify(path)) ?? null;
    },
  };
}

function tryYaml(text: string, source: string): Omit<ParsedText, "syntax" | "strictJson"> | { error: string } {
  const lineCounter = new LineCounter();
  // prettyErrors fills in linePos; the message itself (which quotes the text) is never shown.
  const document = parseDocument(text, { uniqueKeys: false, prettyErrors: true, lineCounter });
  const first = document.errors[0];
  if (first !== undefined) {
    const where = first.linePos?.[0];
    return { error: where === undefined ? "invalid YAML" : `invalid YAML at line ${where.line} column ${where.col}` };
  }
  // Only scalar keys can match a path segment; with duplicate keys the last one is read.
  const pairOf = keyedLookup((map: YAMLMap) => {
    const out: [string, Pair][] = [];
    for (const item of map.items as Pair[]) if (isScalar(item.key)) out.push([String(item.key.value), item]);
    return out;
  });
  return {
    value: bare(document.toJS({ maxAliasCount: 100 }) as unknown, 0, source),
    lineOf: (path) => yamlLine(document, path, lineCounter, pairOf),
  };
}

function yamlLine(document: Document, path: DocPath, lineCounter: LineCounter, pairOf: (map: YAMLMap, key: string) => Pair | undefined): number | null {
  let node: unknown = document.contents;
  let offset: number | null = null;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = pairOf(node, String(segment));
      if (pair === undefined) return null;
      const key: unknown = pair.key;
      offset = isScalar(key) && key.range !== undefined && key.range !== null ? key.range[0] : null;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
      const range = (node as { range?: [number, number, number] | null } | undefined)?.range;
      offset = range === undefined || range === null ? null : range[0];
    } else {
      // An alias or a scalar where a map was expected: the line is not worth guessing.
      return null;
    }
  }
  return offset === null ? null : lineCounter.linePos(offset).line;
}

/**
 * Parse `text` (from `source`, used in messages). Text starting with `{` is JSON with comments
 * and trailing commas; otherwise TOML and YAML are both tried, the file extension deciding which
 * first. Throws JsonInputError with one line naming the file and position, never the text.
 */
export function parseConfigText(text: string, source: string): ParsedText {
  const shown = neutralize(source, { lineStart: true });
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = firstSignificant(body);
  if (first === "{" || (first === "[" && /\.json[c5]?$/i.test(source))) return parseJsonText(body, shown);
  // `[ \t]*` rather than `\s*`: `\s` also takes newlines, and every line of a long blank run would rescan the rest.
  const tomlFirst = /\.toml$/i.test(source) || (!/\.ya?ml$/i.test(source) && /^[ \t]*\[[^\]\n]+\][ \t]*\r?$/m.test(body));
  const attempts = tomlFirst ? [tryToml, tryYaml] : [tryYaml, tryToml];
  const results = attempts.map((attempt) => attempt(body, shown));
  // Prefer a parse that gives a table/mapping: a TOML line like `a = "b"` is also a YAML string.
  const isMapValue = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
  const chosen = results.findIndex((result) => "value" in result && isMapValue(result.value));
  const index = chosen >= 0 ? chosen : results.findIndex((result) => "value" in result);
  const result = results[index];
  if (result !== undefined && "value" in result) {
    return { syntax: attempts[index] === tryToml ? "toml" : "yaml", value: result.value, strictJson: false, lineOf: result.lineOf };
  }
  const firstError = results[0];
  throw new JsonInputError(`${shown}: ${firstError !== undefined && "error" in firstError ? firstError.error : "not JSON, TOML or YAML"}`);
}
