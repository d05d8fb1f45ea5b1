/** The `lock` command: read a server (or a saved list), compare with the lock, report, maybe write. */

import { SecretEchoError, UsageError } from "../errors.js";
import type { Change } from "../lock/kinds.js";
import { checkExitCode, compareSnapshot, type FailOn, planLockWrite } from "../lock/engine.js";
import { type Lockfile, parseLockfile } from "../lock/format.js";
import { readTextIfExists, refuseSymlink, writeFileSafely } from "../lock/io.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { parseJsonStrict } from "../json/parse.js";
import { buildJsonReport, jsonReportText } from "../report/json.js";
import { quote } from "../report/messages.js";
import { neutralize } from "../report/neutralize.js";
import { PLAIN_STYLE } from "../report/style.js";
import { type Note, type ReportInput, renderTerminal, SCHEMA_KINDS, showName } from "../report/terminal.js";
import { checkExitWithHidden, guardPlan, hiddenTextNotes, lockHiddenText, lockSarifText, withHiddenText } from "./hidden-text.js";
import { artifactUri } from "../report/sarif.js";
import { loadVerdictModules, lintOwnLaunch, type Output, readSnapshot, redactorFor, resolveSource, type SourceFlags } from "./source.js";

/** Flags of `mcp-lint lock`, already checked for shape. */
export interface LockFlags extends SourceFlags {
  lock: string;
  check: boolean;
  accept: boolean;
  failOn: FailOn;
  json: string | null;
  /** With --check: also write the changes and S8 findings as SARIF 2.1.0. */
  sarif?: string | null;
}

/** Run `lock` or `lock --check`; returns the exit code (errors are thrown as McpLintError). */
export async function runLock(flags: LockFlags, output: Output): Promise<number> {
  if (flags.check && flags.accept) throw new UsageError("--accept only applies when writing the lock; drop it or drop --check");
  const target = resolveSource(flags, "mcp-lint lock");
  const jsonToStdout = flags.json === "-";
  // Output paths are checked first: a refusal after the server ran would waste the run.
  if (!flags.check) await refuseSymlink(flags.lock);
  if (flags.json !== null && !jsonToStdout) await refuseSymlink(flags.json);
  if (flags.sarif != null) await refuseSymlink(flags.sarif);
  // A launched server runs as this user and could rewrite mcp-lint's own files on disk: everything
  // the verdict depends on is loaded before it starts. A known-bad launch is refused first of all.
  const modules = await loadVerdictModules(target !== null);
  if (target?.kind === "stdio") await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output);
  const lockText = await readTextIfExists(flags.lock);
  if (lockText === null && flags.check) {
    throw new UsageError(`lock file ${flags.lock} does not exist; run "mcp-lint lock" first to create it`);
  }

  const redactor = redactorFor(target, output);
  const reportChannel = jsonToStdout ? output.err : output.out;
  const style = (jsonToStdout ? output.styles?.err : output.styles?.out) ?? PLAIN_STYLE;
  const say = (text: string) => reportChannel(redactor.text(text));

  // The lock is parsed while the server starts up, which is most of a live run's time.
  let started = () => {};
  const spawned = new Promise<void>((resolve) => {
    started = resolve;
  });
  const reading = readSnapshot(flags, target, redactor, () => started(), output.err);
  reading.then(started, started);
  await spawned;
  const repaired: string[] = [];
  const lock: Lockfile | null =
    lockText === null
      ? null
      : parseLockfile(parseJsonStrict(lockText, flags.lock), flags.lock, flags.accept ? { hashMismatch: "repair", repaired } : {});
  const snapshot = await reading;
  if (repaired.length > 0) {
    output.err(
      `mcp-lint: ${neutralize(flags.lock)} was edited by hand: the sha256 of ${repaired.map((name) => showName(name)).join(", ")} did not match; comparing with the definitions as stored, and --accept will rewrite it\n`,
    );
  }
  const changes = compareSnapshot(snapshot, lock);
  const notes = await notesFor(snapshot, lock, changes);
  const input: ReportInput = { mode: flags.check ? "check" : "lock", lockPath: flags.lock, snapshot, lock, changes, notes };
  // S8 (issue 12): hidden text in what is about to be recorded, or in what --check finds new or changed.
  const hidden = lockHiddenText(snapshot, lock, changes, flags.check);
  input.hiddenText = hiddenTextNotes(hidden);
  if (changes.some((change) => SCHEMA_KINDS.has(change.kind))) input.schemaDiff = await modules.schemaDiff();

  let exitCode: number;
  let outcome: string;
  if (flags.check) {
    exitCode = checkExitWithHidden(checkExitCode(changes, flags.failOn), hidden, flags.failOn);
    outcome = changes.length === 0 ? "clean" : "changed";
    say(renderTerminal(input, style));
  } else if (redactor.found) {
    // A lock is committed to git: never write one that would hold a secret the server echoed back.
    say(renderTerminal(input, style));
    throw new SecretEchoError(
      `refusing to write ${flags.lock}: the server echoed back a secret (a --header-env value, the URL's query or user info, or a --pass-env value) in what it tells the model`,
    );
  } else {
    const plan = guardPlan(planLockWrite(snapshot, lock, lockText, changes, flags.accept), hidden, flags.accept);
    say(renderTerminal(input, style));
    if (plan.status === "refused") {
      exitCode = 1;
      outcome = "refused";
      output.err(
        plan.reason === "errors"
          ? `Refusing to ${lock === null ? "write" : "update"} ${neutralize(flags.lock)}: ${plan.errorCount} error-level change${plan.errorCount === 1 ? "" : "s"}. Re-run with --accept after reviewing them.\n`
          : `Refusing to ${lock === null ? "write" : "update"} ${neutralize(flags.lock)}: the server serves more than one tool named ${plan.names.map((name) => quote(name)).join(", ")}; a client may pick either, so there is nothing safe to lock.\n`,
      );
    } else {
      exitCode = 0;
      outcome = plan.status;
      if (plan.status !== "unchanged") await writeFileSafely(flags.lock, plan.text);
      const count = snapshot.tools.length;
      const what = plan.status === "created" ? "Wrote" : plan.status === "updated" ? "Updated" : "Unchanged:";
      output.err(`${what} ${neutralize(flags.lock)} (${count} tool${count === 1 ? "" : "s"})\n`);
    }
  }
  if (flags.json !== null) {
    const text = jsonReportText(withHiddenText(buildJsonReport(input, outcome, exitCode), hidden), (raw) => redactor.text(raw));
    if (jsonToStdout) output.out(text);
    else await writeFileSafely(flags.json, text);
  }
  if (flags.sarif != null) {
    const lockUri = artifactUri(flags.lock, process.cwd());
    await writeFileSafely(flags.sarif, lockSarifText({ version: flags.version, lockUri, snapshot, changes, findings: hidden, redact: (raw) => redactor.text(raw) }));
  }
  return exitCode;
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
