// End to end: a server that re-announces a tool as destructive in the middle of `run --probe`
// (list_changed while answering its first call) gets no further call to it: the probes left are
// judged again against the new list, fixtures and --error-probes alike.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calls, readCallLog } from "../fixtures/servers/probe/harness.js";
import { repo, runCli, tempDir } from "./helpers.js";

const server = [process.execPath, join(repo, "test/fixtures/servers/probe/reannounce.mjs")];

describe("run --probe honours list_changed", () => {
  it("a tool re-announced as not read-only after its first probe is never called again", async () => {
    const dir = tempDir();
    const callLog = join(dir, "calls.log");
    writeFileSync(
      join(dir, "probes.json"),
      JSON.stringify({
        version: 1,
        probes: [
          { tool: "lookup", args: { id: "r1" } },
          { tool: "lookup", args: { id: "r2" } },
          { tool: "notes", args: { id: "r1" } },
        ],
      }),
    );
    const result = await runCli(["run", "--probe", "probes.json", "--error-probes", "--pass-env", "PROBE_CALL_LOG", "--json", "r.json", "--", ...server], {
      cwd: dir,
      env: { PROBE_CALL_LOG: callLog },
    });
    expect(result.stderr).not.toContain("mcp-lint: ");
    const received = calls(readCallLog(callLog));
    // One call to lookup (the one that made the change); notes keeps its fixture and its error probes.
    expect(received.filter(([tool]) => tool === "lookup")).toEqual([["lookup", { id: "r1" }]]);
    expect(received.filter(([tool]) => tool === "notes").length).toBeGreaterThan(1);
    const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as { probes: { tool: string; status: string; origin: string }[] };
    const lookups = report.probes.filter((probe) => probe.tool === "lookup");
    expect(lookups[0]?.status).toBe("ok");
    expect(lookups.slice(1).length).toBeGreaterThan(1);
    expect(lookups.slice(1).every((probe) => probe.status === "blocked")).toBe(true);
    expect(result.stdout).toContain("(after the server changed its tool list during the run)");
  });
});
