/** RFC 8785 vectors, number formatting, and the lockfile text form. */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalSha256, canonicalize, stringifyLockText } from "../../../src/json/canonical.js";

const JCS_DIR = new URL("../../fixtures/json/jcs/", import.meta.url);
const vectorNames = readdirSync(new URL("input/", JCS_DIR))
  .filter((name) => name.endsWith(".json"))
  .sort();

/** The double whose IEEE-754 bit pattern is `hex` (16 hex digits), as in RFC 8785 Appendix B. */
function fromIeeeHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("JCS test vectors (test/fixtures/json/jcs)", () => {
  it("has the vectors", () => {
    expect(vectorNames.length).toBeGreaterThanOrEqual(15);
  });

  it.each(vectorNames)("%s", (name) => {
    const input = readFileSync(new URL(`input/${name}`, JCS_DIR), "utf8");
    const expected = readFileSync(new URL(`output/${name}`, JCS_DIR));
    const value: unknown = JSON.parse(input);
    const canonical = canonicalize(value);
    expect(Buffer.from(canonical, "utf8").equals(expected)).toBe(true);
    expect(canonical).toBe(expected.toString("utf8"));
    expect(canonicalSha256(value)).toBe(createHash("sha256").update(expected).digest("hex"));
    // Canonical text is a fixed point.
    expect(canonicalize(JSON.parse(canonical))).toBe(canonical);
  });
});

describe("RFC 8785 Appendix B number serialization", () => {
  const table: [string, string][] = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];

  it.each(table)("0x%s -> %s", (hex, expected) => {
    expect(canonicalize(fromIeeeHex(hex))).toBe(expected);
    expect(canonicalize([fromIeeeHex(hex)])).toBe(`[${expected}]`);
  });

  it.each(["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])("0x%s (NaN/Infinity) is rejected", (hex) => {
    expect(() => canonicalize(fromIeeeHex(hex))).toThrow(TypeError);
    expect(() => canonicalSha256({ a: [fromIeeeHex(hex)] })).toThrow(/non-finite/);
  });
});

describe("canonicalize", () => {
  it("sorts keys by UTF-16 code units, not code points or locale", () => {
    // U+1F600 is 0xD83D 0xDE00 in UTF-16, so it sorts before U+E000 (code point order would differ).
    expect(canonicalize({ "\ue000": 1, "\u{1f600}": 2, "\u00e9": 3, e: 4, E: 5 })).toBe('{"E":5,"e":4,"\u00e9":3,"\u{1f600}":2,"\ue000":1}');
  });

  it("writes an own __proto__ key like any other key", () => {
    const value: unknown = JSON.parse('{"z":1,"__proto__":{"polluted":true}}');
    expect(canonicalize(value)).toBe('{"__proto__":{"polluted":true},"z":1}');
    const bare = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(bare, "__proto__", { value: [1], enumerable: true });
    expect(canonicalize(bare)).toBe('{"__proto__":[1]}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("skips undefined properties and writes undefined array items as null, like JSON.stringify", () => {
    const value = { a: undefined, b: [undefined, 1], c: { d: undefined } };
    expect(canonicalize(value)).toBe('{"b":[null,1],"c":{}}');
    expect(stringifyLockText(value)).toBe('{\n  "b": [\n    null,\n    1\n  ],\n  "c": {}\n}\n');
  });

  it("keeps JSON.stringify's escape for lone surrogates (RFC 8785 would reject them)", () => {
    const value: unknown = JSON.parse('["\\ud800", "a\\udfffb", "\\ud83d\\ude00"]');
    expect(canonicalize(value)).toBe('["\\ud800","a\\udfffb","\u{1f600}"]');
    // The bytes hashed are well-formed UTF-8, so the hash is stable.
    expect(canonicalSha256(value)).toBe(createHash("sha256").update(Buffer.from('["\\ud800","a\\udfffb","\u{1f600}"]', "utf8")).digest("hex"));
  });

  it("rejects values that are not JSON", () => {
    expect(() => canonicalize(undefined)).toThrow(TypeError);
    expect(() => canonicalize({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalize(1n)).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalize(cycle)).toThrow(/cyclic/);
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { x: 1 };
    expect(canonicalize([shared, { shared }])).toBe('[{"x":1},{"shared":{"x":1}}]');
  });

  it("handles deep nesting without a stack overflow", () => {
    for (const depth of [1_000, 100_000]) {
      const text = `${'{"a":['.repeat(depth)}0${"]}".repeat(depth)}`;
      const value: unknown = JSON.parse(text);
      expect(canonicalize(value)).toBe(text);
      expect(canonicalSha256(value)).toMatch(/^[0-9a-f]{64}$/);
    }
    // Pretty text grows with the square of the depth (indentation), so only 1,000 levels here.
    const text = `${"[".repeat(1_000)}${"]".repeat(1_000)}`;
    expect(JSON.parse(stringifyLockText(JSON.parse(text)))).toEqual(JSON.parse(text));
  });

  it("produces lowercase hex SHA-256 of the canonical UTF-8 bytes", () => {
    expect(canonicalSha256({ b: "\u00e9", a: 1 })).toBe(createHash("sha256").update('{"a":1,"b":"\u00e9"}', "utf8").digest("hex"));
  });

  it("handles large outputs (chunked building) identically to JSON.stringify for sorted input", () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ a: i, b: `item ${i} \u00e9`, c: [i, null, true] }));
    expect(canonicalize(items)).toBe(JSON.stringify(items));
    expect(stringifyLockText(items)).toBe(`${JSON.stringify(items, null, 2).replace(/\u00e9/g, "\\u00e9")}\n`);
  });
});

describe("stringifyLockText", () => {
  it("pretty-prints with sorted keys, 2-space indent, ASCII escapes and a trailing newline", () => {
    const value: unknown = JSON.parse(
      '{"name":"caf\\u00e9 \\ud83d\\ude00","del":"\\u007f","empty":{},"list":[],"n":[1e21,-0,0.5],"ctl":"\\u0001\\n","zw":"\\u200b"}',
    );
    expect(stringifyLockText(value)).toBe(
      [
        "{",
        '  "ctl": "\\u0001\\n",',
        '  "del": "\\u007f",',
        '  "empty": {},',
        '  "list": [],',
        '  "n": [',
        "    1e+21,",
        "    0,",
        "    0.5",
        "  ],",
        '  "name": "caf\\u00e9 \\ud83d\\ude00",',
        '  "zw": "\\u200b"',
        "}",
        "",
      ].join("\n"),
    );
  });

  it("escapes non-ASCII keys too", () => {
    expect(stringifyLockText({ "\u0430": 1 })).toBe('{\n  "\\u0430": 1\n}\n');
  });

  it("is the same for inputs that differ only in key order or formatting", () => {
    const a = JSON.parse('{"b":{"y":[1,2],"x":"\u00e9"},"a":true}') as unknown;
    const b = JSON.parse('{ "a" : true ,\n "b" : { "x" : "\\u00e9" , "y" : [ 1 , 2.0 ] } }') as unknown;
    expect(stringifyLockText(a)).toBe(stringifyLockText(b));
    expect(canonicalSha256(a)).toBe(canonicalSha256(b));
  });

  it("writes scalars at top level", () => {
    expect(stringifyLockText("\u00e9")).toBe('"\\u00e9"\n');
    expect(stringifyLockText(null)).toBe("null\n");
  });
});
