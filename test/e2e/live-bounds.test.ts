// Issue 9, item 10 and issue 11, item 1: big inputs and time bounds. Bytes are counted on the
// server's stdout (and on HTTP bodies and event-stream events) before the SDK buffers them: a 50 MB
// message is refused at the 32 MiB cap at once, and a 16 MB list is read in linear time. The whole
// run has a deadline apart from --timeout, and start-up has a bound of its own. The CLI runs are
// through dist/cli.js; the deadline and start-up bound (not CLI flags yet) through dist/connect,
// against the same real stdio fixtures.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";
import { expectOneLineError, fixture, startHttpFixture, stopAllHttpFixtures } from "../fixtures/servers/live/harness.js";

type Launch = typeof import("../../src/connect/launch.js");
type Stdio = typeof import("../../src/connect/stdio.js");
type TargetModule = typeof import("../../src/connect/target.js");
type RedactModule = typeof import("../../src/text/redact.js");

const node = process.execPath;

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(async () => {
  await stopAllHttpFixtures();
});

const sizeError = /larger than 32 MiB/;

describe("big inputs over stdio", () => {
  it("huge-output: a 50 MB message is refused at the 32 MiB cap, before --timeout", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--", node, fixture("huge-output.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(sizeError);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    // Before: 16.8 s idle and 67 s on a busy 2-core machine, then a timeout instead of this error.
  }, 60_000);

  it("a 16 MB list is read and locked within a 10 s --timeout", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "10", "--pass-env", "FIXTURE_HUGE_MB", "--", node, fixture("huge-output.mjs")], {
      cwd: dir,
      env: { FIXTURE_HUGE_MB: "16" },
    });
    expect(result.code, result.stderr.slice(0, 2000)).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8")) as { tools: Record<string, { definition: { description: string } }> };
    expect(lock.tools.huge?.definition.description.length).toBe(16 * 1024 * 1024);
  }, 60_000);
});

describe("big inputs over HTTP", () => {
  it("SSE fallback: a 50 MB event is refused with the size error", async () => {
    const server = await startHttpFixture(["--sse-only", "--huge", "50"]);
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "20", "--url", server.url], { cwd: dir });
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(sizeError);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  }, 60_000);

  it("SSE fallback: two 17 MB pages on one event stream (34 MB in all) are read: the cap is per message", async () => {
    const server = await startHttpFixture(["--sse-only", "--huge", "17", "--huge-count", "2", "--pages", "4"]);
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "20", "--json", "report.json", "--url", server.url], { cwd: dir });
    expect(result.code, result.stderr.slice(0, 2000)).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8")) as { tools: Record<string, unknown> };
    expect(Object.keys(lock.tools)).toEqual(["get_time", "get_weather", "huge_1", "huge_2"]);
  }, 90_000);
});

describe("time bounds (connect API)", () => {
  async function connectApi(): Promise<{ launch: Launch; stdio: Stdio; target: TargetModule; redact: RedactModule }> {
    const load = (path: string) => import(join(repo, "dist/connect", path));
    return {
      launch: (await load("launch.js")) as Launch,
      stdio: (await load("stdio.js")) as Stdio,
      target: (await load("target.js")) as TargetModule,
      redact: (await import(join(repo, "dist/text/redact.js"))) as RedactModule,
    };
  }

  it("slow-pages: every page answers within --timeout, and the overall deadline stops the run with a line naming both", async () => {
    const { launch, stdio, target: targets, redact } = await connectApi();
    const target = targets.resolveTarget({ command: [node, fixture("slow-pages.mjs"), "300"], url: null, headers: [], headerEnv: [], passEnv: [] }, {});
    if (target.kind !== "stdio") throw new Error("expected a stdio target");
    const { server } = launch.launchStdioServer(target);
    const run = stdio.snapshotFromStdio(target, server, { timeoutMs: 5_000, deadlineMs: 2_000, clientVersion: "test", redactor: redact.makeRedactor([]) });
    await expect(run).rejects.toThrow(/did not finish within its overall deadline of 2 s \(stopped at tools\/list page \d+\); raise --deadline SECONDS/);
    const pid = server.transport.pid as number;
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("slow-start: start-up has its own bound, apart from the per-request --timeout", async () => {
    const { launch, stdio, target: targets, redact } = await connectApi();
    const target = targets.resolveTarget({ command: [node, fixture("slow-start.mjs"), "1500"], url: null, headers: [], headerEnv: [], passEnv: [] }, {});
    if (target.kind !== "stdio") throw new Error("expected a stdio target");
    const options = { timeoutMs: 500, clientVersion: "test", redactor: redact.makeRedactor([]) };
    const slow = launch.launchStdioServer(target);
    const snapshot = await stdio.snapshotFromStdio(target, slow.server, { ...options, startupTimeoutMs: 10_000 });
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
    const bounded = launch.launchStdioServer(target);
    await expect(stdio.snapshotFromStdio(target, bounded.server, options)).rejects.toThrow(/no answer to initialize within 0\.5 s.*--startup-timeout/);
  });
});
