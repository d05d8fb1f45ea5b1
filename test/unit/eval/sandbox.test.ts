// The sandbox of `mcp-lint eval` (src/eval/sandbox.ts): the same bytes on every build, git commit
// ids included (pinned, so a machine with another clock, zone or git config would show here); a
// folder of its own is rebuilt, any other non-empty folder refused with one line and left alone.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buildSandbox, FACTS, SANDBOX_MARKER, sandboxFiles } from "../../../src/eval/sandbox.js";

const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-sandbox-"));
let count = 0;
const fresh = () => join(root, `sandbox-${++count}`);

/** The git index records each file's inode and times: the one file of a build that differs by nature. */
const UNSTABLE = new Set(["repo/.git/index"]);

/** Every path below `dir` with its kind and, for files, its bytes (as hex of a hash would hide a diff's place, the bytes themselves). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const rel = relative(dir, path);
      if (entry.isDirectory()) {
        out.set(rel, "dir");
        walk(path);
      } else if (entry.isSymbolicLink()) out.set(rel, `link:${readlinkSync(path)}`);
      else if (!UNSTABLE.has(rel)) out.set(rel, readFileSync(path).toString("base64"));
    }
  };
  walk(dir);
  return out;
}

const git = (repo: string, ...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" });

describe("buildSandbox", () => {
  it("builds the same bytes twice, the git history included, with the pinned commit ids", async () => {
    const [a, b] = [fresh(), fresh()];
    await buildSandbox(a);
    await buildSandbox(b);
    const [left, right] = [snapshot(a), snapshot(b)];
    expect([...left.keys()].sort()).toEqual([...right.keys()].sort());
    for (const [path, bytes] of left) expect(right.get(path) === bytes, path).toBe(true);
    for (const repo of [join(a, "repo"), join(b, "repo")]) {
      expect(git(repo, "rev-parse", "HEAD").trim()).toBe("0520f1a99cc06badba9e87e7cfa13116c050672c");
      expect(git(repo, "rev-list", "--max-parents=0", "HEAD").trim()).toBe("c80ea036fcdd1b9f19d3fbff365cc1d891d4c229");
      expect(git(repo, "rev-list", "--count", "HEAD").trim()).toBe(String(FACTS.gitCommits));
      // A clean checkout: the working tree is the last commit.
      expect(git(repo, "status", "--porcelain")).toBe("");
    }
    expect(git(join(a, "repo"), "show-ref", "--tags", "-d")).toBe(git(join(b, "repo"), "show-ref", "--tags", "-d"));
    expect(git(join(a, "repo"), "log", "--format=%H %an <%ae> %at %cn %ct %s")).toBe(git(join(b, "repo"), "log", "--format=%H %an <%ae> %at %cn %ct %s"));
  }, 60_000);

  it("writes the files the tasks read, as sandboxFiles() says", async () => {
    const dir = fresh();
    await buildSandbox(dir);
    for (const [path, text] of sandboxFiles()) expect(readFileSync(join(dir, path), "utf8") === text, path).toBe(true);
    const log = readFileSync(join(dir, "logs/app.log"), "utf8").split("\n");
    expect(log).toHaveLength(FACTS.appLogLines + 1);
    expect(log[FACTS.appLogLines - 1]).toBe(FACTS.appLogLastLine);
    expect(log[14_999]).toContain(`req=${FACTS.appLogLine15000Id} `);
    expect(readFileSync(join(dir, "logs/app.log")).length).toBeGreaterThan(1_000_000);
    const graph = readFileSync(join(dir, "memory.jsonl"), "utf8")
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(graph.filter((item) => item.type === "entity" && item.entityType === "person")).toHaveLength(FACTS.memoryPeople);
    expect(graph).toContainEqual({ type: "relation", from: FACTS.memoryPerson, to: FACTS.memoryManager, relationType: "reports_to" });
    expect(graph).toContainEqual({ type: "relation", from: FACTS.memoryProjectLead, to: FACTS.memoryProject, relationType: "leads" });
    expect(new Set(graph.filter((item) => item.type === "entity").map((item) => item.name)).size).toBe(graph.filter((item) => item.type === "entity").length);
    expect(readFileSync(join(dir, FACTS.codenameFile), "utf8")).toContain(FACTS.codename);
    const mentions = [...sandboxFiles()].filter(([, text]) => text.includes(FACTS.codename)).map(([path]) => path);
    expect(mentions).toEqual([FACTS.codenameFile]);
    expect(existsSync(join(dir, SANDBOX_MARKER))).toBe(true);
  }, 60_000);

  it("makes a missing folder, parents included, and fills an empty one", async () => {
    const nested = join(fresh(), "a", "b");
    await buildSandbox(nested);
    expect(existsSync(join(nested, "logs/app.log"))).toBe(true);
    const empty = fresh();
    mkdirSync(empty);
    await buildSandbox(empty);
    expect(existsSync(join(empty, "repo/.git"))).toBe(true);
  }, 60_000);

  it("rebuilds a sandbox of its own: what a run left is gone, what a link points to is kept", async () => {
    const dir = fresh();
    await buildSandbox(dir);
    const before = snapshot(dir);
    const outside = join(root, `outside-${count}`);
    mkdirSync(outside);
    writeFileSync(join(outside, "keep.txt"), "keep");
    writeFileSync(join(dir, "notes/left-over.md"), "from a run");
    writeFileSync(join(dir, "logs/app.log"), "changed");
    symlinkSync(outside, join(dir, "link-out"));
    await buildSandbox(dir);
    expect(snapshot(dir)).toEqual(before);
    expect(readFileSync(join(outside, "keep.txt"), "utf8")).toBe("keep");
  }, 60_000);

  it("refuses a non-empty folder that holds no sandbox, with one line, and leaves it alone", async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "precious.txt"), "mine");
    const error = await buildSandbox(dir).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/is not empty and holds no mcp-lint eval sandbox/);
    expect((error as Error).message).not.toContain("\n");
    expect(readdirSync(dir)).toEqual(["precious.txt"]);
  });

  it("refuses a marker that is not a file, and a path that is not a folder", async () => {
    const linked = fresh();
    mkdirSync(linked);
    writeFileSync(join(root, "elsewhere"), "x");
    symlinkSync(join(root, "elsewhere"), join(linked, SANDBOX_MARKER));
    writeFileSync(join(linked, "precious.txt"), "mine");
    await expect(buildSandbox(linked)).rejects.toThrow(/holds no mcp-lint eval sandbox/);
    expect(lstatSync(join(linked, "precious.txt")).isFile()).toBe(true);
    const folder = fresh();
    mkdirSync(join(folder, SANDBOX_MARKER), { recursive: true });
    await expect(buildSandbox(folder)).rejects.toThrow(/holds no mcp-lint eval sandbox/);
    const file = join(root, "a-file");
    writeFileSync(file, "x");
    await expect(buildSandbox(file)).rejects.toThrow(/exists and is not a folder/);
  });

  it("is pure in what it computes: sandboxFiles() twice is the same", () => {
    expect(sandboxFiles()).toEqual(sandboxFiles());
  });
});
