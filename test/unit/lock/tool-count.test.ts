// The bound on how many tools one list may hold (MAX_TOOLS): a list past it is refused with one
// clear line before any analysis, from a file, from a live server and from a lock, because
// analysing it would take gigabytes (500,000 small tools took 25 s and 3.4 GB before the bound).
import { describe, expect, it } from "vitest";
import { LockFormatError, ToolListError } from "../../../src/errors.js";
import { parseLockfile } from "../../../src/lock/format.js";
import { validateToolList } from "../../../src/lock/snapshot.js";
import { MAX_TOOLS } from "../../../src/limits.js";

const tools = (count: number) => Array.from({ length: count }, (_, index) => ({ name: `tool_${index}` }));

describe("MAX_TOOLS", () => {
  it("accepts a list of exactly MAX_TOOLS tools", () => {
    expect(validateToolList(tools(MAX_TOOLS), "t.json")).toHaveLength(MAX_TOOLS);
  });

  it("refuses one more, naming the count and the bound", () => {
    expect(() => validateToolList(tools(MAX_TOOLS + 1), "t.json")).toThrow(ToolListError);
    expect(() => validateToolList(tools(MAX_TOOLS + 1), "t.json")).toThrow(
      "t.json: 50,001 tools, more than the 50,000 mcp-lint reads in one list (no MCP client loads that many); refusing to analyse it",
    );
  });

  it("refuses a lock holding more tools than any lock mcp-lint writes, before reading the entries", () => {
    const entries = Object.fromEntries(tools(MAX_TOOLS + 1).map((tool) => [tool.name, {}]));
    const lock = {
      lockfile_version: 1,
      server: { name: null, version: null, command_sha256: null },
      instructions: { known: false, text: null },
      tools: entries,
    };
    expect(() => parseLockfile(lock, "mcp-lint.lock")).toThrow(LockFormatError);
    expect(() => parseLockfile(lock, "mcp-lint.lock")).toThrow(/"tools" holds 50,001 tools, more than the 50,000 mcp-lint locks/);
  });
});
