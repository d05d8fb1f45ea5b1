/** Property tests: key order and formatting never change the hash; duplicate detection is exact. */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonInputError } from "../../../src/errors.js";
import { canonicalSha256, canonicalize, stringifyLockText } from "../../../src/json/canonical.js";
import { parseJsonStrict } from "../../../src/json/parse.js";

/** A JSON value as a tree with ordered entries, so one value can be written in many key orders. */
type JsonNode =
  | { readonly kind: "scalar"; readonly value: string | number | boolean | null }
  | { readonly kind: "array"; readonly items: readonly JsonNode[] }
  | { readonly kind: "object"; readonly entries: readonly (readonly [string, JsonNode])[] };

/** Single characters, biased toward the ones that matter: escapes, surrogates (paired and lone), DEL, invisibles. */
const character = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('"', "\\", "/", "\u0000", "\u001f", "\n", "\u007f", "\u2028", "\u200b", "\ufeff") },
  { weight: 1, arbitrary: fc.constantFrom("\ud83d", "\ude00", "\ud800", "\udfff", "\ue000", "\uffff") },
);
const text = fc.string({ unit: character, maxLength: 8 });
const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "hasOwnProperty", "", "a", "1", "10", "01", "-1", "\u00e9", "e\u0301"), text);
const scalar = fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));

const { node } = fc.letrec<{ node: JsonNode; array: JsonNode; object: JsonNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar.map((value): JsonNode => ({ kind: "scalar", value })),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("node"), { maxLength: 4 }).map((items): JsonNode => ({ kind: "array", items })),
  object: fc.uniqueArray(fc.tuple(key, tie("node")), { selector: ([name]) => name, maxLength: 6 }).map((entries): JsonNode => ({ kind: "object", entries })),
}));

/** Small deterministic PRNG (mulberry32), so each written variant is reproducible from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rng: () => number, options: readonly T[]): T {
  const chosen = options[Math.floor(rng() * options.length)];
  if (chosen === undefined) throw new Error("pick from an empty list");
  return chosen;
}

function shuffled<T>(rng: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** A JSON string literal for `value`, each code unit written raw or escaped at random (any hex case). */
function writeString(rng: () => number, value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ch = value.charAt(i);
    const mustEscape = c < 0x20 || ch === '"' || ch === "\\";
    const short = SHORT_ESCAPES[ch];
    if (!mustEscape && rng() < 0.7) {
      out += ch;
    } else if (short !== undefined && rng() < 0.5) {
      out += short;
    } else {
      const hex = c.toString(16).padStart(4, "0");
      out += `\\u${rng() < 0.5 ? hex : hex.toUpperCase()}`;
    }
  }
  return `${out}"`;
}

function writeNumber(rng: () => number, value: number): string {
  const choice = rng();
  if (choice < 0.5) return String(value);
  // toExponential() keeps enough digits to round-trip; JSON accepts "1.5e+2" and "-1e-7".
  if (choice < 0.8) return value.toExponential();
  return Number.isInteger(value) && Math.abs(value) < 1e15 ? `${String(value)}.000` : String(value);
}

const SPACE = ["", "", " ", "\n", "\t", "\r\n", "  "] as const;

/** JSON text for `tree` with shuffled keys, random whitespace and random escape forms. */
function writeText(rng: () => number, tree: JsonNode): string {
  const ws = (): string => pick(rng, SPACE);
  switch (tree.kind) {
    case "scalar": {
      const { value } = tree;
      if (typeof value === "string") return writeString(rng, value);
      if (typeof value === "number") return writeNumber(rng, value);
      return String(value);
    }
    case "array":
      return `[${ws()}${tree.items.map((item) => writeText(rng, item)).join(`${ws()},${ws()}`)}${ws()}]`;
    case "object":
      return `{${ws()}${shuffled(rng, tree.entries)
        .map(([name, value]) => `${writeString(rng, name)}${ws()}:${ws()}${writeText(rng, value)}`)
        .join(`${ws()},${ws()}`)}${ws()}}`;
  }
}

/** The same value built directly: null-prototype objects, keys defined in shuffled order. */
function build(rng: () => number, tree: JsonNode): unknown {
  switch (tree.kind) {
    case "scalar":
      return tree.value;
    case "array":
      return tree.items.map((item) => build(rng, item));
    case "object": {
      const object = Object.create(null) as Record<string, unknown>;
      for (const [name, value] of shuffled(rng, tree.entries)) {
        Object.defineProperty(object, name, { value: build(rng, value), enumerable: true, writable: true, configurable: true });
      }
      return object;
    }
  }
}

const seed = fc.integer({ min: 0, max: 0x7fffffff });

describe("canonical form properties", () => {
  it("canonicalSha256 and stringifyLockText ignore key order, whitespace and escape forms", () => {
    fc.assert(
      fc.property(node, seed, seed, (tree, seedA, seedB) => {
        const a = JSON.parse(writeText(random(seedA), tree)) as unknown;
        const b = JSON.parse(writeText(random(seedB), tree)) as unknown;
        const built = build(random(seedB ^ 0x5555), tree);
        const hash = canonicalSha256(a);
        expect(canonicalSha256(b)).toBe(hash);
        expect(canonicalSha256(built)).toBe(hash);
        expect(canonicalize(b)).toBe(canonicalize(a));
        expect(stringifyLockText(b)).toBe(stringifyLockText(a));
        expect(stringifyLockText(built)).toBe(stringifyLockText(a));
      }),
      { numRuns: 300 },
    );
  });

  it("stringifyLockText is pure ASCII and parses back to an equal value", () => {
    fc.assert(
      fc.property(node, seed, (tree, seedA) => {
        const value = JSON.parse(writeText(random(seedA), tree)) as unknown;
        const lock = stringifyLockText(value);
        expect(lock).toMatch(/^[\x20-\x7e\n]*\n$/);
        expect(JSON.parse(lock)).toEqual(value);
        expect(canonicalize(JSON.parse(lock))).toBe(canonicalize(value));
      }),
      { numRuns: 300 },
    );
  });

  it("canonical text parses back to an equal value and is a fixed point", () => {
    fc.assert(
      fc.property(node, seed, (tree, seedA) => {
        const value = JSON.parse(writeText(random(seedA), tree)) as unknown;
        const canonical = canonicalize(value);
        expect(JSON.parse(canonical)).toEqual(value);
        expect(canonicalize(JSON.parse(canonical))).toBe(canonical);
      }),
      { numRuns: 200 },
    );
  });
});

/** 0-based offset of a 1-based line/column, with \r\n, \r and \n as line breaks. */
function offsetOf(source: string, line: number, column: number): number {
  let currentLine = 1;
  let offset = 0;
  while (currentLine < line && offset < source.length) {
    const c = source.charCodeAt(offset);
    offset++;
    if (c === 0x0a || (c === 0x0d && source.charCodeAt(offset) !== 0x0a)) currentLine++;
  }
  return offset + column - 1;
}

describe("parseJsonStrict properties", () => {
  it("agrees with JSON.parse on any valid text without duplicate keys", () => {
    fc.assert(
      fc.property(node, seed, (tree, seedA) => {
        const source = writeText(random(seedA), tree);
        expect(parseJsonStrict(source, "t.json")).toEqual(JSON.parse(source));
      }),
      { numRuns: 300 },
    );
  });

  it("reports an injected duplicate key (any escape form, any nesting) at a string token holding that key", () => {
    const wrapper = fc.tuple(fc.constantFrom("array", "object"), node);
    const duplicated = fc
      .uniqueArray(fc.tuple(key, node), { selector: ([name]) => name, minLength: 1, maxLength: 5 })
      .chain((entries) => fc.tuple(fc.constant(entries), fc.nat({ max: entries.length - 1 }), node, fc.nat({ max: entries.length })));
    fc.assert(
      fc.property(duplicated, fc.array(wrapper, { maxLength: 6 }), seed, ([entries, which, extra, at], wrappers, seedA) => {
        const name = entries[which]?.[0] ?? "";
        const withDuplicate = [...entries];
        withDuplicate.splice(at, 0, [name, extra]);
        const rng = random(seedA);
        // Written in this order (no shuffle), so the duplicate is really in the text.
        let source = `{${withDuplicate.map(([entryName, value]) => `${writeString(rng, entryName)}:${writeText(rng, value)}`).join(pick(rng, [",", " ,\n"]))}}`;
        for (const [kind, sibling] of wrappers) {
          source = kind === "array" ? `[${writeText(rng, sibling)},${source}]` : `{"s":${writeText(rng, sibling)},\n"w":${source}}`;
        }
        let message = "";
        try {
          parseJsonStrict(source, "t.json");
        } catch (error) {
          expect(error).toBeInstanceOf(JsonInputError);
          message = (error as Error).message;
        }
        const match = /^t\.json: duplicate key .* at line (\d+) column (\d+); remove one copy$/.exec(message);
        expect(match, message).not.toBeNull();
        const offset = offsetOf(source, Number(match?.[1]), Number(match?.[2]));
        const token = /"(?:[^"\\]|\\.)*"/y;
        token.lastIndex = offset;
        const found = token.exec(source)?.[0];
        expect(found).toBeDefined();
        expect(JSON.parse(found ?? "null")).toBe(name);
      }),
      { numRuns: 300 },
    );
  });

  it("turns every JSON.parse failure of a mutated text into a located JsonInputError", () => {
    const mutation = fc.tuple(fc.nat(), fc.constantFrom("delete", "insert"), fc.constantFrom(",", ":", '"', "{", "}", "[", "]", "\\", "x", "0", " ", "\u0001"));
    fc.assert(
      fc.property(node, seed, mutation, (tree, seedA, [position, how, inserted]) => {
        const valid = writeText(random(seedA), tree);
        const at = valid.length === 0 ? 0 : position % valid.length;
        const source = how === "delete" ? valid.slice(0, at) + valid.slice(at + 1) : valid.slice(0, at) + inserted + valid.slice(at);
        let expected: unknown;
        let nativeFailed = false;
        try {
          expected = JSON.parse(source);
        } catch {
          nativeFailed = true;
        }
        let value: unknown;
        let thrown: unknown;
        let parsed = false;
        try {
          value = parseJsonStrict(source, "t.json");
          parsed = true;
        } catch (error) {
          thrown = error;
        }
        if (parsed) {
          expect(nativeFailed).toBe(false);
          expect(value).toEqual(expected);
          return;
        }
        expect(thrown).toBeInstanceOf(JsonInputError);
        const message = (thrown as Error).message;
        if (nativeFailed) {
          expect(message).toMatch(/^t\.json: invalid JSON(: the file is empty| at line \d+ column \d+: \S)/);
        } else {
          // A mutation can turn two keys into the same key, or join digits into a number past 1.8e308.
          expect(message).toMatch(/^t\.json: (duplicate key |number out of range at line \d+ column \d+)/);
        }
      }),
      { numRuns: 500 },
    );
  });
});
