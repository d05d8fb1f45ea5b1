// The fixing proxy (seed 003) end to end: paging of a 20,000-line file, errors returned as
// success flagged, descriptions replaced; on without --lock, off with it unless named.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectProxy, fixture, recordedCalls } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("\n");
}

const NOTE = /\n\[showing lines (\d+)-(\d+) of 20000(?:; pass offset=(\d+) for more)?\]$/;

describe("proxy fixes without --lock", () => {
  it("pages a 20,000-line result with a note, continues at offset, and never sends offset/limit to the server", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--", process.execPath, fixture("big.mjs"), dir], { cwd: dir });
    const { client } = proxied;

    const tools = (await client.listTools()).tools;
    const readFile = tools.find((tool) => tool.name === "read_file");
    expect(Object.keys(readFile?.inputSchema.properties ?? {})).toEqual(["path", "offset", "limit"]);
    // A tool with offset/limit of its own keeps its schema, and its arguments reach the server.
    const window = tools.find((tool) => tool.name === "read_window");
    expect(window?.inputSchema.properties?.offset).toEqual({ type: "integer" });

    const first = text(await client.callTool({ name: "read_file", arguments: { path: "big.txt" } }));
    const note = NOTE.exec(first);
    expect(note?.[1]).toBe("1");
    const shown = Number(note?.[2]);
    expect(note?.[3]).toBe(String(shown));
    expect(first.length).toBeLessThanOrEqual(8000);
    expect(first.startsWith("line 1: lorem")).toBe(true);
    expect(first.split("\n")).toHaveLength(shown + 1);

    const second = text(await client.callTool({ name: "read_file", arguments: { path: "big.txt", offset: shown } }));
    expect(second.startsWith(`line ${shown + 1}: lorem`)).toBe(true);
    const next = NOTE.exec(second);
    expect(next?.[1]).toBe(String(shown + 1));
    expect(next?.[3]).toBe(next?.[2]);
    expect(second.length).toBeLessThanOrEqual(8000);

    const some = text(await client.callTool({ name: "read_file", arguments: { path: "big.txt", offset: "100", limit: 3 } }));
    expect(some).toBe(
      "line 101: lorem ipsum dolor sit amet lorem ipsum dolor sit amet\nline 102: lorem ipsum dolor sit amet lorem ipsum dolor sit amet\nline 103: lorem ipsum dolor sit amet lorem ipsum dolor sit amet\n[showing lines 101-103 of 20000; pass offset=103 for more]",
    );
    const last = text(await client.callTool({ name: "read_file", arguments: { path: "big.txt", offset: 19_998 } }));
    expect(last.endsWith("line 20000: lorem ipsum dolor sit amet lorem ipsum dolor sit amet\n[showing lines 19999-20000 of 20000]")).toBe(true);
    const bad = await client.callTool({ name: "read_file", arguments: { path: "big.txt", offset: -1 } });
    expect(bad.isError).toBe(true);

    const own = text(await client.callTool({ name: "read_window", arguments: { path: "big.txt", offset: 8, limit: 5 } }));
    expect(own).toBe("lorem");

    // The server saw the calls without the paging arguments (and the invalid one never reached it).
    const calls = recordedCalls(dir);
    expect(calls.filter((call) => call.tool === "read_file").map((call) => call.args)).toEqual(Array(4).fill({ path: "big.txt" }));
    expect(calls.find((call) => call.tool === "read_window")?.args).toEqual({ path: "big.txt", offset: 8, limit: 5 });
    expect(await proxied.close()).toBe(0);
  });

  it("flags an error returned as a success, leaves real results alone, and replaces descriptions from a file", async () => {
    const dir = tempDir();
    const descriptions = join(dir, "descriptions.json");
    writeFileSync(descriptions, JSON.stringify({ terse: "Check that the server answers; returns the text 'terse ok'." }));
    const proxied = await connectProxy(["--descriptions", descriptions, "--", process.execPath, fixture("big.mjs"), dir], { cwd: dir });
    const { client } = proxied;
    const search = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(search.isError).toBe(true);
    expect(text(search)).toBe('Error: no index found for query "x"');
    const lookup = await client.callTool({ name: "lookup", arguments: { word: "cat" } });
    expect(lookup.isError).toBeUndefined();
    const tools = (await client.listTools()).tools;
    expect(tools.find((tool) => tool.name === "terse")?.description).toBe("Check that the server answers; returns the text 'terse ok'.");
    expect(tools.find((tool) => tool.name === "lookup")?.description).toBe("Look up a word in the dictionary and return its meaning.");
    expect(await proxied.close()).toBe(0);
  });

  it("turns each fix off with --no-paging and --no-errors", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--no-paging", "--no-errors", "--", process.execPath, fixture("big.mjs"), dir], { cwd: dir });
    const { client } = proxied;
    expect(Object.keys((await client.listTools()).tools[0]?.inputSchema.properties ?? {})).toEqual(["path"]);
    expect(text(await client.callTool({ name: "read_file", arguments: { path: "big.txt" } })).split("\n")).toHaveLength(20_000);
    expect((await client.callTool({ name: "search", arguments: { query: "x" } })).isError).toBeUndefined();
    expect(await proxied.close()).toBe(0);
  });
});

describe("proxy fixes with --lock", () => {
  it("are off unless named, and the lock is compared with what the server sent, before any fix", async () => {
    const dir = tempDir();
    const server = [process.execPath, fixture("big.mjs"), dir];
    const lock = join(dir, "mcp-lint.lock");
    expect((await runCli(["lock", "--lock", lock, "--", ...server], { cwd: dir })).code).toBe(0);

    const plain = await connectProxy(["--lock", lock, "--", ...server], { cwd: dir });
    expect(Object.keys((await plain.client.listTools()).tools[0]?.inputSchema.properties ?? {})).toEqual(["path"]);
    expect(text(await plain.client.callTool({ name: "read_file", arguments: { path: "big.txt" } })).split("\n")).toHaveLength(20_000);
    expect((await plain.client.callTool({ name: "search", arguments: { query: "x" } })).isError).toBeUndefined();
    expect(await plain.close()).toBe(0);

    const fixed = await connectProxy(["--lock", lock, "--paging", "--errors", "--", ...server], { cwd: dir });
    const tools = (await fixed.client.listTools()).tools;
    // Every locked tool is served (the fix changed the schema the client sees, not what was compared).
    expect(tools.map((tool) => tool.name)).toEqual(["read_file", "search", "lookup", "read_window", "terse", "quit"]);
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(["path", "offset", "limit"]);
    expect(NOTE.test(text(await fixed.client.callTool({ name: "read_file", arguments: { path: "big.txt" } })))).toBe(true);
    expect((await fixed.client.callTool({ name: "search", arguments: { query: "x" } })).isError).toBe(true);
    expect(await fixed.close()).toBe(0);
    expect(fixed.stderr()).toContain("6 tools listed, 6 served, 0 withheld, 0 changes");
  });
});
