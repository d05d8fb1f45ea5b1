import { describe, expect, it } from "vitest";
import { UsageError } from "../../../src/errors.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import {
  fixCallResult,
  fixListResult,
  looksLikeError,
  NO_FIXES,
  PAGE_CHARS,
  pageResult,
  parseDescriptions,
  prepareCall,
} from "../../../src/proxy/fixes/index.js";

const lines = (count: number, width = 60) => Array.from({ length: count }, (_, i) => `${String(i + 1).padStart(5, "0")} ${"x".repeat(width)}`).join("\n");
const textOf = (result: JsonObject) => ((result.content as JsonObject[])[0] as JsonObject).text as string;
const all = { paging: true, errors: true, descriptions: null };

describe("paging", () => {
  it("leaves a result of at most ~2,000 tokens alone unless offset or limit is given", () => {
    const small = { content: [{ type: "text", text: lines(50) }] };
    expect(pageResult(small, { offset: null, limit: null })).toBe(small);
    expect(textOf(pageResult(small, { offset: 10, limit: 2 }))).toBe(
      `00011 ${"x".repeat(60)}\n00012 ${"x".repeat(60)}\n[showing lines 11-12 of 50; pass offset=12 for more]`,
    );
  });

  it("cuts a long result to a page that fits, with the note naming the next offset", () => {
    const big = { content: [{ type: "text", text: lines(8000) }], _meta: { kept: true } };
    const page = pageResult(big, { offset: null, limit: null });
    const text = textOf(page);
    expect(text.length).toBeLessThanOrEqual(PAGE_CHARS);
    expect(text).toMatch(/\n\[showing lines 1-(\d+) of 8000; pass offset=\1 for more\]$/);
    expect(page._meta).toEqual({ kept: true });
    expect(textOf(pageResult(big, { offset: 7990, limit: null }))).toMatch(/^07991 x+\n[\s\S]*\n\[showing lines 7991-8000 of 8000\]$/);
    expect(textOf(pageResult(big, { offset: 9000, limit: null }))).toBe("[offset 9000 is past the end: the result has 8000 lines]");
  });

  it("joins text blocks, keeps other content in place, and splits a line longer than half a page", () => {
    const mixed = {
      content: [
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "a".repeat(20_000) },
        { type: "text", text: "tail" },
      ],
    };
    const page = pageResult(mixed, { offset: null, limit: null });
    const content = page.content as JsonObject[];
    expect(content).toHaveLength(2);
    expect(content[0]).toEqual({ type: "image", data: "AAAA", mimeType: "image/png" });
    // 20,000 characters are six pieces of at most half a page (a piece fits even when a page goes out twice), then "tail".
    expect(content[1]?.text).toMatch(/^a{3880}\na{3880}\n\[showing lines 1-2 of 7; pass offset=2 for more\]$/);
  });

  it("takes offset and limit out of the arguments (numeric strings too), refuses bad values, and leaves a tool's own alone", () => {
    const params = { name: "read", arguments: { path: "f", offset: "112", limit: 5 } };
    expect(prepareCall(params, all, false)).toEqual({ params: { name: "read", arguments: { path: "f" } }, paging: { offset: 112, limit: 5 } });
    expect(prepareCall({ name: "read", arguments: { offset: -1 } }, all, false)).toEqual({
      error: "mcp-lint paging: offset must be a whole number of lines, 0 or more",
    });
    expect(prepareCall({ name: "read", arguments: { limit: 0 } }, all, false)).toHaveProperty("error");
    expect(prepareCall(params, all, true)).toEqual({ params, paging: null });
    // An own `__proto__` argument reaches the server as sent, not as the arguments' prototype.
    const proto = prepareCall({ name: "read", arguments: JSON.parse('{"__proto__": {"x": 1}, "offset": 5}') as unknown }, all, false);
    expect(JSON.stringify(proto)).toBe('{"params":{"name":"read","arguments":{"__proto__":{"x":1}}},"paging":{"offset":5,"limit":null}}');
    expect(prepareCall(params, NO_FIXES, false)).toEqual({ params, paging: null });
  });

  it("adds offset and limit to every tool without its own, after replacing descriptions", () => {
    const result = {
      tools: [
        { name: "read", description: "Read.", inputSchema: { type: "object", properties: { path: { type: "string" } }, additionalProperties: false } },
        { name: "window", inputSchema: { type: "object", properties: { offset: { type: "integer" } } } },
      ],
      nextCursor: "c2",
    };
    const fixed = fixListResult(result, { paging: true, errors: false, descriptions: new Map([["read", "Read a file and return its text."]]) });
    const tools = fixed.tools as JsonObject[];
    expect(tools[0]).toMatchObject({ description: "Read a file and return its text.", inputSchema: { additionalProperties: false } });
    expect(Object.keys((tools[0]?.inputSchema as { properties: object } | undefined)?.properties ?? {})).toEqual(["path", "offset", "limit"]);
    expect(tools[1]).toBe(result.tools[1]);
    expect(fixed.nextCursor).toBe("c2");
    expect(result.tools[0]?.description).toBe("Read.");
  });
});

describe("errors returned as success", () => {
  it.each([
    ["Error: file not found", true],
    ["ERROR - connection refused", true],
    ["ValueError: invalid literal for int()", true],
    ["Traceback (most recent call last):\n  File ...", true],
    ["An error occurred while searching: rate limited", true],
    ["Error executing tool search", true],
    ["Failed to fetch https://example.com: 404", true],
    ['{"error": "not found"}', true],
    ['{"success": false, "message": "no such user"}', true],
    ["Sunny in Lisbon, 22°C.", false],
    ["No results found.", false],
    ["Errors are rare in this codebase; see the log below.", false],
    ['{"error": null, "data": [1, 2]}', false],
    [`Error: ${"x".repeat(5000)}`, false],
  ])("%j -> %s", (text, flagged) => {
    expect(looksLikeError({ content: [{ type: "text", text }] })).toBe(flagged);
  });

  it("never touches a result that already says isError, or one with non-text content", () => {
    expect(looksLikeError({ content: [{ type: "text", text: "Error: x" }], isError: false })).toBe(true);
    expect(looksLikeError({ content: [{ type: "text", text: "Error: x" }], isError: true })).toBe(false);
    expect(
      looksLikeError({
        content: [
          { type: "text", text: "Error: x" },
          { type: "image", data: "", mimeType: "image/png" },
        ],
      }),
    ).toBe(false);
    expect(fixCallResult({ content: [{ type: "text", text: "Error: x" }] }, all, null)).toEqual({
      content: [{ type: "text", text: "Error: x" }],
      isError: true,
    });
  });
});

describe("descriptions file", () => {
  it("reads a flat map or one under tools, and refuses anything else", () => {
    expect(parseDescriptions({ read: "Read a file." }, "f.json")).toEqual(new Map([["read", "Read a file."]]));
    expect(parseDescriptions({ tools: { read: "Read a file." } }, "f.json")).toEqual(new Map([["read", "Read a file."]]));
    expect(() => parseDescriptions({ read: 3 }, "f.json")).toThrow(UsageError);
    expect(() => parseDescriptions(["read"], "f.json")).toThrow(/expected a JSON object/);
  });
});
