// The detectors behind the probe rules, on their own: responses measured, IDs, paging hints, error texts
// and format parity, including hostile and huge input.
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../growth.js";
import { makeRedactor } from "../../../src/text/redact.js";
import { isBase64, isBinaryBase64 } from "../../../src/probe/detect/binary.js";
import { hasStackTrace, hasGuidance, isEmptyError, isOpaqueError } from "../../../src/probe/detect/errors.js";
import { findOpaqueIds, idStats, isRandomToken } from "../../../src/probe/detect/ids.js";
import { hasPagingHint } from "../../../src/probe/detect/paging.js";
import { parityMisses } from "../../../src/probe/detect/parity.js";
import { measureProtocolError, measureResult } from "../../../src/probe/response.js";

describe("measureResult", () => {
  const none = makeRedactor([]);
  it("counts the compact JSON of the result, and lists content types once each", () => {
    const image = { type: "image", data: "QUJD", mimeType: "image/png" };
    const sent = { content: [{ type: "text", text: "abcd" }, image, { type: "text", text: "ef" }, { type: "resource", resource: { uri: "x", text: "gh" } }] };
    const result = measureResult(sent, none);
    expect(result).toMatchObject({
      text: "abcd\nef\ngh",
      chars: JSON.stringify(sent).length,
      tokens: Math.ceil(JSON.stringify(sent).length / 4),
      contentTypes: ["text", "image", "resource"],
      isError: false,
    });
  });

  it("counts a line break as JSON writes it, two characters (regression: the text length undercounted every escape)", () => {
    const text = "line\n".repeat(1_000);
    const result = measureResult({ content: [{ type: "text", text }] }, none);
    expect(result.chars).toBe(JSON.stringify({ content: [{ type: "text", text }] }).length);
    expect(result.chars).toBeGreaterThan(text.length + 1_000 - 1);
  });

  it("counts every member a client forwards with the content: isError and _meta too", () => {
    const sent = { content: [{ type: "text", text: "nope" }], isError: true, _meta: { trace: "t-1" } };
    expect(measureResult(sent, none)).toMatchObject({ chars: JSON.stringify(sent).length, isError: true });
  });

  it("counts a text mirrored in structuredContent once, by the larger of the two views a client forwards", () => {
    const text = "x".repeat(1_000);
    const mirrored = measureResult({ content: [{ type: "text", text }], structuredContent: { content: text } }, none);
    expect(mirrored.chars).toBe(JSON.stringify({ content: [{ type: "text", text }] }).length);
    // A short text next to a big structured result: a client that forwards structuredContent (Claude Code) shows the big one.
    const structured = { items: Array.from({ length: 50 }, (_, index) => ({ id: index, name: `item ${index}` })) };
    const summary = measureResult({ content: [{ type: "text", text: "50 items" }], structuredContent: structured }, none);
    expect(summary.chars).toBe(JSON.stringify(structured).length);
    expect(summary.textTokens).toBe(summary.tokens);
  });

  it("leaves images, audio, links and binary resources out of the text estimate, not out of the whole", () => {
    const media = [
      { type: "image", data: "A".repeat(4_000), mimeType: "image/png" },
      { type: "audio", data: "A".repeat(4_000), mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a", name: "a" },
      { type: "resource", resource: { uri: "file:///b", blob: "A".repeat(4_000) } },
    ];
    const text = { type: "text", text: "here they are" };
    const result = measureResult({ content: [text, ...media] }, none);
    expect(result.tokens).toBe(Math.ceil(JSON.stringify({ content: [text, ...media] }).length / 4));
    expect(result.textTokens).toBe(Math.ceil(JSON.stringify({ content: [text] }).length / 4));
  });

  it("leaves base64 of binary data in structuredContent out of the text estimate", () => {
    const png = `iVBORw0KGgo${"A".repeat(8_000)}`;
    const structured = { title: "Logo", image: png, contents: [{ uri: "file:///a.bin", blob: "AAEC" }] };
    const result = measureResult({ content: [{ type: "text", text: "Logo" }], structuredContent: structured }, none);
    expect(result.tokens).toBe(Math.ceil(JSON.stringify(structured).length / 4));
    expect(result.textTokens).toBe(Math.ceil(JSON.stringify({ ...structured, image: "", contents: [{ uri: "file:///a.bin", blob: "" }] }).length / 4));
  });

  it("measures structuredContent when content is empty, and marks it", () => {
    const result = measureResult({ content: [], structuredContent: { a: 1 } }, none);
    expect(result).toMatchObject({ text: '{"a":1}', chars: 14, tokens: 4, contentTypes: ["structured"], contentEmpty: true });
    const bigger = measureResult({ content: [], structuredContent: { abcdefghijklmnop: 1 } }, none);
    expect(bigger.chars).toBe(JSON.stringify({ abcdefghijklmnop: 1 }).length);
  });

  it("keeps only the size of an answer nested too deep to walk", () => {
    let deep: unknown = "x";
    for (let level = 0; level < 5000; level++) deep = [deep];
    const result = measureResult({ content: [{ type: "text", text: "a" }], structuredContent: { deep } }, none);
    expect(result.tooDeep).toBe(true);
    expect(result.text).toBe("");
    expect(result.chars).toBeGreaterThan(0);
  });

  it("strips the SDK's prefix from a protocol error and measures the error object", () => {
    expect(measureProtocolError(-32602, "MCP error -32602: Invalid arguments", none)).toMatchObject({
      text: "Invalid arguments",
      chars: JSON.stringify({ code: -32602, message: "Invalid arguments" }).length,
      errorCode: -32602,
      isError: true,
    });
  });
});

describe("opaque IDs", () => {
  it("finds UUIDs, long hex and random tokens, and nothing in words, paths or numbers", () => {
    const text =
      "3f2a9c1e-0b7d-4e21-9a55-6c0d8e4b1f20 sha a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 tok Xk9aBzQ2mN7pLr4TyW8cVd /usr/local/lib/node_modules 20240101123045 get_user_profile_2024_v2";
    expect(findOpaqueIds(text).map((span) => text.slice(span.start, span.end))).toEqual([
      "3f2a9c1e-0b7d-4e21-9a55-6c0d8e4b1f20",
      "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
      "Xk9aBzQ2mN7pLr4TyW8cVd",
    ]);
  });

  it("reads word-made identifiers as words", () => {
    expect(isRandomToken("configurationManager2024Service")).toBe(false);
    expect(isRandomToken("k3j9x8m2p1q7w5e4r6t0")).toBe(true);
  });

  it("counts records with and without labels", () => {
    expect(idStats("3f2a9c1e-0b7d-4e21-9a55-6c0d8e4b1f20 Alpha\n9b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d\nno id here")).toMatchObject({
      ids: 2,
      records: 2,
      labelled: 1,
      unlabelledIdChars: 36,
    });
  });

  it("is linear on a 1 MB answer", () => {
    const answer = (ids: number) => `${"3f2a9c1e-0b7d-4e21-9a55-6c0d8e4b1f20 ".repeat(ids)}${"a".repeat(ids * 15)}`;
    expect(expectLinear("ids", (ids) => idStats(answer(ids)), 2_000).ids).toBe(20_000);
  });
});

describe("paging hints", () => {
  it.each([
    ["a remaining count", "...\n[19000 lines remaining]"],
    ["a next cursor", '{"nextCursor": "abc"}'],
    ["has_more", '{"has_more": true, "data": []}'],
    ["lines of a total", "lines 1-1000 of 20000"],
    ["page of pages", "page 2 of 40"],
    ["an offset to pass", "pass offset=1000 for more"],
  ])("sees %s", (_name, note) => {
    expect(hasPagingHint(`${note}\n${"filler text ".repeat(1000)}`)).toBe(true);
    expect(hasPagingHint(`${"filler text ".repeat(1000)}\n${note}`)).toBe(true);
  });

  it("reads only the first and last 600 characters", () => {
    expect(hasPagingHint(`${"filler text ".repeat(100)}[19000 lines remaining]${"filler text ".repeat(100)}`)).toBe(false);
    expect(hasPagingHint("The quick brown fox jumps over the lazy dog.")).toBe(false);
  });
});

describe("error texts", () => {
  it("sees stack traces of several runtimes", () => {
    expect(hasStackTrace("Error: x\n    at f (/a.js:1:2)")).toBe(true);
    expect(hasStackTrace('Traceback (most recent call last):\n  File "a.py", line 3, in f')).toBe(true);
    expect(hasStackTrace("java.lang.NullPointerException\n\tat com.example.Foo.bar(Foo.java:42)")).toBe(true);
    expect(hasStackTrace("goroutine 1 [running]:\nmain.main()")).toBe(true);
    expect(hasStackTrace("Could not find the file at /tmp/a.txt:12")).toBe(false);
  });

  it("tells empty and opaque messages from ones that name a cause", () => {
    expect(isEmptyError("  Error:  ")).toBe(true);
    for (const text of ["Internal error", "Error executing tool read_file", "An unexpected error occurred.", "error", "MCP error -32603: Internal error"])
      expect(isOpaqueError(text), text).toBe(true);
    for (const text of ["File not found: /a.txt", "Internal error: database connection refused"]) expect(isOpaqueError(text), text).toBe(false);
  });

  it("finds guidance: a parameter name as a token, a value sent, or what was expected", () => {
    expect(hasGuidance("bad path", ["path"], [])).toBe(true);
    expect(hasGuidance("bad filepath", ["path"], [])).toBe(false);
    expect(hasGuidance("cannot open exist.txt", [], ["/mcp-lint/does/not/exist.txt"])).toBe(true);
    expect(hasGuidance("mode must be one of a, b", [], [])).toBe(true);
    expect(hasGuidance("The operation failed", ["path"], ["/x"])).toBe(false);
  });

  it("is linear on a hostile error text", () => {
    expectLinear("one long frame", (length) => hasStackTrace(`    at ${"a".repeat(length)}`), 20_000);
    expectLinear("many frames", (count) => hasStackTrace("    at x\n".repeat(count)), 5_000);
  });
});

describe("format parity", () => {
  it("folds array positions into one field with a count", () => {
    expect(parityMisses({ rows: [{ id: 1 }, { id: 22 }, { id: 333 }] }, "1 and 333")).toEqual([{ field: "rows[].id", missing: 1, total: 3 }]);
  });

  it("does not count a number inside a longer number", () => {
    expect(parityMisses({ n: 12 }, "item 123")).toEqual([{ field: "n", missing: 1, total: 1 }]);
    expect(parityMisses({ n: 12 }, "item 12.")).toEqual([]);
  });

  it("stays fast on 2,000 leaves against a long text", () => {
    const rows = (count: number) => ({ rows: Array.from({ length: count }, (_, index) => ({ id: `id${index}`, name: `Name number ${index}` })) });
    const text = (structured: ReturnType<typeof rows>) => structured.rows.map((row) => `${row.id} ${row.name}`).join("\n");
    expect(expectLinear("leaves", (count) => parityMisses(rows(count), text(rows(count))), 300)).toEqual([]);
  });
});

describe("format parity, regressions", () => {
  it("finds a long string whose first 200 characters end inside a word (server-filesystem's read_text_file was flagged)", () => {
    const content = Array.from({ length: 100 }, (_, index) => `${String(index).padStart(5, "0")} the of and`).join("\n");
    expect(parityMisses({ content }, content)).toEqual([]);
  });
});

describe("base64 of binary data", () => {
  const b64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));
  const random = Array.from({ length: 300 }, (_, index) => (index * 151 + 17) % 256);

  it.each([
    ["a PNG, from its signature", b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ["a PDF", b64([...Array.from("%PDF-1.7\n%", (char) => char.charCodeAt(0)), 0xe2, 0xe3])],
    ["a long run of bytes that are not text", b64(random)],
  ])("sees %s", (_name, value) => {
    expect(isBinaryBase64(value)).toBe(true);
  });

  it.each([
    ["a short word", "Dana"],
    ["a short token with no signature", "Xk9aBzQ2mN7pLr4TyW8cVd0a"],
    ["a hex hash, however long", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855".repeat(5)],
    ["base64 of text", btoa("name,count\n".repeat(40))],
    ["text with spaces", "a ".repeat(200)],
    ["base64url", `${"A".repeat(300)}-_`],
  ])("does not take %s for binary", (_name, value) => {
    expect(isBinaryBase64(value)).toBe(false);
  });

  it("checks the alphabet and the padding", () => {
    expect(isBase64("QUJD")).toBe(true);
    expect(isBase64("QUI=")).toBe(true);
    expect(isBase64("QQ==")).toBe(true);
    expect(isBase64("QQ")).toBe(true);
    expect(isBase64("Q===")).toBe(false);
    expect(isBase64("QUJDR")).toBe(false);
    expect(isBase64("QU=D")).toBe(false);
    expect(isBase64("")).toBe(false);
  });

  it("is linear on a 1 MB string", () => {
    expectLinear("base64", (size) => isBinaryBase64(`iVBORw0KGgo${"A".repeat(size)}`), 100_000);
  });
});
