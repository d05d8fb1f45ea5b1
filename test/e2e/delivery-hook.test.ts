// Issue 11, item 4, and issue 37, item 4: a failing pre-commit hook prints the command that comes
// next. Where its output is a terminal that is `mcp-lint lock --review` (each change shown, one key
// each); without one (pre-commit keeps a hook's output) it is `mcp-lint lock --accept-tool NAME`
// for each tool the check refused, read from the check's JSON report; never the bare `--accept`,
// which takes everything unread. The hook's entry (scripts/pre-commit-hook.mjs, bin
// mcp-lint-pre-commit) repeats only mcp-lint's own flags and the server command from the hook's
// args (src/report/next-command.ts). The real pre-commit run is in delivery.test.ts.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { jsonPath, nextStepHint, shellWord } from "../../scripts/pre-commit-hook.mjs";
import { configProject, fixtureCommand, fixtureServer } from "./action-harness.js";
import { cliPath, demoServer, repo, tempDir } from "./helpers.js";

const hook = join(repo, "scripts/pre-commit-hook.mjs");
const DEMO_ARGS = ["--pass-env", "MCP_LINT_DEMO_RUGPULL", "--", "node", demoServer];
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Run a command line in a pseudo-terminal (util-linux `script`), answering `y` at each review prompt. */
function inTerminal(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    let sent = 0;
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const asked = output.match(/\[y,n,j,q,\?\] /g)?.length ?? 0;
      for (; sent < asked; sent++) child.stdin.write("y");
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
  });
}

describe("nextStepHint", () => {
  it("on a terminal: the lock --review command, then commit the lock", () => {
    expect(nextStepHint(["--", "node", "my server.mjs"], { review: true })).toBe(
      "\nmcp-lint: the server no longer matches the lock. Review the changes on a terminal (each one is shown, and you accept it or keep it locked), then commit the lock:\n\n  mcp-lint lock --review -- node 'my server.mjs'\n\n",
    );
    const config = nextStepHint(["--config", ".vscode/mcp.json", "--server=my files"], { review: true });
    expect(config).toContain("mcp-lint: a server of the config no longer matches the lock.");
    expect(config).toContain("  mcp-lint lock --review --config .vscode/mcp.json --server 'my files'\n");
  });

  it("without one: --accept-tool for each refused name, quoted for the shell and made inert; never the bare --accept", () => {
    const hint = nextStepHint(["--", "node", "s.mjs"], { names: ["get_weather", "x; rm -rf ~\u001b[2J"], serverLevel: true });
    expect(hint).toContain("Read the changes above, then accept them one tool at a time and commit the lock:");
    expect(hint).toContain("  mcp-lint lock --accept-tool get_weather --accept-tool 'x; rm -rf ~\\u{1B}[2J' -- node s.mjs\n");
    expect(hint).toContain("The server's own changes (its instructions) are accepted only by --accept, once read.");
    expect(hint).not.toMatch(/mcp-lint lock --accept /);
    // No name to accept (warnings and info only): plain lock writes them.
    expect(nextStepHint(["--", "node", "s.mjs"], { names: [], serverLevel: false })).toContain(
      "none needs accepting (warnings and info are written as they are). Update the lock with this, then commit it:\n\n  mcp-lint lock -- node s.mjs\n",
    );
    // The report could not be read: NAME stands for each tool read.
    expect(nextStepHint(["--", "node", "s.mjs"], { names: null, serverLevel: false })).toContain(
      "accept each tool you have read (its name for NAME) and commit the lock:\n\n  mcp-lint lock --accept-tool NAME -- node s.mjs\n",
    );
  });

  it("says what it left out: other arguments, and a URL's user info and query", () => {
    const hint = nextStepHint(["--token", "sk_live_abc", "--url", "https://user:pw@mcp.example.com/mcp?key=secret"], { review: true });
    expect(hint).toContain("  mcp-lint lock --review --url 'https://USER:PASSWORD@mcp.example.com/mcp?QUERY'\n");
    expect(hint).toContain("Put back what shows as SECRET, USER:PASSWORD or QUERY from your pre-commit config");
    expect(hint).toContain("2 arguments that are not mcp-lint flags were left out.");
    expect(hint).not.toMatch(/sk_live_abc|pw@|secret/);
  });

  it("finds the user's own --json path", () => {
    expect(jsonPath(["--json", "r.json", "--", "x"])).toBe("r.json");
    expect(jsonPath(["--json=r.json"])).toBe("r.json");
    expect(jsonPath(["--", "node", "s.mjs", "--json", "x"])).toBeUndefined();
  });
});

describe("the hook entry, run as pre-commit runs it (no terminal)", () => {
  let project: string;
  beforeAll(() => {
    project = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: project, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
  });
  const run = (args: string[], env: NodeJS.ProcessEnv = {}, cwd = project) =>
    spawnSync(process.execPath, [hook, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });

  it("passes quietly on a clean server", () => {
    const clean = run(DEMO_ARGS);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).not.toMatch(/ {2}mcp-lint lock /);
  });

  it("on a change, prints the report and the --accept-tool command for the refused tools, which works", () => {
    const env = { MCP_LINT_DEMO_RUGPULL: "1" };
    const pulled = run(["--pass-env", "MCP_LINT_DEMO_RUGPULL", "--fail-on", "warning", "--", "node", demoServer], env);
    expect(pulled.status).toBe(1);
    expect(pulled.stdout).toContain("description_changed");
    const command = `mcp-lint lock --accept-tool get_weather --accept-tool send_note --pass-env MCP_LINT_DEMO_RUGPULL -- node ${shellWord(demoServer)}`;
    expect(pulled.stdout).toContain(`accept them one tool at a time and commit the lock:\n\n  ${command}\n`);
    expect(pulled.stdout).not.toMatch(/mcp-lint lock --accept /);
    // Run as printed (mcp-lint being this checkout's build), it updates the lock and the hook passes.
    const accepted = spawnSync("bash", ["-c", command.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `)], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(run(DEMO_ARGS, env).status).toBe(0);
  });

  it("reads the names from the user's own --json report when one is asked for", () => {
    const dir = tempDir();
    expect(spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: dir }).status).toBe(0);
    const pulled = run(["--json", "check.json", ...DEMO_ARGS], { MCP_LINT_DEMO_RUGPULL: "1" }, dir);
    expect(pulled.status).toBe(1);
    expect(pulled.stdout).toContain(
      `  mcp-lint lock --accept-tool get_weather --accept-tool send_note --pass-env MCP_LINT_DEMO_RUGPULL -- node ${shellWord(demoServer)}\n`,
    );
    expect(JSON.parse(readFileSync(join(dir, "check.json"), "utf8")).exit_code).toBe(1);
  });

  it("with only warnings to write, prints plain lock, which needs no accepting", () => {
    const dir = tempDir();
    const tool = { name: "t", description: "Plain.", inputSchema: { type: "object" } };
    const command = fixtureCommand(dir, "spec", { tools: [tool] });
    expect(spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${command}`], { cwd: dir }).status).toBe(0);
    fixtureCommand(dir, "spec", { tools: [{ ...tool, _meta: { build: "2" } }] });
    const args = ["--", "node", fixtureServer, join(dir, "spec.json")];
    const pulled = run(args, {}, dir);
    expect(pulled.status, pulled.stdout + pulled.stderr).toBe(1);
    expect(pulled.stdout).toContain("meta_changed");
    const next = `mcp-lint lock -- ${args.slice(1).map(shellWord).join(" ")}`;
    expect(pulled.stdout).toContain(
      `none needs accepting (warnings and info are written as they are). Update the lock with this, then commit it:\n\n  ${next}\n`,
    );
    const written = spawnSync("bash", ["-c", next.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `)], { cwd: dir, encoding: "utf8" });
    expect(written.status, written.stderr).toBe(0);
    expect(run(args, {}, dir).status).toBe(0);
  });

  it("with --config, names the changed server's tool as SERVER/NAME, which works (issue 14 item 6)", () => {
    const config = configProject(tempDir());
    const inConfig = (command: string, args: string[]) =>
      spawnSync(command, args, { cwd: config.dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...config.env } });
    expect(inConfig(process.execPath, [cliPath, "lock", "--config", ".mcp.json"]).status).toBe(0);
    const args = ["--config", ".mcp.json", "--server", "alpha", "--server", "beta", "--sarif", "hook.sarif"];
    const clean = inConfig(process.execPath, [hook, ...args]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).not.toMatch(/ {2}mcp-lint lock /);

    config.pull();
    const pulled = inConfig(process.execPath, [hook, ...args]);
    expect(pulled.status).toBe(1);
    expect(pulled.stdout).toMatch(/=== server "beta" ===[\s\S]*description_changed/);
    const command = "mcp-lint lock --accept-tool beta/read_file --config .mcp.json --server alpha --server beta";
    expect(pulled.stdout).toContain(
      `mcp-lint: a server of the config no longer matches the lock. Read the changes above, then accept them one tool at a time and commit the lock:\n\n  ${command}\n`,
    );
    const accepted = inConfig("bash", ["-c", command.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `)]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(inConfig(process.execPath, [hook, ...args]).status).toBe(0);
  });

  it("on an error (exit 2) prints no command", () => {
    const failed = run(["--lock", "missing.lock", "--", "node", demoServer]);
    expect(failed.status).toBe(2);
    expect(failed.stdout + failed.stderr).not.toMatch(/ {2}mcp-lint lock /);
  });
});

describe("the hook entry on a terminal", () => {
  it("prints the lock --review command, which works as printed there", async () => {
    const project = tempDir();
    expect(spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: project }).status).toBe(0);
    const env = { MCP_LINT_DEMO_RUGPULL: "1" };
    const pulled = await inTerminal([process.execPath, hook, ...DEMO_ARGS].map(quoted).join(" "), project, env);
    expect(pulled.code).toBe(1);
    const command = `mcp-lint lock --review --pass-env MCP_LINT_DEMO_RUGPULL -- node ${shellWord(demoServer)}`;
    expect(pulled.output.replaceAll("\r\n", "\n")).toContain(
      `Review the changes on a terminal (each one is shown, and you accept it or keep it locked), then commit the lock:\n\n  ${command}\n`,
    );
    const reviewed = await inTerminal(command.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `), project, env);
    expect(reviewed.output).toContain("accepted 2 tools (get_weather, send_note)");
    expect(reviewed.code, reviewed.output).toBe(0);
    expect(spawnSync(process.execPath, [hook, ...DEMO_ARGS], { cwd: project, env: { ...process.env, ...env } }).status).toBe(0);
  });
});
