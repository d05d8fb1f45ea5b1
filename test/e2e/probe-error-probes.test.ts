// End to end: `run --error-probes` sends one bad argument at a time to every read-only tool, and P4
// judges the answers. Tools that are not read-only are never called.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { calls, probeLaunch, readCallLog } from "../fixtures/servers/probe/harness.js";
import { type CliResult, cliPath, runCli, tempDir } from "./helpers.js";

interface Finding {
  rule: string;
  tool: string;
  message: string;
}

let result: CliResult;
let report: { findings: Finding[]; probes: { tool: string; variant: string; param: string; status: string; origin: string }[] };
let received: [string, Record<string, unknown>][];

const p4 = (tool: string) => report.findings.filter((finding) => finding.tool === tool && finding.rule === "P4").map((finding) => finding.message);

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
  const dir = tempDir();
  const callLog = join(dir, "calls.log");
  result = await runCli(["run", "--error-probes", "--pass-env", "PROBE_CALL_LOG", "--json", "r.json", "--", ...probeLaunch], {
    cwd: dir,
    env: { PROBE_CALL_LOG: callLog },
  });
  report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
  received = calls(readCallLog(callLog));
}, 60_000);

describe("run --error-probes", () => {
  it("works without a fixtures file and sends only to read-only tools", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(report.probes.every((entry) => entry.origin === "error_probe")).toBe(true);
    const tools = new Set(received.map(([tool]) => tool));
    for (const tool of ["delete_record", "append_note", "rename_record"]) expect(tools.has(tool), tool).toBe(false);
    // Tools without parameters get no error probe, so the hanging and freezing tools are never called.
    expect(tools.has("slow_export") || tools.has("freeze")).toBe(false);
  });

  it("sends a missing required argument, a wrong type, an invalid enum value and an unknown value", () => {
    expect(report.probes.filter((entry) => entry.tool === "get_record_helpful").map((entry) => [entry.variant, entry.param])).toEqual([
      ["missing_required", "record_id"],
      ["wrong_type", "record_id"],
      ["invalid_enum", "view"],
      ["unknown_value", "record_id"],
    ]);
    expect(received).toContainEqual(["get_record_helpful", {}]);
    expect(received).toContainEqual(["get_record_helpful", { record_id: 12345 }]);
    expect(received).toContainEqual(["get_record_helpful", { record_id: "<record_id>", view: "mcp-lint-invalid-choice" }]);
    expect(received).toContainEqual(["get_record_helpful", { record_id: "mcp-lint-does-not-exist-0000" }]);
    expect(received).toContainEqual(["read_big_file", { path: "/mcp-lint/does/not/exist.txt" }]);
  });

  it("flags the stack trace, the opaque error and the error as a success on every probe", () => {
    expect(p4("get_record_trace")).toHaveLength(3);
    expect(p4("get_record_trace").every((message) => message.includes("leaks a stack trace"))).toBe(true);
    expect(p4("get_record_opaque").every((message) => message.includes("says only that something failed"))).toBe(true);
    expect(p4("get_record_as_success").every((message) => message.includes("no isError"))).toBe(true);
  });

  it("flags invalid arguments accepted, but not a success on an unknown value", () => {
    expect(p4("get_record_lenient")).toEqual([
      'The error probe (missing required "record_id") was accepted without an error.',
      'The error probe (wrong type for "record_id") was accepted without an error.',
    ]);
  });

  it("stays silent on the tool whose errors name the argument and what it expects", () => {
    expect(p4("get_record_helpful")).toEqual([]);
  });

  it("judges only P4: answers to made-up arguments are not measured", () => {
    expect(report.findings.filter((finding) => /^P[1235]$|^format-parity$/.test(finding.rule))).toEqual([]);
  });
});
