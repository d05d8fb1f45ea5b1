// End to end: a tool that hangs is cancelled at --probe-timeout and the other probes are reported; a
// server that stops answering altogether is stopped with its process group and the rest are not run.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { markedProcesses } from "../fixtures/servers/live/harness.js";
import { calls, probeLaunch, readCallLog } from "../fixtures/servers/probe/harness.js";
import { cliPath, runCli, tempDir, writeJson } from "./helpers.js";

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

async function probeRun(probes: unknown[], timeout: string) {
  const dir = tempDir();
  const callLog = join(dir, "calls.log");
  const fixtures = writeJson(dir, "fixtures.json", { version: 1, probes });
  // The folder in the server's argv finds its process from outside (inside its PID namespace its own pid is not the host's).
  const server = [...probeLaunch, dir];
  const result = await runCli(
    ["run", "--probe", fixtures, "--probe-timeout", timeout, "--pass-env", "PROBE_CALL_LOG", "--json", "r.json", "--fail-on", "never", "--", ...server],
    {
      cwd: dir,
      env: { PROBE_CALL_LOG: callLog },
    },
  );
  const report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8")) as {
    probes: { tool: string; label: string | null; status: string; reason: string | null; latency_ms: number | null }[];
  };
  return { result, report, log: readCallLog(callLog), dir };
}

describe("--probe-timeout", () => {
  it("cancels a hanging call with notifications/cancelled, records a timeout and reports the other probes", async () => {
    const { result, report, log } = await probeRun(
      [{ tool: "list_ids", label: "before" }, { tool: "slow_export" }, { tool: "list_ids", label: "after" }],
      "1.5",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(report.probes.map((entry) => [entry.label ?? entry.tool, entry.status])).toEqual([
      ["before", "ok"],
      ["slow_export", "timeout"],
      ["after", "ok"],
    ]);
    expect(report.probes[1]?.latency_ms).toBeGreaterThanOrEqual(1400);
    expect(result.stdout).toMatch(
      /\n {2}slow_export +timeout +1,5\d\d ms\n {6}no answer within 1\.5 s \(--probe-timeout\); the call was cancelled with notifications\/cancelled\n/,
    );
    expect(log).toContainEqual({ cancelled: "slow_export", reason: "no answer within 1.5 s (--probe-timeout)" });
    expect(calls(log).map(([tool]) => tool)).toEqual(["list_ids", "slow_export", "list_ids"]);
  });

  it("stops a server that no longer answers, kills its process group and reports the rest as not run", async () => {
    const { result, report, log, dir } = await probeRun(
      [{ tool: "list_ids" }, { tool: "freeze" }, { tool: "list_ids", label: "after" }, { tool: "list_projects" }],
      "1",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(report.probes.map((entry) => entry.status)).toEqual(["ok", "timeout", "not_run", "not_run"]);
    expect(report.probes[2]?.reason).toBe('the server stopped answering after the call to "freeze" timed out, so it was stopped');
    expect(result.stdout).toContain("2 called, 0 blocked, 0 skipped, 2 not run");
    expect(log.some((event) => event.started !== undefined)).toBe(true);
    expect(markedProcesses(dir)).toEqual([]);
  });
});
