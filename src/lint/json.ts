/** JSON helpers for the linter that tolerate hostile parsed input: own-key reads, pointers, bounded walks. */

import { MAX_DEFINITION_DEPTH } from "../limits.js";

/** A parsed JSON object; read it only through `own` so `__proto__` and friends stay plain keys. */
export type JsonObject = { readonly [key: string]: unknown };

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value of an own key, or undefined; never reads the prototype chain. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** One JSON Pointer reference token, escaped (`~` as `~0`, `/` as `~1`). */
export function pointerToken(key: string | number): string {
  const text = String(key);
  return text.includes("~") || text.includes("/") ? text.replaceAll("~", "~0").replaceAll("/", "~1") : text;
}

/** A pointer one step below `parent`. */
export function childPointer(parent: string, key: string | number): string {
  return `${parent}/${pointerToken(key)}`;
}

/** The string when it holds more than whitespace, or null. */
export function nonEmptyString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * Length of `JSON.stringify(value)`. When the native serializer cannot produce it, a walk with an
 * explicit stack estimates it: nodes deeper than the definition limit, and any object met again on
 * the current path (impossible in parsed JSON), count as `null`.
 */
export function compactJsonLength(value: unknown): number {
  try {
    // The native serializer is much faster; it throws on a cycle (and, rarely, on extreme depth).
    const text = JSON.stringify(value);
    if (text !== undefined) return text.length;
  } catch {
    // fall through to the bounded walk
  }
  let total = 0;
  const stack: { value: unknown; depth: number; leave?: object }[] = [{ value, depth: 1 }];
  const onPath = new Set<object>();
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if (frame.leave !== undefined) {
      onPath.delete(frame.leave);
      continue;
    }
    const item = frame.value;
    if (typeof item === "string") {
      total += stringJsonLength(item);
    } else if (typeof item === "number") {
      total += Number.isFinite(item) ? String(item).length : 4;
    } else if (typeof item === "boolean") {
      total += item ? 4 : 5;
    } else if (typeof item !== "object" || item === null || frame.depth > MAX_DEFINITION_DEPTH || onPath.has(item)) {
      total += 4;
    } else if (Array.isArray(item)) {
      onPath.add(item);
      stack.push({ value: null, depth: 0, leave: item });
      total += 2 + Math.max(0, item.length - 1);
      for (const child of item as unknown[]) stack.push({ value: child === undefined ? null : child, depth: frame.depth + 1 });
    } else {
      onPath.add(item);
      stack.push({ value: null, depth: 0, leave: item });
      const record = item as JsonObject;
      const keys = Object.keys(record).filter((key) => record[key] !== undefined);
      total += 2 + Math.max(0, keys.length - 1);
      for (const key of keys) {
        total += stringJsonLength(key) + 1;
        stack.push({ value: record[key], depth: frame.depth + 1 });
      }
    }
  }
  return total;
}

const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** Length of a string as JSON text, quotes included. */
function stringJsonLength(text: string): number {
  // The common case, nothing to escape, skips building the escaped copy.
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).length : text.length + 2;
}
