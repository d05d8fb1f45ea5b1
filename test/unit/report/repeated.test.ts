// The same change to many tools is one block in the terminal report, one entry per tool in JSON
// (issue 22 item 1), on real captures of npm releases.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildLockfile, compareSnapshot, snapshotFromFile } from "../../../src/index.js";
import type { Change } from "../../../src/lock/kinds.js";
import { splitRepeated } from "../../../src/report/repeated.js";
import { schemaDiffLines } from "../../../src/report/schema-diff.js";
import { renderTerminal } from "../../../src/report/terminal.js";
import { expectInert } from "../../hostile-strings.js";

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

describe("structural schema changes repeated across tools (issue 37)", () => {
  const DRAFT7 = "http://json-schema.org/draft-07/schema#";
  const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";
  // Nine tools with different parameters: each change carries its own whole schema.
  const tools = (uri: (index: number) => string, maxLength: (index: number) => number) =>
    Array.from({ length: 9 }, (_, index) => ({
      name: `tool_${index}`,
      description: "Reads a file.",
      inputSchema: {
        $schema: uri(index),
        type: "object",
        properties: { [`p${index}`]: { type: "string" }, path: { type: "string", maxLength: maxLength(index) } },
      },
    }));
  const check = (before: unknown[], after: unknown[]) => {
    const lock = buildLockfile(snapshotFromFile({ tools: before }, "before.json"), null, 1);
    const snapshot = snapshotFromFile({ tools: after }, "after.json");
    const changes = compareSnapshot(snapshot, lock);
    return { changes, text: renderTerminal({ mode: "check", lockPath: "mcp-lint.lock", snapshot, lock, changes, notes: [], schemaDiff: schemaDiffLines }) };
  };

  it("regression: the same $schema info change on nine tools is one line naming them, with its diff once", () => {
    const { changes, text } = check(
      tools(
        () => DRAFT7,
        () => 100,
      ),
      tools(
        () => DRAFT2020,
        () => 100,
      ),
    );
    expect(changes.filter((item) => item.severity === "info")).toHaveLength(9);
    const line = "$schema URI changed at /inputSchema/$schema, but no keyword changes meaning";
    expect(text.split(line).length - 1).toBe(1);
    expect(text).toContain("9 tools: tool_0, tool_1, tool_2, tool_3, tool_4, tool_5, tool_6, tool_7, tool_8\n");
    expect(text.split(`~ $.$schema: "${DRAFT7}" -> "${DRAFT2020}"`).length - 1).toBe(1);
    // The overview is one row too, and the count line still counts every tool's change.
    expect(text).toContain("  info     9 tools: tool_0, tool_1,");
    expect(text.trimEnd().split("\n").pop()).toBe("0 errors, 0 warnings, 9 info");
  });

  it("the same warning on several tools is grouped too, and a different edit at the same place is not", () => {
    const { text } = check(
      tools(
        () => DRAFT7,
        () => 100,
      ),
      tools(
        () => DRAFT7,
        (index) => (index < 5 ? 50 : 60 + index),
      ),
    );
    const line = "input schema changed structurally at /inputSchema/properties/path/maxLength; review the diff";
    // tool_0..4 share 100 -> 50; tool_5..8 each have their own new limit.
    expect(text.split(line).length - 1).toBe(5);
    expect(text).toContain("5 tools: tool_0, tool_1, tool_2, tool_3, tool_4\n");
    expect(text.split("~ $.properties.path.maxLength: 100 -> 50").length - 1).toBe(1);
    for (const index of [5, 6, 7, 8]) expect(text).toContain(`~ $.properties.path.maxLength: 100 -> ${60 + index}`);
  });

  it("a grouped change shows a hostile property name and enum value escaped", () => {
    const key = "\u001b[2J\u202eevil.key";
    const schema = (values: string[]) => ({ type: "object", properties: { [key]: { type: "string", enum: values } } });
    const two = (values: string[]) => ["a", "b"].map((name) => ({ name, description: "d", inputSchema: schema(values) }));
    const { text } = check(two(["x", "\u200bhidden\u0007"]), two(["x"]));
    expect(text).toContain("2 tools: a, b\n");
    // Issue 41: a removed enum value has its own row, which names the value (no structural diff needed).
    expect(text).toContain('allowed value removed at /inputSchema/properties/\\u{1B}[2J\\u{202E}evil.key/enum: "\\u{200B}hidden\\u0007"');
    expectInert("grouped schema diff", text);
  });

  it("a repeated change at many places shows at most 60 diff lines and counts the places left", () => {
    const schema = (limit: number) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`p${index}`, { type: "string", maxLength: limit }])),
    });
    const two = (limit: number) => ["a", "b"].map((name) => ({ name, description: "d", inputSchema: schema(limit) }));
    const { text } = check(two(100), two(50));
    const diffLines = text.split("\n").filter((line) => line.startsWith("             ~ $.properties.p"));
    expect(diffLines).toHaveLength(60);
    expect(text).toContain("             ... the diff at 40 more places\n");
  });

  it("two tools moving between different $schema URIs are not the same change", () => {
    const { text } = check(
      tools(
        (index) => (index === 0 ? "http://json-schema.org/draft-06/schema#" : DRAFT7),
        () => 100,
      ),
      tools(
        () => DRAFT2020,
        () => 100,
      ),
    );
    expect(text).toContain("8 tools: tool_1, tool_2,");
    expect(text).toContain('~ $.$schema: "http://json-schema.org/draft-06/schema#" -> "https://json-schema.org/draft/2020-12/schema"');
  });
});
