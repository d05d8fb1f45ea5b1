// Issue 12, item 7 (the Action's part): `lint: true` runs `mcp-lint run` on the same server after
// the lock check, between its own stop-commands tokens, with `lint-fail-on` and `fail-under`. Its
// findings and score go to the job summary, errors and warnings to annotations, its exit code to
// `lint-exit-code`, and the step exits with the worse of the two runs. A lint run without a usable
// report fails the step like the lock check does.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ActionResult, annotations, fakeAction, fixtureCommand, runAction } from "./action-harness.js";
import { cliPath, demoServer, pathWithout, repo, tempDir } from "./helpers.js";

const markdown = new MarkdownIt({ html: true, linkify: true });
const fixture = (name: string) => JSON.parse(readFileSync(join(repo, "test/fixtures/action/lint", `${name}.json`), "utf8")) as unknown;

function locked(spec: unknown): { workspace: string; command: string } {
  const workspace = tempDir();
  const command = fixtureCommand(workspace, "server", spec);
  const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${command}`], { cwd: workspace, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  return { workspace, command };
}

/** The step's outputs as a map. */
function outputs(result: ActionResult): Record<string, string> {
  return Object.fromEntries(
    result.outputs
      .trim()
      .split("\n")
      .map((line) => line.split("=") as [string, string]),
  );
}

/** The commands after the first resume line, up to the next stop: what the Action printed after that run. */
function afterRun(result: ActionResult, run: 0 | 1) {
  const { commands } = result.runner;
  const resumes = commands.flatMap((entry, index) => (entry.command === "resume-commands" ? [index] : []));
  const from = (resumes[run] ?? commands.length) + 1;
  const next = commands.findIndex((entry, index) => index >= from && entry.command === "stop-commands");
  return commands.slice(from, next < 0 ? undefined : next);
}

describe("lint: true on real fixture servers", () => {
  let good: { workspace: string; command: string };
  let poor: { workspace: string; command: string };
  beforeAll(() => {
    good = locked(fixture("good"));
    poor = locked(fixture("poor"));
  });

  it("passes a well-described server over fail-under, with its score in the summary", () => {
    const result = runAction({ command: good.command, lint: "true", "fail-under": "90" }, {}, good.workspace);
    expect(result.status, result.stdout).toBe(0);
    expect(outputs(result)).toEqual({ "lint-exit-code": "0", "exit-code": "0" });
    expect(annotations(result.runner)).toEqual([]);
    expect(result.summary).toContain("## mcp-lint lock --check\n\nExit code: **0** (passed)");
    expect(result.summary).toContain("## mcp-lint run\n\nExit code: **0** (passed)");
    expect(result.summary).toContain("Score: 100/100 (A) (fail-under 90), 1 tool checked, definitions ~89 tokens (estimated; static checks only)");
    expect(result.summary).toContain("No findings.");
    expect(result.summary).toContain("Step exit code: 0, the worst of the lock check (0) and the lint run (0).");
    // Each section renders as its own heading: the output block before it is closed.
    const html = markdown.render(result.summary);
    expect([...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((match) => match[1])).toEqual(["mcp-lint lock --check", "mcp-lint run"]);
    expect(html).toContain("<p>Step exit code: 0,");
    // Two runs, each between its own stop and resume lines.
    const { commands } = result.runner;
    expect(commands.map((entry) => entry.command)).toEqual(["stop-commands", "resume-commands", "stop-commands", "resume-commands"]);
    expect(commands[0]?.data).not.toBe(commands[2]?.data);
  });

  it("fails when the score is under fail-under even with lint-fail-on never, and annotates the findings", () => {
    const result = runAction({ command: poor.command, lint: "true", "lint-fail-on": "never", "fail-under": "90" }, {}, poor.workspace);
    expect(result.status, result.stdout).toBe(1);
    expect(outputs(result)).toEqual({ "lint-exit-code": "1", "exit-code": "1" });
    expect(result.summary).toContain("## mcp-lint lock --check\n\nExit code: **0** (passed)");
    expect(result.summary).toContain("## mcp-lint run\n\nExit code: **1** (failed: score 72 is under fail-under 90)");
    expect(result.summary).toContain("Score: 72/100 (C) (fail-under 90), 3 tools checked");
    expect(result.summary).toContain("Step exit code: 1, the worst of the lock check (0) and the lint run (1).");
    // The lint annotations come after the lint run's resume line and point at no file (a live server has none).
    expect(afterRun(result, 0)).toEqual([]);
    expect(afterRun(result, 1).map((entry) => [entry.command, entry.properties])).toEqual([
      ["error", { title: "mcp-lint run S1 (weather_lookup)" }],
      ["warning", { title: "mcp-lint run S2 (weather_lookup)" }],
      ["warning", { title: "mcp-lint run S1 (weather_list_stations)" }],
      // A list of stations with no input and no bound: S7 since lists that take no input are read for the user's data.
      ["warning", { title: "mcp-lint run S7 (weather_list_stations)" }],
    ]);
    expect(afterRun(result, 1)[1]?.data).toBe(
      'Parameter "id" has a vague name and no description. (at /inputSchema/properties/id) Fix: Use a specific name (user_id, not id) or describe the value the parameter expects.',
    );
    // The findings table and the lowest tool scores, one row each, rendered as text.
    const html = markdown.render(result.summary);
    expect(html).toContain("<td>warning</td>\n<td>S2</td>\n<td>weather_lookup</td>");
    expect(html).toContain("<td>weather_lookup</td>\n<td>73</td>\n<td>C</td>");
    // The info is annotation-missing under (server): no tool of the server is annotated.
    expect(result.summary).toContain("1 error, 3 warnings, 1 info.");
  });

  it("passes the same server with a lower bar, still annotating what it found", () => {
    const result = runAction({ command: poor.command, lint: "true", "lint-fail-on": "never", "fail-under": "70" }, {}, poor.workspace);
    expect(result.status, result.stdout).toBe(0);
    expect(outputs(result)).toEqual({ "lint-exit-code": "0", "exit-code": "0" });
    expect(annotations(result.runner).map((entry) => entry.command)).toEqual(["error", "warning", "warning", "warning"]);
  });

  it("fails on an error finding under the default lint-fail-on (error), with no fail-under", () => {
    const result = runAction({ command: poor.command, lint: "true" }, {}, poor.workspace);
    expect(result.status).toBe(1);
    expect(result.summary).toContain("Exit code: **1** (failed: findings at or above `error`)");
    expect(result.summary).toContain("Score: 72/100 (C), 3 tools");
  });

  it("exits with the worse run: a rug pull fails the step while the lint passes", () => {
    const workspace = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const result = runAction(
      { command: `node "${demoServer}"`, "pass-env": "MCP_LINT_DEMO_RUGPULL", lint: "true", "lint-fail-on": "never" },
      { MCP_LINT_DEMO_RUGPULL: "1" },
      workspace,
    );
    expect(result.status).toBe(1);
    expect(outputs(result)).toEqual({ "lint-exit-code": "0", "exit-code": "1" });
    // The lint run reads the rug-pulled server too (same command and environment): its S8 findings show.
    const lintTitles = afterRun(result, 1).map((entry) => entry.properties.title);
    expect(lintTitles).toContain("mcp-lint run S8 (get_weather)");
    expect(result.summary).toContain("Step exit code: 1, the worst of the lock check (1) and the lint run (0).");
  });

  it("shows hostile tool text from the lint run as text: no command runs, no markup renders", () => {
    const spec = {
      tools: [
        { name: "t", description: "plain", inputSchema: { type: "object" } },
        { name: "x\n::error title=pwned::lint", description: "<img src=https://evil.example/p.png> **bold** | cell", inputSchema: { type: "object" } },
      ],
    };
    const hostile = locked(spec);
    const written = fixtureCommand(hostile.workspace, "server", { ...spec, writeToAncestors: "\n::error title=pwned::direct\n" });
    // Written straight to the runner: only where the server gets no PID namespace (no unshare on PATH).
    const result = runAction({ command: written, lint: "true", "lint-fail-on": "never" }, { PATH: pathWithout(["unshare"]) }, hostile.workspace);
    expect(result.status, result.stdout).toBe(0);
    expect(result.runner.ignored.some((line) => line.includes("title=pwned::direct"))).toBe(true);
    for (const entry of annotations(result.runner)) {
      expect(entry.properties.title).not.toBe("pwned");
      expect(`${entry.properties.title}${entry.data}`).not.toMatch(/[\u0000-\u001f]/);
    }
    expect(annotations(result.runner).map((entry) => entry.properties.title)).toContain("mcp-lint run S1 (x\\u{A}::error title=pwned::lint)");
    const html = markdown.render(result.summary);
    expect(html).not.toMatch(/<img|<strong>bold|<a /);
  });
});

describe("lint: true on a remote server", () => {
  const SECRET = "hdr-secret-5e6f7a8b";
  let http: ChildProcess | null = null;
  let url = "";
  beforeAll(async () => {
    const spec = join(tempDir(), "remote.json");
    writeFileSync(spec, JSON.stringify(fixture("poor")));
    http = spawn(process.execPath, [join(repo, "test/fixtures/servers/catalog.mjs"), spec, "--http", "0", "--require-header", `X-Api-Key=${SECRET}`], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const port = await new Promise<number>((resolve, reject) => {
      http?.stdout?.once("data", (chunk: Buffer) => resolve(Number(/listening (\d+)/.exec(chunk.toString())?.[1])));
      http?.once("error", reject);
    });
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => {
    http?.kill();
  });

  it("reads the same url with the same header-env, and never shows the header's value", () => {
    const workspace = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--url", url, "--header-env", "X-Api-Key=MCP_KEY"], {
      cwd: workspace,
      encoding: "utf8",
      env: { ...process.env, MCP_KEY: SECRET },
    });
    expect(made.status, made.stderr).toBe(0);
    const result = runAction(
      { url, "header-env": "X-Api-Key=MCP_KEY", lint: "true", "fail-under": "90", "lint-fail-on": "never" },
      { MCP_KEY: SECRET },
      workspace,
    );
    expect(result.status, result.stdout).toBe(1);
    expect(outputs(result)).toEqual({ "lint-exit-code": "1", "exit-code": "1" });
    expect(result.summary).toContain("## mcp-lint lock --check\n\nExit code: **0** (passed)");
    expect(result.summary).toContain("Exit code: **1** (failed: score 72 is under fail-under 90)");
    expect(result.stdout + result.summary).not.toContain(SECRET);
  });
});

// Fake CLIs (see fakeAction): `lock` passes with a good report; `run` misbehaves.
const LOCK_OK = `import { writeFileSync } from "node:fs";
  const arg = (name) => process.argv[process.argv.indexOf(name) + 1];
  if (process.argv[2] === "lock") { writeFileSync(arg("--json"), JSON.stringify({ exit_code: 0, changes: [] })); process.exit(0); }`;
const lintReport = (findings: unknown[], score: number) =>
  JSON.stringify({
    version: 1,
    server: {},
    tools: 1,
    tokens_estimated: 10,
    findings,
    server_findings: [],
    score: { server: score, grade: "A", static_only: true, tools: {} },
  });

describe("a lint run without a usable report fails the step (exit 2)", () => {
  const workspace = tempDir();
  const cases: { name: string; run: string; says: string }[] = [
    { name: "exit 0 and no report", run: "process.exitCode = 0;", says: "mcp-lint exited 0 but the JSON report is missing" },
    {
      name: "exit 1 and a report that is not JSON",
      run: 'writeFileSync(arg("--json"), "{oops"); process.exitCode = 1;',
      says: "mcp-lint exited 1 but the JSON report is unreadable",
    },
    {
      name: "exit 0 and a report without findings",
      run: 'writeFileSync(arg("--json"), JSON.stringify({ version: 1, score: { server: 100 } }));',
      says: "mcp-lint exited 0 but the JSON report is unusable: it has no lists of findings",
    },
    {
      name: "exit 0 and an error finding",
      run: `writeFileSync(arg("--json"), ${JSON.stringify(lintReport([{ rule: "S1", severity: "error", tool: "t", path: null, message: "m", fix: "f" }], 90))});`,
      says: "mcp-lint exited 0 but the JSON report is unusable: its findings and score mean exit code 1 but mcp-lint exited 0",
    },
    {
      name: "exit 0 and a score under fail-under",
      run: `writeFileSync(arg("--json"), ${JSON.stringify(lintReport([], 40))});`,
      says: "its findings and score mean exit code 1 but mcp-lint exited 0",
    },
    { name: "killed by a signal", run: 'process.kill(process.pid, "SIGKILL");', says: "mcp-lint was ended by SIGKILL" },
  ];
  for (const { name, run, says } of cases) {
    it(name, () => {
      const result = runAction({ command: "node server.mjs", lint: "true", "fail-under": "50" }, {}, workspace, {
        actionPath: fakeAction(`${LOCK_OK}\n${run}`),
      });
      expect(result.status, result.stdout).toBe(2);
      expect(outputs(result)).toEqual({ "lint-exit-code": "2", "exit-code": "2" });
      const shown = annotations(result.runner);
      expect(shown).toHaveLength(1);
      expect(shown[0]?.properties).toEqual({ title: "mcp-lint run" });
      expect(shown[0]?.data).toContain(says);
      expect(shown[0]?.data).toContain("The lint run cannot be trusted, so the step fails.");
      expect(result.summary).toContain("## mcp-lint run\n\nExit code: **2** (error)");
      expect(result.summary).toContain("**No usable report:**");
      expect(result.summary).not.toContain("No findings.");
    });
  }

  it("an mcp-lint error in the lint run is its one line, exit 2", () => {
    const run = 'process.stderr.write("mcp-lint: could not start or initialize server\\n"); process.exitCode = 2;';
    const result = runAction({ command: "node server.mjs", lint: "true" }, {}, workspace, { actionPath: fakeAction(`${LOCK_OK}\n${run}`) });
    expect(result.status).toBe(2);
    expect(annotations(result.runner).map((entry) => entry.data)).toEqual(["mcp-lint: could not start or initialize server"]);
    expect(result.summary).toContain("No report: mcp-lint stopped on an error: mcp\\-lint\\: could not start");
  });

  it("skips the lint run when the lock check ended in an error", () => {
    const cli = 'process.stderr.write(process.argv[2] === "lock" ? "mcp-lint: no lock\\n" : "mcp-lint: lint ran\\n"); process.exitCode = 2;';
    const result = runAction({ command: "node server.mjs", lint: "true" }, {}, workspace, { actionPath: fakeAction(cli) });
    expect(result.status).toBe(2);
    expect(result.outputs).toBe("exit-code=2\n");
    expect(result.stdout).not.toContain("lint ran");
    expect(result.summary).toContain("## mcp-lint run\n\nSkipped: the lock check ended in an error, so the server was not linted.");
  });
});
