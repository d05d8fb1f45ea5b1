/**
 * What `eval --setup` records of the folder it wrote (issue 42): a SHA-256 of the task set
 * (tasks.json and the descriptions) and of the servers' install (npm's package lock and each
 * server's package.json and entry). The record is kept in the user's config folder, not in the eval
 * folder, so a folder made or changed by someone else cannot bring a record of its own;
 * `eval --run` refuses a folder whose files differ from it, naming the first that does.
 */

import { createHash } from "node:crypto";
import { mkdir, readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { InputFileError } from "../errors.js";
import { isJsonObject } from "../json/value.js";
import { readTextIfExists, writeFileSafely } from "../lock/io.js";
import { userConfigFolder } from "../proxy/wrap/locks.js";
import type { TaskSet } from "./types.js";

const RECORD_VERSION = 1;

/** The record of one eval folder. */
export interface SetupRecord {
  version: typeof RECORD_VERSION;
  /** The eval folder, links resolved. */
  folder: string;
  /** Each recorded file, by its path below the folder (tasks.json first), with its SHA-256, or null when setup found none. */
  files: Record<string, string | null>;
}

/** The task file, whose difference is named first. */
export const TASK_FILE = "tasks.json";

/** The files of the task set (tasks.json first, then the descriptions) and of the install, by path below the eval folder. Pure. */
export function recordedPaths(set: TaskSet): { taskSet: string[]; install: string[] } {
  const descriptions = set.servers.flatMap((server) => (server.descriptions === null ? [] : [server.descriptions]));
  const modules = "servers/node_modules";
  return {
    taskSet: [TASK_FILE, ...descriptions],
    install: [
      "servers/package.json",
      "servers/package-lock.json",
      // npm's own record of what node_modules holds, rewritten by every install into it.
      `${modules}/.package-lock.json`,
      ...set.servers.flatMap((server) => [`${modules}/${server.package}/package.json`, `${modules}/${server.package}/${server.entry}`]),
    ],
  };
}

/** Where the record of an eval folder (links resolved) is kept: the user's config folder, one file per folder. */
export function recordFile(folder: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const name = `${createHash("sha256").update(folder, "utf8").digest("hex").slice(0, 32)}.json`;
  return join(userConfigFolder({ env, home: homedir(), platform: process.platform }), "mcp-lint", "eval", name);
}

/** A file's SHA-256, or null when there is none. */
async function digestOf(path: string): Promise<string | null> {
  try {
    if (!(await stat(path)).isFile()) return "not a file";
    return createHash("sha256")
      .update(await readFile(path))
      .digest("hex");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw new InputFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "unknown error"}`);
  }
}

async function digests(folder: string, paths: readonly string[]): Promise<Record<string, string | null>> {
  const files: Record<string, string | null> = {};
  for (const path of paths) files[path] = await digestOf(join(folder, path));
  return files;
}

/** Record what `eval --setup` wrote in `dir` (the task set `set`), in the user's config folder. */
export async function writeSetupRecord(dir: string, set: TaskSet, env: Readonly<Record<string, string | undefined>> = process.env): Promise<string> {
  const folder = await realpath(dir);
  const { taskSet, install } = recordedPaths(set);
  const record: SetupRecord = { version: RECORD_VERSION, folder, files: await digests(folder, [...taskSet, ...install]) };
  const file = recordFile(folder, env);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileSafely(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/** How an eval folder stands against its record. */
export type RecordCheck =
  | { kind: "same" }
  | { kind: "no-record"; file: string }
  | { kind: "differs"; path: string; part: "task set" | "install"; now: "changed" | "gone" | "new" };

/** Whether the record's shape is one this module writes. Pure. */
function isRecord(value: unknown, folder: string): value is SetupRecord {
  return (
    isJsonObject(value) &&
    value.version === RECORD_VERSION &&
    value.folder === folder &&
    isJsonObject(value.files) &&
    Object.values(value.files).every((digest) => digest === null || typeof digest === "string") &&
    value.files[TASK_FILE] !== undefined
  );
}

/** The first recorded file whose digest is not the one recorded (in the record's order, tasks.json first), or null. Pure. */
export function firstDifference(
  recorded: Readonly<Record<string, string | null>>,
  now: Readonly<Record<string, string | null>>,
): { path: string; now: "changed" | "gone" | "new" } | null {
  for (const [path, digest] of Object.entries(recorded)) {
    const current = now[path] ?? null;
    if (current === digest) continue;
    return { path, now: current === null ? "gone" : digest === null ? "new" : "changed" };
  }
  return null;
}

/** Compare an eval folder with the record its setup left. */
export async function checkSetupRecord(dir: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<RecordCheck> {
  const folder = await realpath(dir);
  const file = recordFile(folder, env);
  const text = await readTextIfExists(file);
  let value: unknown = null;
  try {
    value = text === null ? null : JSON.parse(text);
  } catch {
    // Unreadable: as if there were none, so setup writes it again.
  }
  if (!isRecord(value, folder)) return { kind: "no-record", file };
  const difference = firstDifference(value.files, await digests(folder, Object.keys(value.files)));
  if (difference === null) return { kind: "same" };
  const part = difference.path === TASK_FILE || difference.path.startsWith("descriptions/") ? "task set" : "install";
  return { kind: "differs", part, ...difference };
}
