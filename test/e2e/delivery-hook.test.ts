// Issue 11, item 4: a failing pre-commit hook prints the exact command that updates the lock. The
// hook's entry (scripts/pre-commit-hook.mjs, bin mcp-lint-pre-commit) repeats only mcp-lint's own
// flags and the server command from the hook's args; other arguments are left out and a URL's user
// info and query become placeholders. The real pre-commit run is in delivery.test.ts.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { acceptCommand, acceptHint, shellWord } from "../../scripts/pre-commit-hook.mjs";
import { configProject } from "./action-harness.js";
import { cliPath, demoServer, repo, tempDir } from "./helpers.js";

const hook = join(repo, "scripts/pre-commit-hook.mjs");

describe("acceptCommand", () => {
  it("turns the check's args into lock --accept with the same lock, env names and server command", () => {
    expect(
      acceptCommand(["--lock", "servers/a.lock", "--pass-env", "API_TOKEN", "--fail-on", "error", "--json", "r.json", "--", "npx", "-y", "pkg@1.2.3"]),
    ).toEqual({
      words: ["mcp-lint", "lock", "--accept", "--lock", "servers/a.lock", "--pass-env", "API_TOKEN", "--", "npx", "-y", "pkg@1.2.3"],
      omitted: 0,
      urlHidden: false,
      config: false,
    });
  });

  it("keeps --config, --server and --jobs for a config run and drops --sarif (issue 14 item 6)", () => {
    expect(
      acceptCommand([
        "--config",
        ".mcp.json",
        "--server",
        "notes",
        "--server=my files",
        "--jobs=2",
        "--sarif",
        "lock.sarif",
        "--fail-on",
        "error",
        "--deadline",
        "900",
      ]),
    ).toEqual({
      words: ["mcp-lint", "lock", "--accept", "--config", ".mcp.json", "--server", "notes", "--server", "my files", "--jobs", "2", "--deadline", "900"],
      omitted: 0,
      urlHidden: false,
      config: true,
    });
    const hint = acceptHint(["--config", ".vscode/mcp.json", "--server=my files"]);
    expect(hint).toContain("mcp-lint: a server of the config no longer matches the lock.");
    expect(hint).toContain("  mcp-lint lock --accept --config .vscode/mcp.json --server 'my files'\n");
    // A `--config` word inside the server command is the server's, not mcp-lint's.
    expect(acceptCommand(["--", "node", "s.mjs", "--config", "x"]).config).toBe(false);
  });

  it("keeps --flag=value forms and drops --check", () => {
    expect(acceptCommand(["--check", "--lock=x.lock", "--timeout=60", "--", "node", "s.mjs"]).words).toEqual([
      "mcp-lint",
      "lock",
      "--accept",
      "--lock",
      "x.lock",
      "--timeout",
      "60",
      "--",
      "node",
      "s.mjs",
    ]);
  });

  it("leaves out what is not an mcp-lint flag, and hides a URL's user info and query", () => {
    const { words, omitted, urlHidden } = acceptCommand([
      "--token",
      "sk_live_abc",
      "--url",
      "https://user:pw@mcp.example.com/mcp?key=secret",
      "--header-env",
      "Authorization=MCP_AUTH",
    ]);
    expect(words).toEqual([
      "mcp-lint",
      "lock",
      "--accept",
      "--url",
      "https://USER:PASSWORD@mcp.example.com/mcp?QUERY",
      "--header-env",
      "Authorization=MCP_AUTH",
    ]);
    expect(words.join(" ")).not.toMatch(/sk_live_abc|pw@|secret/);
    expect(omitted).toBe(2);
    expect(urlHidden).toBe(true);
  });

  it("quotes words for a POSIX shell", () => {
    expect(shellWord("pkg@1.2.3")).toBe("pkg@1.2.3");
    expect(shellWord("a b")).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("")).toBe("''");
    expect(shellWord("$HOME")).toBe("'$HOME'");
    expect(acceptHint(["--", "node", "my server.mjs"])).toContain("  mcp-lint lock --accept -- node 'my server.mjs'\n");
  });
});

describe("the hook entry, run as pre-commit runs it", () => {
  let project: string;
  beforeAll(() => {
    project = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: project, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
  });
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [hook, ...args], { cwd: project, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env } });

  it("passes quietly on a clean server", () => {
    const clean = run(["--pass-env", "MCP_LINT_DEMO_RUGPULL", "--", "node", demoServer]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).not.toContain("--accept");
  });

  it("on a change, prints the report and then the command that updates the lock, which works", () => {
    const env = { MCP_LINT_DEMO_RUGPULL: "1" };
    const pulled = run(["--pass-env", "MCP_LINT_DEMO_RUGPULL", "--fail-on", "warning", "--", "node", demoServer], env);
    expect(pulled.status).toBe(1);
    expect(pulled.stdout).toContain("description_changed");
    const command = `mcp-lint lock --accept --pass-env MCP_LINT_DEMO_RUGPULL -- node ${shellWord(demoServer)}`;
    expect(pulled.stdout).toContain(`update the lock with:\n\n  ${command}\n`);
    // Run as printed (mcp-lint being this checkout's build), it updates the lock and the hook passes.
    const accepted = spawnSync("bash", ["-c", command.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `)], {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(run(["--pass-env", "MCP_LINT_DEMO_RUGPULL", "--", "node", demoServer], env).status).toBe(0);
  });

  it("with --config, names the changed server and prints the config's accept command, which works (issue 14 item 6)", () => {
    const config = configProject(tempDir());
    const inConfig = (command: string, args: string[]) =>
      spawnSync(command, args, { cwd: config.dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...config.env } });
    expect(inConfig(process.execPath, [cliPath, "lock", "--config", ".mcp.json"]).status).toBe(0);
    const args = ["--config", ".mcp.json", "--server", "alpha", "--server", "beta", "--sarif", "hook.sarif"];
    const clean = inConfig(process.execPath, [hook, ...args]);
    expect(clean.status, clean.stderr).toBe(0);
    expect(clean.stdout).not.toContain("--accept");

    config.pull();
    const pulled = inConfig(process.execPath, [hook, ...args]);
    expect(pulled.status).toBe(1);
    expect(pulled.stdout).toMatch(/=== server "beta" ===[\s\S]*description_changed/);
    const command = "mcp-lint lock --accept --config .mcp.json --server alpha --server beta";
    expect(pulled.stdout).toContain(
      `mcp-lint: a server of the config no longer matches the lock. After reviewing the changes above, update the lock with:\n\n  ${command}\n`,
    );
    const accepted = inConfig("bash", ["-c", command.replace(/^mcp-lint /, `node ${shellWord(cliPath)} `)]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(inConfig(process.execPath, [hook, ...args]).status).toBe(0);
  });

  it("on an error (exit 2) prints no command", () => {
    const failed = run(["--lock", "missing.lock", "--", "node", demoServer]);
    expect(failed.status).toBe(2);
    expect(failed.stdout + failed.stderr).not.toContain("--accept");
  });
});
