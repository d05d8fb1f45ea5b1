/** The `eval` command: build the task folder (`--setup`), run the agent on each task direct and behind the proxy (`--run`), and report (`--report`). */

import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import shellQuote from "shell-quote";
import { findCommand } from "../connect/containment.js";
import { UsageError } from "../errors.js";
import { ACCESS_TIMEOUT_MS, checkModelAccess } from "../eval/access.js";
import { CREDENTIAL_VARIABLES, runAgent, secretValues } from "../eval/agent.js";
import { checkAnswer } from "../eval/check.js";
import { serverContainment, uncontainedDecision } from "../eval/containment.js";
import { summarize, reportMarkdown, reportText, successChartSvg } from "../eval/report.js";
import { appendResult, finishedKeys, parseResults, runKey } from "../eval/results.js";
import { buildSandbox } from "../eval/sandbox.js";
import { copySandbox, sandboxProblem } from "../eval/sandbox-copy.js";
import { checkSetupRecord, writeSetupRecord } from "../eval/setup-record.js";
import { EVAL_DESCRIPTIONS, taskSet } from "../eval/tasks.js";
import { entryProblem, taskSetProblem } from "../eval/trust.js";
import type { EvalArm, EvalResult, EvalServer, EvalTask, TaskSet } from "../eval/types.js";
import { isJsonObject } from "../json/value.js";
import { readJsonFile, readTextIfExists, writeFileSafely } from "../lock/io.js";
import { neutralize } from "../text/neutralize.js";
import { makeRedactor } from "../text/redact.js";
import type { Output } from "./source.js";

/** Flags of `mcp-lint eval`. */
export interface EvalFlags {
  mode: "setup" | "run" | "report";
  dir: string;
  split: "train" | "test" | "all";
  runs: number;
  agent: string;
  model: string;
  maxTurns: number;
  agentTimeoutMs: number;
  tasks: string[];
  arms: EvalArm[];
  passEnv: string[];
  markdown: string | null;
  svg: string | null;
  pidNamespace: boolean;
  /** `--allow-uncontained`: run with a model credential even where the servers get no PID namespace. */
  allowUncontained: boolean;
}

/** Variables an agent needs to reach its model, passed when set; `--pass-env` adds more. */
export const MODEL_VARIABLES = [...CREDENTIAL_VARIABLES, "ANTHROPIC_BASE_URL"] as const;

/** After this many runs in a row fail for the agent's own reasons, `eval --run` stops: the model went away, and each more run would only wait for it. */
const MAX_OWN_FAILURES_IN_A_ROW = 3;

/** The default folder `eval` works in. */
export const DEFAULT_EVAL_DIR = "mcp-lint-eval";

/** Run `eval`; returns the exit code. */
export async function runEval(flags: EvalFlags, output: Output): Promise<number> {
  const dir = resolve(flags.dir);
  if (flags.mode === "setup") return setup(dir, output);
  const set = await readTaskSet(dir);
  if (flags.mode === "run") {
    await checkTrusted(dir, set);
    return run(dir, set, flags, output);
  }
  return report(dir, set, flags, output);
}

async function setup(dir: string, output: Output): Promise<number> {
  const set = taskSet();
  await mkdir(dir, { recursive: true });
  await writeFileSafely(join(dir, "tasks.json"), `${JSON.stringify(set, null, 2)}\n`);
  await mkdir(join(dir, "descriptions"), { recursive: true });
  for (const server of set.servers) {
    const descriptions = EVAL_DESCRIPTIONS[server.id];
    if (server.descriptions !== null && descriptions !== undefined) {
      await writeFileSafely(join(dir, server.descriptions), `${JSON.stringify(descriptions, null, 2)}\n`);
    }
  }
  try {
    await buildSandbox(join(dir, "sandbox"));
  } catch (error) {
    throw new UsageError(`eval --setup: ${error instanceof Error ? error.message : String(error)}`);
  }
  const serversDir = join(dir, "servers");
  if (await installedAlready(serversDir, set.servers)) {
    output.err(`mcp-lint: eval: the ${set.servers.length} servers are installed in ${serversDir} already\n`);
  } else {
    output.err(`mcp-lint: eval: installing ${set.servers.length} servers from npm into ${serversDir}...\n`);
    await mkdir(serversDir, { recursive: true });
    const dependencies = Object.fromEntries(set.servers.map((server) => [server.package, server.version]));
    await writeFileSafely(join(serversDir, "package.json"), `${JSON.stringify({ private: true, dependencies }, null, 2)}\n`);
    await npmInstall(serversDir);
  }
  const record = await writeSetupRecord(dir, set);
  output.err(`mcp-lint: eval: recorded a digest of the task set and the servers' install in ${record}; eval --run refuses them once they differ\n`);
  const tests = set.tasks.filter((task) => task.split === "test").length;
  output.out(
    `eval: wrote ${join(dir, "tasks.json")} (${set.tasks.length} tasks, ${tests} in the test split), the sandbox and ${set.servers.length} servers in ${dir}\n` +
      `next: mcp-lint eval --run${dirArgument(dir)} (needs your model access: ANTHROPIC_API_KEY), then mcp-lint eval --report${dirArgument(dir)}\n`,
  );
  return 0;
}

/** The folder as the commands `eval` suggests name it: nothing for the default, else a space and the folder, quoted. */
function dirArgument(dir: string): string {
  const relative = dir.startsWith(`${process.cwd()}/`) ? dir.slice(process.cwd().length + 1) : dir;
  return relative === DEFAULT_EVAL_DIR ? "" : ` ${shellQuote.quote([relative])}`;
}

/** Whether every server is installed below `folder` at its pinned version (a second setup installs nothing). */
async function installedAlready(folder: string, servers: readonly EvalServer[]): Promise<boolean> {
  for (const server of servers) {
    const text = await readTextIfExists(join(folder, "node_modules", server.package, "package.json"));
    if (text === null) return false;
    try {
      if ((JSON.parse(text) as { version?: unknown }).version !== server.version) return false;
    } catch {
      return false;
    }
    if ((await readTextIfExists(join(folder, "node_modules", server.package, server.entry))) === null) return false;
  }
  return true;
}

/** Install the servers with npm, without their install scripts (none of them needs one to list or call tools). */
function npmInstall(folder: string): Promise<void> {
  return new Promise((done, fail) => {
    execFile(
      "npm",
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel", "error"],
      { cwd: folder, timeout: 600_000 },
      (error, _stdout, stderr) => {
        if (error === null) return done();
        const last = String(stderr).trim().split("\n").at(-1) ?? "";
        fail(new UsageError(`eval --setup: npm install in ${folder} failed${last === "" ? "" : `: ${last.slice(0, 200)}`}; check your npm registry access`));
      },
    );
  });
}

async function readTaskSet(dir: string): Promise<TaskSet> {
  const file = join(dir, "tasks.json");
  if ((await readTextIfExists(file)) === null)
    throw new UsageError(`eval: no ${file}; run mcp-lint eval --setup${dir === resolve(DEFAULT_EVAL_DIR) ? "" : ` ${dir}`} first`);
  const value = await readJsonFile(file, "eval task file");
  if (!isJsonObject(value) || value.version !== 1 || !Array.isArray(value.servers) || !Array.isArray(value.tasks)) {
    throw new UsageError(`eval: ${file} is not a task set of version 1; write it again with mcp-lint eval --setup`);
  }
  return value as unknown as TaskSet;
}

/**
 * Before anything of `--run` starts: the task file's servers run files of their own packages with
 * the task set's variables only (trust.ts), the task set and the install are those setup recorded,
 * and the sandbox is a folder with no link out of it. Each refusal is one line naming the file.
 */
async function checkTrusted(dir: string, set: TaskSet): Promise<void> {
  const file = join(dir, "tasks.json");
  const setup = `mcp-lint eval --setup${dirArgument(dir)}`;
  const stopped = "; nothing was run";
  const problem = taskSetProblem(set) ?? (await firstEntryProblem(join(dir, "servers"), set));
  if (problem !== null) throw new UsageError(`eval --run: ${file}: ${problem}; write it again with ${setup}${stopped}`);
  const record = await checkSetupRecord(dir);
  if (record.kind === "no-record") {
    throw new UsageError(
      `eval --run: eval --setup has not recorded ${dir} here (no ${record.file}); run ${setup} first: eval --run runs only what setup wrote${stopped}`,
    );
  }
  if (record.kind === "differs") {
    const path = join(dir, record.path);
    const how = record.now === "gone" ? "is gone" : record.now === "new" ? "is new" : "differs";
    throw new UsageError(
      record.part === "task set"
        ? `eval --run: ${path} ${how} since eval --setup wrote the task set; run ${setup} to write it again${stopped}`
        : `eval --run: ${path} ${how} since eval --setup recorded the servers' install; run ${setup} to record this install, or delete ${join(dir, "servers")} first to install the servers again${stopped}`,
    );
  }
  const sandbox = join(dir, "sandbox");
  const unsafe = await sandboxProblem(sandbox);
  if (unsafe !== null) {
    const fix = unsafe.startsWith("is a symbolic link") ? `remove the link and run ${setup} to build the sandbox again` : `run ${setup} to build it again`;
    throw new UsageError(`eval --run: the sandbox ${sandbox} ${unsafe}; ${fix}${stopped}`);
  }
}

async function firstEntryProblem(serversDir: string, set: TaskSet): Promise<string | null> {
  for (const server of set.servers) {
    const problem = await entryProblem(serversDir, server);
    if (problem !== null) return problem;
  }
  return null;
}

/** The mcp-lint CLI this run is, to start `mcp-lint proxy` for the proxied arm (a chunk sits in dist/chunks, a module in dist/eval). */
function cliPath(): string {
  return fileURLToPath(new URL("../cli.js", import.meta.url));
}

/**
 * The server command of one arm. Both arms start the server through `mcp-lint proxy`, so both
 * launch it alike: in a PID namespace of its own, with the minimal environment and only the task
 * set's variables (--pass-env), never the agent's. The direct arm has no lock and every fix off,
 * so the server's messages pass as sent; the proxy arm has the fixes and the task set's descriptions.
 */
export function serverCommand(
  server: EvalServer,
  arm: EvalArm,
  dir: string,
  sandbox: string,
  cli: string,
): { command: string; args: string[]; env: Record<string, string> } {
  const fill = (text: string) => text.replaceAll("{sandbox}", sandbox);
  const entry = join(dir, "servers", "node_modules", server.package, server.entry);
  const args = server.args.map(fill);
  const env = Object.fromEntries(Object.entries(server.env).map(([name, value]) => [name, fill(value)]));
  const fixes =
    arm === "direct"
      ? ["--results", "off", "--no-paging", "--no-errors"]
      : server.descriptions === null
        ? []
        : ["--descriptions", join(dir, server.descriptions)];
  // The proxy passes the server only what --pass-env names, like every launch.
  const passEnv = Object.keys(env).flatMap((name) => ["--pass-env", name]);
  return { command: process.execPath, args: [cli, "proxy", ...fixes, ...passEnv, "--", process.execPath, entry, ...args], env };
}

async function run(dir: string, set: TaskSet, flags: EvalFlags, output: Output): Promise<number> {
  const command = shellQuote.parse(flags.agent).filter((part): part is string => typeof part === "string");
  if (command.length === 0 || command.length !== shellQuote.parse(flags.agent).length) {
    throw new UsageError(`--agent takes a command and its arguments without shell operators, not ${JSON.stringify(flags.agent)}`);
  }
  // The agent runs in each run's sandbox: a relative path is made absolute here, and a missing agent stops the run before any result is written.
  const first = command[0] as string;
  if (first.includes("/")) command[0] = resolve(first);
  if ("code" in findCommand(command[0] as string, process.env.PATH)) {
    throw new UsageError(
      `--agent: cannot run ${JSON.stringify(first)} (not found or not executable); install Claude Code (npm i -g @anthropic-ai/claude-code) or give --agent PATH`,
    );
  }
  const known = new Set(set.tasks.map((task) => task.id));
  for (const id of flags.tasks) if (!known.has(id)) throw new UsageError(`--tasks: no task ${JSON.stringify(id)} in ${join(dir, "tasks.json")}`);
  const tasks = set.tasks.filter(
    (task) => (flags.split === "all" || task.split === flags.split) && (flags.tasks.length === 0 || flags.tasks.includes(task.id)),
  );
  if (tasks.length === 0) throw new UsageError(`eval --run: no task in the ${flags.split} split${flags.tasks.length > 0 ? " among --tasks" : ""}`);
  const resultsFile = join(dir, "results.jsonl");
  const previous = parseResults((await readTextIfExists(resultsFile)) ?? "", resultsFile);
  const agentName = basename(command[0] as string);
  const done = finishedKeys(previous);
  const passEnv: Record<string, string> = {};
  for (const name of [...MODEL_VARIABLES, ...flags.passEnv]) {
    const value = process.env[name];
    if (value !== undefined && value !== "") passEnv[name] = value;
  }
  // The credentials never show, in an error line either.
  const redactor = makeRedactor(secretValues(passEnv));
  output.redact = (text) => redactor.text(text);
  const pending: { task: EvalTask; server: EvalServer; arm: EvalArm; number: number }[] = [];
  let skipped = 0;
  for (const task of tasks) {
    const server = set.servers.find((candidate) => candidate.id === task.server);
    if (server === undefined) throw new UsageError(`eval: task ${task.id} names a server ${JSON.stringify(task.server)} the task set does not have`);
    for (let number = 1; number <= flags.runs; number++) {
      for (const arm of flags.arms) {
        if (done.has(runKey(task.id, arm, number, agentName, flags.model))) skipped++;
        else pending.push({ task, server, arm, number });
      }
    }
  }
  if (pending.length > 0) {
    // Said once, before any run: a server without a namespace could read the agent's key.
    const uncontained = await serverContainment(flags.pidNamespace, process.env.PATH);
    if (uncontained !== null) {
      const credentials = CREDENTIAL_VARIABLES.filter((name) => passEnv[name] !== undefined);
      const decision = uncontainedDecision(uncontained, credentials, flags.allowUncontained);
      if ("refuse" in decision) throw new UsageError(decision.refuse);
      output.err(decision.warn);
    }
    // Before the first run, and before results.jsonl is touched: can the agent reach its model at all?
    const problem = await checkModelAccess({
      command,
      model: flags.model,
      passEnv,
      timeoutMs: Math.min(ACCESS_TIMEOUT_MS, flags.agentTimeoutMs),
      pidNamespace: flags.pidNamespace,
    });
    if (problem !== null) throw new UsageError(problem);
  }
  const cli = cliPath();
  let ran = 0;
  let ownFailures = 0;
  let inARow = 0;
  for (const { task, server, arm, number } of pending) {
    const result = await runOne(dir, task, server, arm, number, { command, agentName, passEnv, cli }, flags);
    await appendResult(resultsFile, result);
    ran++;
    const figures = [
      result.tokens === null ? null : `${result.tokens} tokens`,
      result.turns === null ? null : `${result.turns} turns`,
      `${(result.ms / 1000).toFixed(1)} s`,
    ]
      .filter((part) => part !== null)
      .join(", ");
    const why = neutralize(result.error ?? "wrong answer");
    const outcome = result.success ? "success" : result.infrastructure ? `not counted, the agent failed on its own (${why})` : `failed (${why})`;
    output.err(`mcp-lint: eval: ${task.id} ${arm} run ${number}: ${outcome}, ${figures}\n`);
    if (!result.infrastructure) {
      inARow = 0;
      continue;
    }
    ownFailures++;
    inARow++;
    if (inARow >= MAX_OWN_FAILURES_IN_A_ROW && ran < pending.length) {
      throw new UsageError(
        `eval --run: stopped after ${inARow} runs in a row failed for the agent's own reasons (the last: ${result.error ?? "no reason given"}); ${ran} runs done, ${pending.length - ran} left; they are kept apart in ${resultsFile}, and the next eval --run runs them again`,
      );
    }
  }
  const notCounted = ownFailures === 0 ? "" : `, ${ownFailures} failed for the agent's own reasons (not counted; the next eval --run runs them again)`;
  output.out(`eval: ${ran} runs done, ${skipped} finished before and skipped${notCounted}; results in ${resultsFile}\n`);
  return 0;
}

async function runOne(
  dir: string,
  task: EvalTask,
  server: EvalServer,
  arm: EvalArm,
  number: number,
  agent: { command: string[]; agentName: string; passEnv: Record<string, string>; cli: string },
  flags: EvalFlags,
): Promise<EvalResult> {
  // Each run works on its own copy of the sandbox: a task that writes cannot change the next one.
  const scratch = await mkdtemp(join(tmpdir(), "mcp-lint-eval-"));
  try {
    const sandbox = join(scratch, "sandbox");
    await copySandbox(join(dir, "sandbox"), sandbox);
    const outcome = await runAgent({
      command: agent.command,
      prompt: task.prompt,
      model: flags.model,
      maxTurns: flags.maxTurns,
      timeoutMs: flags.agentTimeoutMs,
      server: serverCommand(server, arm, dir, sandbox, agent.cli),
      cwd: sandbox,
      scratch: join(scratch, "agent"),
      passEnv: agent.passEnv,
      pidNamespace: flags.pidNamespace,
      warn: () => {},
    });
    const infrastructure = outcome.ownFailure !== null;
    // The agent's own failure is not checked: its answer, if any, says nothing about the task.
    const checked = infrastructure || outcome.result === null ? { success: false, reason: outcome.error } : checkAnswer(task.check, outcome.result, sandbox);
    return {
      task: task.id,
      server: task.server,
      arm,
      run: number,
      success: outcome.error === null && checked.success,
      tokens: outcome.tokens,
      turns: outcome.turns,
      toolCalls: outcome.toolCalls,
      ms: outcome.ms,
      error: outcome.error ?? (checked.success ? null : (checked.reason ?? "wrong answer")),
      agent: agent.agentName,
      model: flags.model,
      infrastructure,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function report(dir: string, set: TaskSet, flags: EvalFlags, output: Output): Promise<number> {
  const resultsFile = join(dir, "results.jsonl");
  const text = await readTextIfExists(resultsFile);
  if (text === null) throw new UsageError(`eval --report: no ${resultsFile}; run mcp-lint eval --run first`);
  const summary = summarize(parseResults(text, resultsFile), set.tasks);
  output.out(reportText(summary));
  const markdown = flags.markdown ?? join(dir, "report.md");
  const svg = flags.svg ?? join(dir, "success.svg");
  await writeFileSafely(markdown, reportMarkdown(summary));
  await writeFileSafely(svg, successChartSvg(summary));
  output.err(`mcp-lint: eval: wrote ${markdown} and ${svg}\n`);
  return 0;
}
