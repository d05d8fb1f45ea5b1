/** Strict JSON reading: located syntax errors, duplicate keys, UTF-8, and deep nesting. */

import { describe, expect, it } from "vitest";
import { JsonInputError } from "../../../src/errors.js";
import { MAX_DEFINITION_DEPTH } from "../../../src/limits.js";
import { decodeUtf8Strict, depthOfParsed, maxDepth, parseJsonStrict, preloadJsonTools } from "../../../src/json/parse.js";

/** The message parseJsonStrict throws for `text`, asserting it is a JsonInputError. */
function failure(text: string): string {
  try {
    parseJsonStrict(text, "tools.json");
  } catch (error) {
    expect(error).toBeInstanceOf(JsonInputError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(text.slice(0, 80))} to be rejected`);
}

describe("parseJsonStrict: valid input", () => {
  it("returns what JSON.parse returns", () => {
    const text = '{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"n":[1.5e3,-0,null,true]}';
    expect(parseJsonStrict(text, "tools.json")).toEqual(JSON.parse(text));
  });

  it("accepts scalars and strips a leading BOM", () => {
    expect(parseJsonStrict(" 42 ", "x.json")).toBe(42);
    expect(parseJsonStrict('\ufeff{"x":1}', "x.json")).toEqual({ x: 1 });
  });

  it("keeps an own __proto__ key, as JSON.parse does, without touching the prototype", () => {
    const value = parseJsonStrict('{"__proto__":{"polluted":true},"a":1}', "x.json") as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("does not mistake equal keys in different objects for duplicates", () => {
    const text = '{"a":{"a":1,"b":{"a":2}},"b":[{"a":1},{"a":2}],"c":{"a":{"a":{"a":3}}}}';
    expect(parseJsonStrict(text, "x.json")).toEqual(JSON.parse(text));
  });

  it("does not count key-like text inside strings", () => {
    const text = '{"a":"\\"b\\": 1, \\"a\\":","k":["x\\\\", ":", "\\\\\\"y\\":"]}';
    expect(parseJsonStrict(text, "x.json")).toEqual(JSON.parse(text));
  });

  it("handles strings with millions of escapes (no regex backtracking limits)", () => {
    const text = `{"a":"${"\\n".repeat(5_000_000)}","b\\\\":["${'x\\"'.repeat(100_000)}"],"c":{"\\\\":1,"\\"":2}}`;
    const value = parseJsonStrict(text, "big.json") as { a: string; b: unknown; c: unknown };
    expect(value.a.length).toBe(5_000_000);
    expect(failure(`${text.slice(0, -2)},"\\u005c":3}}`)).toMatch(/duplicate key "\\\\" at line 1 column \d+;/);
  });

  it("accepts a 100,000-deep array (JSON.parse handles it; our walks are iterative)", () => {
    const depth = 100_000;
    const value = parseJsonStrict(`${"[".repeat(depth)}${"]".repeat(depth)}`, "deep.json");
    expect(maxDepth(value, MAX_DEFINITION_DEPTH)).toBe(MAX_DEFINITION_DEPTH + 1);
    const objects = parseJsonStrict(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, "deep.json");
    expect(maxDepth(objects, depth)).toBe(depth);
  });
});

describe("parseJsonStrict: invalid JSON", () => {
  it.each([
    ["", "tools.json: invalid JSON: the file is empty"],
    [" \n\t ", "tools.json: invalid JSON: the file is empty"],
    ['{\n  "a": 1\n  "b": 2\n}', "tools.json: invalid JSON at line 3 column 3: expected a comma or closing brace"],
    ["[1 2]", "tools.json: invalid JSON at line 1 column 4: expected a comma or closing bracket"],
    ['{"a":1,}', "tools.json: invalid JSON at line 1 column 7: trailing comma is not allowed"],
    ["[1,\n  ]", "tools.json: invalid JSON at line 1 column 3: trailing comma is not allowed"],
    ['{"a" 1}', "tools.json: invalid JSON at line 1 column 6: expected a colon after the property name"],
    ["{a:1}", 'tools.json: invalid JSON at line 1 column 2: unexpected "a"'],
    ["[NaN]", 'tools.json: invalid JSON at line 1 column 2: unexpected "NaN"'],
    ['{"a":\u00a01}', 'tools.json: invalid JSON at line 1 column 6: unexpected character "\\u00a0"'],
    ['{"a":01}', "tools.json: invalid JSON at line 1 column 6: invalid number (leading zeros are not allowed)"],
    ['{"a":1.}', "tools.json: invalid JSON at line 1 column 6: incomplete number"],
    ['{"a":"x\ty"}', "tools.json: invalid JSON at line 1 column 8: control character in string (it must be written as an escape)"],
    ['{"a":"ab\\x"}', "tools.json: invalid JSON at line 1 column 9: invalid escape sequence in string"],
    ['{"a":"\\u12"}', "tools.json: invalid JSON at line 1 column 7: invalid \\u escape (it needs four hex digits)"],
    ['{"a":1}x', 'tools.json: invalid JSON at line 1 column 8: unexpected "x"'],
    ['{"a":1 // note\n}', "tools.json: invalid JSON at line 1 column 8: comments are not allowed in JSON"],
    ['{"a":"abc', "tools.json: invalid JSON at line 1 column 6: unterminated string"],
    ["[1,2", "tools.json: invalid JSON at line 1 column 5: unexpected end of file; expected a closing bracket"],
    ['{"a":1', "tools.json: invalid JSON at line 1 column 7: unexpected end of file; expected a closing brace"],
    ['{"a":', "tools.json: invalid JSON at line 1 column 6: unexpected end of file; expected a value"],
    ['\ufeff{"a":}', "tools.json: invalid JSON at line 1 column 6: expected a value"],
  ])("%j", (text, message) => {
    expect(failure(text)).toBe(message);
  });

  it("counts \\r\\n and lone \\r as one line break", () => {
    expect(failure('{\r\n"a":1\r\n"b":2}')).toMatch(/at line 3 column 1:/);
    expect(failure('{\r"a":1\r"b":2}')).toMatch(/at line 3 column 1:/);
  });

  it("still gives a located JsonInputError (not a RangeError) for invalid input 100,000 deep", () => {
    const depth = 100_000;
    expect(failure("[".repeat(depth))).toBe(`tools.json: invalid JSON at line 1 column ${depth + 1}: unexpected end of file`);
    expect(failure(`${"[".repeat(depth)}1 2${"]".repeat(depth)}`)).toMatch(new RegExp(`^tools\\.json: invalid JSON at line 1 column ${depth + 3}: `));
    // Neither jsonc-parser (recursive) nor V8 (no position for this one) can place it: V8's words, no snippet.
    expect(failure(`${"[".repeat(depth)}x${"]".repeat(depth)}`)).toBe("tools.json: invalid JSON: unexpected token 'x'");
  });
});

describe("parseJsonStrict: duplicate keys", () => {
  it("rejects a duplicate at the top level", () => {
    expect(failure('{"name":"a",\n "description":"safe",\n "description":"evil"}')).toBe(
      'tools.json: duplicate key "description" at line 3 column 2; remove one copy',
    );
  });

  it("rejects a duplicate nested 10 deep", () => {
    const open = '{"x":'.repeat(10);
    const text = `${open}{"k":1,"j":2,"k":3}${"}".repeat(10)}`;
    expect(failure(text)).toBe(`tools.json: duplicate key "k" at line 1 column ${open.length + 14}; remove one copy`);
  });

  it("rejects a duplicate inside arrays of objects", () => {
    expect(failure('[{"a":1},[{"b":1},{"c":1,"c":2}]]')).toMatch(/duplicate key "c" at line 1 column 26;/);
  });

  it("rejects a duplicate __proto__", () => {
    expect(failure('{"__proto__":{},"__proto__":[]}')).toBe('tools.json: duplicate key "__proto__" at line 1 column 17; remove one copy');
  });

  it("treats keys that differ only in escape form as duplicates", () => {
    expect(failure('{"a":1,"\\u0061":2}')).toMatch(/^tools\.json: duplicate key "a" at line 1 column 8;/);
    expect(failure('{"\\/":1,"/":2}')).toMatch(/duplicate key "\/"/);
    expect(failure('{"\\ud83d\\ude00":1,"\u{1f600}":2}')).toMatch(/duplicate key "\\ud83d\\ude00"/);
  });

  it("shows invisible characters escaped and cuts long keys", () => {
    expect(failure('{"\u200bkey":1,"\u200bkey":2}')).toMatch(/duplicate key "\\u200bkey"/);
    expect(failure('{"a\\u0000":1,"a\\u0000":2}')).toMatch(/duplicate key "a\\u0000"/);
    const long = "k".repeat(100);
    expect(failure(`{"${long}":1,"${long}":2}`)).toBe(`tools.json: duplicate key "${"k".repeat(60)}"... at line 1 column 107; remove one copy`);
  });

  // The fast path counts colons after a closing quote; text built to miscount them must still be judged right.
  const str = (value: string): string => JSON.stringify(value);
  it("finds duplicates among strings full of quotes, colons and backslashes", () => {
    for (const value of ['x":1', 'x\\":', "\\", ":", ' : "', '\\\\":"', '":"a":"']) {
      expect(failure(`{"a":${str(value)},"a":2}`)).toMatch(/duplicate key "a" at line 1 column \d+;/);
      expect(failure(`{${str(value)}:1 , ${str(value)} : 2}`)).toMatch(/duplicate key/);
    }
    expect(failure('{"a" \n\t:\r\n 1,"a"\n:2}')).toMatch(/duplicate key "a" at line 3/);
  });

  it("accepts strings that look like keys to a colon count (a string that starts with a colon, an escaped quote before one)", () => {
    const values = [":x", " :y", 'q":z', '\\":', ":", ": ", ":::", '":"', "\\"];
    for (const text of [
      JSON.stringify(Object.fromEntries(values.map((value, i) => [`k${i}`, value]))),
      JSON.stringify(values),
      JSON.stringify({ [values[3] as string]: values }),
    ]) {
      expect(parseJsonStrict(text, "tools.json")).toEqual(JSON.parse(text));
    }
  });

  it("works the same after preloadJsonTools, as a live run loads the tokenizer (an import, not require)", async () => {
    await preloadJsonTools();
    expect(failure('{"a":1,"a":2}')).toMatch(/duplicate key "a" at line 1 column 8;/);
    expect(failure('{"a":1,}')).toMatch(/trailing comma/);
  });

  it("records the depth it measured, for callers that skip their own walk", () => {
    expect(depthOfParsed(parseJsonStrict('{"a":[{"b":{}}]}', "x"))).toBe(4);
    expect(depthOfParsed(parseJsonStrict("[]", "x"))).toBe(1);
    expect(depthOfParsed({ a: 1 })).toBeUndefined();
    expect(depthOfParsed(parseJsonStrict("3", "x"))).toBeUndefined();
  });

  it("finds a duplicate 50,000 levels deep without overflowing the stack", () => {
    const depth = 50_000;
    const open = '{"a":'.repeat(depth);
    expect(failure(`${open}{"x":1,"x":2}${"}".repeat(depth)}`)).toBe(`tools.json: duplicate key "x" at line 1 column ${open.length + 8}; remove one copy`);
  });
});

describe("decodeUtf8Strict", () => {
  const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
  const decodeFailure = (input: Uint8Array): string => {
    try {
      decodeUtf8Strict(input, "tools.json");
    } catch (error) {
      expect(error).toBeInstanceOf(JsonInputError);
      return (error as Error).message;
    }
    throw new Error("expected invalid UTF-8 to be rejected");
  };

  it("decodes UTF-8 and strips one leading BOM", () => {
    expect(decodeUtf8Strict(bytes(0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80), "x")).toBe("\u20ac\u{1f600}");
    expect(decodeUtf8Strict(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d), "x")).toBe("{}");
    expect(decodeUtf8Strict(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf), "x")).toBe("\ufeff");
    expect(decodeUtf8Strict(Buffer.from('{"a":"\u00e9"}', "utf8"), "x")).toBe('{"a":"\u00e9"}');
    expect(decodeUtf8Strict(bytes(), "x")).toBe("");
  });

  it.each([
    [[0x7b, 0xff, 0x7d], "tools.json: invalid UTF-8 at byte offset 1: byte 0xff cannot start a character; save the file as UTF-8"],
    [[0x41, 0x80], "tools.json: invalid UTF-8 at byte offset 1: byte 0x80 cannot start a character; save the file as UTF-8"],
    [[0x41, 0xc3], "tools.json: invalid UTF-8 at byte offset 1: byte 0xc3 starts a character cut off by the end of the file; save the file as UTF-8"],
    [[0x41, 0xc3, 0x28], "tools.json: invalid UTF-8 at byte offset 1: byte 0xc3 starts an invalid multi-byte sequence; save the file as UTF-8"],
    [[0xc0, 0x80], "tools.json: invalid UTF-8 at byte offset 0: byte 0xc0 cannot start a character; save the file as UTF-8"],
    [[0xe0, 0x80, 0x80], "tools.json: invalid UTF-8 at byte offset 0: byte 0xe0 starts an invalid multi-byte sequence; save the file as UTF-8"],
    [[0x20, 0xed, 0xa0, 0x80], "tools.json: invalid UTF-8 at byte offset 1: byte 0xed starts an invalid multi-byte sequence; save the file as UTF-8"],
    [[0xf4, 0x90, 0x80, 0x80], "tools.json: invalid UTF-8 at byte offset 0: byte 0xf4 starts an invalid multi-byte sequence; save the file as UTF-8"],
    [[0xf5, 0x80, 0x80, 0x80], "tools.json: invalid UTF-8 at byte offset 0: byte 0xf5 cannot start a character; save the file as UTF-8"],
  ])("rejects %j", (input, message) => {
    expect(decodeFailure(bytes(...input))).toBe(message);
  });

  it("names the offset of a bad byte deep in a large file", () => {
    const input = Buffer.concat([Buffer.from(`{"a":"${"\u00e9".repeat(5000)}`, "utf8"), bytes(0xfe), Buffer.from('"}')]);
    expect(decodeFailure(input)).toMatch(/at byte offset 10006: byte 0xfe /);
  });
});

describe("maxDepth", () => {
  it("counts object and array levels", () => {
    expect(maxDepth(1, 64)).toBe(0);
    expect(maxDepth(null, 64)).toBe(0);
    expect(maxDepth("deep", 64)).toBe(0);
    expect(maxDepth({}, 64)).toBe(1);
    expect(maxDepth([], 64)).toBe(1);
    expect(maxDepth({ a: [1, { b: {} }], c: 2 }, 64)).toBe(4);
    expect(maxDepth([[], [[[]]], {}], 64)).toBe(4);
  });

  it("stops early at limit + 1", () => {
    const value = JSON.parse(`${"[".repeat(64)}${"]".repeat(64)}`) as unknown;
    expect(maxDepth(value, 64)).toBe(64);
    expect(maxDepth(value, 63)).toBe(64);
    expect(maxDepth(value, 10)).toBe(11);
    expect(maxDepth(value, 0)).toBe(1);
  });

  it("counts levels through an own __proto__ key", () => {
    const value = JSON.parse('{"__proto__":{"__proto__":{}}}') as unknown;
    expect(maxDepth(value, 64)).toBe(3);
  });
});
