/** Parse a config file's text as JSONC, TOML or YAML, recognised from the content; errors name a line, never a value. */

import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { parseDocument } from "yaml";
import { JsonInputError } from "../../errors.js";

/** A parsed config file. */
export interface ParsedText {
  syntax: "json" | "toml" | "yaml";
  value: unknown;
  /** JSON that also parses as strict JSON (no comments, no trailing commas). */
  strictJson: boolean;
}

/** First character that is not whitespace or a comment. */
function firstSignificant(text: string): string {
  const stripped = text.replace(/^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|#[^\n]*)*/, "");
  return stripped.charAt(0);
}

function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return `line ${line} column ${column}`;
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

function parseJsonText(text: string, source: string): ParsedText {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) {
    throw new JsonInputError(`${source}: invalid JSON at ${lineColumn(text, first.offset)}: ${JSONC_ERRORS[first.error] ?? "syntax error"}`);
  }
  let strictJson = true;
  try {
    JSON.parse(text);
  } catch {
    strictJson = false;
  }
  return { syntax: "json", value, strictJson };
}

function tryToml(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseToml(text) };
  } catch (error) {
    const { line, column } = (error ?? {}) as { line?: unknown; column?: unknown };
    return { error: typeof line === "number" ? `invalid TOML at line ${line} column ${String(column)}` : "invalid TOML" };
  }
}

function tryYaml(text: string): { value: unknown } | { error: string } {
  // prettyErrors fills in linePos; the message itself (which quotes the text) is never shown.
  const document = parseDocument(text, { uniqueKeys: false, prettyErrors: true });
  const first = document.errors[0];
  if (first !== undefined) {
    const position = first.linePos?.[0];
    return { error: position === undefined ? "invalid YAML" : `invalid YAML at line ${position.line} column ${position.col}` };
  }
  return { value: document.toJS({ maxAliasCount: 100 }) as unknown };
}

/**
 * Parse `text` (from `source`, used in messages). Text starting with `{` is JSON with comments
 * and trailing commas; otherwise TOML and YAML are both tried, the file extension deciding which
 * first. Throws JsonInputError with one line naming the position.
 */
export function parseConfigText(text: string, source: string): ParsedText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = firstSignificant(body);
  if (first === "{" || (first === "[" && /\.json[c5]?$/i.test(source))) return parseJsonText(body, source);
  const tomlFirst = /\.toml$/i.test(source) || (!/\.ya?ml$/i.test(source) && /^\s*\[[^\]\n]+\]\s*$/m.test(body));
  const attempts = tomlFirst ? [tryToml, tryYaml] : [tryYaml, tryToml];
  const results = attempts.map((attempt) => attempt(body));
  // Prefer a parse that gives a table/mapping: a TOML line like `a = "b"` is also a YAML string.
  const isMap = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
  const chosen = results.findIndex((result) => "value" in result && isMap(result.value));
  const index = chosen >= 0 ? chosen : results.findIndex((result) => "value" in result);
  const result = results[index];
  if (result !== undefined && "value" in result) {
    return { syntax: attempts[index] === tryToml ? "toml" : "yaml", value: result.value, strictJson: false };
  }
  const firstError = results[0];
  throw new JsonInputError(`${source}: ${firstError !== undefined && "error" in firstError ? firstError.error : "not JSON, TOML or YAML"}`);
}
