// The fixing proxy pages structuredContent with content (issue 21 item 5): a read_text_file-shaped
// tool through `mcp-lint proxy` keeps the whole response within the page budget on both surfaces,
// counts lines right, and never hands the SDK client a result its output schema rejects.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

/** PAGE_CHARS (src/proxy/fixes/paging.ts): the text of a response, both surfaces together, JSON escapes counted. */
const PAGE_CHARS = 8000;
/** What the response's JSON may add around the page text (keys, brackets, the note's own escapes). */
const OVERHEAD = 1000;
const NOTE = /\n\[showing lines (\d+)-(\d+) of (\d+)(?:; pass offset=(\d+) for more)?\]$/;
const line = (n: number) => `line ${n}: lorem ipsum dolor sit amet lorem ipsum dolor sit amet`;

interface Result {
  content: { type: string; text?: string }[];
  structuredContent?: { content?: unknown };
  isError?: boolean;
}

const textOf = (result: Result) => result.content.map((block) => block.text ?? "").join("\n");

describe("proxy paging of structuredContent", () => {
  it("pages a 20,000-line read_text_file result on both surfaces, within the budget, valid against its output schema", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--", process.execPath, fixture("long-structured.mjs")], { cwd: dir });
    const { client } = proxied;
    // listTools first: the SDK client then validates every structuredContent against the outputSchema (and throws on a mismatch).
    const tools = (await client.listTools()).tools;
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(["path", "offset", "limit"]);

    const first = (await client.callTool({ name: "read_text_file", arguments: { path: "big.txt" } })) as Result;
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    expect(first.isError).toBeUndefined();
    const page = textOf(first);
    // The same page on both surfaces: a client reading either gets the fix and the note.
    expect(first.structuredContent?.content).toBe(page);
    const note = NOTE.exec(page);
    expect(note?.slice(1)).toEqual(["1", note?.[2], "20000", note?.[2]]);
    const shown = Number(note?.[2]);
    expect(shown).toBeGreaterThan(10);
    expect(page.startsWith(`${line(1)}\n`)).toBe(true);

    const second = (await client.callTool({ name: "read_text_file", arguments: { path: "big.txt", offset: shown } })) as Result;
    expect(JSON.stringify(second).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    expect(second.structuredContent?.content).toBe(textOf(second));
    expect(String(second.structuredContent?.content).startsWith(`${line(shown + 1)}\n`)).toBe(true);
    expect(NOTE.exec(textOf(second))?.[1]).toBe(String(shown + 1));

    // The last page ends at line 20,000 (no empty line counted after the final newline).
    const last = (await client.callTool({ name: "read_text_file", arguments: { path: "big.txt", offset: 19_998 } })) as Result;
    expect(last.structuredContent?.content).toBe(`${line(19_999)}\n${line(20_000)}\n[showing lines 19999-20000 of 20000]`);
    const past = (await client.callTool({ name: "read_text_file", arguments: { path: "big.txt", offset: 20_000 } })) as Result;
    expect(textOf(past)).toBe("[offset 20000 is past the end: the result has 20000 lines]");
    expect(await proxied.close()).toBe(0);
  });

  it("withholds structuredContent with a note, as an error result, when the output schema cannot hold a page", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--", process.execPath, fixture("long-structured.mjs")], { cwd: dir });
    const { client } = proxied;
    await client.listTools();
    for (const [name, reason] of [
      ["read_short_field", "/content must NOT have more than 100 characters"],
      ["read_plain_field", "/content must match pattern"],
    ] as const) {
      // The SDK client accepts a result without structuredContent from a tool with an outputSchema only as an error.
      const result = (await client.callTool({ name, arguments: { path: "big.txt" } })) as Result;
      expect(result.structuredContent).toBeUndefined();
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
      const text = textOf(result);
      expect(text.startsWith(`${line(1)}\n`)).toBe(true);
      expect(text).toMatch(/\n\[showing lines 1-\d+ of 20000; pass offset=\d+ for more\]\n/);
      expect(text).toContain(`[mcp-lint paging: structuredContent withheld: the tool's output schema does not accept a page of it (${reason}`);
    }
    expect(await proxied.close()).toBe(0);
  });

  it("pages structuredContent under --lock --paging too, from the locked tool's output schema", async () => {
    const dir = tempDir();
    const server = [process.execPath, fixture("long-structured.mjs")];
    const lock = join(dir, "mcp-lint.lock");
    expect((await runCli(["lock", "--lock", lock, "--", ...server], { cwd: dir })).code).toBe(0);
    const proxied = await connectProxy(["--lock", lock, "--paging", "--", ...server], { cwd: dir });
    const { client } = proxied;
    await client.listTools();
    const paged = (await client.callTool({ name: "read_text_file", arguments: { path: "big.txt" } })) as Result;
    expect(JSON.stringify(paged).length).toBeLessThanOrEqual(PAGE_CHARS + OVERHEAD);
    expect(paged.structuredContent?.content).toBe(textOf(paged));
    const withheld = (await client.callTool({ name: "read_short_field", arguments: { path: "big.txt" } })) as Result;
    expect(withheld.structuredContent).toBeUndefined();
    expect(withheld.isError).toBe(true);
    expect(await proxied.close()).toBe(0);
  });
});
