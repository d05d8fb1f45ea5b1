// End to end through the built CLI: `run --probe` against the SDK fixture server whose tools answer the
// ways real tools do. Each probe rule fires on the right tool and stays silent on its near miss; the
// safety gate holds back what it must (the server's call log proves nothing else reached it); a hanging
// tool is cancelled and the run goes on; the score joins the measured waste.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { calls, type LoggedEvent, probeFixtures, probeLaunch, readCallLog } from "../fixtures/servers/probe/harness.js";
import { type CliResult, cliPath, runCli, tempDir } from "./helpers.js";

interface Finding {
  rule: string;
  severity: string;
  tool: string;
  message: string;
}
interface ProbeEntry {
  tool: string;
  label: string | null;
  status: string;
  reason: string | null;
  tokens_estimated: number | null;
  latency_ms: number | null;
  preview?: string;
  truncated?: boolean;
}

let result: CliResult;
let report: {
  findings: Finding[];
  probes: ProbeEntry[];
  score: { server: number; static_only: boolean; tools: Record<string, { waste: { cause: string; tokens: number; basis: string }[] }> };
};
let log: LoggedEvent[];

/** The findings of one rule on one tool, as [severity, message]. */
const on = (tool: string, rule: string) =>
  report.findings.filter((finding) => finding.tool === tool && finding.rule === rule).map((finding) => [finding.severity, finding.message]);
const probe = (tool: string, label: string | null = null) => report.probes.find((entry) => entry.tool === tool && entry.label === label);

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
  const dir = tempDir();
  const callLog = join(dir, "calls.log");
  result = await runCli(
    ["run", "--probe", probeFixtures("rules.json"), "--probe-timeout", "2", "--pass-env", "PROBE_CALL_LOG", "--json", "r.json", "--", ...probeLaunch],
    {
      cwd: dir,
      env: { PROBE_CALL_LOG: callLog },
    },
  );
  report = JSON.parse(readFileSync(join(dir, "r.json"), "utf8"));
  log = readCallLog(callLog);
}, 60_000);

describe("run --probe: the rules, end to end", () => {
  it("exits 1 on the P1 error and prints the probe table before the findings", () => {
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/\nProbes\n {2}read_big_file \(huge\) +ok +~34,510 tok {2}\d+ ms\n/);
    expect(result.stdout).toMatch(/\n {2}get_record_trace \(missing record\) +tool_error \(expected\) +~51 tok/);
    expect(result.stdout.indexOf("Probes")).toBeLessThan(result.stdout.indexOf("read_big_file\n"));
  });

  it("P1: a huge unpaged file is an error, a big page a warning, a first page nothing", () => {
    expect(on("read_big_file", "P1")).toEqual([["error", expect.stringContaining('Returned ~34,510 tokens (estimated; probe "huge"), over ~25,000')]]);
    expect(on("read_paged_file", "P1")).toEqual([["warning", expect.stringContaining('probe "big page"')]]);
    expect(report.findings.some((finding) => finding.rule === "P1" && finding.message.includes('"first page"'))).toBe(false);
  });

  it("P3: the unpaged file is a warning, search with a limit info, the page that says what is left nothing", () => {
    expect(on("read_big_file", "P3").map(([severity]) => severity)).toEqual(["warning"]);
    expect(on("search_logs", "P3").map(([severity]) => severity)).toEqual(["info"]);
    expect(on("read_paged_file", "P3")).toEqual([]);
  });

  it("P2: bare UUIDs are flagged, labelled records are not", () => {
    expect(on("list_ids", "P2").map(([severity]) => severity)).toEqual(["warning", "warning"]);
    expect(on("list_projects", "P2")).toEqual([]);
  });

  it("P4: a stack trace, Internal error and an error as a success are flagged; the helpful error is not", () => {
    expect(on("get_record_trace", "P4")).toEqual([["warning", expect.stringContaining("leaks a stack trace")]]);
    expect(on("get_record_opaque", "P4")).toEqual([["warning", expect.stringContaining('says only that something failed: "Internal error"')]]);
    expect(on("get_record_as_success", "P4")).toEqual([["warning", expect.stringContaining("error returned as a successful result (no isError)")]]);
    expect(on("get_record_helpful", "P4")).toEqual([]);
  });

  it("P5: a big answer without a concise mode is flagged; the tool with response_format is not", () => {
    expect(on("read_big_file", "P5").map(([severity]) => severity)).toEqual(["warning"]);
    expect(on("list_projects", "P5")).toEqual([]);
  });

  it("format-parity: fields only in structuredContent are reported with their paths; the full text passes", () => {
    expect(on("get_summary", "format-parity").map(([, message]) => message)).toEqual([
      expect.stringContaining('field "count" is not in the content text'),
      expect.stringContaining('field "owner.name" is not in the content text'),
    ]);
    expect(on("get_summary_full", "format-parity")).toEqual([]);
  });

  it("cancels the hanging tool at --probe-timeout with notifications/cancelled and runs the probes after it", () => {
    const hang = probe("slow_export", "hangs");
    expect(hang).toMatchObject({
      status: "timeout",
      reason: expect.stringContaining("no answer within 2 s (--probe-timeout); the call was cancelled with notifications/cancelled"),
    });
    expect(hang?.latency_ms).toBeGreaterThanOrEqual(1900);
    expect(hang?.latency_ms).toBeLessThan(6000);
    expect(probe("list_ids", "after the hang")?.status).toBe("ok");
    expect(log).toContainEqual({ cancelled: "slow_export", reason: "no answer within 2 s (--probe-timeout)" });
  });

  it("holds back what the gate must, and the server never sees it", () => {
    for (const label of ["should be blocked", "destructiveHint false", "string hint"]) {
      expect(report.probes.find((entry) => entry.label === label)).toMatchObject({
        status: "blocked",
        reason: expect.stringContaining('add "allow_destructive": true'),
      });
    }
    expect(probe("get_record_helpful", "no id, not expected")).toMatchObject({
      status: "blocked",
      reason: expect.stringContaining('missing required argument "record_id"'),
    });
    expect(probe("get_record_helpful", "wrong type")).toMatchObject({
      status: "blocked",
      reason: expect.stringContaining('argument at "/record_id" must be string'),
    });
    expect(probe("no_such_tool")?.status).toBe("blocked");
    expect(probe("get_record_helpful", "unset variable")).toMatchObject({
      status: "blocked",
      reason: expect.stringContaining("${MCP_LINT_TEST_UNSET_VARIABLE} is not set"),
    });
    expect(probe("freeze", "skipped")?.status).toBe("skipped");
    const received = calls(log);
    expect(received.map(([tool]) => tool)).not.toEqual(expect.arrayContaining(["delete_record"]));
    for (const tool of ["delete_record", "append_note", "rename_record", "no_such_tool", "freeze"])
      expect(
        received.some(([name]) => name === tool),
        tool,
      ).toBe(false);
    // Only the two expect_error probes of get_record_helpful reached it: no missing id, no number.
    expect(received.filter(([tool]) => tool === "get_record_helpful")).toEqual([
      ["get_record_helpful", { record_id: "no-such-record" }],
      ["get_record_helpful", {}],
    ]);
    // ${FIXTURES_DIR} is the fixtures file's folder.
    expect(received[0]).toEqual(["read_big_file", { path: `${probeFixtures("sandbox")}/big.txt` }]);
  });

  it("previews 400 characters of each response in the JSON report", () => {
    const big = probe("read_big_file", "huge");
    expect(big?.preview?.length).toBe(400);
    expect(big?.truncated).toBe(true);
    expect(big?.tokens_estimated).toBe(34_510);
  });

  it("scores with measured waste: the file dump is charged, the asked-for page with a note is not", () => {
    expect(report.score.static_only).toBe(false);
    expect(result.stdout).toContain("(estimated; static checks + probes)");
    expect(report.score.tools.read_big_file?.waste).toContainEqual({ cause: "P1", reason: "over_budget", path: null, tokens: 32_510, basis: "measured" });
    expect(report.score.tools.read_paged_file?.waste.some((item) => item.basis === "measured")).toBe(false);
    expect(report.score.tools.list_ids?.waste).toContainEqual(expect.objectContaining({ cause: "P2", basis: "measured" }));
    expect(result.stdout).toMatch(/\n {4}1 F {2}read_big_file +34,510-token response: ~32,510, P3 no paging hint: ~1,000/);
  });
});
