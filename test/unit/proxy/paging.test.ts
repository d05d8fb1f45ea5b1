// The paging fix on every surface of a tools/call result (issue 21 item 5): lines counted as a
// reader counts them, structuredContent paged with content or withheld with a note, and the whole
// response within the page budget whatever the server sends.
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { PAGE_CHARS, pageResult } from "../../../src/proxy/fixes/index.js";

const none = { offset: null, limit: null };
/** What a paged response may add, as JSON, around its page text (keys, brackets, notes). */
const OVERHEAD = 1000;
const file = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("");
const textOf = (result: JsonObject) => ((result.content as JsonObject[])[0] as JsonObject).text as string;
const structuredOf = (result: JsonObject) => result.structuredContent as JsonObject | undefined;
const NOTE = /\n\[showing lines (\d+)-(\d+) of (\d+)(?:; pass offset=(\d+) for more)?\]/;
const readTextFile = { type: "object", properties: { content: { type: "string" } }, required: ["content"] };

describe("line counting", () => {
  it("counts a text ending in a newline as one line per newline (20,000 lines, not 20,001)", () => {
    const result = { content: [{ type: "text", text: file(20_000) }] };
    expect(NOTE.exec(textOf(pageResult(result, none)))?.[3]).toBe("20000");
    expect(textOf(pageResult(result, { offset: 19_998, limit: null }))).toBe("line 19999\nline 20000\n[showing lines 19999-20000 of 20000]");
    expect(textOf(pageResult(result, { offset: 19_999, limit: 5 }))).toBe("line 20000\n[showing lines 20000-20000 of 20000]");
    expect(textOf(pageResult(result, { offset: 20_000, limit: null }))).toBe("[offset 20000 is past the end: the result has 20000 lines]");
    // Without the final newline the count is the same; an empty line in the middle still counts.
    expect(textOf(pageResult({ content: [{ type: "text", text: file(20_000).slice(0, -1) }] }, { offset: 19_999, limit: null }))).toBe(
      "line 20000\n[showing lines 20000-20000 of 20000]",
    );
    expect(textOf(pageResult({ content: [{ type: "text", text: "a\n\nb\n" }] }, { offset: 0, limit: null }))).toBe("a\n\nb\n[showing lines 1-3 of 3]");
    expect(textOf(pageResult({ content: [{ type: "text", text: "\n" }] }, { offset: 0, limit: null }))).toBe("\n[showing lines 1-1 of 1]");
  });

  it("pages every line exactly once: following each note's offset walks the whole text", () => {
    const result = { content: [{ type: "text", text: file(3000) }] };
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const note = NOTE.exec(textOf(pageResult(result, { offset, limit: null })));
      const page = textOf(pageResult(result, { offset, limit: null }));
      seen.push(...page.slice(0, note?.index).split("\n"));
      offset = note?.[4] === undefined ? null : Number(note[4]);
    }
    expect(seen).toEqual(file(3000).slice(0, -1).split("\n"));
  });
});

describe("structuredContent", () => {
  const long = file(20_000);
  const duplicated = { content: [{ type: "text", text: long }], structuredContent: { content: long } };

  it("replaces a string leaf that is the paged text with the same page, so the whole response stays within the budget", () => {
    expect(JSON.stringify(duplicated).length).toBeGreaterThan(400_000);
    const first = pageResult(duplicated, none, readTextFile);
    expect(structuredOf(first)).toEqual({ content: textOf(first) });
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    const shown = Number(NOTE.exec(textOf(first))?.[2]);
    const second = pageResult(duplicated, { offset: shown, limit: null }, readTextFile);
    expect(String(structuredOf(second)?.content).startsWith(`line ${shown + 1}\n`)).toBe(true);
    expect(structuredOf(second)?.content).toBe(textOf(second));
    expect(first.isError).toBeUndefined();
  });

  it("finds the leaf among other fields and in arrays, and keeps `__proto__` an own key", () => {
    const structured = JSON.parse(`{"__proto__": {"file": {"content": ${JSON.stringify(long)}}}, "meta": [1, {"lines": 20000}]}`) as JsonObject;
    const paged = structuredOf(pageResult({ content: [{ type: "text", text: long }], structuredContent: structured }, none));
    expect(Object.hasOwn(paged ?? {}, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(paged)).toBe(Object.prototype);
    expect(JSON.stringify(paged)).toMatch(
      /^\{"__proto__":\{"file":\{"content":"line 1\\nline 2\\n.*\[showing lines 1-\d+ of 20000; pass offset=\d+ for more\]"\}\},"meta":\[1,\{"lines":20000\}\]\}$/,
    );
  });

  it("withholds structuredContent with a note, as an error result, when the output schema rejects the page", () => {
    for (const [schema, reason] of [
      [{ type: "object", properties: { content: { type: "string", maxLength: 100 } } }, "/content must NOT have more than 100 characters"],
      [{ type: "object", properties: { content: { type: "string", pattern: "^[^\\[]*$" } } }, "/content must match pattern"],
      [{ type: "object", properties: { content: { const: long } } }, "/content must be equal to constant"],
    ] as const) {
      const paged = pageResult(duplicated, none, schema);
      expect(paged.structuredContent).toBeUndefined();
      expect(paged.isError).toBe(true);
      expect(textOf(paged)).toMatch(/^line 1\nline 2\n[\s\S]*\n\[showing lines 1-\d+ of 20000; pass offset=\d+ for more\]\n/);
      expect(textOf(paged)).toContain(`[mcp-lint paging: structuredContent withheld: the tool's output schema does not accept a page of it (${reason}`);
      expect(JSON.stringify(paged).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    }
    // A schema the page does satisfy keeps it: a pattern RE2 can run on a short page (values up to 1,024 characters).
    const pattern = { type: "object", properties: { content: { type: "string", pattern: "^line 3\\n" } }, required: ["content"] } as const;
    const short = pageResult(duplicated, { offset: 2, limit: 2 }, pattern);
    expect(structuredOf(short)).toEqual({ content: "line 3\nline 4\n[showing lines 3-4 of 20000; pass offset=4 for more]" });
    expect(short.isError).toBeUndefined();
    // Without an output schema nothing requires structuredContent: withheld or paged, never an error.
    expect(pageResult(duplicated, none).isError).toBeUndefined();
  });

  it("keeps a small structuredContent as sent and pages the text in the room left", () => {
    const result = { content: [{ type: "text", text: long }], structuredContent: { lines: 20_000, truncated: false } };
    const paged = pageResult(result, none);
    expect(paged.structuredContent).toBe(result.structuredContent);
    expect(JSON.stringify(paged).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
  });

  it("withholds a long structuredContent that holds no copy of the text (the text is its JSON) and pages the text", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `row ${i}` }));
    const result = { content: [{ type: "text", text: JSON.stringify(rows, null, 2) }], structuredContent: { rows } };
    const paged = pageResult(result, none);
    expect(paged.structuredContent).toBeUndefined();
    expect(textOf(paged)).toMatch(/^\[\n {2}\{\n/);
    expect(textOf(paged)).toContain("[mcp-lint paging: structuredContent withheld: it is too long to send whole");
    expect(JSON.stringify(paged).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
  });

  it("pages the JSON of a long structuredContent as text when the result has no text content", () => {
    const rows = Array.from({ length: 5000 }, (_, i) => i);
    const result = { content: [], structuredContent: { rows } };
    const first = pageResult(result, none);
    expect(first.structuredContent).toBeUndefined();
    expect(textOf(first)).toMatch(/^\{\n {2}"rows": \[\n {4}0,\n {4}1,\n/);
    expect(textOf(first)).toMatch(NOTE);
    expect(NOTE.exec(textOf(first))?.[3]).toBe("5004");
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    const shown = Number(NOTE.exec(textOf(first))?.[2]);
    expect(textOf(pageResult(result, { offset: shown, limit: 1 }))).toMatch(
      new RegExp(`^ {4}${shown - 2},\\n\\[showing lines ${shown + 1}-${shown + 1} of 5004`),
    );
    // Short enough to send whole: left alone.
    const small = { content: [], structuredContent: { rows: [1, 2, 3] } };
    expect(pageResult(small, none)).toBe(small);
  });

  it("stays within the budget for hostile results: escapes, a long line, deep nesting, the text twice", () => {
    const control = "\u0001".repeat(50_000);
    for (const result of [
      { content: [{ type: "text", text: control }], structuredContent: { content: control } },
      { content: [{ type: "text", text: `"${"\\".repeat(40_000)}"\n` }] },
      { content: [{ type: "text", text: long }], structuredContent: { a: long, b: long } },
      { content: [{ type: "text", text: long }], structuredContent: JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`) as unknown },
      { content: [], structuredContent: JSON.parse(`{"deep": ${"[".repeat(100_000)}${JSON.stringify(long)}${"]".repeat(100_000)}}`) as unknown },
    ] as JsonObject[]) {
      const paged = pageResult(result, none);
      expect(JSON.stringify(paged).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
      expect(textOf(paged)).toMatch(/\[showing lines 1-\d+ of \d+|structuredContent withheld: it is nested deeper than 64 levels\]$/);
    }
  });
});
