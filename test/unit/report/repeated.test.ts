// The same change to many tools is one block in the terminal report, one entry per tool in JSON
// (issue 22 item 1), on real captures of npm releases.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildLockfile, compareSnapshot, snapshotFromFile } from "../../../src/index.js";
import type { Change } from "../../../src/lock/kinds.js";
import { splitRepeated } from "../../../src/report/repeated.js";
import { renderTerminal } from "../../../src/report/terminal.js";

const corpus = join(import.meta.dirname, "../../fixtures/upgrades");
const capture = (server: string, version: string) =>
  snapshotFromFile(JSON.parse(readFileSync(join(corpus, server, `${version}.json`), "utf8")), `${server}@${version}`);

function report(server: string, before: string, after: string) {
  const lock = buildLockfile(capture(server, before), null, 1);
  const snapshot = capture(server, after);
  const changes = compareSnapshot(snapshot, lock);
  return { changes, text: renderTerminal({ mode: "check", lockPath: "mcp-lint.lock", snapshot, lock, changes, notes: [] }) };
}

const change = (tool: string, path: string, extra: Partial<Change> = {}): Change => ({
  kind: "schema_widened",
  severity: "error",
  tool,
  path,
  args: { reason: "additional_properties" },
  ...extra,
});

describe("splitRepeated", () => {
  it("groups changes identical but for the tool, most severe and widespread first, and keeps the rest in order", () => {
    const changes = [
      change("a", "/inputSchema/additionalProperties"),
      change("b", "/inputSchema/additionalProperties"),
      change("a", "/inputSchema/properties/x"),
      change("c", "/inputSchema/additionalProperties"),
      change("c", "/inputSchema/properties/x", { severity: "warning" }),
      change("d", "", { kind: "tool_added", args: { definition: { name: "d" } } }),
      change("e", "", { kind: "tool_added", args: { definition: { name: "d" } } }),
    ];
    const { repeated, rest } = splitRepeated(changes);
    expect(repeated.map((group) => [group.change.path, group.names])).toEqual([["/inputSchema/additionalProperties", ["a", "b", "c"]]]);
    // Different severity, and changes that carry a whole definition, are never the same change.
    expect(rest.map((item) => `${item.tool}${item.path}`)).toEqual(["a/inputSchema/properties/x", "c/inputSchema/properties/x", "d", "e"]);
  });
});

describe("the terminal report of real upgrades", () => {
  it("server-memory 2025.9.25 -> 2025.11.25: additionalProperties dropped from all 9 tools is one block naming them", () => {
    const { changes, text } = report("server-memory", "2025.9.25", "2025.11.25");
    const line = "input schema accepts or asks for more at /inputSchema/additionalProperties: extra values now allowed";
    expect(changes.filter((item) => item.path === "/inputSchema/additionalProperties" && item.kind === "schema_widened")).toHaveLength(9);
    expect(text.split(line).length - 1).toBe(1);
    expect(text).toContain(
      "9 tools: add_observations, create_entities, create_relations, delete_entities, delete_observations, delete_relations, open_nodes, read_graph, search_nodes\n",
    );
  });

  it("server-filesystem 2025.8.21 -> 2025.11.25: each repeated annotation claim is shown once, and every changed tool is still named", () => {
    const { changes, text } = report("server-filesystem", "2025.8.21", "2025.11.25");
    expect(text.split("readOnlyHint (absent) -> true: the tool now claims to be read-only").length - 1).toBe(1);
    for (const tool of new Set(changes.map((item) => item.tool).filter((name): name is string => name !== null))) expect(text).toContain(tool);
  });
});
