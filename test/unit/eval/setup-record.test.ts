// What `eval --setup` records (src/eval/setup-record.ts, issue 42): a digest of the task set and
// the servers' install, kept in the user's config folder; a change to any recorded file, a file
// gone or new, and a folder never recorded are each told apart, the task file first.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSetupRecord, firstDifference, recordedPaths, recordFile, writeSetupRecord } from "../../../src/eval/setup-record.js";
import { taskSet } from "../../../src/eval/tasks.js";

describe("recordedPaths", () => {
  it("the task file first, then the descriptions; the install is npm's lock and each server's package.json and entry", () => {
    const { taskSet: files, install } = recordedPaths(taskSet());
    expect(files).toEqual(["tasks.json", "descriptions/filesystem.json", "descriptions/memory.json", "descriptions/everything.json", "descriptions/git.json"]);
    expect(install.slice(0, 3)).toEqual(["servers/package.json", "servers/package-lock.json", "servers/node_modules/.package-lock.json"]);
    expect(install).toContain("servers/node_modules/@modelcontextprotocol/server-memory/dist/index.js");
    expect(install).toContain("servers/node_modules/@cyanheads/git-mcp-server/package.json");
  });
});

describe("firstDifference", () => {
  it("names the first file in the record's order that changed, went or came", () => {
    const recorded = { "tasks.json": "a", "descriptions/x.json": "b", "servers/package-lock.json": null };
    expect(firstDifference(recorded, { ...recorded })).toBeNull();
    expect(firstDifference(recorded, { ...recorded, "descriptions/x.json": "c", "tasks.json": "z" })).toEqual({ path: "tasks.json", now: "changed" });
    expect(firstDifference(recorded, { ...recorded, "descriptions/x.json": null })).toEqual({ path: "descriptions/x.json", now: "gone" });
    expect(firstDifference(recorded, { ...recorded, "servers/package-lock.json": "d" })).toEqual({ path: "servers/package-lock.json", now: "new" });
  });
});

describe("writeSetupRecord and checkSetupRecord", () => {
  const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-record-"));
  const env = { XDG_CONFIG_HOME: join(root, "config") };
  const dir = join(root, "eval");
  const set = taskSet();
  mkdirSync(join(dir, "descriptions"), { recursive: true });
  writeFileSync(join(dir, "tasks.json"), JSON.stringify(set));
  for (const server of set.servers) {
    if (server.descriptions !== null) writeFileSync(join(dir, server.descriptions), "{}");
    const folder = join(dir, "servers", "node_modules", server.package);
    mkdirSync(join(folder, "dist"), { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify({ version: server.version }));
    writeFileSync(join(folder, server.entry), "// entry\n");
  }

  it("records in the user's config folder, private, and a folder as written checks the same", async () => {
    const file = await writeSetupRecord(dir, set, env);
    expect(file).toBe(recordFile(realpathSync(dir), env));
    expect(file.startsWith(join(root, "config", "mcp-lint", "eval"))).toBe(true);
    const record = JSON.parse(readFileSync(file, "utf8"));
    expect(record.folder).toBe(realpathSync(dir));
    expect(Object.keys(record.files)[0]).toBe("tasks.json");
    // A file setup did not find is recorded as none.
    expect(record.files["servers/package-lock.json"]).toBeNull();
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "same" });
  });

  it("a changed task file or description is the task set; a changed entry, a new lock file are the install", async () => {
    await writeSetupRecord(dir, set, env);
    const tasks = readFileSync(join(dir, "tasks.json"), "utf8");
    writeFileSync(join(dir, "tasks.json"), `${tasks} `);
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "differs", path: "tasks.json", part: "task set", now: "changed" });
    writeFileSync(join(dir, "tasks.json"), tasks);
    rmSync(join(dir, "descriptions", "git.json"));
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "differs", path: "descriptions/git.json", part: "task set", now: "gone" });
    writeFileSync(join(dir, "descriptions", "git.json"), "{}");
    const entry = join(dir, "servers", "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js");
    writeFileSync(entry, "// changed\n");
    expect(await checkSetupRecord(dir, env)).toMatchObject({ kind: "differs", part: "install", now: "changed" });
    writeFileSync(entry, "// entry\n");
    writeFileSync(join(dir, "servers", "package-lock.json"), "{}");
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "differs", path: "servers/package-lock.json", part: "install", now: "new" });
    rmSync(join(dir, "servers", "package-lock.json"));
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "same" });
  });

  it("a folder never recorded, or reached by another config folder, has no record; a link to a recorded folder is that folder", async () => {
    await writeSetupRecord(dir, set, env);
    expect(await checkSetupRecord(dir, { XDG_CONFIG_HOME: join(root, "elsewhere") })).toMatchObject({ kind: "no-record" });
    const link = join(root, "link");
    symlinkSync(dir, link);
    expect(await checkSetupRecord(link, env)).toEqual({ kind: "same" });
  });

  it("a record that is not one this module writes (a hand edit, another folder's) counts as none", async () => {
    const file = await writeSetupRecord(dir, set, env);
    const record = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...record, folder: "/elsewhere" }));
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "no-record", file });
    writeFileSync(file, "not json");
    expect(await checkSetupRecord(dir, env)).toEqual({ kind: "no-record", file });
  });

  it("refuses to write the record through a link", async () => {
    const file = recordFile(realpathSync(dir), env);
    rmSync(file, { force: true });
    const target = join(root, "target.json");
    writeFileSync(target, "outside");
    symlinkSync(target, file);
    await expect(writeSetupRecord(dir, set, env)).rejects.toThrow(/it is a symbolic link/);
    expect(readFileSync(target, "utf8")).toBe("outside");
    rmSync(file);
  });
});
