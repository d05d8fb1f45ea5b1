// What `eval --run` accepts from tasks.json (src/eval/trust.ts, issue 42): a server entry that
// climbs out of servers/node_modules, by its text or by a link, a variable that changes what a
// program loads (NODE_OPTIONS and its kind), or one the task set's servers do not take, is refused
// with the rest of one line; the task set setup writes passes.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EVAL_SERVER_VARIABLES, EVAL_SERVERS, taskSet } from "../../../src/eval/tasks.js";
import { entryProblem, isInside, isLoaderVariable, taskSetProblem } from "../../../src/eval/trust.js";
import type { TaskSet } from "../../../src/eval/types.js";

/** The task set with its first server changed by `edit`. */
function withServer(edit: (server: Record<string, unknown>) => void): TaskSet {
  const set = taskSet();
  edit(set.servers[0] as unknown as Record<string, unknown>);
  return set;
}

describe("taskSetProblem", () => {
  it("passes the task set setup writes; its variables are all on the list, and none loads code", () => {
    expect(taskSetProblem(taskSet())).toBeNull();
    for (const server of EVAL_SERVERS) {
      for (const name of Object.keys(server.env)) {
        expect(EVAL_SERVER_VARIABLES, name).toContain(name);
        expect(isLoaderVariable(name), name).toBe(false);
      }
    }
  });

  it.each([
    ["../../../evil.js", "climbs out of its folder"],
    ["dist/../../other/index.js", "climbs out of its folder"],
    ["/tmp/evil.js", "is not a relative path"],
    ["dist\\..\\..\\evil.js", "is not a relative path"],
    ["", "is not a relative path"],
    ["dist//index.js", "is not a plain relative path"],
    ["./dist/index.js", "is not a plain relative path"],
  ])("an entry %j is refused: it %s", (entry, why) => {
    expect(
      taskSetProblem(
        withServer((server) => {
          server.entry = entry;
        }),
      ),
    ).toBe(`server "filesystem" runs ${JSON.stringify(entry)}, which ${why}: an entry is a file of its package in servers/node_modules`);
  });

  it.each(["../..", "..", "@scope/../../x", "/abs", "Capital", "a b"])("a package named %j is refused", (name) => {
    expect(
      taskSetProblem(
        withServer((server) => {
          server.package = name;
        }),
      ),
    ).toBe('server "filesystem" names no npm package');
  });

  it.each([
    "NODE_OPTIONS",
    "node_options",
    "NODE_PATH",
    "NODE_REPL_EXTERNAL_MODULE",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "LD_AUDIT",
    "DYLD_INSERT_LIBRARIES",
    "BASH_ENV",
    "BASH_FUNC_echo%%",
    "ENV",
    "PATH",
    "HOME",
    "npm_config_script_shell",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "GIT_EXEC_PATH",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_KEY_0",
    "GIT_DIR",
    "PYTHONPATH",
    "PERL5OPT",
    "RUBYOPT",
    "ANTHROPIC_API_KEY",
    "CLAUDE_CONFIG_DIR",
  ])("%s is refused as a variable that changes what a program loads or runs", (name) => {
    expect(isLoaderVariable(name)).toBe(true);
    expect(
      taskSetProblem(
        withServer((server) => {
          server.env = { [name]: "--import=data:text/javascript,process.exit(9)" };
        }),
      ),
    ).toBe(`server "filesystem" sets ${name}, which changes what a program loads or runs; eval never passes it to a server`);
  });

  it("a variable the task set's servers do not take is refused, even a harmless one", () => {
    expect(
      taskSetProblem(
        withServer((server) => {
          server.env = { SOME_SETTING: "1" };
        }),
      ),
    ).toBe(`server "filesystem" sets SOME_SETTING, which is not among the variables the task set's servers take`);
  });

  it("the git server's own GIT_ variables pass; git's are refused", () => {
    expect(isLoaderVariable("GIT_BASE_DIR")).toBe(false);
    expect(isLoaderVariable("GIT_SIGN_COMMITS")).toBe(false);
    expect(isLoaderVariable("GIT_PAGER")).toBe(true);
  });

  it.each([
    [(server: Record<string, unknown>) => (server.args = "{sandbox}"), 'server "filesystem" has arguments that are not a list of strings'],
    [(server: Record<string, unknown>) => (server.env = { MEMORY_FILE_PATH: 1 }), 'server "filesystem" has an environment that is not an object of strings'],
    [
      (server: Record<string, unknown>) => (server.descriptions = "../../.ssh/id_rsa"),
      'server "filesystem" reads its descriptions from "../../.ssh/id_rsa", not from a file in descriptions/',
    ],
    [
      (server: Record<string, unknown>) => (server.descriptions = "descriptions/../x.json"),
      'server "filesystem" reads its descriptions from "descriptions/../x.json", not from a file in descriptions/',
    ],
    [(server: Record<string, unknown>) => (server.id = "../x"), "server 1 has no plain id"],
  ])("a malformed server field is refused (%#)", (edit, expected) => {
    expect(taskSetProblem(withServer(edit))).toBe(expected);
  });

  it("a server twice, a task of an unknown server or split: refused", () => {
    const twice = taskSet();
    twice.servers.push(structuredClone(twice.servers[0]) as (typeof twice.servers)[number]);
    expect(taskSetProblem(twice)).toBe('server "filesystem" is there twice');
    const unknown = taskSet();
    (unknown.tasks[0] as { server: string }).server = "nowhere";
    expect(taskSetProblem(unknown)).toBe(`task ${JSON.stringify(unknown.tasks[0]?.id)} names a server the task set does not have`);
    const split = taskSet();
    (split.tasks[0] as { split: string }).split = "all";
    expect(taskSetProblem(split)).toBe(`task ${JSON.stringify(split.tasks[0]?.id)} is in neither the test nor the train split`);
  });
});

describe("entryProblem", () => {
  const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-trust-"));
  const servers = join(root, "servers");
  const pkg = join(servers, "node_modules", "some-server");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "dist", "index.js"), "");
  writeFileSync(join(root, "evil.js"), "");
  symlinkSync(join(root, "evil.js"), join(pkg, "dist", "linked.js"));
  symlinkSync("index.js", join(pkg, "dist", "inside.js"));
  const server = (entry: string) => ({ id: "s", package: "some-server", entry });

  it("a file of the package passes, and so does a link that stays in node_modules", async () => {
    expect(await entryProblem(servers, server("dist/index.js"))).toBeNull();
    expect(await entryProblem(servers, server("dist/inside.js"))).toBeNull();
  });

  it("an entry that links out of servers/node_modules is refused, naming where it leads", async () => {
    expect(await entryProblem(servers, server("dist/linked.js"))).toBe(
      `server "s" runs ${join(pkg, "dist", "linked.js")}, which leads to ${join(root, "evil.js")}, outside ${join(servers, "node_modules")}`,
    );
  });

  it("a missing entry says to install the servers", async () => {
    expect(await entryProblem(servers, server("dist/none.js"))).toBe(
      `server "s" runs ${join(pkg, "dist", "none.js")}, which does not exist; install the servers with mcp-lint eval --setup`,
    );
  });

  it("a linked node_modules (an install shared with another folder) is one folder: its own files pass", async () => {
    const other = join(root, "other-servers");
    mkdirSync(other);
    symlinkSync(join(servers, "node_modules"), join(other, "node_modules"));
    expect(await entryProblem(other, server("dist/index.js"))).toBeNull();
    expect(await entryProblem(other, server("dist/linked.js"))).toMatch(/, outside /);
  });
});

describe("isInside", () => {
  it("is true for the folder and below, false for a sibling that shares its prefix", () => {
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/b/c")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a")).toBe(false);
    expect(isInside("/a/b", "/a/b/../c")).toBe(false);
  });
});
