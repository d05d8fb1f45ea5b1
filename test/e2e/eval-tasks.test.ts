// Every task of `mcp-lint eval` (src/eval/tasks.ts) on the real servers, from test/clients at
// their pinned versions (installed with the crosscheck clients): the policy's call answered by the server itself, with the scripted agent's
// 100,000-character cap, once directly and once behind the real `mcp-lint proxy` (dist/cli.js, with
// the task set's descriptions). The tasks designed to overflow return more than 100,000 characters
// directly and are answered through the pages; the others are answered both ways. Tasks that only
// read share one server per arm; a task that writes gets a fresh one on its own sandbox copy.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFor, checkAnswer, followPolicy, resultText } from "../../src/eval/check.js";
import { buildSandbox } from "../../src/eval/sandbox.js";
import { EVAL_DESCRIPTIONS, EVAL_OVERFLOW_TASKS, EVAL_SERVERS, EVAL_TASKS } from "../../src/eval/tasks.js";
import type { EvalArm, EvalServer, EvalTask } from "../../src/eval/types.js";
import { clientsDir, ensureClients } from "./crosscheck-clients.js";
import { cliPath, tempDir } from "./helpers.js";

const CAP = 100_000;

describe("every eval task on the real servers, direct and behind mcp-lint proxy", () => {
  const root = tempDir();
  const servers = clientsDir;
  const pristine = join(root, "pristine");
  let skipped: string | null = null;
  let copies = 0;
  const open: Client[] = [];

  beforeAll(async () => {
    try {
      ensureClients();
    } catch (error) {
      skipped = `npm could not install test/clients: ${error instanceof Error ? error.message : String(error)}`;
    }
    for (const server of EVAL_SERVERS) {
      if (skipped === null && !existsSync(entryOf(server))) skipped = `npm installed no ${server.package}/${server.entry}`;
      const descriptions = EVAL_DESCRIPTIONS[server.id];
      if (server.descriptions !== null && descriptions !== undefined) {
        mkdirSync(join(root, "descriptions"), { recursive: true });
        writeFileSync(join(root, server.descriptions), JSON.stringify(descriptions));
      }
    }
    await buildSandbox(pristine);
  }, 600_000);

  afterAll(async () => {
    await Promise.allSettled(open.map((client) => client.close()));
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  });

  const entryOf = (server: EvalServer) => join(servers, "node_modules", server.package, server.entry);

  /** A client of one arm's server, started in a fresh copy of the sandbox (its working folder, as the agent's). */
  async function connect(server: EvalServer, arm: EvalArm): Promise<{ client: Client; sandbox: string }> {
    const sandbox = join(root, `sandbox-${++copies}`);
    cpSync(pristine, sandbox, { recursive: true });
    const fill = (text: string) => text.replaceAll("{sandbox}", sandbox);
    const env = Object.fromEntries(Object.entries(server.env).map(([name, value]) => [name, fill(value)]));
    const command = [entryOf(server), ...server.args.map(fill)];
    const descriptions = server.descriptions === null ? [] : ["--descriptions", join(root, server.descriptions)];
    const passEnv = Object.keys(env).flatMap((name) => ["--pass-env", name]);
    const args = arm === "direct" ? command : [cliPath, "proxy", ...descriptions, ...passEnv, "--", process.execPath, ...command];
    const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...getDefaultEnvironment(), ...env }, cwd: sandbox, stderr: "pipe" });
    const client = new Client({ name: "eval-tasks-test", version: "1.0.0" });
    await client.connect(transport);
    open.push(client);
    return { client, sandbox };
  }

  const shared = new Map<string, Promise<{ client: Client; sandbox: string }>>();

  async function runArm(task: EvalTask, arm: EvalArm) {
    const server = EVAL_SERVERS.find((candidate) => candidate.id === task.server) as EvalServer;
    const writes = task.check.kind === "file";
    const key = `${server.id}:${arm}`;
    if (!writes && !shared.has(key)) shared.set(key, connect(server, arm));
    const { client, sandbox } = writes ? await connect(server, arm) : await (shared.get(key) as Promise<{ client: Client; sandbox: string }>);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === task.policy.tool);
      expect(tool, `${task.id}: ${arm} lists no ${task.policy.tool}`).toBeDefined();
      const texts: string[] = [];
      const outcome = await followPolicy(
        task.policy,
        async (args) => {
          const result = await client.callTool({ name: task.policy.tool, arguments: args }, undefined, { timeout: 120_000 });
          texts.push(resultText(result));
          return result;
        },
        { cap: CAP },
      );
      return { outcome, texts, sandbox, tool };
    } finally {
      if (writes) await client.close();
    }
  }

  for (const task of EVAL_TASKS) {
    const overflows = EVAL_OVERFLOW_TASKS.includes(task.id);
    it(`${task.id} (${task.server}, ${task.split})`, async (context) => {
      if (skipped !== null) context.skip(skipped);
      const direct = await runArm(task, "direct");
      const whole = direct.texts[0] as string;
      // The first direct result is the whole one: its answer passes the check, as the unit test computed.
      const answer = answerFor(task.policy, whole);
      expect(answer, `${task.id}: the whole result holds no match: ${whole.slice(0, 200)}`).not.toBeNull();
      expect(checkAnswer(task.check, answer as string, direct.sandbox), task.id).toEqual({ success: true, reason: null });
      if (overflows) {
        expect(whole.length, `${task.id}: the whole result`).toBeGreaterThan(CAP);
        expect(direct.outcome.error, task.id).toMatch(/over the cap/);
      } else {
        expect(whole.length, `${task.id}: the whole result`).toBeLessThanOrEqual(CAP);
        expect(direct.outcome.error, task.id).toBeNull();
        expect(checkAnswer(task.check, direct.outcome.answer as string, direct.sandbox), task.id).toEqual({ success: true, reason: null });
      }

      const proxied = await runArm(task, "proxy");
      expect(proxied.outcome.error, `${task.id} behind the proxy: ${proxied.texts.at(-1)?.slice(-300)}`).toBeNull();
      expect(checkAnswer(task.check, proxied.outcome.answer as string, proxied.sandbox), task.id).toEqual({ success: true, reason: null });
      // Pages of about 2,000 tokens, and the tool gained the paging parameters and its new description.
      expect(proxied.outcome.longest, task.id).toBeLessThanOrEqual(10_000);
      expect(Object.keys((proxied.tool?.inputSchema.properties ?? {}) as object), task.id).toContain("offset");
      const description = EVAL_DESCRIPTIONS[task.server]?.[task.policy.tool];
      if (description !== undefined) expect(proxied.tool?.description, task.id).toBe(description);
      if (overflows && task.policy.seek === "last") expect(proxied.outcome.calls, task.id).toBeGreaterThanOrEqual(2);
    }, 180_000);
  }
});
