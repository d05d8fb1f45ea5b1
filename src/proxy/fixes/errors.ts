/** The errors fix (seed 003): a tool result that reports an error as a success gets `isError: true`. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../../lock/snapshot.js";

/**
 * Longest result text judged: an error message is short, and a long text that happens to start
 * with "Error:" (a log file, say) is more likely data than a failure.
 */
const MAX_ERROR_CHARS = 4000;

// Each pattern reads the start of the first line only (anchored, bounded), so any length is cheap.
const ERROR_STARTS: readonly RegExp[] = [
  /^(?:error|fatal|exception|failure|failed)\s*[:!\-—]/i,
  /^[A-Za-z_][\w.]{0,80}(?:Error|Exception)\s*:/,
  /^traceback \(most recent call last\)/i,
  /^an? (?:unexpected |unknown |internal )?error (?:has )?(?:occurred|happened)/i,
  /^error (?:executing|calling|running|while|when|in|during|reading|fetching|processing|getting)\b/i,
  /^(?:could not|cannot|can't|unable to|failed to) [\w\s'-]{0,60}(?:because|:)/i,
];
/** Keys a JSON error object may have besides `error`. */
const ERROR_OBJECT_KEYS = new Set(["error", "message", "code", "status", "details", "success", "ok"]);

/** Whether a result without `isError` reads as an error: its text starts like an error message, or is a JSON error object. */
export function looksLikeError(result: JsonObject): boolean {
  if (ownField(result, "isError") === true) return false;
  const content = ownField(result, "content");
  if (!Array.isArray(content) || content.length === 0) return false;
  const texts = content.filter((block: unknown): block is JsonObject => isJsonObject(block) && block.type === "text" && typeof block.text === "string");
  // Only a result made of text: an image or resource next to the text is real output.
  if (texts.length !== content.length) return false;
  const text = texts
    .map((block) => block.text as string)
    .join("\n")
    .trim();
  if (text === "" || text.length > MAX_ERROR_CHARS) return false;
  const firstLine = text.slice(0, text.indexOf("\n") < 0 ? text.length : text.indexOf("\n"));
  if (ERROR_STARTS.some((pattern) => pattern.test(firstLine))) return true;
  return isErrorObject(text);
}

function isErrorObject(text: string): boolean {
  if (!text.startsWith("{")) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isJsonObject(value)) return false;
  const keys = Object.keys(value);
  if (!keys.every((key) => ERROR_OBJECT_KEYS.has(key))) return false;
  const error = ownField(value, "error");
  const failed = ownField(value, "success") === false || ownField(value, "ok") === false;
  return (typeof error === "string" && error.trim() !== "") || isJsonObject(error) || (failed && typeof ownField(value, "message") === "string");
}

/** The result with `isError: true` when it reads as an error; otherwise the same object. */
export function flagErrorResult(result: JsonObject): JsonObject {
  return looksLikeError(result) ? { ...result, isError: true } : result;
}
