// The task set of `mcp-lint eval` (src/eval/tasks.ts): well-formed servers, tasks, checks and
// descriptions; and every task solvable by its scripted policy on a freshly built sandbox, with the
// tool results computed here without the servers (files read as the filesystem server reads them,
// the knowledge graph as server-memory serializes it, git_log from git itself, the everything
// server's fixed answers). Tasks designed to overflow have a whole result over 100,000 characters:
// the scripted agent fails them directly and succeeds behind the proxy's real paging code. git_blame
// and git_show are left to test/e2e/eval-tasks.test.ts, which runs every task on the real servers;
// here their facts are checked with git.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFor, checkAnswer, checkProblem, followPolicy, resultText } from "../../../src/eval/check.js";
import { buildSandbox, FACTS } from "../../../src/eval/sandbox.js";
import { EVAL_DESCRIPTIONS, EVAL_OVERFLOW_TASKS, EVAL_SERVERS, EVAL_TASKS, taskSet } from "../../../src/eval/tasks.js";
import type { EvalTask } from "../../../src/eval/types.js";
import type { JsonObject } from "../../../src/json/value.js";
import { fixCallResult } from "../../../src/proxy/fixes/index.js";
import { takePagingArguments } from "../../../src/proxy/fixes/paging.js";

/** Claude Code's tool-output cap, about 25,000 tokens, in characters. */
const CAP = 100_000;
const FIXES = { paging: true, errors: true, descriptions: null };
const STRING_CONTENT = { type: "object", properties: { content: { type: "string" } }, required: ["content"] };
const ANY_OBJECT = { type: "object" };

describe("the task set's shape", () => {
  it("servers have unique ids, exact pinned versions, an entry and {sandbox} only where a path goes", () => {
    const ids = EVAL_SERVERS.map((server) => server.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(["filesystem", "memory", "everything", "git"]);
    for (const server of EVAL_SERVERS) {
      expect(server.version, server.id).toMatch(/^\d+\.\d+\.\d+$/);
      expect(server.package, server.id).toMatch(/^@[a-z0-9-]+\/[a-z0-9-]+$/);
      expect(server.entry, server.id).toBe("dist/index.js");
      for (const value of [...server.args, ...Object.values(server.env)]) expect(value.replaceAll("{sandbox}", "")).not.toMatch(/[{}]/);
    }
    // Where the servers find the sandbox: absolute paths, filled in per run.
    const byId = Object.fromEntries(EVAL_SERVERS.map((server) => [server.id, server]));
    expect(byId.filesystem?.args).toEqual(["{sandbox}"]);
    expect(byId.memory?.env).toEqual({ MEMORY_FILE_PATH: "{sandbox}/memory.jsonl" });
    expect(byId.git?.env.GIT_BASE_DIR).toBe("{sandbox}");
    expect(byId.everything?.args).toEqual([]);
  });

  it("tasks have unique ids, known servers, at least 15 in the test split and a few in train, each server tested", () => {
    const ids = EVAL_TASKS.map((task) => task.id);
    expect(new Set(ids).size).toBe(ids.length);
    const servers = new Set(EVAL_SERVERS.map((server) => server.id));
    for (const task of EVAL_TASKS) expect(servers.has(task.server), task.id).toBe(true);
    expect(EVAL_TASKS.filter((task) => task.split === "test").length).toBeGreaterThanOrEqual(15);
    expect(EVAL_TASKS.filter((task) => task.split === "train").length).toBeGreaterThanOrEqual(3);
    for (const server of servers)
      expect(
        EVAL_TASKS.some((task) => task.server === server && task.split === "test"),
        server,
      ).toBe(true);
  });

  it("every check is well-formed and every pattern compiles; prompts say nothing of the policy", () => {
    for (const task of EVAL_TASKS) {
      expect(checkProblem(task.check), task.id).toBeNull();
      expect(() => new RegExp(task.policy.answer), task.id).not.toThrow();
      // The fake model of test/fixtures/eval reads patterns with the m flag: they must compile that way too.
      expect(() => new RegExp(task.policy.answer, "m"), task.id).not.toThrow();
      expect(task.policy.tool, task.id).not.toBe("");
      expect(["next", "last"]).toContain(task.policy.seek);
      expect(task.prompt, task.id).not.toContain(task.policy.tool);
      expect(task.prompt, task.id).not.toMatch(/\{sandbox\}|offset|\bseek\b/);
      expect(JSON.stringify(task.policy.arguments), task.id).not.toContain("{sandbox}");
    }
  });

  it("each server has at least one test task designed to overflow the cap, and one that fits it", () => {
    const known = new Set(EVAL_TASKS.map((task) => task.id));
    for (const id of EVAL_OVERFLOW_TASKS) expect(known.has(id), id).toBe(true);
    for (const server of EVAL_SERVERS) {
      const tests = EVAL_TASKS.filter((task) => task.server === server.id && task.split === "test");
      expect(
        tests.some((task) => EVAL_OVERFLOW_TASKS.includes(task.id)),
        server.id,
      ).toBe(true);
      expect(
        tests.some((task) => !EVAL_OVERFLOW_TASKS.includes(task.id)),
        server.id,
      ).toBe(true);
    }
  });

  it("descriptions: one file per server that has them, every description long enough for S1", () => {
    for (const server of EVAL_SERVERS) {
      const descriptions = EVAL_DESCRIPTIONS[server.id];
      expect(server.descriptions === null, server.id).toBe(descriptions === undefined);
      if (descriptions === undefined) continue;
      expect(server.descriptions).toBe(`descriptions/${server.id}.json`);
      for (const [tool, text] of Object.entries(descriptions)) {
        expect(text.split(/\s+/).filter((word) => word !== "").length, `${server.id} ${tool}`).toBeGreaterThanOrEqual(15);
        expect(text.length, `${server.id} ${tool}`).toBeLessThan(600);
      }
    }
    for (const task of EVAL_TASKS) {
      // The tools the tasks use read better behind the proxy too (everything's get-sum and the rest are S1 findings).
      if (task.server !== "everything") expect(EVAL_DESCRIPTIONS[task.server]?.[task.policy.tool], task.id).toBeDefined();
    }
  });

  it("taskSet() is version 1, JSON-safe and a copy", () => {
    const set = taskSet();
    expect(set.version).toBe(1);
    expect(JSON.parse(JSON.stringify(set))).toEqual(set);
    expect(set.tasks).toEqual(EVAL_TASKS);
    (set.tasks[0] as EvalTask).prompt = "changed";
    expect(EVAL_TASKS[0]?.prompt).not.toBe("changed");
  });
});

// ---------------------------------------------------------------------------------------------
// The servers' results, computed without the servers.

type Tool = (args: JsonObject, sandbox: string) => JsonObject;

const textResult = (text: string, structured = true): JsonObject =>
  structured ? { content: [{ type: "text", text }], structuredContent: { content: text } } : { content: [{ type: "text", text }] };

interface Graph {
  entities: { name: string; entityType: string; observations: string[] }[];
  relations: { from: string; to: string; relationType: string }[];
}

function loadGraph(sandbox: string): Graph {
  const graph: Graph = { entities: [], relations: [] };
  for (const line of readFileSync(join(sandbox, "memory.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const item = JSON.parse(line);
    if (item.type === "entity") graph.entities.push({ name: item.name, entityType: item.entityType, observations: item.observations });
    if (item.type === "relation") graph.relations.push({ from: item.from, to: item.to, relationType: item.relationType });
  }
  return graph;
}

function saveGraph(sandbox: string, graph: Graph): void {
  const lines = [
    ...graph.entities.map((e) => JSON.stringify({ type: "entity", name: e.name, entityType: e.entityType, observations: e.observations })),
    ...graph.relations.map((r) => JSON.stringify({ type: "relation", from: r.from, to: r.to, relationType: r.relationType })),
  ];
  writeFileSync(join(sandbox, "memory.jsonl"), lines.join("\n"));
}

const jsonResult = (value: unknown, structured: JsonObject): JsonObject => ({
  content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  structuredContent: structured,
});

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function gitLog(args: JsonObject, sandbox: string): JsonObject {
  const command = ["log", `--max-count=${args.maxCount ?? 10}`, "--format=%H%x1f%h%x1f%an%x1f%ae%x1f%at%x1f%s%x1f%P%x1f%b%x1e"];
  if (typeof args.grep === "string") command.push(`--grep=${args.grep}`);
  if (typeof args.filePath === "string") command.push("--", args.filePath);
  const out = execFileSync("git", command, { cwd: resolve(sandbox, String(args.path)), encoding: "utf8" });
  const commits = out
    .split("\x1e")
    .map((record) => record.replace(/^\n/, ""))
    .filter((record) => record !== "")
    .map((record) => {
      const [hash, shortHash, author, authorEmail, timestamp, subject, parents, body] = record.split("\x1f") as string[];
      const commit: JsonObject = {
        hash,
        shortHash,
        author,
        authorEmail,
        timestamp: Number(timestamp),
        subject,
        parents: (parents ?? "").split(" ").filter((p) => p !== ""),
      };
      if (body !== undefined && body.trim() !== "") commit.body = body;
      return commit;
    });
  const value = { success: true, commits, totalCount: commits.length };
  return jsonResult(value, value);
}

/** The tools simulated here; the rest (git_blame, git_show) only in the e2e test. */
const TOOLS: Record<string, Record<string, Tool>> = {
  filesystem: {
    read_text_file: (args, sandbox) => {
      const text = readFileSync(resolve(sandbox, String(args.path)), "utf8");
      return textResult(typeof args.head === "number" ? text.split("\n").slice(0, args.head).join("\n") : text);
    },
    read_multiple_files: (args, sandbox) =>
      textResult((args.paths as string[]).map((path) => `${path}:\n${readFileSync(resolve(sandbox, path), "utf8")}\n`).join("\n---\n")),
    search_files: (args, sandbox) => {
      const name = String(args.pattern).replace(/^\*\*\//, "");
      const found = walk(resolve(sandbox, String(args.path))).filter((path) => basename(path) === name);
      return textResult(found.length > 0 ? found.join("\n") : "No matches found");
    },
    write_file: (args, sandbox) => {
      writeFileSync(resolve(sandbox, String(args.path)), String(args.content));
      return textResult(`Successfully wrote to ${args.path}`);
    },
    edit_file: (args, sandbox) => {
      const path = resolve(sandbox, String(args.path));
      let text = readFileSync(path, "utf8");
      const diff: string[] = [];
      for (const edit of args.edits as { oldText: string; newText: string }[]) {
        expect(text).toContain(edit.oldText);
        text = text.replace(edit.oldText, edit.newText);
        diff.push(`-${edit.oldText}`, `+${edit.newText}`);
      }
      writeFileSync(path, text);
      return textResult(`\`\`\`diff\n--- ${path}\n+++ ${path}\n${diff.join("\n")}\n\`\`\`\n\n`);
    },
  },
  memory: {
    read_graph: (_args, sandbox) => {
      const graph = loadGraph(sandbox);
      return jsonResult(graph, { ...graph });
    },
    open_nodes: (args, sandbox) => {
      const graph = loadGraph(sandbox);
      const names = args.names as string[];
      const entities = graph.entities.filter((e) => names.includes(e.name));
      const set = new Set(entities.map((e) => e.name));
      const result = { entities, relations: graph.relations.filter((r) => set.has(r.from) && set.has(r.to)) };
      return jsonResult(result, result);
    },
    create_entities: (args, sandbox) => {
      const graph = loadGraph(sandbox);
      const created = (args.entities as Graph["entities"]).filter((e) => !graph.entities.some((old) => old.name === e.name));
      graph.entities.push(...created);
      saveGraph(sandbox, graph);
      return jsonResult(created, { entities: created });
    },
    create_relations: (args, sandbox) => {
      const graph = loadGraph(sandbox);
      const created = (args.relations as Graph["relations"]).filter(
        (r) => !graph.relations.some((old) => old.from === r.from && old.to === r.to && old.relationType === r.relationType),
      );
      graph.relations.push(...created);
      saveGraph(sandbox, graph);
      return jsonResult(created, { relations: created });
    },
    add_observations: (args, sandbox) => {
      const graph = loadGraph(sandbox);
      const results = (args.observations as { entityName: string; contents: string[] }[]).map((o) => {
        const entity = graph.entities.find((e) => e.name === o.entityName);
        if (entity === undefined) throw new Error(`Entity with name ${o.entityName} not found`);
        const added = o.contents.filter((c) => !entity.observations.includes(c));
        entity.observations.push(...added);
        return { entityName: o.entityName, addedObservations: added };
      });
      saveGraph(sandbox, graph);
      return jsonResult(results, { results });
    },
  },
  everything: {
    // Behind the proxy the server gets the SDK's minimal environment and the --pass-env variables, in that order.
    "get-env": () => {
      const env = { ...getDefaultEnvironment(), ...(EVAL_SERVERS.find((server) => server.id === "everything")?.env ?? {}) };
      return { content: [{ type: "text", text: JSON.stringify(env, null, 2) }] };
    },
    "get-sum": (args) => ({ content: [{ type: "text", text: `The sum of ${args.a} and ${args.b} is ${Number(args.a) + Number(args.b)}.` }] }),
    "get-structured-content": (args) => {
      expect(args.location).toBe("Chicago");
      const weather = { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 };
      return { content: [{ type: "text", text: JSON.stringify(weather) }], structuredContent: weather };
    },
    "trigger-long-running-operation": (args) => ({
      content: [{ type: "text", text: `Long running operation completed. Duration: ${args.duration} seconds, Steps: ${args.steps}.` }],
    }),
    "get-resource-reference": (args) => {
      const uri = `demo://resource/dynamic/text/${args.resourceId}`;
      return {
        content: [
          { type: "text", text: `Returning resource reference for Resource ${args.resourceId}:` },
          { type: "resource", resource: { uri, mimeType: "text/plain", text: `Resource ${args.resourceId}: This is a plaintext resource` } },
          { type: "text", text: `You can access this resource using the URI: ${uri}` },
        ],
      };
    },
  },
  git: { git_log: gitLog },
};

const OUTPUT_SCHEMAS: Record<string, JsonObject | null> = {
  filesystem: STRING_CONTENT,
  memory: ANY_OBJECT,
  everything: null,
  git: ANY_OBJECT,
};

/** Whether a task writes: each arm then gets a sandbox of its own. */
const writes = (task: EvalTask) => task.check.kind === "file";

describe("every task is solvable by its policy on the built sandbox", () => {
  const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-tasks-"));
  const pristine = join(root, "pristine");
  let copies = 0;
  const copy = () => {
    const dir = join(root, `copy-${++copies}`);
    cpSync(pristine, dir, { recursive: true });
    return dir;
  };
  beforeAll(async () => {
    await buildSandbox(pristine);
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  for (const task of EVAL_TASKS) {
    const tool = TOOLS[task.server]?.[task.policy.tool];
    if (tool === undefined) continue;
    const overflows = EVAL_OVERFLOW_TASKS.includes(task.id);
    it(`${task.id}: ${overflows ? "over the cap directly, answered through the proxy's pages" : "answered directly and through the proxy"}`, async () => {
      // The whole result, and answerFor on it.
      const whole = writes(task) ? copy() : pristine;
      const full = tool(structuredClone(task.policy.arguments), whole);
      const fullText = resultText(full);
      const answer = answerFor(task.policy, fullText);
      expect(answer, `${task.id}: no match in the whole result`).not.toBeNull();
      expect(checkAnswer(task.check, answer as string, whole), task.id).toEqual({ success: true, reason: null });
      expect(new RegExp(task.policy.answer, "m").exec(fullText)?.[1] ?? null, `${task.id} with the m flag`).toBe(answer);

      // Direct: the scripted agent with a 100,000-character cap.
      const direct = writes(task) ? copy() : pristine;
      const directRun = await followPolicy(task.policy, async (args) => tool(structuredClone(args), direct), { cap: CAP });
      if (overflows) {
        expect(fullText.length, task.id).toBeGreaterThan(CAP);
        expect(directRun.answer, task.id).toBeNull();
        expect(directRun.error).toMatch(/over the cap/);
      } else {
        expect(fullText.length, task.id).toBeLessThanOrEqual(CAP);
        expect(directRun.error, task.id).toBeNull();
        expect(checkAnswer(task.check, directRun.answer as string, direct).success, task.id).toBe(true);
      }

      // Behind the proxy: its own paging code on the same results.
      const proxied = writes(task) ? copy() : pristine;
      const proxyRun = await followPolicy(
        task.policy,
        async (args) => {
          const taken = takePagingArguments(args);
          if ("error" in taken) throw new Error(taken.error);
          return fixCallResult(tool(structuredClone(taken.args) as JsonObject, proxied), FIXES, taken.request, OUTPUT_SCHEMAS[task.server] ?? null);
        },
        { cap: CAP },
      );
      expect(proxyRun.error, task.id).toBeNull();
      expect(checkAnswer(task.check, proxyRun.answer as string, proxied), task.id).toEqual({ success: true, reason: null });
      expect(proxyRun.longest).toBeLessThanOrEqual(10_000);
      // A page of a longer result each time (the whole one is over 100,000 characters); seeking the last page takes a second call.
      if (overflows && task.policy.seek === "last") expect(proxyRun.calls, task.id).toBeGreaterThanOrEqual(2);
      // The fake model of test/fixtures/eval gives up after 12 calls.
      expect(proxyRun.calls, task.id).toBeLessThanOrEqual(12);
    }, 60_000);
  }

  it("the tasks on git_blame and git_show ask about facts git itself confirms", () => {
    const repo = join(pristine, "repo");
    const blame = (line: number) =>
      /^author (.+)$/m.exec(execFileSync("git", ["blame", "--porcelain", "-L", `${line},${line}`, "src/settings.py"], { cwd: repo, encoding: "utf8" }))?.[1];
    expect(blame(FACTS.gitSettingsLines)).toBe(FACTS.gitSettingsLastLineAuthor);
    expect(blame(1203)).toBe(FACTS.gitSettingsLine1203Author);
    expect(execFileSync("git", ["cat-file", "-p", FACTS.gitTag], { cwd: repo, encoding: "utf8" })).toContain(`Headline: ${FACTS.gitTagHeadline}.`);
    expect(readFileSync(join(repo, "src/settings.py"), "utf8").split("\n").length - 1).toBe(FACTS.gitSettingsLines);
  });

  it("the simulated tools cover every task but the git_blame and git_show ones", () => {
    const left = EVAL_TASKS.filter((task) => TOOLS[task.server]?.[task.policy.tool] === undefined).map((task) => task.policy.tool);
    expect(new Set(left)).toEqual(new Set(["git_blame", "git_show"]));
    expect(statSync(join(pristine, "logs/app.log")).size).toBeGreaterThan(1_000_000);
  });
});
