// Issue 41 item 4: the 2026-07-28 revision asks servers for a deterministic tool order. The lock keys
// tools by name, so a new order is no change; it keeps a hash of the order so a reviewer gets an
// info note when the same tools come in another order, and nothing else.
import { describe, expect, it } from "vitest";
import { compareWithLock } from "../../../src/lock/compare.js";
import { buildLockfile, parseLockfile, serializeLockfile, toolOrderSha256 } from "../../../src/lock/format.js";
import { snapshotFromFile } from "../../../src/lock/snapshot.js";
import { toolOrderNote } from "../../../src/lock/tool-order.js";

const tool = (name: string, description = `The ${name} tool.`) => ({ name, description, inputSchema: { type: "object" } });
const served = (...tools: object[]) => snapshotFromFile(JSON.parse(JSON.stringify({ tools })), "tools.json");

describe("the tool order", () => {
  const locked = buildLockfile(served(tool("alpha"), tool("beta"), tool("gamma")), null);
  const reread = parseLockfile(JSON.parse(serializeLockfile(locked)), "mcp-lint.lock");

  it("is kept as a hash of the names in the order served, and read back", () => {
    expect(reread.server.toolOrderSha256).toBe(toolOrderSha256([tool("alpha"), tool("beta"), tool("gamma")]));
    expect(toolOrderSha256([tool("beta"), tool("alpha")])).not.toBe(toolOrderSha256([tool("alpha"), tool("beta")]));
  });

  it("moved, with the same tools and definitions: an info note and no change", () => {
    const moved = served(tool("gamma"), tool("alpha"), tool("beta"));
    expect(compareWithLock(reread, moved)).toEqual([]);
    expect(toolOrderNote(reread, moved.tools)).toMatchObject({ tool: null, severity: "info", message: expect.stringContaining("another order") });
  });

  it("a refresh keeps the locked order for the same tools (a shuffling server rewrites nothing) and records a new one when the tools change", () => {
    const shuffled = buildLockfile(served(tool("gamma"), tool("alpha"), tool("beta")), reread);
    expect(shuffled.server.toolOrderSha256).toBe(reread.server.toolOrderSha256);
    const grown = buildLockfile(served(tool("gamma"), tool("alpha"), tool("beta"), tool("delta")), reread);
    expect(grown.server.toolOrderSha256).toBe(toolOrderSha256([tool("gamma"), tool("alpha"), tool("beta"), tool("delta")]));
  });

  it("the same order: no note", () => {
    expect(toolOrderNote(reread, served(tool("alpha"), tool("beta"), tool("gamma")).tools)).toBeNull();
  });

  it("tools added or removed: no note beside the changes that say so", () => {
    expect(toolOrderNote(reread, served(tool("beta"), tool("alpha")).tools)).toBeNull();
    expect(toolOrderNote(reread, served(tool("delta"), tool("gamma"), tool("beta"), tool("alpha")).tools)).toBeNull();
    // Same count, one name swapped for another.
    expect(toolOrderNote(reread, served(tool("gamma"), tool("alpha"), tool("delta")).tools)).toBeNull();
  });

  it("a lock that kept no order (written before it was kept) reads as before and says nothing", () => {
    const document = JSON.parse(serializeLockfile(locked));
    delete document.server.tool_order_sha256;
    const older = parseLockfile(document, "mcp-lint.lock");
    expect(older.server.toolOrderSha256).toBeNull();
    expect(toolOrderNote(older, served(tool("gamma"), tool("beta"), tool("alpha")).tools)).toBeNull();
  });

  it("a hand-edited order hash that is not one is refused, naming the field", () => {
    const document = JSON.parse(serializeLockfile(locked));
    document.server.tool_order_sha256 = "not a hash";
    expect(() => parseLockfile(document, "mcp-lint.lock")).toThrow(/server\.tool_order_sha256" must be 64 lowercase hex digits/);
  });
});
