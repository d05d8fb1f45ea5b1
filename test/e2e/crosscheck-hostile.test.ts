// crosscheck against clients that misbehave: a stand-in for Claude Code (fixtures/crosscheck/fake-client.mjs)
// that hangs, floods its output, leaves a grandchild behind, sends a huge body, reports what it was
// given, shows hostile text or leaks its API key; and against a local process that forges what the
// client showed its model. The run must stay bounded, clean up, and keep secrets and escapes out.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repo, runCli, tempDir } from "./helpers.js";

const catalog = join(repo, "test/fixtures/servers/catalog.mjs");
const twoTools = join(repo, "test/fixtures/crosscheck/two-tools.json");
const fake = join(repo, "test/fixtures/crosscheck/fake-client.mjs");
const forger = join(repo, "test/fixtures/crosscheck/forger.mjs");

/** A one-line executable that runs the fake client in `mode`, as `--client-bin claude-code=...` takes it. */
function fakeBin(mode: string, extra = "-"): string {
  const path = join(tempDir(), "claude");
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${fake}" ${mode} "${extra}" "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

async function crosscheck(mode: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, extra = "-", dir = tempDir()) {
  const json = join(dir, "report.json");
  // A temporary folder of this run's own: the scratch folders crosscheck makes go there, and must be gone after.
  const scratch = join(dir, "tmp");
  mkdirSync(scratch);
  const result = await runCli(
    ["crosscheck", "--clients", "claude-code", "--client-bin", `claude-code=${fakeBin(mode, extra)}`, "--json", json, ...args, "--", "node", catalog, twoTools],
    { cwd: dir, env: { TMPDIR: scratch, ...env } },
  );
  const leftover = readdirSync(scratch);
  const report = existsSync(json) ? JSON.parse(readFileSync(json, "utf8")) : null;
  return { ...result, report, leftover, scratch, client: report?.clients?.[0] };
}

/** Processes on this machine whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

describe("crosscheck against a hostile client", () => {
  it("a client that never asks its model fails within --startup-timeout, as one finding", async () => {
    const started = Date.now();
    const run = await crosscheck("hang", ["--startup-timeout", "3"]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code).toBe(1);
    expect(run.client?.status).toBe("failed");
    expect(run.client?.findings.map((finding: { rule: string }) => finding.rule)).toEqual(["render-client-failed"]);
    expect(run.stdout).toContain("gave no tools within 3 s");
    expect(run.leftover).toEqual([]);
  }, 60_000);

  it("a client that floods stdout and stderr is bounded and ended", async () => {
    const run = await crosscheck("flood", ["--startup-timeout", "3"]);
    expect(run.code).toBe(1);
    expect(run.client?.status).toBe("failed");
    // The kept stderr tail is a few KB, not the flood.
    expect(run.stdout.length).toBeLessThan(10_000);
    expect(run.leftover).toEqual([]);
  }, 60_000);

  it("a grandchild the client detached does not outlive the run", async () => {
    const marker = `xc-orphan-${process.pid}-${Date.now()}`;
    const run = await crosscheck("orphan", [], {}, marker);
    expect(run.client?.status, run.stdout).toBe("compared");
    expect(processesWith(marker)).toEqual([]);
  }, 60_000);

  it("a request body over the bound is refused; the client then counts as failed, with no crash", async () => {
    const run = await crosscheck("huge");
    expect(run.code).toBe(1);
    expect(run.client?.status).toBe("failed");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("the client gets a scratch HOME and only the launch allowlist; its MCP config names values by variable", async () => {
    const secret = "xc-pass-env-secret-73f1";
    const run = await crosscheck("report", ["--pass-env", "XC_TOKEN"], { XC_TOKEN: secret, XC_OUTER_SECRET: "outer-value-9d2c" });
    const messages = (run.client?.findings ?? []).map((finding: { message: string }) => finding.message).join("\n");
    expect(messages).toContain("outer=false token=false base=true");
    const home = /home=([^"]+)/.exec(messages)?.[1] ?? "";
    expect(home.startsWith(join(run.scratch, "mcp-lint-crosscheck-"))).toBe(true);
    expect(messages).toContain("references=true");
    for (const text of [run.stdout, run.stderr, JSON.stringify(run.report)]) expect(text).not.toContain(secret);
    expect(run.leftover).toEqual([]);
  }, 60_000);

  it("escapes in what the client shows, and in its last error line, never reach the terminal raw", async () => {
    for (const mode of ["hostile", "crash"]) {
      const run = await crosscheck(mode);
      expect(run.report, run.stderr).not.toBeNull();
      for (const text of [run.stdout, run.stderr]) {
        expect(text).not.toMatch(/[\u001b\u0007\u202e]/);
      }
    }
  }, 60_000);
});

/** Run `node forger.mjs`: it finds the crosscheck whose command line holds `marker`, posts to its endpoint, prints the attempts. */
function runForger(marker: string, goFile: string): Promise<{ origin: string; shape: string; credential: string; status: number | null; body: string }[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [forger, marker, twoTools, goFile], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    child.on("error", fail);
    child.on("close", () => done(JSON.parse(out)));
  });
}

describe("crosscheck's model endpoint against forgery (issue 37, item 6)", () => {
  // Regression: the endpoint took any local request, so a process that never ran the client posted a copy of
  // tools/list and crosscheck reported it as what the client showed its model ("no differences", exit 0).
  it("a plain separate process that finds the endpoint and posts a forged copy first is refused; the client's own request is the capture", async () => {
    const dir = tempDir();
    const goFile = join(dir, "forged");
    // The client waits for the forger's posts, so the forged copy reaches the endpoint first.
    const [run, attempts] = await Promise.all([crosscheck("wait", [], {}, goFile, dir), runForger(dir, goFile)]);
    expect(attempts.length).toBe(6);
    for (const attempt of attempts) expect(attempt.status, JSON.stringify(attempt)).toBe(401);
    const anthropic = attempts.filter((attempt) => attempt.shape === "anthropic").map((attempt) => JSON.parse(attempt.body));
    for (const body of anthropic) expect(body).toEqual({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
    expect(run.client?.status, run.stdout).toBe("compared");
    expect(run.client?.shown).toBe(2);
    expect(run.client?.findings).toEqual([]);
    expect(run.client?.refused).toBe(6);
    expect(run.stdout).toMatch(/: 2 of 2 tools shown, no differences; its model endpoint refused 6 requests without the run's key \(/);
    expect(`${run.stdout}${JSON.stringify(run.report)}`).not.toContain("Forged copy");
    expect(run.code).toBe(0);
  }, 60_000);

  it("the run's key is new each run and appears in no output, report or file that stays, even when the client echoes it", async () => {
    const keys: string[] = [];
    for (const mode of ["leak", "leak-exit"]) {
      const dir = tempDir();
      const keyFile = join(dir, "key");
      const run = await crosscheck(
        mode,
        ["--sarif", join(dir, "report.sarif"), "--baseline", join(dir, "baseline.json"), "--update-baseline"],
        {},
        keyFile,
        dir,
      );
      const key = readFileSync(keyFile, "utf8");
      expect(key).toMatch(/^mcp-lint-[0-9a-f]{64}$/);
      keys.push(key);
      expect(run.report, run.stderr).not.toBeNull();
      const kept = readdirSync(dir)
        .filter((name) => name !== "key")
        .map((name) => join(dir, name))
        .filter((path) => !path.endsWith("tmp"))
        .map((path) => readFileSync(path, "utf8"));
      for (const text of [run.stdout, run.stderr, ...kept]) expect(text).not.toContain(key);
      // The client did echo it: where it would have shown, it is redacted.
      expect(`${run.stdout}${JSON.stringify(run.report)}`).toContain("[redacted]");
      expect(run.leftover).toEqual([]);
    }
    expect(keys[0]).not.toBe(keys[1]);
  }, 60_000);
});

describe("crosscheck usage", () => {
  it("skips a client that is not on PATH with one line, and is no error", async () => {
    const dir = tempDir();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    const result = await runCli(["crosscheck", "--", process.execPath, catalog, twoTools], { cwd: dir, env: { PATH: bin } });
    expect(result.code, result.stderr).toBe(0);
    const skippedLines = result.stdout.split("\n").filter((line) => line.includes(": skipped, "));
    expect(skippedLines).toHaveLength(4);
    expect(skippedLines[0]).toBe("Claude Code: skipped, claude is not on PATH (npm i -g @anthropic-ai/claude-code@2.1.332, or --client-bin claude-code=PATH)");
    expect(result.stdout).toContain("summary: no differences across 0 clients, 4 skipped");
  });

  it.each([
    [["--clients", "cursor"], /^mcp-lint: --clients: unknown client "cursor"; the clients are claude-code, codex, gemini-cli, inspector\n$/],
    [["--clients", "codex,codex"], /^mcp-lint: --clients: codex is named twice\n$/],
    [["--client-bin", "codex"], /^mcp-lint: --client-bin takes NAME=PATH/],
    [["--update-baseline"], /^mcp-lint: --update-baseline needs --baseline FILE\n$/],
    [["--baseline", "missing.json"], /^mcp-lint: --baseline missing\.json: no such file; create it with --update-baseline\n$/],
  ])("%j is a usage error: one line, exit 2, nothing started", async (flags, message) => {
    const result = await runCli(["crosscheck", ...flags, "--", process.execPath, catalog, twoTools], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("a baseline of the wrong shape is a usage error naming the file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "b.json"), '{"entries": 3}');
    const result = await runCli(["crosscheck", "--baseline", "b.json", "--", process.execPath, catalog, twoTools], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mcp-lint: --baseline b\.json: crosscheckBaseline must be 1; /);
  });
});
