/** Find every descendant of a server process on Linux by walking /proc, so one that left the process group (setsid) can be ended too. */

import { readdirSync, readFileSync } from "node:fs";

/** Descendants seen so far: pid to its start time (field 22 of /proc/<pid>/stat), which guards against pid reuse. */
export type Tracked = Map<number, string>;

const linux = process.platform === "linux";

interface Stat {
  state: string;
  ppid: number;
  start: string;
}

function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // "pid (comm) S ppid ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const ppid = Number(fields[1]);
  const start = fields[19];
  if (state === undefined || start === undefined || !Number.isInteger(ppid)) return null;
  return { state, ppid, start };
}

/** Children of a pid from /proc/<pid>/task/<tid>/children; null when the kernel does not offer the file. */
function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && existsProc(pid)) return null;
      continue;
    }
    for (const word of text.split(" ")) if (word !== "" && word !== "\n") children.push(Number(word));
  }
  return children;
}

function existsProc(pid: number): boolean {
  try {
    readdirSync(`/proc/${pid}/task`);
    return true;
  } catch {
    return false;
  }
}

/** Parent-to-children map of every process, from a full scan of /proc (the fallback). */
function scanAll(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat === null) continue;
    const list = children.get(stat.ppid);
    if (list === undefined) children.set(stat.ppid, [Number(entry)]);
    else list.push(Number(entry));
  }
  return children;
}

/**
 * Add every living descendant of `roots` (not the roots themselves) to `tracked`. Walks
 * /proc/<pid>/task/<tid>/children, falling back to a scan of all of /proc; does nothing off Linux.
 */
export function trackDescendants(roots: readonly number[], tracked: Tracked): void {
  if (!linux) return;
  let all: Map<number, number[]> | null = null;
  const queue = [...roots];
  const seen = new Set<number>(roots);
  for (let head = 0; head < queue.length; head++) {
    const pid = queue[head] as number;
    let children = all === null ? childrenOf(pid) : (all.get(pid) ?? []);
    if (children === null) {
      all = scanAll();
      children = all.get(pid) ?? [];
    }
    for (const child of children) {
      if (seen.has(child)) continue;
      seen.add(child);
      const stat = readStat(child);
      if (stat === null) continue;
      if (!tracked.has(child)) tracked.set(child, stat.start);
      queue.push(child);
    }
  }
}

/** Whether a tracked process still runs (the same process: same start time, not a zombie). */
export function trackedAlive(pid: number, start: string): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.start === start && stat.state !== "Z" && stat.state !== "X";
}

/** Pids of tracked processes that still run. */
export function aliveTracked(tracked: Tracked): number[] {
  const alive: number[] = [];
  for (const [pid, start] of tracked) if (trackedAlive(pid, start)) alive.push(pid);
  return alive;
}

/** Send a signal to every tracked process that is still the process we saw. */
export function signalTracked(tracked: Tracked, signal: NodeJS.Signals): void {
  for (const [pid, start] of tracked) {
    if (!trackedAlive(pid, start)) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Direct children of a running process (empty off Linux or once it is gone). */
export function childrenOfPid(pid: number): number[] {
  if (!linux) return [];
  return childrenOf(pid) ?? scanAll().get(pid) ?? [];
}

/** SIGTERM's bit in the signal masks of /proc/<pid>/status. */
const TERM_BIT = 1n << 14n;

/**
 * Whether SIGTERM would take its default action on a process: neither caught nor ignored. A
 * namespace's pid 1 never gets that action (the kernel drops the signal), so the caller ends it
 * instead. Null when the status cannot be read.
 */
export function termIsDefault(pid: number): boolean | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const mask = (name: string) => {
    const hex = new RegExp(`^${name}:\\s*([0-9a-f]+)$`, "m").exec(text)?.[1];
    return hex === undefined ? null : BigInt(`0x${hex}`);
  };
  const caught = mask("SigCgt");
  const ignored = mask("SigIgn");
  if (caught === null || ignored === null) return null;
  return ((caught | ignored) & TERM_BIT) === 0n;
}
