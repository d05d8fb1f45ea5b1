/**
 * The `Mcp-Param-{Name}` headers of MCP 2026-07-28 over Streamable HTTP: which arguments of a tool
 * a client copies into headers (its `x-mcp-header` declarations, or why they are invalid and the
 * tool must be left out), and the headers of one `tools/call`, refused when a value going into a
 * header has the form of a credential. Pure; the proxy's era link and the probe gate both use it.
 */

import { Buffer } from "node:buffer";
import { isHeaderType, isHttpToken, type McpHeaderSite, mcpHeaderSites } from "../lint/mcp-header.js";
import { isObject, own } from "../lint/json.js";
import { holdsTokenShape } from "../text/redact.js";

/** The prefix of every header that carries an argument. */
export const PARAM_HEADER_PREFIX = "Mcp-Param-";

/** One declaration: the header's name (after the prefix) and the argument's place in `arguments`. */
export interface ParamHeader {
  name: string;
  argument: string[];
}

/**
 * Why a tool's declarations are invalid: declared off the chain of `properties` from the root, not
 * an HTTP token, on a parameter that is not a string, integer or boolean, or the same name twice
 * (letter case aside): the constraints the revision makes a client refuse a tool for, and no more.
 */
export type InvalidDeclaration = "unreachable" | "not_token" | "not_primitive" | "duplicate";

/** Why a tool's declarations are invalid, as words after "its x-mcp-header". */
export const INVALID_DECLARATION_TEXT: Readonly<Record<InvalidDeclaration, string>> = {
  unreachable: "is not on a parameter reached from the root through properties alone",
  not_token: "is not a header name (a non-empty RFC 9110 token)",
  not_primitive: "is on a parameter that is not a string, integer or boolean",
  duplicate: "repeats another declaration's name (letter case aside)",
};

/** A tool's declarations, or the first reason they are invalid (with the header named, when it is text). */
export type HeaderScan = { valid: true; headers: ParamHeader[] } | { valid: false; why: InvalidDeclaration; header: string | null };

/** The declarations of a tool's input schema, checked as a client of the revision must before calling it. */
export function scanParamHeaders(inputSchema: unknown): HeaderScan {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  for (const site of mcpHeaderSites(inputSchema)) {
    const header = typeof site.value === "string" ? site.value : null;
    const why = invalidWhy(site, seen);
    if (why !== null) return { valid: false, why, header };
    seen.add((header as string).toLowerCase());
    headers.push({ name: header as string, argument: argumentPath(site.path) });
  }
  return { valid: true, headers };
}

function invalidWhy(site: McpHeaderSite, seen: ReadonlySet<string>): InvalidDeclaration | null {
  if (!site.reachable) return "unreachable";
  if (!isHttpToken(site.value)) return "not_token";
  if (!isHeaderType(site.node)) return "not_primitive";
  if (seen.has(site.value.toLowerCase())) return "duplicate";
  return null;
}

/** `/properties/a/properties/b~1c` as the keys `a`, `b/c`. */
function argumentPath(pointer: string): string[] {
  const tokens = pointer.split("/").slice(1);
  const keys: string[] = [];
  for (let at = 1; at < tokens.length; at += 2) keys.push((tokens[at] as string).replaceAll("~1", "/").replaceAll("~0", "~"));
  return keys;
}

/**
 * An argument as the text of its header, or null when no header is sent: null or absent, not a
 * primitive, or a number a header cannot carry exactly (not finite, an integer past 2^53).
 */
export function headerText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) return null;
    return String(value);
  }
  return null;
}

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";

/**
 * Text as a header value: as it is when it is plain printable ASCII, not empty, with no space at
 * either end and not already shaped like the sentinel; otherwise `=?base64?<base64 of UTF-8>?=`.
 */
export function encodeHeaderValue(text: string): string {
  const plain = text !== "" && /^[\x20-\x7e]*$/.test(text) && text.trim() === text && !(text.startsWith(SENTINEL_PREFIX) && text.endsWith(SENTINEL_SUFFIX));
  return plain ? text : `${SENTINEL_PREFIX}${Buffer.from(text, "utf8").toString("base64")}${SENTINEL_SUFFIX}`;
}

/** The value at `path` in the call's arguments, by own keys only. */
function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = own(node, key);
  }
  return node;
}

/** How calls carry `Mcp-Param-*` headers (a 2026-07-28 session over Streamable HTTP): the proxy's link and the probe gate alike. */
export interface ParamHeaderPolicy {
  /** Whether a value bound for a header is a secret this run holds (a well-known token form is refused anyway). */
  knownSecret: (text: string) => boolean;
}

/** The policy of a run whose secrets the redactor knows (a `--header-env` value, a login's token): a value it would redact is one. */
export function headerPolicy(redactor: { text(value: string): string }): ParamHeaderPolicy {
  return { knownSecret: (text) => redactor.text(text) !== text };
}

/** A call's headers, or the declaration whose value was refused. */
export type CallHeaders = { headers: Record<string, string> } | { refused: ParamHeader };

/**
 * The `Mcp-Param-*` headers of one call. A header is seen by every proxy and log on the way, so a
 * value that holds a well-known token, or a secret `knownSecret` recognises (one this run was
 * given), refuses the whole call before anything is sent. Never a guess from length or randomness.
 */
export function callHeaders(declared: readonly ParamHeader[], args: unknown, knownSecret: (text: string) => boolean = () => false): CallHeaders {
  const headers: Record<string, string> = {};
  for (const declaration of declared) {
    const text = headerText(argumentAt(args, declaration.argument));
    if (text === null) continue;
    if (holdsTokenShape(text) || knownSecret(text)) return { refused: declaration };
    headers[`${PARAM_HEADER_PREFIX}${declaration.name}`] = encodeHeaderValue(text);
  }
  return { headers };
}
