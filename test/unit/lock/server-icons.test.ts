// Issue 41 item 6: a server's icons (serverInfo.icons) are shown to users like a tool's, so they are
// locked and compared the same way: added, changed or removed is meta_changed, never silent.
import { describe, expect, it } from "vitest";
import { compareWithLock } from "../../../src/lock/compare.js";
import { buildLockfile, parseLockfile, serializeLockfile } from "../../../src/lock/format.js";
import { snapshotFromFile } from "../../../src/lock/snapshot.js";
import { changeMessage } from "../../../src/report/messages.js";

const file = (icons?: unknown) =>
  snapshotFromFile(
    JSON.parse(
      JSON.stringify({
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        serverInfo: { name: "s", version: "1", ...(icons === undefined ? {} : { icons }) },
      }),
    ),
    "tools.json",
  );

describe("serverInfo.icons", () => {
  const icon = [{ src: "https://example.com/icon.png", mimeType: "image/png" }];

  it("is recorded in the lock's server entry and read back", () => {
    const lock = buildLockfile(file(icon), null);
    const text = serializeLockfile(lock);
    expect(JSON.parse(text).server.icons).toEqual(icon);
    expect(parseLockfile(JSON.parse(text), "mcp-lint.lock").server.icons).toEqual(icon);
    // A server without icons writes no icons key.
    expect(Object.keys(JSON.parse(serializeLockfile(buildLockfile(file(), null))).server)).not.toContain("icons");
  });

  it("added, changed and removed icons are meta_changed; the same icons are no change", () => {
    const without = buildLockfile(file(), null);
    const added = compareWithLock(without, file(icon));
    expect(added.map((change) => [change.kind, change.severity, change.tool])).toEqual([["meta_changed", "warning", null]]);
    expect(changeMessage(added[0] as (typeof added)[number])).toContain("serverInfo.icons changed");
    const withIcon = buildLockfile(file(icon), null);
    expect(compareWithLock(withIcon, file(icon))).toEqual([]);
    expect(compareWithLock(withIcon, file([{ src: "https://evil.example/icon.png" }])).map((change) => change.kind)).toEqual(["meta_changed"]);
    expect(compareWithLock(withIcon, file(null)).map((change) => change.kind)).toEqual(["meta_changed"]);
    // A saved list without the key says nothing about icons: no change, and a refresh keeps the locked ones.
    expect(compareWithLock(withIcon, file())).toEqual([]);
    expect(buildLockfile(file(), withIcon).server.icons).toEqual(icon);
  });

  it("refuses icons nested deeper than a definition may be", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(() => file(deep)).toThrow(/serverInfo\.icons is nested deeper than/);
  });
});
