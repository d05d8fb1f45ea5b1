// Issue 42, item 1: both arms of `eval` contain a server alike. Before, the direct arm's server ran in
// the agent's PID namespace as the same user and read ANTHROPIC_API_KEY from the agent's
// /proc/<pid>/environ, though its own copy was blanked. Now both arms start it through
// `mcp-lint proxy` (the direct arm with no lock and every fix off), in a PID namespace of its own.
// The real Claude Code runs with a dummy key against the scripted model on 127.0.0.1, and the server
// is fixtures/eval/environ-scanner.mjs, which reads every /proc/*/environ it can see.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSandbox } from "../../src/eval/sandbox.js";
import { EVAL_SERVERS } from "../../src/eval/tasks.js";
import { clientsDir, ensureClients, prepareClients, runs } from "./crosscheck-clients.js";
import { readResults } from "./eval-results.js";
import { cliPath, pathWithout, repo, runCli, tempDir } from "./helpers.js";
import { startModel as startScriptedModel } from "./eval-model.js";

const claude = join(clientsDir, "node_modules/.bin/claude");
const scanner = join(repo, "test/fixtures/eval/environ-scanner.mjs");
const KEY = "sk-ant-eval-contained-test-key-0123456789";
const TASK = "fs-billing-port";

const startModel = (tasksFile: string) => startScriptedModel(tasksFile);

interface Scan {
  pid: number;
  ppid: number;
  readable: string[];
  found: { pid: string; name: string; value: string }[];
}

describe("a server that looks for the agent's key in every process it can see", () => {
  const root = tempDir();
  const dir = join(root, "eval");
  const config = join(root, "config");
  // Every server of the task set is the scanner; the tasks run here use the filesystem one.
  const scans = join(dir, "servers", "node_modules", EVAL_SERVERS[0]?.package as string, "dist", "scan.jsonl");
  let model: Awaited<ReturnType<typeof startModel>> | undefined;
  let setupCode: number | null = null;

  beforeAll(async () => {
    prepareClients(["claude-code"]);
    for (const server of EVAL_SERVERS) {
      const folder = join(dir, "servers", "node_modules", server.package);
      mkdirSync(join(folder, "dist"), { recursive: true });
      writeFileSync(join(folder, "package.json"), JSON.stringify({ name: server.package, version: server.version, type: "module" }));
      copyFileSync(scanner, join(folder, server.entry));
    }
    const setup = await runCli(["eval", "--setup", dir], { cwd: repo, env: { XDG_CONFIG_HOME: config } });
    setupCode = setup.code;
    if (setup.code === 0) model = await startModel(join(dir, "tasks.json"));
  }, 300_000);
  afterAll(() => model?.close());

  const readScans = (): Scan[] =>
    existsSync(scans)
      ? readFileSync(scans, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line))
      : [];
  const evalRun = (more: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(["eval", "--run", dir, "--agent", claude, "--tasks", TASK, ...more], {
      cwd: repo,
      env: { XDG_CONFIG_HOME: config, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model?.url ?? "", ...env },
    });

  it("finds nothing in the direct arm or the proxy arm: each is PID 1 of a namespace of its own", async () => {
    expect(setupCode).toBe(0);
    if (!runs("claude-code")) return;
    const result = await evalRun([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("PID namespace");
    const arms = readResults(dir).map((line) => line.arm);
    expect(arms.sort()).toEqual(["direct", "proxy"]);
    const found = readScans();
    // One start per arm at least (Claude Code starts its servers once a session).
    expect(found.length, JSON.stringify(found)).toBeGreaterThanOrEqual(2);
    for (const scan of found) {
      // It could read environments (its own), so finding nothing is the namespace's doing.
      expect(scan.readable, JSON.stringify(scan)).toContain("self");
      expect(scan.found, JSON.stringify(scan)).toEqual([]);
      expect(scan.pid).toBe(1);
      expect(scan.ppid).toBe(0);
    }
    expect(readFileSync(scans, "utf8")).not.toContain(KEY);
  }, 300_000);

  it("without a namespace: refused with a key (one line, nothing run); with --allow-uncontained one warning, and the scanner finds the key", async () => {
    expect(setupCode).toBe(0);
    if (!runs("claude-code")) return;
    // The real condition of a machine without util-linux's unshare.
    const env = { PATH: pathWithout(["unshare"]) };
    const scansBefore = readScans().length;
    const resultsBefore = readResults(dir).length;
    const refused = await evalRun(["--runs", "2"], env);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "mcp-lint: eval --run: the servers would start without a PID namespace here (util-linux unshare is not on PATH), so a server could read ANTHROPIC_API_KEY from the agent's process; run where util-linux unshare can make one, or pass --allow-uncontained to accept that; nothing was run\n",
    );
    expect(readScans()).toHaveLength(scansBefore);
    expect(readResults(dir)).toHaveLength(resultsBefore);

    // What the namespace prevents, shown by the same scanner: the agent's key, read from its process.
    const allowed = await evalRun(["--runs", "2", "--arms", "direct", "--allow-uncontained"], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    const warnings = allowed.stderr.split("\n").filter((line) => line.includes("PID namespace"));
    expect(warnings).toEqual([
      "mcp-lint: warning: eval --run: the servers start without a PID namespace here (util-linux unshare is not on PATH); a server can read the agent's environment, ANTHROPIC_API_KEY included (--allow-uncontained)",
    ]);
    const after = readScans().slice(scansBefore);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.flatMap((scan) => scan.found.map((hit) => hit.value))).toContain(KEY);
    // The key never shows in what eval prints or records.
    expect(allowed.stderr + allowed.stdout).not.toContain(KEY);
    expect(readFileSync(join(dir, "results.jsonl"), "utf8")).not.toContain(KEY);
  }, 300_000);
});

describe("the direct arm's proxy (no lock, every fix off) passes a real server's answers as sent", () => {
  const root = tempDir();
  const sandbox = join(root, "sandbox");
  beforeAll(async () => {
    ensureClients();
    await buildSandbox(sandbox);
  }, 300_000);

  /** The answer lines to `requests`, sent one at a time, from the server as `argv` starts it. */
  async function answers(argv: string[], requests: object[]): Promise<string[]> {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["pipe", "pipe", "ignore"] });
    const lines: string[] = [];
    let buffered = Buffer.alloc(0);
    let waiting: (() => void) | null = null;
    child.stdout.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let end = buffered.indexOf(10); end >= 0; end = buffered.indexOf(10)) {
        lines.push(buffered.subarray(0, end).toString("utf8"));
        buffered = buffered.subarray(end + 1);
        waiting?.();
      }
    });
    const out: string[] = [];
    for (const request of requests) {
      const before = lines.length;
      child.stdin.write(`${JSON.stringify(request)}\n`);
      if (!("id" in request)) continue;
      await new Promise<void>((done) => {
        waiting = () => {
          if (lines.length > before) done();
        };
        waiting();
      });
      out.push(lines[lines.length - 1] as string);
    }
    child.stdin.end();
    await new Promise((done) => child.once("close", done));
    return out;
  }

  it.each(EVAL_SERVERS.filter((server) => server.id === "filesystem" || server.id === "memory").map((server) => [server.id, server] as const))(
    "%s: each answer is the server's own line but for the envelope's key order (jsonrpc and id first, as the SDK writes)",
    async (_id, server) => {
      const entry = join(clientsDir, "node_modules", server.package, server.entry);
      const args = server.args.map((arg) => arg.replaceAll("{sandbox}", sandbox));
      const env = Object.fromEntries(Object.entries(server.env).map(([name, value]) => [name, value.replaceAll("{sandbox}", sandbox)]));
      const call = (id: number, name: string, args: object) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
      const requests = [
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        ...(server.id === "filesystem"
          ? [call(3, "read_text_file", { path: join(sandbox, "logs/app.log") }), call(4, "read_text_file", { path: "/etc/passwd" })]
          : [call(3, "read_graph", {}), call(4, "open_nodes", { names: ["Priya Raman"] })]),
        { jsonrpc: "2.0", id: 5, method: "no/such/method" },
      ];
      // The server's environment as the proxy gives it (--pass-env), set for both.
      const withEnv = (argv: string[]) => ["/usr/bin/env", ...Object.entries(env).map(([name, value]) => `${name}=${value}`), ...argv];
      const passEnv = Object.keys(env).flatMap((name) => ["--pass-env", name]);
      const direct = await answers(withEnv([process.execPath, entry, ...args]), requests);
      const proxied = await answers(
        withEnv([process.execPath, cliPath, "proxy", "--results", "off", "--no-paging", "--no-errors", ...passEnv, "--", process.execPath, entry, ...args]),
        requests,
      );
      expect(proxied).toHaveLength(direct.length);
      expect(direct.some((line) => line.length > 1_000_000) || server.id === "memory").toBe(true);
      for (const [index, line] of direct.entries()) {
        const sent = JSON.parse(line);
        const { jsonrpc, id, ...rest } = sent;
        // Exactly these bytes: the result or error serialized as the server did, after jsonrpc and id.
        expect(proxied[index]).toBe(JSON.stringify({ jsonrpc, id, ...rest }));
        expect(JSON.parse(proxied[index] as string)).toEqual(sent);
      }
    },
    120_000,
  );
});
