/** The `wrap` and `unwrap` commands: put `mcp-lint proxy --lock` in front of every stdio server of client config files, locking each first, and take it out again. */

import { access, mkdir, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { currentContext } from "../config/load.js";
import { readConfigText } from "../config/readers/index.js";
import { parseConfigText } from "../config/readers/syntax.js";
import type { ConfigServer } from "../config/types.js";
import { InputFileError, KnownBadRefusal, McpLintError, UsageError } from "../errors.js";
import { MAX_WRAP_SERVERS } from "../limits.js";
import { type ReadFile, readBytesIfExists, readRequiredBytes, writeFileSafely } from "../lock/io.js";
import { EntryEditError, replaceEntryEdit, type Syntax } from "../proxy/wrap/edit.js";
import { lockPathFor } from "../proxy/wrap/locks.js";
import { HEADER_VARIABLE_PREFIX, type Launcher, proxyArgs } from "../proxy/wrap/argv.js";
import {
  configSecretValues,
  type RemoteCandidate,
  type Skipped,
  type UnwrappedEntry,
  unwrapText,
  type WrapCandidate,
  wrapCandidates,
  wrapText,
} from "../proxy/wrap/plan.js";
import { previewPatch, type Span } from "../proxy/wrap/preview.js";
import { closingLine, describeServer, leftLine, type LockState, lockFacts, refusalText, type WrappedServer, wrappedLine } from "../proxy/wrap/report.js";
import { loginStatus } from "../proxy/wrap/login.js";
import { requirePublished } from "../proxy/wrap/published.js";
import { makeRedactor } from "../text/redact.js";
import { resolveTarget } from "../connect/target.js";
import { neutralize } from "../text/neutralize.js";
import { runLock } from "./lock.js";
import type { LockJob } from "./lock-jobs.js";
import type { LockCheck } from "./wrap-check.js";
import { lintOwnLaunch, type Output } from "./source.js";

/** Flags of `mcp-lint wrap`. */
export interface WrapFlags {
  files: string[];
  dryRun: boolean;
  includeRemote: boolean;
  lockDir: string | null;
  /** `--npx`: write `npx -y mcp-lint@<version>` (only once that version is published) instead of this node and CLI by path. */
  npx: boolean;
  /** `--installed`: the default (this node and CLI by path), said out loud. */
  installed: boolean;
  knownBad: string | null;
  timeoutMs: number;
  startupTimeoutMs: number;
  deadlineMs: number;
  /** `--verbose`: also print each first lock's whole listing (on stderr), as `lock` prints it. */
  verbose: boolean;
  /** `--pin`: wrapped npm runner launches run the package tree their lock pins (`proxy --pinned`). */
  pin?: boolean;
  version: string;
}

/** Flags of `mcp-lint unwrap`. */
export interface UnwrapFlags {
  files: string[];
  dryRun: boolean;
}

/**
 * Entries left alone with nothing for the user to fix: they do not make `wrap` exit 1. Every other
 * reason (a lock refused, a placeholder this shell cannot fill, an entry it cannot read or split) does.
 */
const NOTHING_TO_DO = new Set<Skipped["reason"]>(["already_wrapped", "remote", "not_launched"]);

/** The suffix of the copy of a config file written before each edit. */
export const BACKUP_SUFFIX = ".mcp-lint.bak";

/**
 * Wrap every stdio server of each file. A server without a lock is locked first (install lint's
 * known-bad refusal and S8 apply, as for `lock`); one that cannot be locked is left as it is.
 * Returns 0 when every server was wrapped or had nothing to wrap, 1 when a server was left
 * unwrapped for a reason the user can fix (see NOTHING_TO_DO), 2 (thrown) for a file that cannot
 * be read or edited.
 */
export async function runWrap(flags: WrapFlags, output: Output): Promise<number> {
  if (flags.files.length === 0) throw new UsageError("name the config files to wrap (mcp-lint check-config lists the ones it finds)");
  if (flags.npx && flags.installed) throw new UsageError("--npx and --installed choose different launchers; give one");
  // The default runs this very mcp-lint: no download at each start, and nobody else's package.
  const launcher: Launcher = flags.npx ? { kind: "npx" } : { kind: "node", node: process.execPath, cli: thisCli() };
  if (flags.npx) await requirePublished(flags.version);
  const context = currentContext();
  let exitCode = 0;
  for (const file of flags.files) {
    const path = resolve(file);
    const shown = neutralize(path);
    const read = await readRequiredBytes(path, "config file");
    const text = read.text;
    const document = readConfigText(text, path);
    if (document.notes.includes("not_recognised")) throw new UsageError(`${shown} is not a client config file mcp-lint can read`);
    const { candidates, remotes, skipped } = wrapCandidates(text, path, document, flags.includeRemote);
    const count = candidates.length + remotes.length;
    if (count > MAX_WRAP_SERVERS) {
      throw new UsageError(`${shown} has ${count} servers to wrap; wrap edits at most ${MAX_WRAP_SERVERS} per config file, so split it into smaller files`);
    }
    // Each server needs a lock first: one that had none is written now (or would be, in a dry run).
    const lockEach = async <C extends { server: ConfigServer }>(list: readonly C[], ensure: (candidate: C, lock: string) => Promise<Skipped | Locked>) => {
      const chosen: { candidate: C; lock: string }[] = [];
      const locked = new Map<C, Locked>();
      for (const candidate of list) {
        const lock = lockPathFor(path, candidate.server, context, flags.lockDir);
        const outcome = await ensure(candidate, lock);
        if ("reason" in outcome) {
          skipped.push(outcome);
          exitCode = 1;
        } else {
          chosen.push({ candidate, lock });
          locked.set(candidate, outcome);
        }
      }
      return { chosen, locked };
    };
    const parsed = parseConfigText(text, path).value;
    const { chosen: choices, locked } = await lockEach(candidates, (candidate, lock) => ensureLock(candidate, lock, flags, output, path, parsed));
    const { chosen: remoteChoices, locked: lockedRemote } = await lockEach(remotes, (candidate, lock) => ensureRemoteLock(candidate, lock, flags, output));
    let result: ReturnType<typeof wrapText>;
    try {
      result = wrapText(text, path, document.syntax, choices, flags.version, launcher, remoteChoices, flags.pin === true);
    } catch (error) {
      if (error instanceof EntryEditError) throw new McpLintError(`could not wrap ${shown} safely: ${error.message}; it was left unchanged`);
      throw error;
    }
    // A dry run shows the wrapped entries' changed lines only, with every env and header value of the
    // file (header values move into the new remote entries) as [redacted].
    const secrets = makeRedactor([
      ...configSecretValues(text, path, document.servers),
      ...remotes.flatMap((candidate) => candidate.headers.map(([, value]) => value)),
    ]);
    const edited = [...result.wrapped, ...result.wrappedRemote].map((choice) => choice.candidate.server);
    const written = await finish(path, read, result.text, flags.dryRun, output, {
      servers: edited,
      syntax: document.syntax,
      redact: (line) => secrets.text(line),
    });
    // A server whose lock existed is checked against it now (silently, bounded): its line says whether it still matches.
    const checks = flags.dryRun
      ? new Map<ConfigServer, LockCheck>()
      : await checkLocks(path, parsed, skipped, [...result.wrapped, ...result.wrappedRemote], [...locked, ...lockedRemote], flags);
    for (const check of checks.values()) if (check.fix) exitCode = Math.max(exitCode, 1);
    for (const entry of skipped) {
      const check = checks.get(entry.server);
      if (entry.reason === "already_wrapped" && check !== undefined) entry.detail = check.clause;
    }
    // One line per server, in the file's order; the first locks' listings only with --verbose.
    const order = new Map(document.servers.map((server, index) => [server, index]));
    const lines: { server: ConfigServer; text: string }[] = [];
    const wrappedEntry = (server: ConfigServer, remote: boolean, lock: string, outcome: Locked | undefined, notes: string[]): WrappedServer => ({
      server,
      remote,
      lock,
      state: outcome?.state ?? "kept",
      warnings: outcome?.warnings ?? 0,
      notes,
      ...(checks.has(server) ? { check: (checks.get(server) as LockCheck).clause } : {}),
    });
    for (const choice of result.wrapped) {
      const entry = wrappedEntry(choice.candidate.server, false, choice.lock, locked.get(choice.candidate), candidateNotes(choice.candidate));
      lines.push({ server: entry.server, text: wrappedLine(entry, flags.dryRun, flags.verbose) });
    }
    for (const choice of result.wrappedRemote) {
      const entry = wrappedEntry(choice.candidate.server, true, choice.lock, lockedRemote.get(choice.candidate), []);
      lines.push({ server: entry.server, text: wrappedLine(entry, flags.dryRun, flags.verbose) });
    }
    const left = [...skipped, ...result.skipped];
    for (const entry of left) lines.push({ server: entry.server, text: leftLine(entry) });
    lines.sort((a, b) => (order.get(a.server) ?? order.size) - (order.get(b.server) ?? order.size));
    for (const line of lines) output.out(`${line.text}\n`);
    const wrappedCount = result.wrapped.length + result.wrappedRemote.length;
    output.out(
      `${closingLine({ shown, backup: written ? `${basename(path)}${BACKUP_SUFFIX}` : null, wrapped: wrappedCount, total: document.servers.length, dryRun: flags.dryRun })}\n`,
    );
    if (left.some((entry) => !NOTHING_TO_DO.has(entry.reason))) exitCode = Math.max(exitCode, 1);
  }
  return exitCode;
}

/** Unwrap every wrapped server of each file, restoring what `wrap` changed byte for byte. Locks are kept. */
export async function runUnwrap(flags: UnwrapFlags, output: Output): Promise<number> {
  if (flags.files.length === 0) throw new UsageError("name the config files to unwrap");
  let exitCode = 0;
  for (const file of flags.files) {
    const path = resolve(file);
    const shown = neutralize(path);
    const read = await readRequiredBytes(path, "config file");
    const text = read.text;
    let result: { text: string; unwrapped: UnwrappedEntry[]; skipped: Skipped[] };
    try {
      result = unwrapText(text, path);
    } catch (error) {
      if (error instanceof EntryEditError) throw new McpLintError(`could not unwrap ${shown} safely: ${error.message}; it was left unchanged`);
      throw error;
    }
    const document = readConfigText(text, path);
    const secrets = makeRedactor(configSecretValues(text, path, document.servers));
    await finish(path, read, result.text, flags.dryRun, output, {
      servers: result.unwrapped.map((entry) => entry.server),
      syntax: document.syntax,
      redact: (line) => secrets.text(line),
    });
    for (const entry of result.unwrapped) output.out(`${flags.dryRun ? "would unwrap" : "unwrapped"} ${describeServer(entry.server)}\n`);
    for (const entry of result.skipped) output.out(`${leftLine(entry)}\n`);
    if (result.unwrapped.length === 0 && result.skipped.length === 0) output.out(`${shown}: nothing is wrapped\n`);
    if (result.skipped.length > 0) exitCode = 1;
  }
  return exitCode;
}

/**
 * Check each server whose lock existed before this run against that lock: the servers already
 * wrapped (as their proxy launches them, against the lock it reads) and those wrapped now with a
 * lock kept as it was. One at a time, each bounded (wrap-check.ts). A disabled server is not started.
 */
async function checkLocks(
  path: string,
  parsed: unknown,
  skipped: readonly Skipped[],
  wrapped: ReadonlyArray<{ candidate: { server: ConfigServer }; lock: string }>,
  locked: ReadonlyArray<readonly [{ server: ConfigServer }, Locked]>,
  flags: WrapFlags,
): Promise<Map<ConfigServer, LockCheck>> {
  const { entryJob, wrappedLockPath } = await import("./lock-config.js");
  const { checkAgainstLock, lockProblem } = await import("./wrap-check.js");
  const checks = new Map<ConfigServer, LockCheck>();
  const kept = new Set(locked.filter(([, outcome]) => outcome.state === "kept").map(([candidate]) => candidate.server));
  // Wrapped now: the entry as it was is the server, and its lock is the one wrap chose. Wrapped before: what its proxy runs and reads.
  const todo: { server: ConfigServer; lock: string; lockServer: string | null; failOn: string | null }[] = [];
  for (const entry of skipped) {
    const proxy =
      entry.reason === "already_wrapped" && entry.server.launch !== null && "argv" in entry.server.launch ? proxyArgs(entry.server.launch.argv) : null;
    if (proxy?.lock != null) todo.push({ server: entry.server, lock: wrappedLockPath(path, proxy.lock), lockServer: proxy.server, failOn: proxy.failOn });
  }
  for (const choice of wrapped) {
    if (kept.has(choice.candidate.server)) todo.push({ server: choice.candidate.server, lock: choice.lock, lockServer: null, failOn: null });
  }
  for (const { server, lock, lockServer, failOn } of todo) {
    if (server.disabled) continue;
    const entry = { config: path, name: server.name };
    const problem = await lockProblem(lock, lockServer, entry);
    if (problem !== null) {
      checks.set(server, problem);
      continue;
    }
    let job: LockJob;
    try {
      job = entryJob(path, parsed, server, process.env);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      const why = neutralize(error.message.replace(/^.*?: server "[^"]*": /, ""));
      checks.set(server, { clause: `it could not be checked against its lock (${why})`, fix: false });
      continue;
    }
    const { wrapped: _proxied, ...inner } = job;
    checks.set(server, await checkAgainstLock(inner, lock, lockServer, failOn, entry, flags));
  }
  return checks;
}

/** How a server's lock stands once it can be wrapped, and the warnings of a lock recorded now. */
interface Locked {
  state: LockState;
  warnings: number;
}

/**
 * Make sure a server has a lock: an existing one is kept (and judged by the proxy at each start);
 * a missing one is written by `lock`. How it stands when the server can be wrapped; otherwise why not.
 */
async function ensureLock(
  candidate: WrapCandidate,
  lock: string,
  flags: WrapFlags,
  output: Output,
  configPath: string,
  parsed: unknown,
): Promise<Skipped | Locked> {
  const server = candidate.server;
  // A known-bad release is never wrapped (a dry run says so too): remove it from the config instead.
  const caught = lockStderr(output, false);
  let launchWarnings: number;
  try {
    const install = await import("../install/index.js");
    const findings = await lintOwnLaunch(candidate.argv, flags.knownBad, install, { out: caught.err, err: caught.err }, { print: false });
    launchWarnings = findings.filter((finding) => finding.severity !== "info").length;
  } catch (error) {
    if (error instanceof KnownBadRefusal) return { server, reason: "known_bad", ...caught.knownBad() };
    throw error;
  }
  if (await exists(lock)) return { state: "kept", warnings: 0 };
  // Locked as the client launches it: its env, and every placeholder (in args too) resolved from
  // this environment as the client resolves it, so the first proxied session serves every tool.
  let job: LockJob;
  try {
    job = (await import("./lock-config.js")).entryJob(configPath, parsed, server, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return {
      server,
      reason: "variables",
      detail: `it cannot be launched here as the client would launch it (${neutralize(error.message.replace(/^.*?: server "[^"]*": /, ""))}); set that in this shell and wrap again, so the lock records what the client's launch serves`,
    };
  }
  // A disabled server is wrapped without starting it; the proxy refuses to start it until it is locked.
  if (server.disabled) return { state: "disabled", warnings: 0 };
  if (flags.dryRun) return { state: "to_write", warnings: 0 };
  await mkdir(dirname(lock), { recursive: true });
  if (flags.verbose) output.err(`mcp-lint: locking ${describeServer(server)} (${neutralize(lock)})\n`);
  return await lockWith(server, lock, flags, output, { command: job.launch, url: null, headerEnv: [], job }, launchWarnings);
}

/**
 * Record the lock of one server with `lock` (first lock, no --accept: hidden text still refuses).
 * Its report goes to stderr with --verbose and nowhere without; its JSON report gives the facts the
 * server's one line states (what refused it, how many warnings). A refusal or a failure becomes the
 * reason the server is not wrapped.
 */
async function lockWith(
  server: Skipped["server"],
  lock: string,
  flags: WrapFlags,
  output: Output,
  source: { command: string[]; url: string | null; headerEnv: string[]; job?: LockJob },
  launchWarnings: number,
): Promise<Skipped | Locked> {
  const report: string[] = [];
  const caught = lockStderr(output, flags.verbose);
  const sub: Output = { out: (text) => report.push(text), err: caught.err };
  try {
    const code = await runLock(
      {
        lock,
        from: null,
        check: false,
        accept: false,
        failOn: "warning",
        json: "-",
        passEnv: [],
        timeoutMs: flags.timeoutMs,
        startupTimeoutMs: flags.startupTimeoutMs,
        deadlineMs: flags.deadlineMs,
        ...source,
        headers: [],
        knownBad: flags.knownBad,
        version: flags.version,
      },
      sub,
    );
    const facts = lockFacts(parseReport(report.join("")));
    if (code === 0) return { state: "written", warnings: launchWarnings + facts.warnings };
    return { server, reason: "lock_refused", detail: refusalText(facts, flags.verbose) };
  } catch (error) {
    if (error instanceof KnownBadRefusal) return { server, reason: "known_bad", ...caught.knownBad() };
    if (error instanceof McpLintError) {
      const redact = sub.redact ?? ((value: string) => value);
      return { server, reason: "not_editable", detail: `it could not be locked: ${neutralize(redact(error.message))}` };
    }
    throw error;
  }
}

/** `lock`'s JSON report, or null when it printed none (nothing then counts against the server). */
function parseReport(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The line `lintOwnLaunch` writes when it refuses a known-bad launch. */
const KNOWN_BAD_LINE = "mcp-lint: refusing to launch the server: ";

/** Lines of `lock` that a server's one line states instead: the known-bad refusal, the S8 refusal, I1 warnings (counted). */
const STATED_IN_LINE = [KNOWN_BAD_LINE, "mcp-lint: refusing to write ", "mcp-lint: warning: I1 "];

/**
 * Where `lock`'s stderr goes while wrap records a lock: all of it with --verbose. Without, the
 * report is left out, and so is what the server's line states; any other `mcp-lint: ` line (a login
 * to complete in the browser, a warning) still reaches the user. The known-bad refusal (already
 * neutralized) is kept for the line.
 */
function lockStderr(output: Output, verbose: boolean): { err: (text: string) => void; knownBad: () => { detail?: string } } {
  let message: string | null = null;
  const err = (text: string) => {
    if (text.startsWith(KNOWN_BAD_LINE)) message = text.slice(KNOWN_BAD_LINE.length).trimEnd();
    if (verbose || (text.startsWith("mcp-lint: ") && !STATED_IN_LINE.some((line) => text.startsWith(line)))) output.err(text);
  };
  return { err, knownBad: () => (message === null ? {} : { detail: message }) };
}

/**
 * The same for a remote entry: its header values are handed to `lock` through variables of this
 * process for the one run (the values never reach the command line), then removed again.
 */
async function ensureRemoteLock(candidate: RemoteCandidate, lock: string, flags: WrapFlags, output: Output): Promise<Skipped | Locked> {
  const server = candidate.server;
  const headerEnv = candidate.headers.map(([name], index) => `${name}=${HEADER_VARIABLE_PREFIX}${index + 1}`);
  const values = Object.fromEntries(candidate.headers.map(([, value], index) => [`${HEADER_VARIABLE_PREFIX}${index + 1}`, value]));
  // The proxy will check the same things at each start; a refusal now beats a server that never starts.
  try {
    resolveTarget({ command: [], url: candidate.url, headers: [], headerEnv, passEnv: [] }, values);
  } catch (error) {
    if (error instanceof UsageError)
      return { server, reason: "not_editable", detail: `the proxy could not connect to it as written: ${neutralize(error.message)}` };
    throw error;
  }
  if (![candidate.url, ...Object.values(values)].some((value) => value.includes("${"))) {
    // A server behind a login the proxy cannot give (no MCP authorization flow) would stop working
    // behind it; one that offers the flow is logged in to when it is locked, and by the proxy.
    const wall = await loginStatus(candidate.url, candidate.headers);
    if (wall !== null && !wall.oauth) {
      return {
        server,
        reason: "not_editable",
        detail: `it needs a login (the server answered HTTP ${wall.status}) but offers no OAuth metadata to log in with (the MCP authorization flow), so the proxy could not reach it; left for the client to connect to directly`,
      };
    }
  }
  if (await exists(lock)) return { state: "kept", warnings: 0 };
  if ([candidate.url, ...Object.values(values)].some((value) => value.includes("${"))) {
    return {
      server,
      reason: "variables",
      detail: `its URL or headers use client variables (\${...}); lock it as the client connects (mcp-lint lock --lock ${neutralize(lock)} --url ...), then wrap again`,
    };
  }
  if (server.disabled) return { state: "disabled", warnings: 0 };
  if (flags.dryRun) return { state: "to_write", warnings: 0 };
  await mkdir(dirname(lock), { recursive: true });
  if (flags.verbose) output.err(`mcp-lint: locking remote ${describeServer(server)} (${neutralize(lock)})\n`);
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  try {
    return await lockWith(server, lock, flags, output, { command: [], url: candidate.url, headerEnv }, 0);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** What a dry run shows: which entries were edited (to cut long lines to them), and the redaction. */
interface Preview {
  servers: readonly ConfigServer[];
  syntax: Syntax;
  redact: (text: string) => string;
}

/**
 * Print the diff (dry run), or back the file up and write the new text. The file is read again
 * first: a client that saved it while servers were being locked (VS Code rewrites its settings on
 * its own) must not lose that edit, so a changed file is refused and left as it is. The backup
 * holds the bytes that were read; a byte order mark the file began with is written back. True when
 * the file was written.
 */
async function finish(path: string, read: ReadFile, after: string, dryRun: boolean, output: Output, preview: Preview): Promise<boolean> {
  const before = read.text;
  if (after === before) return false;
  if (dryRun) {
    output.out(previewPatch(path, before, after, { before: entrySpans(before, preview), after: entrySpans(after, preview) }, preview.redact));
    return false;
  }
  const now = await readBytesIfExists(path);
  if (now === null || !now.bytes.equals(read.bytes)) {
    throw new InputFileError(
      `${neutralize(path)} changed while mcp-lint was working on it (another program saved it); it was left as that program wrote it and nothing was written: run the command again`,
    );
  }
  // The backup holds what the config holds (env tokens too): no more readable than the config itself.
  const { mode } = await stat(path);
  await writeFileSafely(`${path}${BACKUP_SUFFIX}`, read.bytes, { mode: mode & 0o777 });
  await writeFileSafely(path, read.bom ? `\uFEFF${after}` : after, { mode: mode & 0o777 });
  return true;
}

/** Where the edited entries sit in a JSON config (other syntaxes put each entry on lines of its own). */
function entrySpans(text: string, preview: Preview): Span[] | null {
  if (preview.syntax !== "json") return null;
  try {
    return preview.servers.map((server) => {
      const { start, end } = replaceEntryEdit(text, server.at, "");
      return { start, end };
    });
  } catch {
    return null;
  }
}

/** This mcp-lint's CLI file: the bundle itself (dist/cli.js), or the file beside this module's folder when run unbundled. */
function thisCli(): string {
  const here = fileURLToPath(import.meta.url);
  return basename(here) === "cli.js" ? here : fileURLToPath(new URL("../cli.js", import.meta.url));
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function candidateNotes(candidate: WrapCandidate): string[] {
  const notes: string[] = [];
  if (candidate.envFile) notes.push("its envFile variables are not passed to the server by the proxy; add --pass-env NAME to its args for each one it needs");
  if (candidate.badEnvNames.length > 0)
    notes.push(`env names that are not variable names are not passed on: ${candidate.badEnvNames.map((name) => JSON.stringify(neutralize(name))).join(", ")}`);
  return notes;
}
