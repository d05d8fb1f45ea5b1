// Issue 19, item 6: no descendant survives. A server that double-forks (a detached middle process
// starts a detached grandchild and exits at once, well within the second between two walks of
// /proc) left the grandchild running after `lock` exited 0; in the Action it then wrote workflow
// commands to the runner through /proc/<pid>/fd/1 after the resume token. On Linux a launched
// server now runs as pid 1 of a PID namespace of its own (util-linux unshare), with a /proc that
// shows only that namespace: when the server ends, the kernel ends everything in it. Inside the
// namespace a fixture's process.pid is not the host's, so every test finds the tree from outside:
// each process of a fixture has the test's folder in its argv (markedProcesses).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { annotations, runAction } from "./action-harness.js";
import { cliPath, pathWithout, runCli, tempDir } from "./helpers.js";
import { expectOneLineError, fixture, killMarked, markedProcesses, waitForFile, waitUnmarked } from "../fixtures/servers/live/harness.js";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";

const node = process.execPath;
const linux = process.platform === "linux";
const root = process.getuid?.() === 0;
/** Whether this machine gives mcp-lint a PID namespace (checked apart from mcp-lint, with the flags it uses). */
const namespaces =
  linux &&
  spawnSync("unshare", [...(root ? [] : ["--user", "--map-current-user"]), "--pid", "--fork", "--kill-child", "--mount-proc", "true"], { stdio: "ignore" })
    .status === 0;
const NOBODY = 65534;
/** Whether the built CLI can run as nobody here (setpriv, root to switch, a repo that user can read). */
const asNobody =
  namespaces &&
  root &&
  spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", node, cliPath, "--version"], { stdio: "ignore" }).status === 0;

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

const markers: string[] = [];
afterEach(() => {
  killMarked(markers.splice(0));
});

/** A fresh folder that marks one test's processes. */
function marker(): string {
  const dir = tempDir();
  markers.push(dir);
  return dir;
}

const doubleFork = (dir: string, ...rest: string[]) => [node, fixture("double-fork.mjs"), dir, ...rest];

/** `lock` of the hanging double-fork server, running in the background: its stderr so far and its exit code. */
function startLock(dir: string) {
  const child = spawn(node, [cliPath, "lock", "--timeout", "60", "--", ...doubleFork(dir, "hang")], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let text = "";
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((done) => child.once("close", (code) => done(code)));
  return { child, stderr: () => text, exited };
}

/** The processes of the double-fork tree still running; each is described by its role, for a readable failure. */
function survivors(dir: string): string[] {
  return markedProcesses(dir).map(
    ({ pid, argv }) => `${pid} ${argv.at(-1) === "grandchild" || argv.at(-1) === "middle" ? argv.at(-1) : argv.slice(0, 3).join(" ")}`,
  );
}

describe.runIf(namespaces)("no descendant survives (issue 19 item 6)", () => {
  it("lock: exit 0, the double-forked grandchild ran, and nothing of the tree is left when mcp-lint exits", async () => {
    const dir = marker();
    const result = await runCli(["lock", "--", ...doubleFork(dir)], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("Wrote mcp-lint.lock (2 tools)\n");
    expect(existsSync(join(dir, "grandchild-started"))).toBe(true);
    // At once: the kernel ended the namespace before unshare, and so mcp-lint, saw the server go.
    expect(survivors(dir)).toEqual([]);
  });

  it("lock with a server that hangs (--timeout 5, exit 2): nothing is left either", async () => {
    const dir = marker();
    // The bound leaves the fixture time to double-fork first, even on a loaded machine.
    const result = await runCli(["lock", "--timeout", "5", "--", ...doubleFork(dir, "hang")], { cwd: dir });
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(/--startup-timeout/);
    expect(existsSync(join(dir, "grandchild-started"))).toBe(true);
    expect(survivors(dir)).toEqual([]);
  });

  it("run: nothing is left when the lint run exits", async () => {
    const dir = marker();
    const result = await runCli(["run", "--fail-on", "never", "--", ...doubleFork(dir)], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "grandchild-started"))).toBe(true);
    expect(survivors(dir)).toEqual([]);
  });

  it("proxy: nothing is left once the client has closed and the proxy exited", async () => {
    const dir = marker();
    const proxied = await connectProxy(["--", ...doubleFork(dir)], { cwd: dir });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toEqual(["get_weather", "get_time"]);
    expect(existsSync(join(dir, "grandchild-started"))).toBe(true);
    expect(await proxied.close()).toBe(0);
    expect(survivors(dir)).toEqual([]);
  });

  it("SIGTERM to mcp-lint while the server hangs: exit 130, and the whole tree ends", async () => {
    const dir = marker();
    const { child: cli, stderr, exited } = startLock(dir);
    await waitForFile(join(dir, "grandchild-started"));
    cli.kill("SIGTERM");
    expect(await exited).toBe(130);
    expect(stderr()).toMatch(/interrupted by SIGTERM/);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("SIGKILL to mcp-lint (no exit handler runs): the whole tree still ends", async () => {
    const dir = marker();
    const cli = spawn(node, [cliPath, "lock", "--timeout", "60", "--", ...doubleFork(dir, "hang")], { cwd: dir, stdio: "ignore" });
    const exited = new Promise<string | null>((done) => cli.once("close", (_code, signal) => done(signal)));
    await waitForFile(join(dir, "grandchild-started"));
    cli.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("the Action: the grandchild never reaches the runner's output and nothing is left when the step ends", () => {
    const workspace = marker();
    const command = `node "${fixture("double-fork.mjs")}" "${workspace}"`;
    const locked = spawnSync(node, [cliPath, "lock", "--", "node", fixture("double-fork.mjs"), workspace], { cwd: workspace, encoding: "utf8" });
    expect(locked.status, locked.stderr).toBe(0);
    rmSync(join(workspace, "grandchild-started"));
    const result = runAction({ command }, {}, workspace);
    expect(result.status, result.stdout).toBe(0);
    expect(survivors(workspace)).toEqual([]);
    expect(existsSync(join(workspace, "grandchild-started"))).toBe(true);
    expect(result.stdout).not.toContain("survivor");
    expect(annotations(result.runner)).toEqual([]);
    expect(result.outputs).toBe("exit-code=0\n");
  });

  it("the server's /proc shows only its own namespace (it cannot reach another process's fds); --no-pid-namespace shows all", async () => {
    const dir = marker();
    const inside = await runCli(["lock", "--lock", "inside.lock", "--", node, fixture("sees-proc.mjs"), dir], { cwd: dir });
    expect(inside.code, inside.stderr).toBe(0);
    expect(readFileSync(join(dir, "inside.lock"), "utf8")).toContain("Sees 1 processes: sees-proc.mjs.");
    const outside = await runCli(["lock", "--no-pid-namespace", "--lock", "outside.lock", "--", node, fixture("sees-proc.mjs"), dir], { cwd: dir });
    expect(outside.code, outside.stderr).toBe(0);
    expect(outside.stderr).toBe("Wrote outside.lock (1 tool)\n");
    expect(readFileSync(join(dir, "outside.lock"), "utf8")).toMatch(/Sees \d+ processes: .*cli\.js/);
  });

  it("the exit is reported as before: a code, a signal, a command that is missing or not executable", async () => {
    const dir = marker();
    const exit3 = await runCli(["lock", "--", node, "-e", "process.exit(3)", dir], { cwd: dir });
    expect(expectOneLineError(exit3.stderr)).toBe(
      `mcp-lint: could not start or initialize server ${JSON.stringify(node)}: the server exited with code 3 before answering initialize`,
    );

    // Killed from outside with SIGKILL (what the OOM killer does): util-linux 2.38's unshare then
    // exits 1 with a line of its own, which must not show.
    const { stderr, exited } = startLock(dir);
    await waitForFile(join(dir, "grandchild-started"));
    const server = markedProcesses(dir).find(({ argv }) => argv[0] === node && argv[1] === fixture("double-fork.mjs"));
    expect(server, "the server's host pid").toBeDefined();
    process.kill(server?.pid as number, "SIGKILL");
    expect(await exited).toBe(2);
    expect(expectOneLineError(stderr())).toBe(
      `mcp-lint: could not start or initialize server ${JSON.stringify(node)}: the server was killed by SIGKILL before answering initialize`,
    );
    expect(await waitUnmarked(dir)).toEqual([]);

    const missing = await runCli(["lock", "--", "no-such-server-command-19"], { cwd: dir });
    expect(expectOneLineError(missing.stderr)).toBe(
      'mcp-lint: could not start or initialize server "no-such-server-command-19": the command was not found (is it installed and on PATH?)',
    );
    const script = join(dir, "not-executable.sh");
    writeFileSync(script, "#!/bin/sh\n");
    chmodSync(script, 0o644);
    const denied = await runCli(["lock", "--", script], { cwd: dir });
    expect(expectOneLineError(denied.stderr)).toBe(
      `mcp-lint: could not start or initialize server ${JSON.stringify(script)}: the command is not executable (permission denied)`,
    );
    const proxy = await runCli(["proxy", "--", script], { cwd: dir });
    expect(proxy.stderr).toBe(`mcp-lint: could not start server ${JSON.stringify(script)}: the command is not executable\n`);
  });

  it("control: with --no-pid-namespace the /proc walk alone misses the double fork (why the namespace is needed)", async () => {
    const dir = marker();
    const result = await runCli(["lock", "--no-pid-namespace", "--", ...doubleFork(dir)], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("Wrote mcp-lint.lock (2 tools)\n");
    expect(survivors(dir).map((entry) => entry.split(" ")[1])).toEqual(["grandchild"]);
  });

  it.runIf(asNobody)("as a user other than root (a user namespace too): nothing is left, and the server keeps that user", async () => {
    const dir = marker();
    chmodSync(dir, 0o777);
    const cli = spawn(
      "setpriv",
      [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", node, cliPath, "lock", "--timeout", "60", "--", ...doubleFork(dir, "hang")],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? "", HOME: dir, NO_COLOR: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    cli.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const exited = new Promise<number | null>((done) => cli.once("close", (code) => done(code)));
    await waitForFile(join(dir, "grandchild-started"));
    const running = markedProcesses(dir);
    const launcher = running.find(({ argv }) => argv[0]?.endsWith("unshare"));
    expect(launcher?.argv.slice(1, 3)).toEqual(["--user", "--map-current-user"]);
    const grandchild = running.find(({ argv }) => argv.at(-1) === "grandchild");
    expect(grandchild, "the grandchild").toBeDefined();
    expect(readFileSync(`/proc/${grandchild?.pid}/status`, "utf8")).toMatch(new RegExp(`^Uid:\\s+${NOBODY}\\s`, "m"));
    cli.kill("SIGTERM");
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted by SIGTERM/);
    expect(await waitUnmarked(dir)).toEqual([]);
  });
});

describe.runIf(linux)("without a PID namespace (no unshare on PATH)", () => {
  it("prints one warning per run, however many servers start, and still ends a setsid grandchild", async () => {
    const dir = marker();
    const server = (name: string) => ({ command: node, args: [fixture("spawns-setsid.mjs"), join(dir, name)] });
    for (const name of ["a", "b"]) mkdirSync(join(dir, name));
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { a: server("a"), b: server("b") } }));
    const result = await runCli(["lock", "--config", ".mcp.json", "--timeout", "10"], { cwd: dir, env: { PATH: pathWithout(["unshare"]) } });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => line.includes("PID namespace"));
    expect(warnings).toEqual([
      "mcp-lint: warning: no PID namespace for the server (util-linux unshare is not on PATH); a server's descendants that leave its process tree may outlive this run (install util-linux, or pass --no-pid-namespace to accept that)",
    ]);
    expect(existsSync(join(dir, "a", "started")) && existsSync(join(dir, "b", "started"))).toBe(true);
    expect(await waitUnmarked(dir)).toEqual([]);

    // --no-pid-namespace reaches the servers of a config too: no warning then.
    const chosen = await runCli(["lock", "--check", "--config", ".mcp.json", "--no-pid-namespace", "--timeout", "10"], {
      cwd: dir,
      env: { PATH: pathWithout(["unshare"]) },
    });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stderr).not.toContain("PID namespace");
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("--no-pid-namespace: no warning, and the /proc walk still ends a setsid grandchild", async () => {
    const dir = marker();
    const result = await runCli(["lock", "--no-pid-namespace", "--timeout", "10", "--", node, fixture("spawns-setsid.mjs"), dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("Wrote mcp-lint.lock (2 tools)\n");
    expect(existsSync(join(dir, "started"))).toBe(true);
    expect(await waitUnmarked(dir)).toEqual([]);
  });
});
