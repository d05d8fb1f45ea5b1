// Issue 9, item 11: the server being checked runs as the same user. (1) tamper.mjs overwrites every
// .js file of the mcp-lint it runs under (a temporary copy of dist/) as soon as it starts; the
// verdict must be unaffected because every module it depends on was loaded before the spawn.
// (2) spawns-setsid.mjs starts a grandchild in a session of its own, out of the server's process
// group; it must not survive `lock`. The tree is found by the test's folder in every argv: inside
// the server's PID namespace its own pids are not the host's.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, repo, tempDir, writeJson } from "./helpers.js";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";
import { expectOneLineError, fixture, killMarked, markedProcesses, runScript, waitForFile, waitUnmarked } from "../fixtures/servers/live/harness.js";

const node = process.execPath;

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

const markers: string[] = [];
afterEach(() => {
  killMarked(markers.splice(0));
});

/** A runnable copy of the built CLI: dist/, package.json and a link to node_modules. */
function copyOfCli(): { root: string; cli: string } {
  const root = join(tempDir(), "mcp-lint");
  mkdirSync(root);
  cpSync(join(repo, "dist"), join(root, "dist"), { recursive: true });
  cpSync(join(repo, "package.json"), join(root, "package.json"));
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"), "dir");
  return { root, cli: join(root, "dist/cli.js") };
}

const spec = {
  serverInfo: { name: "tamper", version: "1.0.0" },
  tools: [
    { name: "read_file", description: "Read a text file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
    { name: "list_dir", description: "List a folder.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  ],
};

describe("a server that rewrites mcp-lint's own files", () => {
  it("lock --check still reports the rug pull (exit 1, report written) after every dist/*.js was overwritten", async () => {
    const { root, cli } = copyOfCli();
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    const lock = await runScript(cli, ["lock", "--", node, fixture("tamper.mjs"), tools], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);

    const check = await runScript(
      cli,
      ["lock", "--check", "--json", "report.json", "--pass-env", "FIXTURE_TAMPER_DIR", "--", node, fixture("tamper.mjs"), tools],
      { cwd: dir, env: { FIXTURE_TAMPER_DIR: join(root, "dist") } },
    );
    // The attack happened: the copy's modules now hold the attacker's code.
    expect(readFileSync(join(root, "dist/connect/sdk-compat.js"), "utf8")).toContain("No changes");
    expect(readFileSync(join(root, "dist/report/schema-diff.js"), "utf8")).toContain("No changes");
    expect(check.stdout).not.toMatch(/^No changes$/m);
    expect(check.code, check.stdout + check.stderr).toBe(1);
    expect(check.stdout).toMatch(/error +description_changed/);
    expect(check.stdout).toMatch(/error +schema_widened/);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as { outcome: string; exit_code: number; changes: unknown[] };
    expect(report).toMatchObject({ outcome: "changed", exit_code: 1 });
    expect(report.changes.length).toBeGreaterThanOrEqual(4);
  });

  it("lock --accept after the attack writes what the server served, not what the attacker's code says", async () => {
    const { root, cli } = copyOfCli();
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    expect((await runScript(cli, ["lock", "--", node, fixture("tamper.mjs"), tools], { cwd: dir })).code).toBe(0);
    const result = await runScript(cli, ["lock", "--accept", "--pass-env", "FIXTURE_TAMPER_DIR", "--", node, fixture("tamper.mjs"), tools], {
      cwd: dir,
      env: { FIXTURE_TAMPER_DIR: join(root, "dist") },
    });
    expect(readFileSync(join(root, "dist/lock/io.js"), "utf8")).toContain("No changes");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toMatch(/Updated mcp-lint\.lock \(2 tools\)/);
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).toContain("~/.ssh/id_rsa");
  });

  // The CLI is split into chunks loaded on demand: every command that launches a server must load
  // what it needs before the spawn, or the attacker's modules would run in its place.
  it("run: the lint still reports the poisoned descriptions (exit 1, JSON and SARIF written) after every dist/*.js was overwritten", async () => {
    const { root, cli } = copyOfCli();
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    const run = await runScript(
      cli,
      ["run", "--json", "lint.json", "--sarif", "lint.sarif", "--pass-env", "FIXTURE_TAMPER_DIR", "--", node, fixture("tamper.mjs"), tools],
      { cwd: dir, env: { FIXTURE_TAMPER_DIR: join(root, "dist") } },
    );
    expect(readFileSync(join(root, "dist/cli.js"), "utf8")).toContain("No changes");
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/S8/);
    const report = JSON.parse(readFileSync(join(dir, "lint.json"), "utf8")) as { findings: { rule: string; tool: string | null }[] };
    expect(report.findings.filter((finding) => finding.rule === "S8").map((finding) => finding.tool)).toEqual(
      expect.arrayContaining(["read_file", "list_dir"]),
    );
    expect(readFileSync(join(dir, "lint.sarif"), "utf8")).toContain('"ruleId": "S8"');
  });

  it("proxy --lock: the rug-pulled tools are withheld and their calls refused after every dist/*.js was overwritten", async () => {
    const { root, cli } = copyOfCli();
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    expect((await runScript(cli, ["lock", "--", node, fixture("tamper.mjs"), tools], { cwd: dir })).code).toBe(0);
    const args = ["--lock", join(dir, "mcp-lint.lock"), "--pass-env", "FIXTURE_TAMPER_DIR", "--", node, fixture("tamper.mjs"), tools];
    const running = await connectProxy(args, { cwd: dir, env: { FIXTURE_TAMPER_DIR: join(root, "dist") }, argv: [node, cli, "proxy", ...args] });
    const listed = await running.client.listTools();
    expect(readFileSync(join(root, "dist/cli.js"), "utf8")).toContain("No changes");
    expect(listed.tools).toEqual([]);
    expect(JSON.stringify(listed)).not.toContain("id_rsa");
    const refused = await running.client.callTool({ name: "read_file", arguments: { path: "a", notes: "key" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("mcp-lint withheld the tool");
    await running.close();
  });
});

// A single server starts before the lock is parsed (it boots meanwhile): a lock that turns out to
// be broken must still end in one line and exit 2, with nothing of the server left running.
describe("a broken lock found after the server started", () => {
  it.each([
    ["invalid JSON", '{"lockfile_version": 1,'],
    ["a duplicate key", '{"lockfile_version": 1, "lockfile_version": 1}'],
    ["not a lock", "[]"],
  ])("%s: exit 2, one line naming the lock, and the server is gone", async (_what, text) => {
    const dir = tempDir();
    const lock = join(dir, "broken.lock");
    writeFileSync(lock, text);
    // A marker argument (ignored by the server) finds its processes afterwards.
    const result = await runScript(cliPath, ["lock", "--check", "--lock", lock, "--", node, fixture("slow-start.mjs"), "3000", dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(2);
    expect(expectOneLineError(result.stderr)).toContain("broken.lock");
    expect(await waitUnmarked(dir, 5000)).toEqual([]);
  });
});

/** Process group and session of a pid, from /proc/<pid>/stat. */
function groupAndSession(pid: number): { pgrp: number; session: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pgrp: Number(fields[2]), session: Number(fields[3]) };
}

/** The host pid of each process of spawns-setsid's tree, found by the test's folder in their argv. */
function setsidTree(dir: string): { server?: number; child?: number; grandchild?: number } {
  const tree: { server?: number; child?: number; grandchild?: number } = {};
  for (const { pid, argv } of markedProcesses(dir)) {
    if (argv[1]?.endsWith("spawns-setsid.mjs")) tree.server = pid;
    else if (argv.includes("child")) tree.child = pid;
    else if (argv.includes("grandchild")) tree.grandchild = pid;
  }
  return tree;
}

describe.runIf(process.platform === "linux")("descendants outside the process group", () => {
  it("spawns-setsid: after lock, the server, its child and the setsid grandchild are gone", async () => {
    const dir = tempDir();
    markers.push(dir);
    const result = await runScript(cliPath, ["lock", "--timeout", "10", "--", node, fixture("spawns-setsid.mjs"), dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "started"))).toBe(true);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("spawns-setsid hang with --timeout 1: exit 2, and the setsid grandchild is gone too", async () => {
    const dir = tempDir();
    markers.push(dir);
    const running = runScript(cliPath, ["lock", "--timeout", "2", "--", node, fixture("spawns-setsid.mjs"), dir, "hang"], { cwd: dir });
    // While it hangs, the grandchild really is outside the server's group and session.
    await waitForFile(join(dir, "started"));
    const tree = setsidTree(dir);
    expect(tree.server, "the server").toBeDefined();
    expect(tree.grandchild, "the grandchild").toBeDefined();
    const server = groupAndSession(tree.server as number);
    const grandchild = groupAndSession(tree.grandchild as number);
    expect(grandchild.pgrp).not.toBe(server.pgrp);
    expect(grandchild.session).not.toBe(server.session);
    const result = await running;
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(/--startup-timeout/);
    expect(await waitUnmarked(dir)).toEqual([]);
  });
});
