// Precision on captured real servers (test/fixtures/upgrades/<pkg>/<version>.json): hidden text must never fire on them, and
// the tools S4 and S7 flag are the ones checked by hand.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintServer, message } from "../../../src/lint/index.js";

const root = join(import.meta.dirname, "../../fixtures/upgrades");
const captures = existsSync(root)
  ? readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) =>
        readdirSync(join(root, entry.name))
          .filter((file) => file.endsWith(".json"))
          .map((file) => join(entry.name, file)),
      )
  : [];

describe.skipIf(captures.length === 0)("captured real servers", () => {
  it.each(captures)("%s: no S8 finding, and every finding has a message", (file) => {
    const doc = JSON.parse(readFileSync(join(root, file), "utf8")) as { tools?: unknown[]; instructions?: string };
    const result = lintServer({ tools: doc.tools ?? [], instructions: doc.instructions ?? null });
    expect(result.findings.filter((finding) => finding.rule === "S8").map(message)).toEqual([]);
    for (const finding of result.findings) expect(message(finding)).not.toBe("");
  });
});

describe.skipIf(captures.length === 0)("captured server-filesystem releases", () => {
  const deprecated = captures.filter((file) => {
    if (!file.startsWith("server-filesystem/")) return false;
    const doc = JSON.parse(readFileSync(join(root, file), "utf8")) as { tools?: { name?: string; description?: string }[] };
    return (doc.tools ?? []).some((tool) => tool.name === "read_file" && tool.description?.includes("DEPRECATED") === true);
  });

  it.each(deprecated)("%s: S1 warns on the 13-word read_file (regression: read_text_file counted as three words)", (file) => {
    const doc = JSON.parse(readFileSync(join(root, file), "utf8")) as { tools?: unknown[] };
    const s1 = lintServer({ tools: doc.tools ?? [] }).findings.filter((finding) => finding.rule === "S1" && finding.tool === "read_file");
    expect(s1.map((finding) => [finding.severity, finding.args.reason, finding.args.words])).toEqual([["warning", "short", 13]]);
  });
});

// Every tool S4, S7 and annotation-missing report on these captures was read by hand and is true
// (null: the one server-level finding of a server that annotates nothing); a change here is a
// change of precision to check the same way.
const HAND_CHECKED: Record<string, Partial<Record<"S4" | "S7" | "annotation-missing", (string | null)[]>>> = {
  "server-filesystem/2026.1.14.json": {
    S4: ["read_file", "read_text_file", "list_directory", "list_directory_with_sizes"],
    S7: ["list_directory", "list_directory_with_sizes", "directory_tree"],
    "annotation-missing": [],
  },
  // The schemas of this release lost their properties: a tree with no parameters at all is still a tree.
  "server-filesystem/2025.7.1.json": { S4: [], S7: ["directory_tree"], "annotation-missing": [null] },
  "server-memory/2026.1.26.json": { S4: [], S7: ["read_graph"], "annotation-missing": [null] },
  // get-env and printEnv return all environment variables: the server's setup, not the user's data.
  "server-everything/2026.1.26.json": { S4: [], S7: [], "annotation-missing": [null] },
  "playwright-mcp/0.0.40.json": { S4: [], S7: ["browser_console_messages", "browser_network_requests"] },
  // 0.0.41 gave browser_console_messages an onlyErrors filter.
  "playwright-mcp/0.0.41.json": { S4: [], S7: ["browser_network_requests"], "annotation-missing": [] },
  "firecrawl-mcp/3.22.0.json": { S4: [], S7: [], "annotation-missing": [] },
  // port_forward and stop_port_forward send annotations with a title and no hint.
  "mcp-server-kubernetes/4.1.7.json": { S4: [], S7: [], "annotation-missing": ["kubectl_create", "port_forward", "stop_port_forward"] },
  "server-github/2025.4.8.json": { S4: [], S7: [], "annotation-missing": [null] },
  "notion-mcp-server/2.1.0.json": { S4: [], S7: [], "annotation-missing": [] },
  "exa-mcp-server/3.1.8.json": { "annotation-missing": ["company_research_exa"] },
};

describe.skipIf(captures.length === 0)("hand-checked S4, S7 and annotation-missing findings on captured servers", () => {
  it.each(Object.keys(HAND_CHECKED))("%s", (file) => {
    const doc = JSON.parse(readFileSync(join(root, file), "utf8")) as { tools?: unknown[]; instructions?: string };
    const result = lintServer({ tools: doc.tools ?? [], instructions: doc.instructions ?? null });
    for (const [rule, tools] of Object.entries(HAND_CHECKED[file] ?? {})) {
      expect(
        result.findings.filter((finding) => finding.rule === rule).map((finding) => finding.tool),
        rule,
      ).toEqual(tools);
    }
  });
});
