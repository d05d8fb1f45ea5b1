/** A `tools/call` answer as probing measures it: what the model reads, its estimated size (compact JSON, 4 characters a token) and content types, secrets redacted. Pure. */

import { redactJson, type Redactor } from "../text/redact.js";
import { maxDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { CHARS_PER_TOKEN } from "../lint/context.js";
import { compactJsonLength } from "../lint/json.js";
import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import { isBinaryBase64, isResourceBlob } from "./detect/binary.js";
import type { ProbeResponse } from "./types.js";

/** Estimated tokens of this many characters (4 per token, rounded up), as everywhere in mcp-lint. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * The characters a response estimate counts, as compact JSON (`JSON.stringify`, as for definitions).
 * A client hands the model one of two views of a `CallToolResult`, never both: the result without
 * its `structuredContent` (the content blocks, `isError`, `_meta` and any other member, as most
 * clients forward it) or the `structuredContent` alone (as Claude Code forwards it when present).
 * The larger view counts, so a server that mirrors its text in `structuredContent` is not charged
 * twice. `text` is the same measure with media left out: only text blocks and embedded text
 * resources stay in the content, and base64 of binary data in `structuredContent` counts as an
 * empty string, since images, audio, links and binary data are not text a page or a concise mode
 * could shorten. `text` is left at 0 when `withText` is false (an answer too deep to read).
 */
export function resultChars(result: unknown, withText = true): { all: number; text: number } {
  if (!isJsonObject(result)) {
    const chars = compactJsonLength(result);
    return { all: chars, text: withText ? chars : 0 };
  }
  const structured = ownField(result, "structuredContent");
  // fromEntries defines own data properties, so a `__proto__` member stays a member.
  const rest = Object.fromEntries(Object.entries(result).filter(([key]) => key !== "structuredContent"));
  const structuredChars = structured === undefined ? 0 : compactJsonLength(structured);
  const all = Math.max(compactJsonLength(rest), structuredChars);
  if (!withText) return { all, text: 0 };
  const content = ownField(result, "content");
  const textOnly = Array.isArray(content) ? { ...rest, content: content.filter((block) => blockText(block) !== null) } : rest;
  return { all, text: Math.max(compactJsonLength(textOnly), structured === undefined ? 0 : textJsonLength(structured)) };
}

/** Compact JSON length of a structured result with its binary strings empty; the plain length when the replacer cannot run. */
function textJsonLength(structured: unknown): number {
  try {
    return (JSON.stringify(structured, withoutBinary) ?? "").length;
  } catch {
    return compactJsonLength(structured);
  }
}

/** A JSON.stringify replacer that writes base64 of binary data (a resource's `blob`, an image's bytes) as an empty string. */
function withoutBinary(this: unknown, key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  return isBinaryBase64(value) || (isJsonObject(this) && isResourceBlob(this, key)) ? "" : value;
}

/**
 * Measure a result. Sizes come from the raw answer (`resultChars`); the text kept for rules and
 * reports (text blocks and embedded text resources, or the structuredContent's JSON when content is
 * empty) has every secret redacted first, so a preview cut later can never hold half of one.
 */
export function measureResult(result: unknown, redactor: Redactor): ProbeResponse {
  const object = isJsonObject(result) ? result : {};
  const isError = ownField(object, "isError") === true;
  if (maxDepth(result, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
    // Too deep to walk safely: only the size is known (compactJsonLength bounds its own walk).
    const chars = resultChars(result, false).all;
    return {
      text: "",
      chars,
      tokens: estimateTokens(chars),
      textTokens: 0,
      contentTypes: [],
      isError,
      structured: undefined,
      errorCode: null,
      tooDeep: true,
      contentEmpty: false,
    };
  }
  const content = ownField(object, "content");
  const blocks = Array.isArray(content) ? content : [];
  const texts: string[] = [];
  const types: string[] = [];
  for (const block of blocks) {
    const type = isJsonObject(block) && typeof block.type === "string" ? block.type : "unknown";
    if (!types.includes(type)) types.push(type);
    const text = blockText(block);
    if (text !== null) texts.push(text);
  }
  const rawStructured = ownField(object, "structuredContent");
  const structured = rawStructured === undefined ? undefined : redactJson(rawStructured, redactor);
  if (rawStructured !== undefined) types.push("structured");
  let text = texts.join("\n");
  const contentEmpty = blocks.length === 0;
  // Nothing in content: a client that forwards structuredContent shows the model its JSON.
  if (contentEmpty && rawStructured !== undefined) text = JSON.stringify(rawStructured) ?? "";
  const chars = resultChars(result);
  return {
    text: redactor.text(text),
    chars: chars.all,
    tokens: estimateTokens(chars.all),
    textTokens: estimateTokens(chars.text),
    contentTypes: types,
    isError,
    structured,
    errorCode: null,
    tooDeep: false,
    contentEmpty,
  };
}

/**
 * A JSON-RPC error answer (the SDK's McpError), measured like a result: its message is what the
 * model reads, and the estimate counts the error object (`code` and `message`) as compact JSON.
 */
export function measureProtocolError(code: number, message: string, redactor: Redactor): ProbeResponse {
  // The SDK prefixes "MCP error <code>: " to the server's message; the model is shown the server's words.
  const text = message.replace(/^MCP error -?\d+: /, "");
  const chars = compactJsonLength({ code, message: text });
  const tokens = estimateTokens(chars);
  return {
    text: redactor.text(text),
    chars,
    tokens,
    textTokens: tokens,
    contentTypes: [],
    isError: true,
    structured: undefined,
    errorCode: code,
    tooDeep: false,
    contentEmpty: false,
  };
}

/** The text of a text block or an embedded text resource; null for anything else. */
function blockText(block: unknown): string | null {
  if (!isJsonObject(block)) return null;
  if (block.type === "text" && typeof block.text === "string") return block.text;
  if (block.type === "resource" && isJsonObject(block.resource)) {
    const resource = block.resource as JsonObject;
    if (typeof resource.text === "string") return resource.text;
  }
  return null;
}
