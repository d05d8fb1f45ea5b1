// mcp-lint eval end to end without a model: the real Claude Code (test/clients, pinned) runs each
// task against the real npm servers, direct and behind mcp-lint proxy, with its model endpoint at a
// loopback fake (fixtures/eval/scripted-model.mjs) that plays each task's scripted policy and gives
// up on a result over 100,000 characters. Setup, both arms, checking, resuming and the report are
// exercised; nothing leaves the machine but the npm install of the servers.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientsDir, prepareClients, runs } from "./crosscheck-clients.js";
import { readResults } from "./eval-results.js";
import { repo, runCli, tempDir } from "./helpers.js";
import { startModel as startScriptedModel } from "./eval-model.js";

const claude = join(clientsDir, "node_modules/.bin/claude");

/** The fake model, over the task file `eval --setup` wrote. */
const startModel = (tasksFile: string) => startScriptedModel(tasksFile, ["--cap", "100000"]);

describe("eval with the real Claude Code and a scripted model", () => {
  const root = tempDir();
  const dir = join(root, "eval");
  // Where setup records the folder (the user's config folder), kept apart from the real one.
  const config = join(root, "config");
  let model: Awaited<ReturnType<typeof startModel>> | undefined;
  let setupResult: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    prepareClients(["claude-code"]);
    // The servers are installed with the clients (test/clients); setup finds them there and installs nothing.
    mkdirSync(join(dir, "servers"), { recursive: true });
    symlinkSync(join(clientsDir, "node_modules"), join(dir, "servers", "node_modules"));
    setupResult = await runCli(["eval", "--setup", dir], { cwd: repo, env: { XDG_CONFIG_HOME: config } });
    if (setupResult.code === 0) model = await startModel(join(dir, "tasks.json"));
  }, 600_000);
  afterAll(() => model?.close());
  const env = () => ({ ANTHROPIC_BASE_URL: model?.url ?? "", ANTHROPIC_API_KEY: "sk-ant-eval-dummy", XDG_CONFIG_HOME: config });

  it("--setup writes the task set, the sandbox and the servers", () => {
    expect(setupResult.code, setupResult.stderr).toBe(0);
    expect(setupResult.stderr).toContain("servers are installed in");
    const set = JSON.parse(readFileSync(join(dir, "tasks.json"), "utf8"));
    expect(set.tasks.filter((task: { split: string }) => task.split === "test").length).toBeGreaterThanOrEqual(15);
    expect(existsSync(join(dir, "sandbox"))).toBe(true);
    for (const server of set.servers) expect(existsSync(join(dir, "servers/node_modules", server.package, server.entry)), server.package).toBe(true);
  });

  it("a task over the agent's cap fails direct and succeeds behind the proxy by paging; a task within it succeeds in both", async () => {
    if (!runs("claude-code")) return;
    const result = await runCli(["eval", "--run", dir, "--agent", claude, "--tasks", `${OVERFLOW_TASK},${SMALL_TASK}`], { cwd: repo, env: env() });
    expect(result.code, result.stderr).toBe(0);
    const lines = readResults(dir);
    const outcome = (task: string, arm: string) => lines.find((line) => line.task === task && line.arm === arm);
    expect(outcome(OVERFLOW_TASK, "direct")?.success, JSON.stringify(outcome(OVERFLOW_TASK, "direct"))).toBe(false);
    expect(outcome(OVERFLOW_TASK, "proxy")?.success, JSON.stringify(outcome(OVERFLOW_TASK, "proxy"))).toBe(true);
    // Paging takes more than one call: the first page, then the one the answer is on.
    expect(outcome(OVERFLOW_TASK, "proxy")?.toolCalls).toBeGreaterThanOrEqual(2);
    expect(outcome(SMALL_TASK, "direct")?.success, JSON.stringify(outcome(SMALL_TASK, "direct"))).toBe(true);
    expect(outcome(SMALL_TASK, "proxy")?.success, JSON.stringify(outcome(SMALL_TASK, "proxy"))).toBe(true);
    for (const line of lines) {
      // The direct arm's failure is the task's (the result over the cap), not the agent's own.
      expect(line.infrastructure, JSON.stringify(line)).toBe(false);
      expect(line.agent).toBe("claude");
      expect(line.tokens).toBeGreaterThan(0);
      expect(line.turns).toBeGreaterThanOrEqual(2);
    }
    expect(lines).toHaveLength(4);
  }, 600_000);

  it("a second run skips the finished runs and adds only the new ones", async () => {
    if (!runs("claude-code")) return;
    const again = await runCli(["eval", "--run", dir, "--agent", claude, "--tasks", `${OVERFLOW_TASK},${SMALL_TASK}`, "--arms", "direct"], {
      cwd: repo,
      env: env(),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("eval: 0 runs done, 2 finished before and skipped");
    expect(readResults(dir)).toHaveLength(4);
    const more = await runCli(["eval", "--run", dir, "--agent", claude, "--tasks", SMALL_TASK, "--runs", "2", "--arms", "direct"], { cwd: repo, env: env() });
    expect(more.stdout).toContain("eval: 1 runs done, 1 finished before and skipped");
    expect(readResults(dir)).toHaveLength(5);
  }, 600_000);

  it("--report prints the tables and writes the Markdown report and the SVG chart", async () => {
    if (!runs("claude-code")) return;
    const result = await runCli(["eval", "--report", dir], { cwd: repo });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/direct/);
    expect(result.stdout).toMatch(/proxy/);
    expect(readFileSync(join(dir, "report.md"), "utf8")).toMatch(/^#/m);
    const svg = readFileSync(join(dir, "success.svg"), "utf8");
    expect(svg.startsWith("<svg") || svg.startsWith("<?xml")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
  });
});

// Filled from the task set: one whose whole result overflows the cap, one that does not.
const OVERFLOW_TASK = "fs-app-log-last-line";
const SMALL_TASK = "fs-billing-port";
