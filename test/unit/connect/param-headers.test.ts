// The Mcp-Param-* headers of MCP 2026-07-28 over Streamable HTTP, as the proxy and the probe runner
// build them: which declarations are valid, how a value is written into a header, and which values
// are never sent.
import { describe, expect, it } from "vitest";
import { callHeaders, encodeHeaderValue, headerText, type ParamHeader, scanParamHeaders } from "../../../src/connect/param-headers.js";
import { holdsTokenShape } from "../../../src/text/redact.js";

const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const header = (name: string, type = "string") => ({ type, "x-mcp-header": name });
const decode = (value: string) => Buffer.from(value.slice("=?base64?".length, -"?=".length), "base64").toString("utf8");

describe("scanParamHeaders", () => {
  it("finds declarations at any depth of properties, with the argument's keys", () => {
    const schema = object({ region: header("Region"), where: object({ "a/b": header("Zone", "integer") }), plain: { type: "string" } });
    expect(scanParamHeaders(schema)).toEqual({
      valid: true,
      headers: [
        { name: "Region", argument: ["region"] },
        { name: "Zone", argument: ["where", "a/b"] },
      ],
    });
    expect(scanParamHeaders(object({ q: { type: "string" } }))).toEqual({ valid: true, headers: [] });
    expect(scanParamHeaders(undefined)).toEqual({ valid: true, headers: [] });
  });

  it.each([
    ["a header name that is not a token", object({ q: header("a b") }), "not_token", "a b"],
    ["an empty header name", object({ q: header("") }), "not_token", ""],
    ["a header name that is not text", object({ q: { type: "string", "x-mcp-header": 7 } }), "not_token", null],
    ["a header name with a line break", object({ q: header("X\r\nInjected: 1") }), "not_token", "X\r\nInjected: 1"],
    ["two names differing only in case", object({ a: header("Zone"), b: header("zONE") }), "duplicate", "zONE"],
    ["a declaration under items", object({ tags: { type: "array", items: header("Tag") } }), "unreachable", "Tag"],
    ["a declaration under anyOf", { type: "object", anyOf: [object({ q: header("Q") })] }, "unreachable", "Q"],
    ["a declaration on the root", { type: "object", "x-mcp-header": "Root" }, "unreachable", "Root"],
    ["a declaration reached through $ref", { type: "object", properties: { q: { $ref: "#/$defs/q" } }, $defs: { q: header("Q") } }, "unreachable", "Q"],
    ["an object parameter", object({ filter: header("Filter", "object") }), "not_primitive", "Filter"],
    ["a number parameter", object({ price: header("Price", "number") }), "not_primitive", "Price"],
    ["a parameter without a type", object({ any: { "x-mcp-header": "Any" } }), "not_primitive", "Any"],
  ])("refuses %s", (_name, schema, why, name) => {
    expect(scanParamHeaders(schema)).toEqual({ valid: false, why, header: name });
  });

  it("takes a name that reads like another header's as the revision does: it travels as Mcp-Param-<name>, never as that header", () => {
    for (const name of ["Authorization", "cookie", "Mcp-Method"]) {
      expect(scanParamHeaders(object({ key: header(name) }))).toEqual({ valid: true, headers: [{ name, argument: ["key"] }] });
    }
  });

  it("takes a nullable primitive as the lint does (one type plus null)", () => {
    expect(scanParamHeaders(object({ q: { type: ["string", "null"], "x-mcp-header": "Q" } }))).toMatchObject({ valid: true });
  });
});

describe("headerText", () => {
  it.each([
    ["a string", "eu-west", "eu-west"],
    ["an empty string", "", ""],
    ["an integer", 42, "42"],
    ["a negative fraction", -1.5, "-1.5"],
    ["true", true, "true"],
    ["false", false, "false"],
  ])("writes %s", (_name, value, text) => {
    expect(headerText(value)).toBe(text);
  });

  it.each([
    ["null", null],
    ["absent", undefined],
    ["an integer past 2^53", 2 ** 53 + 2],
    ["infinity", Number.POSITIVE_INFINITY],
    ["NaN", Number.NaN],
    ["an object", { a: 1 }],
    ["an array", ["a"]],
  ])("sends no header for %s", (_name, value) => {
    expect(headerText(value)).toBeNull();
  });
});

describe("encodeHeaderValue", () => {
  it("passes plain printable ASCII as it is", () => {
    expect(encodeHeaderValue("eu-west 1 (main)")).toBe("eu-west 1 (main)");
    expect(encodeHeaderValue("42")).toBe("42");
  });

  it.each([
    ["empty", ""],
    ["a leading space", " eu"],
    ["a trailing space", "eu "],
    ["non-ASCII", "Zürich"],
    ["an emoji", "🌍"],
    ["a line break (header injection)", "eu\r\nX-Injected: 1"],
    ["a tab", "a\tb"],
    ["a DEL", "a\u007f"],
    ["the sentinel's own shape", "=?base64?ZXU=?="],
  ])("writes %s as the base64 sentinel of its UTF-8", (_name, text) => {
    const value = encodeHeaderValue(text);
    expect(value).toMatch(/^=\?base64\?[A-Za-z0-9+/]*={0,2}\?=$/);
    expect(decode(value)).toBe(text);
  });

  it("leaves text that only starts like the sentinel alone", () => {
    expect(encodeHeaderValue("=?base64?abc")).toBe("=?base64?abc");
  });
});

describe("callHeaders", () => {
  const declared: ParamHeader[] = [
    { name: "Region", argument: ["region"] },
    { name: "Limit", argument: ["page", "limit"] },
    { name: "Exact", argument: ["exact"] },
  ];

  it("builds one header per declared argument present, and omits null and absent ones", () => {
    expect(callHeaders(declared, { region: "Zürich", page: { limit: 10 }, exact: false })).toEqual({
      headers: { "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`, "Mcp-Param-Limit": "10", "Mcp-Param-Exact": "false" },
    });
    expect(callHeaders(declared, { region: null, page: {} })).toEqual({ headers: {} });
    expect(callHeaders(declared, undefined)).toEqual({ headers: {} });
    expect(callHeaders(declared, { page: 3 })).toEqual({ headers: {} });
  });

  it("reads own keys only", () => {
    const args = JSON.parse('{"__proto__": {"limit": 5}}');
    expect(callHeaders([{ name: "Limit", argument: ["__proto__", "limit"] }], args)).toEqual({ headers: { "Mcp-Param-Limit": "5" } });
    expect(callHeaders([{ name: "Limit", argument: ["constructor", "name"] }], {})).toEqual({ headers: {} });
  });

  it.each([
    ["a GitHub token", "ghp_0123456789abcdefghijKLMNOPQRSTuvwx"],
    ["a bearer value", "Bearer github_pat_11ABCDEFG0123456789_abcdefghijklmnop"],
    ["an OpenAI-style key inside a query string", "?key=sk-proj-0123456789abcdefABCDEF&x=1"],
    ["an AWS access key", "AKIAIOSFODNN7EXAMPLE"],
    ["a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"],
    ["a Slack token", "xoxb-123456789012-abcdefABCDEF"],
  ])("refuses the call when the value has the form of %s", (_name, secret) => {
    expect(callHeaders(declared, { region: "eu", exact: secret })).toEqual({ refused: { name: "Exact", argument: ["exact"] } });
  });

  it("refuses a value the run knows as a secret, and passes ordinary text that merely looks random", () => {
    const known = (text: string) => text.includes("hunter2-long-passphrase");
    expect(callHeaders(declared, { region: "my hunter2-long-passphrase" }, known)).toEqual({ refused: declared[0] });
    // No entropy guess: a long random-looking id or a word with "sk-" inside is not a credential by its form.
    for (const value of ["3f9a7c2e-41b8-4d0e-9a6f-0c1d2e3f4a5b", "task-scheduler-abcdefghijklmnop", "Qm9vayBjbHViIG5vdGVz"]) {
      expect(callHeaders(declared, { region: value }, known)).toEqual({ headers: { "Mcp-Param-Region": value } });
    }
  });

  it("finds a token shape in a very long value in linear time (no backtracking blow-up)", () => {
    const long = `${"eyJ".repeat(200_000)} ghp_0123456789abcdefghijKLMNOPQRSTuvwx`;
    expect(holdsTokenShape(long)).toBe(true);
    expect(holdsTokenShape("eyJ".repeat(200_000))).toBe(false);
  });
});
