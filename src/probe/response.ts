/** A `tools/call` answer as probing measures it: what the model reads, its estimated size and content types, secrets redacted. Pure. */

import { redactJson, type Redactor } from "../text/redact.js";
import { maxDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { CHARS_PER_TOKEN } from "../lint/context.js";
import { compactJsonLength } from "../lint/json.js";
import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import type { ProbeResponse } from "./types.js";

/** Estimated tokens of this many characters (4 per token, rounded up), as everywhere in mcp-lint. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Measure a result. Sizes come from the raw answer: text blocks count their text, other blocks
 * (images, audio, links, binary resources) their compact JSON; a result with no content counts its
 * structuredContent. The text kept for rules and reports has every secret redacted first, so a
 * preview cut later can never hold half of one.
 */
export function measureResult(result: unknown, redactor: Redactor): ProbeResponse {
  const object = isJsonObject(result) ? result : {};
  const isError = ownField(object, "isError") === true;
  if (maxDepth(result, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
    // Too deep to walk safely: only the size is known.
    const chars = compactJsonLength(result);
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
  let chars = 0;
  for (const block of blocks) {
    const type = isJsonObject(block) && typeof block.type === "string" ? block.type : "unknown";
    if (!types.includes(type)) types.push(type);
    const text = blockText(block);
    if (text !== null) {
      texts.push(text);
      chars += text.length;
    } else {
      chars += compactJsonLength(block);
    }
  }
  const rawStructured = ownField(object, "structuredContent");
  const structured = rawStructured === undefined ? undefined : redactJson(rawStructured, redactor);
  if (rawStructured !== undefined) types.push("structured");
  let text = texts.join("\n");
  const contentEmpty = blocks.length === 0;
  if (contentEmpty && rawStructured !== undefined) {
    // Nothing in content: a client that forwards structuredContent shows the model its JSON.
    text = JSON.stringify(rawStructured) ?? "";
    chars = text.length;
  }
  return {
    text: redactor.text(text),
    chars,
    tokens: estimateTokens(chars),
    textTokens: estimateTokens(text.length),
    contentTypes: types,
    isError,
    structured,
    errorCode: null,
    tooDeep: false,
    contentEmpty,
  };
}

/** A JSON-RPC error answer (the SDK's McpError), measured like a result: its message is what the model reads. */
export function measureProtocolError(code: number, message: string, redactor: Redactor): ProbeResponse {
  // The SDK prefixes "MCP error <code>: " to the server's message; the model is shown the server's words.
  const text = message.replace(/^MCP error -?\d+: /, "");
  const tokens = estimateTokens(text.length);
  return {
    text: redactor.text(text),
    chars: text.length,
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
