/** JSON value helpers that tolerate hostile parsed input: own-key reads, canonical text, string collection. */

import { escapePointer, isJsonObject, ownField } from "../json/value.js";

/** A parsed JSON object; read it only through `own` so `__proto__` and friends stay plain keys. */
export type JsonObject = { readonly [key: string]: unknown };

/** An empty schema object, shared so `true` can be compared as `{}`. */
export const EMPTY_OBJECT: JsonObject = Object.freeze({});

/** True for a plain JSON object (not an array, not null). */
export const isObject: (value: unknown) => value is JsonObject = isJsonObject;

/** True for a value that can stand where a schema is expected: an object or a boolean. */
export function isSchema(value: unknown): value is JsonObject | boolean {
  return typeof value === "boolean" || isObject(value);
}

/** True for `true`, `{}`, or a missing schema: all accept every instance and carry nothing. */
export function isEmptySchema(value: unknown): boolean {
  return value === true || value === undefined || (isObject(value) && Object.keys(value).length === 0);
}

/** The value of an own key, or undefined; never reads the prototype chain. */
export const own: (object: JsonObject, key: string) => unknown = ownField;

/** True for a finite number. */
export function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

type Frame = { readonly raw: string } | { readonly value: unknown };

const STRING_MASK = '"\\u0000"';

/**
 * Key-order-insensitive JSON text of a value, built with an explicit stack so hostile nesting cannot
 * overflow the call stack. With `maskStrings`, every string becomes the same token, which leaves only
 * the non-string shape to compare.
 */
export function canonical(value: unknown, maskStrings = false): string {
  const out: string[] = [];
  const stack: Frame[] = [{ value }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if ("raw" in frame) {
      out.push(frame.raw);
      continue;
    }
    const v = frame.value;
    if (typeof v === "string") {
      out.push(maskStrings ? STRING_MASK : JSON.stringify(v));
    } else if (typeof v === "number") {
      out.push(Number.isFinite(v) ? JSON.stringify(v) : "null");
    } else if (typeof v === "boolean") {
      out.push(v ? "true" : "false");
    } else if (typeof v === "bigint") {
      out.push(`${v.toString()}n`);
    } else if (Array.isArray(v)) {
      out.push("[");
      stack.push({ raw: "]" });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ value: v[i] });
        if (i > 0) stack.push({ raw: "," });
      }
    } else if (isObject(v)) {
      out.push("{");
      stack.push({ raw: "}" });
      const keys = Object.keys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] ?? "";
        stack.push({ value: v[key] });
        stack.push({ raw: `${JSON.stringify(key)}:` });
        if (i > 0) stack.push({ raw: "," });
      }
    } else {
      out.push("null");
    }
  }
  return out.join("");
}

/**
 * Deep equality that ignores object key order. Built on the canonical text, which uses an explicit
 * stack, so a value nested 100,000 deep (under a key no schema walk bounds) cannot overflow.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return canonical(a) === canonical(b);
}

/** Every string inside a value with the JSON Pointer where it sits, in a canonical order, as one key. */
export function stringsKey(value: unknown): string {
  const found: string[] = [];
  const stack: Array<{ value: unknown; at: string }> = [{ value, at: "" }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const v = item.value;
    if (typeof v === "string") {
      found.push(`${item.at}\u0000${v}`);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], at: `${item.at}/${i}` });
    } else if (isObject(v)) {
      for (const key of Object.keys(v)) stack.push({ value: v[key], at: `${item.at}/${escapePointer(key)}` });
    }
  }
  return found.sort().join("\u0001");
}

/**
 * True when `after` holds a string or an object key (at its JSON Pointer) that `before` does not:
 * words a model reads that are new. A JSON type name under `type` is vocabulary, not words.
 */
export function hasNewWords(before: unknown, after: unknown): boolean {
  const known = new Set<string>();
  walkWords(before, (word) => {
    known.add(word);
    return false;
  });
  return walkWords(after, (word) => !known.has(word) && !TYPE_WORD.test(word));
}

/** A string that is a JSON type name, at `type` or `type/<n>`. */
const TYPE_WORD = /\/type(?:\/\d+)?\u0000(?:string|number|integer|boolean|object|array|null)$/;

/** Visits every string and key with its pointer (explicit stack, no recursion) until `stop` says so. */
function walkWords(value: unknown, stop: (word: string) => boolean): boolean {
  const stack: Array<{ value: unknown; at: string }> = [{ value, at: "" }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const v = item.value;
    if (typeof v === "string") {
      if (stop(`${item.at}\u0000${v}`)) return true;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ value: v[i], at: `${item.at}/${i}` });
    } else if (isObject(v)) {
      for (const key of Object.keys(v)) {
        const at = `${item.at}/${escapePointer(key)}`;
        if (stop(at)) return true;
        stack.push({ value: v[key], at });
      }
    }
  }
  return false;
}

/** True when a value holds anything besides strings, arrays and objects (a number, boolean or null). */
export function hasNonString(value: unknown): boolean {
  return someLeaf(value, (leaf) => typeof leaf !== "string");
}

/** True when a value is or contains a string. */
export function hasString(value: unknown): boolean {
  return someLeaf(value, (leaf) => typeof leaf === "string");
}

/** Walks a value with an explicit stack (no recursion) and tests each non-container leaf. */
function someLeaf(value: unknown, test: (leaf: unknown) => boolean): boolean {
  if (value === undefined) return false;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (isObject(v)) {
      for (const key of Object.keys(v)) stack.push(v[key]);
    } else if (test(v)) {
      return true;
    }
  }
  return false;
}

/** True when any object inside a value has one of the keys with a non-empty value (a cheap, schema-unaware scan). */
export function mentionsAny(value: unknown, keys: ReadonlySet<string>): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (isObject(v)) {
      for (const key of Object.keys(v)) {
        if (keys.has(key) && !isEmptySchema(v[key])) return true;
        stack.push(v[key]);
      }
    }
  }
  return false;
}

export { childPath, escapePointer, unescapePointer } from "../json/value.js";
