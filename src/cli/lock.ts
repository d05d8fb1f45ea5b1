/** The `lock` command: read a server (or a saved list), compare with the lock, report, maybe write. */

import { makeRedactor, type Redactor, redactSnapshot } from "../connect/redact.js";
import { resolveTarget, type Target } from "../connect/target.js";
import { KnownBadRefusal, SecretEchoError, UsageError } from "../errors.js";
import type { Change } from "../lock/kinds.js";
import { checkExitCode, compareSnapshot, type FailOn, planLockWrite } from "../lock/engine.js";
import { type Lockfile, parseLockfile } from "../lock/format.js";
import { readJsonFile, readRequiredText, readTextIfExists, writeFileSafely } from "../lock/io.js";
import { snapshotFromFile, type ServerSnapshot } from "../lock/snapshot.js";
import { mayNameKnownBad } from "../install/prefilter.js";
import { parseJsonStrict } from "../json/parse.js";
import { buildJsonReport } from "../report/json.js";
import { type Note, type ReportInput, renderTerminal, SCHEMA_KINDS } from "../report/terminal.js";

/** Flags of `mcp-lint lock`, already checked for shape. */
export interface LockFlags {
  lock: string;
  from: string | null;
  check: boolean;
  accept: boolean;
  failOn: FailOn;
  json: string | null;
  passEnv: string[];
  timeoutMs: number;
  command: string[];
  url: string | null;
  headers: string[];
  headerEnv: string[];
  knownBad: string | null;
  version: string;
}

/** Where the command writes; tests and embedders can capture it. */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Set by a command that knows secrets, so even error messages are redacted. */
  redact?: (text: string) => string;
}

/** Run `lock` or `lock --check`; returns the exit code (errors are thrown as McpLintError). */
export async function runLock(flags: LockFlags, output: Output): Promise<number> {
  const live = flags.command.length > 0 || flags.url !== null;
  if (flags.from !== null && live) {
    throw new UsageError("give one source: --from FILE, --url URL or a server command after --");
  }
  if (!live && flags.from === null) {
    throw new UsageError("nothing to read: give a server command after -- (mcp-lint lock -- npx -y some-server), --url URL or --from FILE");
  }
  if (flags.check && flags.accept) throw new UsageError("--accept only applies when writing the lock; drop it or drop --check");
  if (flags.from !== null && (flags.passEnv.length > 0 || flags.headers.length > 0 || flags.headerEnv.length > 0)) {
    throw new UsageError("--pass-env, --header and --header-env apply to a live server, not to --from");
  }
  // Resolved before anything starts, so a bad flag never launches a server.
  const target = live
    ? resolveTarget({ command: flags.command, url: flags.url, headers: flags.headers, headerEnv: flags.headerEnv, passEnv: flags.passEnv }, process.env)
    : null;
  if (target?.kind === "stdio") await refuseKnownBad(flags.command, flags.knownBad, output);
  const lockText = await readTextIfExists(flags.lock);
  if (lockText === null && flags.check) {
    throw new UsageError(`lock file ${flags.lock} does not exist; run "mcp-lint lock" first to create it`);
  }
  const redactor = makeRedactor(target?.secrets ?? []);
  output.redact = (text) => redactor.text(text);
  const say = (text: string) => output.out(redactor.text(text));

  // The lock is parsed while the server starts up, which is most of a live run's time.
  let started = () => {};
  const spawned = new Promise<void>((resolve) => {
    started = resolve;
  });
  const reading = readSnapshot(flags, target, redactor, () => started());
  reading.then(started, started);
  await spawned;
  const lock: Lockfile | null = lockText === null ? null : parseLockfile(parseJsonStrict(lockText, flags.lock), flags.lock);
  const snapshot = await reading;
  const changes = compareSnapshot(snapshot, lock);
  const notes = await notesFor(snapshot, lock, changes);
  const input: ReportInput = { mode: flags.check ? "check" : "lock", lockPath: flags.lock, snapshot, lock, changes, notes };
  if (changes.some((change) => SCHEMA_KINDS.has(change.kind))) {
    input.schemaDiff = (await import("../report/schema-diff.js")).schemaDiffLines;
  }

  let exitCode: number;
  let outcome: string;
  if (flags.check) {
    exitCode = checkExitCode(changes, flags.failOn);
    outcome = changes.length === 0 ? "clean" : "changed";
    say(renderTerminal(input));
  } else if (redactor.found) {
    // A lock is committed to git: never write one that would hold a secret the server echoed back.
    say(renderTerminal(input));
    throw new SecretEchoError(
      `refusing to write ${flags.lock}: the server echoed back a secret (a --header-env value, the URL's query or user info, or a --pass-env value) in what it tells the model`,
    );
  } else {
    const plan = planLockWrite(snapshot, lock, lockText, changes, flags.accept);
    say(renderTerminal(input));
    if (plan.status === "refused") {
      exitCode = 1;
      outcome = "refused";
      output.err(
        plan.reason === "errors"
          ? `Refusing to update ${flags.lock}: ${plan.errorCount} error-level change${plan.errorCount === 1 ? "" : "s"}. Re-run with --accept after reviewing them.\n`
          : `Refusing to ${lock === null ? "write" : "update"} ${flags.lock}: the server serves more than one tool named ${plan.names.map((name) => JSON.stringify(name)).join(", ")}; a client may pick either, so there is nothing safe to lock.\n`,
      );
    } else {
      exitCode = 0;
      outcome = plan.status;
      if (plan.status !== "unchanged") await writeFileSafely(flags.lock, plan.text);
      const count = snapshot.tools.length;
      const what = plan.status === "created" ? "Wrote" : plan.status === "updated" ? "Updated" : "Unchanged:";
      output.err(`${what} ${flags.lock} (${count} tool${count === 1 ? "" : "s"})\n`);
    }
  }
  if (flags.json !== null) {
    await writeFileSafely(flags.json, redactor.text(`${JSON.stringify(buildJsonReport(input, outcome, exitCode), null, 2)}\n`));
  }
  return exitCode;
}

/** A known-bad release is refused before anything starts: the reason on stderr, exit 1. */
async function refuseKnownBad(command: string[], knownBadFile: string | null, output: Output): Promise<void> {
  if (knownBadFile === null && !mayNameKnownBad(command)) return;
  const { knownBadLaunch, loadKnownBad, installMessage } = await import("../install/index.js");
  const list = knownBadFile === null ? loadKnownBad() : loadKnownBad(await readRequiredText(knownBadFile, "--known-bad file"), knownBadFile);
  const finding = knownBadLaunch(command, list);
  if (finding === null) return;
  output.err(`mcp-lint: refusing to launch the server: ${installMessage(finding)}\n`);
  throw new KnownBadRefusal();
}

async function readSnapshot(flags: LockFlags, target: Target | null, redactor: Redactor, onStarted: () => void): Promise<ServerSnapshot> {
  if (target === null) return snapshotFromFile(await readJsonFile(flags.from as string, "--from file"), flags.from as string);
  const options = { timeoutMs: flags.timeoutMs, clientVersion: flags.version, redactor };
  let raw: ServerSnapshot;
  if (target.kind === "stdio") {
    // The server boots while the SDK client loads and the lock is parsed: start-up is most of a run.
    const { launchStdioServer } = await import("../connect/launch.js");
    const { server, running } = launchStdioServer(target);
    running.then(onStarted, onStarted);
    const { snapshotFromStdio } = await import("../connect/stdio.js");
    raw = await snapshotFromStdio(target, server, options);
  } else {
    onStarted();
    raw = await (await import("../connect/http.js")).snapshotFromHttp(target, options);
  }
  return target.secrets.length === 0 ? raw : redactSnapshot(raw, redactor);
}

/** SDK-rejection notes, only for tools that are new or changed since the lock (locked ones were seen before). */
async function notesFor(snapshot: ServerSnapshot, lock: Lockfile | null, changes: readonly Change[]): Promise<Note[]> {
  // A tool the comparison found unchanged was checked when it was locked; no second pass over them.
  const changed = new Set(changes.map((change) => change.tool));
  const fresh = snapshot.tools.filter((tool) => lock === null || !lock.tools.has(tool.name as string) || changed.has(tool.name as string));
  if (fresh.length === 0) return [];
  const { sdkRejectionNotes } = await import("../connect/sdk-compat.js");
  return sdkRejectionNotes(fresh);
}
