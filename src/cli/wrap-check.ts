/**
 * `wrap` on a server that already has a lock: a silent `lock --check` of the server against the
 * lock its proxy reads, said as one clause of the server's line (still matches, no longer matches
 * and how to review it, or why it could not be checked).
 */

import { quote as shellQuote } from "shell-quote";
import { firstLine } from "../connect/session.js";
import { KnownBadRefusal, McpLintError } from "../errors.js";
import { parseJsonStrict } from "../json/parse.js";
import type { FailOn } from "../lock/engine.js";
import { parseLockDocument } from "../lock/format.js";
import { readTextIfExists } from "../lock/io.js";
import { selectLock } from "../proxy/lock-select.js";
import { capDisplay, neutralize } from "../text/neutralize.js";
import { runLock } from "./lock.js";
import type { LockJob } from "./lock-jobs.js";
import type { Output } from "./source.js";

/** How a server stands against its lock: the clause for its line, and whether the user has something to do. */
export interface LockCheck {
  clause: string;
  fix: boolean;
}

/** The bounds and sources a check uses (wrap's own flags). */
export interface CheckBounds {
  timeoutMs: number;
  startupTimeoutMs: number;
  deadlineMs: number;
  knownBad: string | null;
  version: string;
}

/** A check starts the server; one that does not start within this is reported, not waited for (an offline `npx -y`). */
const CHECK_STARTUP_MS = 15_000;
/** Bound on one whole check. */
const CHECK_DEADLINE_MS = 60_000;
/** Longest reason a clause quotes. */
const REASON_CHARS = 200;
const FAIL_ON: readonly string[] = ["info", "warning", "error", "never"];

/** `lock` for one config entry: `--review` walks the user through its changes and writes the lock its proxy reads. */
function lockCommand(entry: { config: string; name: string }, review: boolean): string {
  return neutralize(`mcp-lint lock${review ? " --review" : ""} --config ${shellQuote([entry.config])} --server ${shellQuote([entry.name])}`);
}

/**
 * Why the proxy could not use `lock` (`lockServer` picks a v2 entry), or null when it can: read
 * without starting anything, so a lock that is missing or broken is said at once.
 */
export async function lockProblem(lock: string, lockServer: string | null, entry: { config: string; name: string }): Promise<LockCheck | null> {
  const text = await readTextIfExists(lock);
  if (text === null) return { clause: `its lock does not exist, so the proxy serves nothing: lock it with ${lockCommand(entry, false)}`, fix: true };
  try {
    selectLock(parseLockDocument(parseJsonStrict(text, lock), lock), lockServer, lock);
  } catch (error) {
    if (!(error instanceof McpLintError)) throw error;
    // The line names the lock already.
    return { clause: `its lock cannot be used, so the proxy serves nothing (${reason(error.message.replace(`${lock}: `, ""))})`, fix: true };
  }
  return null;
}

/**
 * Check `job` (the server, launched as its proxy launches it) against `lock` (`lockServer` picks a
 * v2 entry; lockProblem found nothing wrong with it), as the proxy would judge it at `failOn` (its
 * --fail-on; warning when not given). `entry` names the config entry in the command the clause gives.
 */
export async function checkAgainstLock(
  job: LockJob,
  lock: string,
  lockServer: string | null,
  failOn: string | null,
  entry: { config: string; name: string },
  bounds: CheckBounds,
): Promise<LockCheck> {
  const report: string[] = [];
  const output: Output = { out: (chunk) => report.push(chunk), err: () => {} };
  let code: number;
  try {
    code = await runLock(
      {
        lock,
        from: null,
        check: true,
        accept: false,
        failOn: FAIL_ON.includes(failOn ?? "") ? (failOn as FailOn) : "warning",
        json: "-",
        command: [],
        url: null,
        headers: [],
        headerEnv: [],
        passEnv: [],
        timeoutMs: bounds.timeoutMs,
        startupTimeoutMs: Math.min(bounds.startupTimeoutMs, CHECK_STARTUP_MS),
        deadlineMs: Math.min(bounds.deadlineMs, CHECK_DEADLINE_MS),
        knownBad: bounds.knownBad,
        version: bounds.version,
        servers: lockServer === null ? [] : [lockServer],
        job,
      },
      output,
    );
  } catch (error) {
    if (error instanceof KnownBadRefusal) return { clause: "it launches a known-bad release; remove it from the config", fix: true };
    if (!(error instanceof McpLintError)) throw error;
    const redact = output.redact ?? ((value: string) => value);
    return { clause: `it could not be checked against its lock (${reason(redact(firstLine(error)))})`, fix: false };
  }
  if (code === 0) return { clause: "its lock still matches", fix: false };
  return { clause: `the server no longer matches its lock (${counts(report.join(""))}): review with ${lockCommand(entry, true)}`, fix: true };
}

/** `2 errors, 1 warning` from `lock --json`'s report: changes and S8 findings at each level. */
function counts(text: string): string {
  let report: unknown = null;
  try {
    report = JSON.parse(text);
  } catch {
    // No report: the count is unknown, the mismatch is not.
  }
  const record = typeof report === "object" && report !== null ? (report as Record<string, unknown>) : {};
  const summary = (typeof record.summary === "object" && record.summary !== null ? record.summary : {}) as Record<string, unknown>;
  const hidden = Array.isArray(record.hidden_text) ? (record.hidden_text as Array<Record<string, unknown>>) : [];
  const at = (level: string) =>
    (typeof summary[level] === "number" ? (summary[level] as number) : 0) + hidden.filter((item) => item?.severity === level).length;
  const parts = (["error", "warning"] as const).map((level) => [at(level), level] as const).filter(([count]) => count > 0);
  if (parts.length === 0) return "changes at or above its --fail-on";
  return parts.map(([count, level]) => `${count} ${level}${count === 1 ? "" : "s"}`).join(", ");
}

function reason(message: string): string {
  return capDisplay(neutralize(message.replace(/^mcp-lint: /, "")), REASON_CHARS);
}
