// Precision on captured real servers (test/fixtures/upgrades/<pkg>/<version>.json): hidden text must never fire on them.
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
