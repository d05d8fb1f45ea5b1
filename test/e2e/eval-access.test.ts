// Issue 37 item 2, `eval` checks before it spends: without model access Claude Code answered "Not
// logged in", eval recorded every task as a failed one ("the agent ended with success"), the report
// showed 0% with a chart, and a later run with access skipped those tasks as done. Here the real
// Claude Code (test/clients) runs without a key, against endpoints on 127.0.0.1 that refuse, do not
// answer or answer an API error, and against the scripted model of eval.test.ts.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientsDir, prepareClients, runs } from "./crosscheck-clients.js";
import { readResults } from "./eval-results.js";
import { repo, runCli, tempDir } from "./helpers.js";
import { startModel as startScriptedModel } from "./eval-model.js";

const claude = join(clientsDir, "node_modules/.bin/claude");
const hostileAgent = join(repo, "test/fixtures/eval/hostile-agent.mjs");
const KEY = "sk-ant-eval-access-test-key-0123456789";
const FAILING_TASK = "fs-codename-file";
const GOOD_TASK = "fs-billing-port";

/** The scripted model, failing every request of `failTasks` with the API's overload error. */
const startModel = (tasksFile: string, failTasks: string[] = []) =>
  startScriptedModel(tasksFile, failTasks.length === 0 ? [] : ["--fail-task", failTasks.join(",")]);

/** An HTTP server on 127.0.0.1 with this handler; resolves to its URL. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** No model access from this environment: no key, no token, the default endpoint. */
const NO_ACCESS = { ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "", ANTHROPIC_BASE_URL: "" };

/** An eval folder set up with the servers of test/clients; its setup is recorded in `config`. */
async function setUp(dir: string, config: string): Promise<number | null> {
  mkdirSync(join(dir, "servers"), { recursive: true });
  symlinkSync(join(clientsDir, "node_modules"), join(dir, "servers", "node_modules"));
  return (await runCli(["eval", "--setup", dir], { cwd: repo, env: { XDG_CONFIG_HOME: config } })).code;
}

describe("eval --run checks the agent reaches its model before it spends", () => {
  const root = tempDir();
  const dir = join(root, "eval");
  const config = join(root, "config");
  let setupCode: number | null = null;
  const closers: (() => void)[] = [];
  beforeAll(async () => {
    prepareClients(["claude-code"]);
    setupCode = await setUp(dir, config);
  }, 600_000);
  afterAll(() => {
    for (const close of closers) close();
  });

  /** `eval --run` of the two tasks in the direct arm with the real Claude Code. */
  const evalRun = (env: NodeJS.ProcessEnv, more: string[] = [], at = dir) =>
    runCli(["eval", "--run", at, "--agent", claude, "--tasks", `${GOOD_TASK},${FAILING_TASK}`, "--arms", "direct", ...more], {
      cwd: repo,
      env: { XDG_CONFIG_HOME: config, ...env },
    });

  /** Asserts the run stopped with one `mcp-lint:` line, exit 2, printed nothing on stdout, and returns the line. */
  const stoppedLine = (result: Awaited<ReturnType<typeof runCli>>): string => {
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^mcp-lint: eval --run: /);
    expect(lines[0]).toMatch(/; nothing was run or recorded$/);
    return lines[0] as string;
  };

  it("the setup it runs on worked", () => {
    expect(setupCode).toBe(0);
  });

  it("without a key or login: exit 2, one line naming ANTHROPIC_API_KEY, and no results.jsonl made", async () => {
    if (!runs("claude-code")) return;
    const line = stoppedLine(await evalRun(NO_ACCESS));
    expect(line).toContain('the agent cannot reach its model "haiku" at https://api.anthropic.com');
    expect(line).toContain("Not logged in");
    expect(line).toContain("set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN");
    expect(existsSync(join(dir, "results.jsonl"))).toBe(false);
  }, 120_000);

  it("without a key or login: a results.jsonl there already is not touched, not even rewritten", async () => {
    if (!runs("claude-code")) return;
    const other = join(root, "with-results");
    expect(await setUp(other, config)).toBe(0);
    const file = join(other, "results.jsonl");
    const before = `${JSON.stringify({ task: GOOD_TASK, server: "filesystem", arm: "direct", run: 1, success: true, tokens: 1, turns: 1, toolCalls: 1, ms: 1, error: null, agent: "claude", model: "haiku" })}\n`;
    writeFileSync(file, before);
    const stamp = statSync(file);
    stoppedLine(await evalRun(NO_ACCESS, [], other));
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(statSync(file).mtimeMs).toBe(stamp.mtimeMs);
    expect(statSync(file).size).toBe(stamp.size);
  }, 120_000);

  it("an endpoint that refuses the connection: named, without the key, and nothing recorded", async () => {
    if (!runs("claude-code")) return;
    const { url, server } = await listen(() => {});
    await new Promise((done) => server.close(done));
    const line = stoppedLine(await evalRun({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }));
    expect(line).toContain(`the agent cannot reach its model "haiku" at ${url} (ANTHROPIC_BASE_URL)`);
    expect(line).toContain("ECONNREFUSED");
    expect(line).toContain(`check ANTHROPIC_API_KEY, the model name and that ${url} answers from here`);
    expect(line).not.toContain(KEY);
    expect(existsSync(join(dir, "results.jsonl"))).toBe(false);
  }, 120_000);

  it("an endpoint that takes the connection and never answers: the check gives up at its bound, not after Claude Code's retries", async () => {
    if (!runs("claude-code")) return;
    const { url, server } = await listen(() => {
      // Never answer.
    });
    closers.push(() => server.closeAllConnections());
    closers.push(() => server.close());
    const line = stoppedLine(await evalRun({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }, ["--agent-timeout", "5"]));
    expect(line).toContain(`at ${url} (ANTHROPIC_BASE_URL): no answer within 5 s;`);
    expect(existsSync(join(dir, "results.jsonl"))).toBe(false);
  }, 120_000);

  it("a key the endpoint refuses (HTTP 401): the API's message, never the key", async () => {
    if (!runs("claude-code")) return;
    const { url, server } = await listen((request, response) => {
      request.resume();
      request.on("end", () => {
        response
          .writeHead(401, { "content-type": "application/json" })
          .end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" }, request_id: "req_401" }));
      });
    });
    closers.push(() => server.close());
    const line = stoppedLine(await evalRun({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }));
    expect(line).toContain(`the agent cannot reach its model "haiku" at ${url}`);
    expect(line).toMatch(/api_error/);
    expect(line).not.toContain(KEY);
    expect(existsSync(join(dir, "results.jsonl"))).toBe(false);
  }, 120_000);

  it("an API error on one task: recorded as the agent's own failure, shown apart by --report, and run again on resume", async () => {
    if (!runs("claude-code")) return;
    const failing = await startModel(join(dir, "tasks.json"), [FAILING_TASK]);
    closers.push(failing.close);
    // Claude Code would retry the overload ten times over three minutes; the run passes it the setting that says not to.
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: failing.url, CLAUDE_CODE_MAX_RETRIES: "0" };
    const first = await evalRun(env, ["--pass-env", "CLAUDE_CODE_MAX_RETRIES"]);
    failing.close();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(
      "eval: 2 runs done, 0 finished before and skipped, 1 failed for the agent's own reasons (not counted; the next eval --run runs them again)",
    );
    expect(first.stderr).toMatch(
      new RegExp(`${FAILING_TASK} direct run 1: not counted, the agent failed on its own \\(the agent failed \\(api_error\\): API Error: 529`),
    );
    expect(first.stderr).not.toContain("ended with success");
    const lines = readResults(dir);
    expect(lines).toHaveLength(2);
    const failed = lines.find((line) => line.task === FAILING_TASK);
    expect(failed).toMatchObject({ success: false, infrastructure: true });
    expect(failed?.error).toMatch(/^the agent failed \(api_error\): API Error: 529 Overloaded/);
    expect(lines.find((line) => line.task === GOOD_TASK)).toMatchObject({ success: true, infrastructure: false, error: null });

    const report = await runCli(["eval", "--report", dir], { cwd: repo });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("agent claude, model haiku: 1 run, 1 not counted");
    expect(report.stdout).toMatch(/\nall +direct +1\/1 \(100%\)/);
    expect(report.stdout).toContain("1 run not counted: it failed for the agent's own reasons, not the task's; the next eval --run runs it again:");
    expect(report.stdout).toMatch(/\n {2}1x the agent failed \(api_error\): API Error: 529 Overloaded/);
    expect(readFileSync(join(dir, "success.svg"), "utf8")).toContain("all servers, direct: 1/1 (100.0%)");

    // The model answers again: the resumed run runs only the failed task, and it now counts.
    const model = await startModel(join(dir, "tasks.json"));
    closers.push(model.close);
    const again = await evalRun({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("eval: 1 runs done, 1 finished before and skipped; results in");
    const after = readResults(dir);
    expect(after).toHaveLength(3);
    expect(after[2]).toMatchObject({ task: FAILING_TASK, success: true, infrastructure: false });
    const last = await runCli(["eval", "--report", dir], { cwd: repo });
    expect(last.stdout).toContain("agent claude, model haiku: 2 runs\n");
    expect(last.stdout).toMatch(/\nall +direct +2\/2 \(100%\)/);
    expect(last.stdout).not.toContain("not counted");
  }, 600_000);
});

describe("eval --run with an agent that echoes its key in its errors", () => {
  const root = tempDir();
  const dir = join(root, "eval");
  const config = join(root, "config");
  let setupCode: number | null = null;
  beforeAll(async () => {
    prepareClients(["claude-code"]);
    setupCode = await setUp(dir, config);
  }, 600_000);
  const agent = `${process.execPath} ${hostileAgent}`;

  it("fails the access check: one inert line without the key, nothing recorded", async () => {
    expect(setupCode).toBe(0);
    const result = await runCli(["eval", "--run", dir, "--agent", agent, "--tasks", GOOD_TASK, "--pass-env", "HOSTILE_AGENT_FAIL_ACCESS"], {
      cwd: repo,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: "", HOSTILE_AGENT_FAIL_ACCESS: "1", XDG_CONFIG_HOME: config },
    });
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("API Error: 401 key [redacted] refused\\u{1B}[2J");
    expect(result.stderr).not.toContain(KEY);
    expect(result.stderr).not.toContain("\u001b");
    expect(existsSync(join(dir, "results.jsonl"))).toBe(false);
  }, 120_000);

  it("fails every run on its own: records them apart without the key, and stops after three in a row", async () => {
    expect(setupCode).toBe(0);
    const result = await runCli(["eval", "--run", dir, "--agent", agent, "--tasks", `${GOOD_TASK},${FAILING_TASK}`], {
      cwd: repo,
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: "", XDG_CONFIG_HOME: config },
    });
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    // Three progress lines, then the one that says why it stopped.
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(
      /^mcp-lint: eval --run: stopped after 3 runs in a row failed for the agent's own reasons \(the last: the agent failed \(api_error\): API Error: 401 key \[redacted\] refused.*\); 3 runs done, 1 left; they are kept apart in .*results\.jsonl, and the next eval --run runs them again$/,
    );
    for (const line of lines) {
      expect(line.startsWith("::")).toBe(false);
      expect(line).not.toMatch(/[\u0000-\u001f]/);
    }
    expect(result.stderr).not.toContain(KEY);
    const text = readFileSync(join(dir, "results.jsonl"), "utf8");
    expect(text).not.toContain(KEY);
    const recorded = readResults(dir);
    expect(recorded).toHaveLength(3);
    for (const line of recorded) expect(line).toMatchObject({ success: false, infrastructure: true });
    expect(recorded[0]?.error).toBe("the agent failed (api_error): API Error: 401 key [redacted] refused\u001b[2J");
    // The report shows them apart, inert.
    const report = await runCli(["eval", "--report", dir], { cwd: repo });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain("no task result to count");
    expect(report.stdout).toContain("  3x the agent failed (api_error): API Error: 401 key [redacted] refused\\u{1B}[2J");
    expect(report.stdout).not.toContain("%");
  }, 120_000);
});
