/** The `lock` command: read a server (or a saved list), compare with the lock, report, maybe write. */

import { makeRedactor, type Redactor, redactSnapshot } from "../connect/redact.js";
import { resolveTarget, type Target } from "../connect/target.js";
import { KnownBadRefusal, SecretEchoError, UsageError } from "../errors.js";
import type { Change } from "../lock/kinds.js";
import { checkExitCode, compareSnapshot, type FailOn, planLockWrite } from "../lock/engine.js";
import { type Lockfile, parseLockfile } from "../lock/format.js";
import { preloadWriter, readJsonFile, readRequiredText, readTextIfExists, refuseSymlink, writeFileSafely } from "../lock/io.js";
import { snapshotFromFile, type ServerSnapshot } from "../lock/snapshot.js";
import { parseJsonStrict, preloadJsonTools } from "../json/parse.js";
import { buildJsonReport, jsonReportText } from "../report/json.js";
import { quote } from "../report/messages.js";
import { neutralize } from "../report/neutralize.js";
import { PLAIN_STYLE, type TerminalStyle } from "../report/style.js";
import { type Note, type ReportInput, renderTerminal, SCHEMA_KINDS, showName } from "../report/terminal.js";

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
  /** Bound on starting a launched server and its initialize. */
  startupTimeoutMs: number;
  /** Bound on the whole run. */
  deadlineMs: number;
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
  /** How each stream shows a report (colour, width); plain when not given. */
  styles?: { out: TerminalStyle; err: TerminalStyle };
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
  const jsonToStdout = flags.json === "-";
  // Resolved before anything starts, so a bad flag never launches a server.
  const target = live
    ? resolveTarget({ command: flags.command, url: flags.url, headers: flags.headers, headerEnv: flags.headerEnv, passEnv: flags.passEnv }, process.env)
    : null;
  // Output paths are checked first: a refusal after the server ran would waste the run.
  if (!flags.check) await refuseSymlink(flags.lock);
  if (flags.json !== null && !jsonToStdout) await refuseSymlink(flags.json);
  const lockText = await readTextIfExists(flags.lock);
  if (lockText === null && flags.check) {
    throw new UsageError(`lock file ${flags.lock} does not exist; run "mcp-lint lock" first to create it`);
  }
  // A launched server runs as this user and could rewrite mcp-lint's own files on disk: everything
  // the verdict depends on is loaded before it starts.
  const modules = await loadVerdictModules(target !== null);
  if (target?.kind === "stdio") await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output);

  const redactor = makeRedactor(target?.secrets ?? []);
  output.redact = (text) => redactor.text(text);
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
  if (changes.some((change) => SCHEMA_KINDS.has(change.kind))) input.schemaDiff = modules.schemaDiff();

  let exitCode: number;
  let outcome: string;
  if (flags.check) {
    exitCode = checkExitCode(changes, flags.failOn);
    outcome = changes.length === 0 ? "clean" : "changed";
    say(renderTerminal(input, style));
  } else if (redactor.found) {
    // A lock is committed to git: never write one that would hold a secret the server echoed back.
    say(renderTerminal(input, style));
    throw new SecretEchoError(
      `refusing to write ${flags.lock}: the server echoed back a secret (a --header-env value, the URL's query or user info, or a --pass-env value) in what it tells the model`,
    );
  } else {
    const plan = planLockWrite(snapshot, lock, lockText, changes, flags.accept);
    say(renderTerminal(input, style));
    if (plan.status === "refused") {
      exitCode = 1;
      outcome = "refused";
      output.err(
        plan.reason === "errors"
          ? `Refusing to update ${neutralize(flags.lock)}: ${plan.errorCount} error-level change${plan.errorCount === 1 ? "" : "s"}. Re-run with --accept after reviewing them.\n`
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
    const text = jsonReportText(buildJsonReport(input, outcome, exitCode), (raw) => redactor.text(raw));
    if (jsonToStdout) output.out(text);
    else await writeFileSafely(flags.json, text);
  }
  return exitCode;
}

/** Modules loaded before a server starts; see runLock. */
interface VerdictModules {
  install: typeof import("../install/index.js") | null;
  schemaDiff: () => (before: unknown, after: unknown) => string[];
}

async function loadVerdictModules(live: boolean): Promise<VerdictModules> {
  const [install, schemaDiff] = await Promise.all([
    live ? import("../install/index.js") : Promise.resolve(null),
    import("../report/schema-diff.js"),
    preloadWriter(),
    preloadJsonTools(),
    live ? import("../connect/sdk-compat.js") : Promise.resolve(),
    live ? import("@modelcontextprotocol/sdk/types.js") : Promise.resolve(),
  ]);
  return { install, schemaDiff: () => schemaDiff.schemaDiffLines };
}

/**
 * Install lint of the launch itself, before anything starts: a known-bad release is refused (the
 * reason on stderr, exit 1); warnings such as an unpinned package are shown and the run goes on.
 */
async function lintOwnLaunch(
  command: string[],
  knownBadFile: string | null,
  install: typeof import("../install/index.js") | null,
  output: Output,
): Promise<void> {
  if (install === null) return;
  const { lintLaunch, loadKnownBad, installMessage } = install;
  const list = knownBadFile === null ? loadKnownBad() : loadKnownBad(await readRequiredText(knownBadFile, "--known-bad file"), knownBadFile);
  const findings = lintLaunch(command, list);
  const bad = findings.find((finding) => finding.kind === "known_bad");
  if (bad !== undefined) {
    output.err(`mcp-lint: refusing to launch the server: ${neutralize(installMessage(bad))}\n`);
    throw new KnownBadRefusal();
  }
  for (const finding of findings) {
    if (finding.severity === "info") continue;
    output.err(`mcp-lint: ${finding.severity}: I1 ${finding.kind}: ${neutralize(installMessage(finding))}\n`);
  }
}

async function readSnapshot(
  flags: LockFlags,
  target: Target | null,
  redactor: Redactor,
  onStarted: () => void,
  warn: (text: string) => void,
): Promise<ServerSnapshot> {
  if (target === null) return snapshotFromFile(await readJsonFile(flags.from as string, "--from file"), flags.from as string);
  const options = {
    timeoutMs: flags.timeoutMs,
    startupTimeoutMs: flags.startupTimeoutMs,
    deadlineMs: flags.deadlineMs,
    clientVersion: flags.version,
    redactor,
    progress: true,
  };
  let raw: ServerSnapshot;
  if (target.kind === "stdio") {
    // A launched server runs as this user and can rewrite any file loaded after it starts (dist/,
    // node_modules/): the SDK client is loaded before the spawn, like the modules loadVerdictModules
    // loads (so it no longer overlaps the server's boot, about 100-250 ms).
    const [{ launchStdioServer }, { snapshotFromStdio }] = await Promise.all([import("../connect/launch.js"), import("../connect/stdio.js")]);
    for (const name of target.unset) {
      warn(`mcp-lint: warning: --pass-env ${name}: ${name} is not set here, so the server starts without it\n`);
    }
    const { server, running } = launchStdioServer(target);
    running.then(onStarted, onStarted);
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
