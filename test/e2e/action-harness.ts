// Runs action.yml's steps the way the GitHub runner does: expressions substituted, github.action_path
// set, each `run` step through bash with its env and working directory, GITHUB_STEP_SUMMARY,
// GITHUB_OUTPUT and RUNNER_TEMP pointing at files and folders of the workspace. Then reads the
// step's output with the runner's rules for workflow commands (stop-commands included), so a test
// sees exactly the annotations the runner would make.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chownSync, copyFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { createInterface } from "node:readline";
import { expect } from "vitest";
import { parse } from "yaml";
import { repo, tempDir } from "./helpers.js";

interface Step {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
}

export const action = parse(readFileSync(join(repo, "action.yml"), "utf8")) as Action;

/** A workflow command as the runner parsed it. */
export interface RunnerCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

/** What the runner ignored and what it ran. */
export interface RunnerView {
  commands: RunnerCommand[];
  /** Lines that look like commands but came while commands were stopped. */
  ignored: string[];
}

// The commands the runner registers (actions/runner ActionCommandManager).
const REGISTERED = new Set([
  "add-mask",
  "add-matcher",
  "add-path",
  "debug",
  "echo",
  "endgroup",
  "error",
  "group",
  "notice",
  "remove-matcher",
  "save-state",
  "set-env",
  "set-output",
  "stop-commands",
  "warning",
]);

// ActionCommand's mappings, undone in their order, `%25` last.
const unescapeData = (text: string) => text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
const unescapeProperty = (text: string) => text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");

/**
 * The runner's reading of a step's output (ActionCommand.TryParseV2 and the stop-commands state):
 * lines end at CR, LF or CRLF (StreamReader.ReadLine); leading whitespace is trimmed; `::name
 * k=v,...::data` is a command when `name` is registered; after `::stop-commands::TOKEN` only
 * `::TOKEN::` is one. The old `##[name]` form counts as a command too, so a test fails on it.
 */
export function runnerView(output: string): RunnerView {
  const commands: RunnerCommand[] = [];
  const ignored: string[] = [];
  let stopToken: string | null = null;
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const line = raw.trimStart();
    const legacy = line.startsWith("##[");
    if (!line.startsWith("::") && !legacy) continue;
    const end = legacy ? line.indexOf("]") : line.indexOf("::", 2);
    if (end < 0) continue;
    const info = line.slice(legacy ? 3 : 2, end);
    const space = info.indexOf(" ");
    const name = space < 0 ? info : info.slice(0, space);
    if (stopToken !== null) {
      if (!legacy && name.toLowerCase() === stopToken.toLowerCase()) {
        commands.push({ command: "resume-commands", properties: {}, data: "" });
        stopToken = null;
      } else {
        ignored.push(raw);
      }
      continue;
    }
    if (legacy) {
      commands.push({ command: `##[${name}]`, properties: {}, data: line.slice(end + 1) });
      continue;
    }
    if (!REGISTERED.has(name)) continue;
    const properties: Record<string, string> = {};
    if (space > 0) {
      for (const pair of info
        .slice(space + 1)
        .trim()
        .split(",")
        .filter(Boolean)) {
        const equals = pair.indexOf("=");
        if (equals > 0 && equals < pair.length - 1) properties[pair.slice(0, equals)] = unescapeProperty(pair.slice(equals + 1));
      }
    }
    const data = unescapeData(line.slice(end + 2));
    commands.push({ command: name, properties, data });
    if (name === "stop-commands") stopToken = data;
  }
  return { commands, ignored };
}

/** The annotations (error, warning, notice) the runner would show. */
export function annotations(view: RunnerView): RunnerCommand[] {
  return view.commands.filter((command) => ["error", "warning", "notice"].includes(command.command));
}

export interface ActionResult {
  status: number;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: string;
  runner: RunnerView;
  runnerTemp: string;
}

/** The `github` context values a test may set (`github.token`, `github.api_url`, ...); each is "" unless given. */
export type GithubContext = Partial<Record<"token" | "api_url" | "repository" | "event_path", string>>;

/** Run the Action's steps with these inputs and job environment in `workspace`. */
export function runAction(
  inputs: Record<string, string>,
  jobEnv: Record<string, string>,
  workspace: string,
  options: { actionPath?: string; user?: RunnerUser; github?: GithubContext } = {},
): ActionResult {
  const actionPath = options.actionPath ?? repo;
  const github: Record<string, string | undefined> = { ...options.github, action_path: actionPath };
  // Each step's outputs, as `steps.<id>.outputs.<name>` reads them (the runner gives each step its own file).
  const stepOutputs: Record<string, Record<string, string>> = {};
  const context = (expr: string): string => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input?.[1] !== undefined) return values[input[1]] ?? "";
    const field = /^github\.(\w+)$/.exec(expr)?.[1];
    if (field !== undefined && ["action_path", "token", "api_url", "repository", "event_path"].includes(field)) return github[field] ?? "";
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (output?.[1] !== undefined && output[2] !== undefined) return stepOutputs[output[1]]?.[output[2]] ?? "";
    throw new Error(`unexpected expression ${expr}`);
  };
  const expression = (text: string) => text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => context(expr));
  const values: Record<string, string> = {};
  // A default may itself be an expression (`${{ github.token }}`), as the runner evaluates it.
  for (const [name, spec] of Object.entries(action.inputs)) values[name] = inputs[name] ?? expression(spec.default ?? "");
  const runner = tempDir();
  const summary = join(runner, "summary.md");
  const outputFile = join(runner, "output.txt");
  const runnerTemp = join(runner, "temp");
  mkdirSync(runnerTemp);
  writeFileSync(summary, "");
  writeFileSync(outputFile, "");
  // The runner's own files belong to the user the job runs as.
  if (options.user !== undefined) for (const path of [runner, runnerTemp, summary, outputFile, workspace]) chownSync(path, options.user.uid, options.user.gid);
  let stdout = "";
  let stderr = "";
  let status = 0;
  let outputSeen = 0;
  for (const step of action.runs.steps) {
    // `inputs.X == 'Y'` runs only while every step before it succeeded (the implied success());
    // `${{ !cancelled() && inputs.X == 'Y' }}` runs after a failed step too.
    let afterFailure = false;
    if (step.if !== undefined) {
      const condition = /^(?:\$\{\{ (!cancelled\(\) && )?)?inputs\.([\w-]+) == '([^']*)'(?: \}\})?$/.exec(step.if);
      if (!condition || (condition[1] !== undefined) !== step.if.startsWith("${{")) throw new Error(`unexpected condition ${step.if}`);
      afterFailure = condition[1] !== undefined;
      if (values[condition[2] as string] !== condition[3]) continue;
    }
    if (status !== 0 && !afterFailure) continue;
    if (step.uses !== undefined) {
      // actions/setup-node: Node.js is already here.
      expect(step.uses).toMatch(/^actions\/setup-node@/);
      continue;
    }
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...jobEnv,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: outputFile,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: runnerTemp,
    };
    for (const [name, value] of Object.entries(step.env ?? {})) env[name] = expression(value);
    const scriptPath = join(runner, `step-${step.id ?? "x"}.sh`);
    writeFileSync(scriptPath, expression(step.run ?? ""));
    expect(step.shell).toBe("bash");
    const dir = expression(step["working-directory"] ?? ".");
    // The runner reads the step's stdout and stderr as they come, in one order: `2>&1` keeps that
    // order here, so stop-commands applies to both streams as it does on a runner. `| cat` makes
    // the step's output a real pipe, as the runner's is (Node would give a socket, which a process
    // cannot reopen through /proc/<pid>/fd/1 the way a server can reopen the runner's pipe).
    const shell = ["bash", "-c", 'set -o pipefail; bash --noprofile --norc -eo pipefail "$0" 2>&1 | cat', scriptPath];
    const user = options.user;
    const argv = user === undefined ? shell : ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--init-groups", "--", ...shell];
    if (user !== undefined) Object.assign(env, { HOME: user.home, USER: user.name, LOGNAME: user.name });
    const result = spawnSync(argv[0] as string, argv.slice(1), {
      cwd: isAbsolute(dir) ? dir : join(workspace, dir),
      env,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      timeout: 180_000,
    });
    stdout += result.stdout;
    stderr += result.stderr;
    // The composite fails with its first failed step; a step after it cannot make it pass.
    if (status === 0) status = result.status ?? 2;
    // The step's `name=value` lines (the Action writes no heredoc form).
    const written = readFileSync(outputFile, "utf8");
    const mine: Record<string, string> = {};
    for (const line of written.slice(outputSeen).split("\n")) {
      const equals = line.indexOf("=");
      if (equals > 0) mine[line.slice(0, equals)] = line.slice(equals + 1);
    }
    if (step.id !== undefined) stepOutputs[step.id] = mine;
    outputSeen = written.length;
  }
  return {
    status,
    stdout,
    stderr,
    summary: readFileSync(summary, "utf8"),
    outputs: readFileSync(outputFile, "utf8"),
    runner: runnerView(stdout),
    runnerTemp,
  };
}

/** A user other than the test's to run the job as (like a hosted runner's `runner`). */
export interface RunnerUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

export const fixtureServer = join(repo, "test/fixtures/action/server.mjs");

/** A fixture server spec file in `dir`, and the `command` input that starts the server with it. */
export function fixtureCommand(dir: string, name: string, spec: unknown): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(spec));
  return `node "${fixtureServer}" "${path}"`;
}

const catalogServer = join(repo, "test/fixtures/servers/catalog.mjs");
const configFixtures = join(repo, "test/fixtures/action/config");

/** A project with a client config of two catalog servers, and how to rug-pull one of them. */
export interface ConfigProject {
  dir: string;
  /** What the config's placeholders read: NOTES_DIR (where the specs are) and NOTES_TOKEN (beta's env). */
  env: Record<string, string>;
  /** Serve beta's rug-pulled spec (test/fixtures/action/config/beta-pulled.json) from now on. */
  pull(): void;
}

/**
 * `.mcp.json` in `dir` with two servers of test/fixtures/servers/catalog.mjs: `alpha` (its spec
 * path behind a `${NOTES_DIR}` placeholder) and `beta` (also an env entry from `${NOTES_TOKEN}`),
 * serving test/fixtures/action/config/alpha.json and beta.json copied into `dir/specs`.
 */
export function configProject(dir: string): ConfigProject {
  const specs = join(dir, "specs");
  mkdirSync(specs, { recursive: true });
  copyFileSync(join(configFixtures, "alpha.json"), join(specs, "alpha.json"));
  copyFileSync(join(configFixtures, "beta.json"), join(specs, "beta.json"));
  const config = {
    mcpServers: {
      alpha: { command: process.execPath, args: [catalogServer, "${NOTES_DIR}/alpha.json"] },
      beta: { command: process.execPath, args: [catalogServer, join(specs, "beta.json")], env: { NOTES_TOKEN: "${NOTES_TOKEN}" } },
    },
  };
  writeFileSync(join(dir, ".mcp.json"), `${JSON.stringify(config, null, 2)}\n`);
  return {
    dir,
    env: { NOTES_DIR: specs, NOTES_TOKEN: "notes-token-7c1d" },
    pull: () => copyFileSync(join(configFixtures, "beta-pulled.json"), join(specs, "beta.json")),
  };
}

/** A copy of the Action whose dist/cli.js is `fakeCli`, to drive each way a run can go wrong. */
export function fakeAction(fakeCli: string): string {
  const actionPath = tempDir();
  cpSync(join(repo, "action"), join(actionPath, "action"), { recursive: true });
  // run.mjs imports the report and text modules from the Action's own build (tsc's modules; the CLI's chunks are not needed).
  cpSync(join(repo, "dist"), join(actionPath, "dist"), { recursive: true, filter: (source) => !source.startsWith(join(repo, "dist", "chunks")) });
  writeFileSync(join(actionPath, "package.json"), '{"type": "module"}\n');
  writeFileSync(join(actionPath, "dist/cli.js"), fakeCli);
  symlinkSync(join(repo, "node_modules"), join(actionPath, "node_modules"));
  return actionPath;
}

/** A fixture server with one plain tool, locked in `workspace` (the baseline a hostile fixture is checked against). */
export function lockedPlainFixture(workspace: string): void {
  const clean = fixtureCommand(workspace, "clean", { tools: [{ name: "t", description: "plain", inputSchema: { type: "object" } }] });
  const made = spawnSync("bash", ["-c", `node "${join(repo, "dist/cli.js")}" lock -- ${clean}`], { cwd: workspace, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
}

/** A request the fake GitHub API received. */
export interface Recorded {
  method: string;
  path: string;
  authorization: string | null;
  accept: string | null;
  apiVersion: string | null;
  userAgent: string | null;
  body: { body?: string } | null;
}
/** A comment the fake GitHub API holds. */
export interface Comment {
  id: number;
  issue: number;
  body: string;
  user: { login: string; type: string };
}

/** The fake GitHub API (test/fixtures/action/fake-github.mjs) in its own process, and how to read and set its state. */
export class FakeGithub {
  child!: ChildProcess;
  url = "";
  async start(): Promise<void> {
    this.child = spawn(process.execPath, [join(repo, "test/fixtures/action/fake-github.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
    const line = await new Promise<string>((done) => createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).once("line", done));
    this.url = `http://127.0.0.1:${JSON.parse(line).port}`;
  }
  async state(): Promise<{ requests: Recorded[]; comments: Comment[] }> {
    return (await fetch(`${this.url}/_fake/state`)).json() as never;
  }
  async config(config: { fail?: number | null; user?: string | null; comments?: { issue: number; body: string; login?: string }[] }): Promise<void> {
    await fetch(`${this.url}/_fake/config`, { method: "POST", body: JSON.stringify(config) });
  }
  stop(): void {
    this.child.stdin?.end();
  }
}

/** An event payload file for pull request `number` (or any payload). */
export function eventFile(payload: unknown): string {
  const path = join(tempDir(), "event.json");
  writeFileSync(path, JSON.stringify(payload));
  return path;
}
