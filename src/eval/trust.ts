/**
 * What `eval --run` accepts from tasks.json before it starts anything (issue 42): every server runs
 * a file of its own package inside servers/node_modules, is given only variables of the task set's
 * list (never one that changes what a program loads or runs), and reads its descriptions from
 * descriptions/. Pure but for entryProblem, which resolves links on disk.
 */

import { realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { isJsonObject } from "../json/value.js";
import { EVAL_SERVER_VARIABLES } from "./tasks.js";
import type { TaskSet } from "./types.js";

/**
 * Variables that make a program load or run other code, or look for its settings elsewhere: never
 * passed to a server, whatever list allows them. Node's own (NODE_OPTIONS --import/--require,
 * NODE_PATH), the dynamic loader's (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, DYLD_INSERT_LIBRARIES),
 * shells' (BASH_ENV, ENV, exported BASH_FUNC_ functions), npm's settings, git's commands and
 * settings (GIT_SSH_COMMAND, GIT_ASKPASS, GIT_CONFIG_*, GIT_EXEC_PATH, ...), PATH and HOME (where
 * commands and settings are found), other runtimes' (PYTHONPATH, PERL5OPT, RUBYOPT) and the agent's
 * own (ANTHROPIC_*, CLAUDE_*).
 */
const LOADER_VARIABLES: readonly RegExp[] = [
  /^NODE_/,
  /^NPM_CONFIG_/,
  /^LD_/,
  /^DYLD_/,
  /^BASH_/,
  /^(?:ENV|SHELLOPTS|PS4|PATH|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS)$/,
  /^GIT_(?:SSH|SSH_COMMAND|ASKPASS|EXEC_PATH|EXTERNAL_DIFF|PAGER|EDITOR|PROXY_COMMAND|TEMPLATE_DIR|DIR|WORK_TREE|CONFIG.*)$/,
  /^(?:SSH_ASKPASS|PAGER|EDITOR|VISUAL)$/,
  /^PYTHON/,
  /^(?:PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB)$/,
  /^(?:ANTHROPIC|CLAUDE)_/,
];

/** Whether a variable is one that changes what a program loads or runs (compared as Windows would, without case). */
export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return LOADER_VARIABLES.some((pattern) => pattern.test(upper));
}

/** An npm package name (scoped or not): no path of its own can climb out of node_modules. */
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A server id: it names files and results. */
const SERVER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The descriptions file of a server: a plain JSON file name in descriptions/. */
const DESCRIPTIONS = /^descriptions\/[A-Za-z0-9][A-Za-z0-9._-]{0,63}\.json$/;

/** Why `path` is not a plain relative path below its folder (no `..`, `.` or empty segment, no backslash), or null. Pure. */
function relativePathProblem(path: string): string | null {
  if (path === "" || path.startsWith("/") || path.includes("\\") || path.includes("\0")) return "is not a relative path";
  const segments = path.split("/");
  if (segments.includes("..")) return "climbs out of its folder";
  if (segments.some((segment) => segment === "" || segment === ".")) return "is not a plain relative path";
  return null;
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * Why a task file's servers and tasks cannot be run, as the rest of a sentence about the file, or
 * null. Checks each server's fields (the entry, the variables, the descriptions) and the fields of
 * each task `--run` reads. Pure.
 */
export function taskSetProblem(set: TaskSet): string | null {
  const ids = new Set<string>();
  for (const [index, server] of (set.servers as unknown[]).entries()) {
    if (!isJsonObject(server)) return `server ${index + 1} is not an object`;
    const id = server.id;
    if (typeof id !== "string" || !SERVER_ID.test(id)) return `server ${index + 1} has no plain id`;
    if (ids.has(id)) return `server ${JSON.stringify(id)} is there twice`;
    ids.add(id);
    const named = `server ${JSON.stringify(id)}`;
    if (typeof server.package !== "string" || !PACKAGE_NAME.test(server.package)) return `${named} names no npm package`;
    if (typeof server.version !== "string") return `${named} has no version`;
    if (typeof server.entry !== "string") return `${named} has no entry`;
    const entry = relativePathProblem(server.entry);
    if (entry !== null) return `${named} runs ${JSON.stringify(server.entry)}, which ${entry}: an entry is a file of its package in servers/node_modules`;
    if (!isStringArray(server.args)) return `${named} has arguments that are not a list of strings`;
    if (!isJsonObject(server.env) || !Object.values(server.env).every((value) => typeof value === "string"))
      return `${named} has an environment that is not an object of strings`;
    for (const name of Object.keys(server.env)) {
      if (isLoaderVariable(name)) return `${named} sets ${name}, which changes what a program loads or runs; eval never passes it to a server`;
      if (!EVAL_SERVER_VARIABLES.includes(name)) return `${named} sets ${name}, which is not among the variables the task set's servers take`;
    }
    if (server.descriptions !== null && (typeof server.descriptions !== "string" || !DESCRIPTIONS.test(server.descriptions))) {
      return `${named} reads its descriptions from ${JSON.stringify(server.descriptions)}, not from a file in descriptions/`;
    }
  }
  for (const [index, task] of (set.tasks as unknown[]).entries()) {
    if (!isJsonObject(task) || typeof task.id !== "string" || task.id === "") return `task ${index + 1} has no id`;
    const named = `task ${JSON.stringify(task.id)}`;
    if (typeof task.server !== "string" || !ids.has(task.server)) return `${named} names a server the task set does not have`;
    if (task.split !== "test" && task.split !== "train") return `${named} is in neither the test nor the train split`;
    if (typeof task.prompt !== "string") return `${named} has no prompt`;
    if (!isJsonObject(task.check) || !isJsonObject(task.policy)) return `${named} has no check or no policy`;
  }
  return null;
}

/** Whether `path` is `folder` or below it. Pure. */
export function isInside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !rest.startsWith(sep));
}

/**
 * Why a server's entry does not resolve, links followed, to a file inside `servers/node_modules`
 * (itself followed: a linked install is one folder), or null. Reads the disk.
 */
export async function entryProblem(serversDir: string, server: { id: string; package: string; entry: string }): Promise<string | null> {
  const modules = join(serversDir, "node_modules");
  const entry = join(modules, server.package, server.entry);
  const named = `server ${JSON.stringify(server.id)}`;
  let root: string;
  let real: string;
  try {
    root = await realpath(modules);
    real = await realpath(entry);
  } catch {
    return `${named} runs ${entry}, which does not exist; install the servers with mcp-lint eval --setup`;
  }
  if (!isInside(root, real)) return `${named} runs ${entry}, which leads to ${real}, outside ${modules}`;
  return null;
}
