/** The `lock` command: read one server, a saved list, or every server of a client config; compare with the lock; report; maybe write. */

import { quote as shellQuote } from "shell-quote";
import { jsonEqual } from "../json/equal.js";
import { parseJsonStrict } from "../json/parse.js";
import { type DeferredLock, readLockDeferred } from "../lock/deferred.js";
import type { SarifBase } from "../report/sarif.js";
import { sarifBase } from "./sarif-base.js";
import { checkExitCode, compareSnapshot, type FailOn } from "../lock/engine.js";
import {
  type IgnoreRule,
  type LockDocument,
  type Lockfile,
  LOCKFILE_VERSION,
  LOCKFILE_VERSION_SERVERS,
  parseLockDocument,
  serializeLockDocument,
} from "../lock/format.js";
import { readTextPiecesIfExists, checkOutputPath, writeFileSafely } from "../lock/io.js";
import type { Change } from "../lock/kinds.js";
import { CHANGE_KINDS } from "../lock/kinds.js";
import { applyIgnores, ignoredValueSha256, planServer, type ServerPlan } from "../lock/plan.js";
import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { ConnectionError, McpLintError, SecretEchoError, UsageError } from "../errors.js";
import { buildJsonReport, jsonReportText } from "../report/json.js";
import { quote } from "../report/messages.js";
import { neutralize } from "../text/neutralize.js";
import { PLAIN_STYLE } from "../report/style.js";
import { toolOrderNote } from "../lock/tool-order.js";
import { headerLine, type Note, type ReportInput, renderTerminal, SCHEMA_KINDS, showName } from "../report/terminal.js";
import type { TerminalStyle } from "../report/style.js";
import { pushAll } from "../arrays.js";
import { type ArtifactModules, artifactLine, EMPTY_KNOWN_BAD, loadArtifactModules, startArtifacts } from "./artifact.js";
import { compareArtifacts } from "../artifact/compare.js";
import type { Resolved } from "../artifact/resolve.js";
import type { KnownBadList } from "../install/bad-list.js";
import { checkReviewTerminal, ReviewInterruptedError, reviewItems, reviewLoop, reviewSummary, withTerminalKeys } from "./review.js";
import { lockWithWrapped } from "./lock-wrapped.js";
import { checkExitWithHidden, hiddenTextNotes, lockHiddenText, lockSarifText, withHiddenText } from "./hidden-text.js";
import { type ClientIdentity, identityLabel, inPool, type LockJob, parseIdentity, parseIgnore, type ScopedName, scopedName } from "./lock-jobs.js";
import {
  type EarlyLaunch,
  launchEarly,
  loadVerdictModules,
  knownBadList,
  lintOwnLaunch,
  type Output,
  type PrereadFile,
  prereadFromFile,
  type ReadOptions,
  readSnapshot,
  redactorFor,
  resolveSource,
  type SourceFlags,
  type VerdictModules,
} from "./source.js";
import type { Redactor } from "../text/redact.js";
import type { LintFinding } from "../lint/types.js";

/** Flags of `mcp-lint lock`, already checked for shape. */
export interface LockFlags extends SourceFlags {
  lock: string;
  check: boolean;
  accept: boolean;
  failOn: FailOn;
  json: string | null;
  /** Also write the changes and S8 findings as SARIF 2.1.0. */
  sarif?: string | null;
  /** `--config FILE`: every server of a client config, into one v2 lock. */
  config?: string | null;
  /** `--server NAME` (repeatable): the servers of the config to read, or the v2 entry of a single-server run. */
  servers?: string[];
  /** `--jobs N`: servers read at once with `--config`. */
  jobs?: number;
  /** `--accept-tool NAME` (repeatable; `SERVER/NAME` with `--config`). */
  acceptTools?: string[];
  /** `--review`: ask about each change that would be refused, on a terminal, and accept the ones answered `y` by name. */
  review?: boolean;
  /** `--ignore TOOL:PATH` (repeatable) and its `--reason`. */
  ignores?: string[];
  reason?: string | null;
  /** `--brief`: a first lock lists only the descriptions and the instructions, not every string the model reads. */
  brief?: boolean;
  /** `--as-client NAME/VERSION` (repeatable). */
  asClients?: string[];
  /** False with `--no-artifact`: neither record nor check what the launch runs (its package, tree and provenance). */
  artifact?: boolean;
  /** `--registry-keys FILE` and `--trusted-root FILE`: trust of the user's own for the registry signature and provenance checks. */
  registryKeys?: string | null;
  trustedRoot?: string | null;
  /** A server prepared by the caller instead of the command line's source (`wrap` locks a config entry as the client launches it, into a v1 lock). */
  job?: LockJob;
}

/** Everything one server's part of the run produced. */
interface ServerRun {
  job: LockJob;
  previous: Lockfile | null;
  snapshot: ServerSnapshot;
  changes: Change[];
  hidden: LintFinding[];
  notes: Note[];
  plan: ServerPlan | null;
  ignored: ServerPlan["ignored"];
  input: ReportInput;
  /** The identity the server was read as, and its answers to the other `--as-client` identities. */
  primary: ClientIdentity | null;
  others: Array<{ identity: ClientIdentity; snapshot: ServerSnapshot }>;
}

/** Run `lock` or `lock --check`; returns the exit code (errors are thrown as McpLintError). */
export async function runLock(flags: LockFlags, output: Output): Promise<number> {
  const config = flags.config ?? null;
  const servers = flags.servers ?? [];
  const acceptTools = flags.acceptTools ?? [];
  const ignoreTexts = flags.ignores ?? [];
  const identities = (flags.asClients ?? []).map(parseIdentity);
  checkLockFlags(flags, config, servers, acceptTools, ignoreTexts);
  const ignoreRequests = ignoreTexts.map((text) => parseIgnore(text, config !== null));
  const acceptNames = acceptTools.map((text) => scopedName(text, config !== null));
  const review = flags.review === true;
  if (review) checkReviewTerminal();

  const prepared = flags.job ?? null;
  const single = config === null && prepared === null ? resolveSource(flags, "mcp-lint lock") : null;
  const jsonToStdout = flags.json === "-";
  // Output paths are checked first: a refusal after the servers ran would waste the run.
  if (!flags.check) await checkOutputPath(flags.lock);
  if (flags.json !== null && !jsonToStdout) await checkOutputPath(flags.json);
  if (flags.sarif != null) await checkOutputPath(flags.sarif);
  const jobs: LockJob[] =
    prepared !== null
      ? [{ ...prepared, key: servers[0] ?? null, label: "" }]
      : config === null
        ? [{ key: servers[0] ?? null, label: "", target: single, launch: single?.kind === "stdio" ? flags.command : [] }]
        : await (await import("./lock-config.js")).configJobs(config, servers, process.env, flags.pidNamespace === false ? { pidNamespace: false } : {});
  if (config !== null && flags.oauth !== undefined) {
    const { enabled, ...rest } = flags.oauth;
    if (Object.values(rest).some((value) => value !== null && value !== false)) {
      throw new UsageError("--config logs each remote server in as an unregistered client; --oauth-* flags name one server, so give them with --url");
    }
    if (!enabled) for (const job of jobs) if (job.target?.kind === "http") job.target.oauth = null;
  }
  // A wrapped entry has a lock of its own, the one its proxy reads: it is read in a run of its own.
  if (config !== null && jobs.some((job) => job.wrapped !== undefined)) return await lockWithWrapped(flags, output, jobs, runLock);
  // Only a launched server runs here and could rewrite mcp-lint's files; a remote one cannot.
  const live = jobs.some((job) => job.target?.kind === "stdio");
  // A launched server runs as this user and could rewrite mcp-lint's own files on disk: everything
  // the verdict depends on is loaded before any starts. A known-bad launch is refused first of all.
  const https = jobs.some((job) => job.target?.kind === "http" && job.target.url.protocol === "https:");
  const modules = await loadVerdictModules(
    live,
    https,
    jobs.some((job) => job.target?.kind === "http"),
  );
  // With --sarif, its builders load now too: a launched server could rewrite them on disk.
  const sarifBaseFound = flags.sarif != null ? sarifBase() : null;
  if (flags.sarif != null && live) await Promise.all([import("../report/sarif.js"), import("../report/sarif-places.js")]);
  for (const job of jobs) {
    if (job.target?.kind !== "stdio") continue;
    await lintOwnLaunch(job.launch, flags.knownBad, modules.install, jobOutput(output, job));
  }
  // What each launch runs is resolved from the registry while the servers start (modules load first).
  const artifactModules =
    flags.artifact === false ? null : await loadArtifactModules(jobs, { registryKeys: flags.registryKeys ?? null, trustedRoot: flags.trustedRoot ?? null });
  const knownBad = live && modules.install !== null ? await knownBadList(flags.knownBad, modules.install) : null;
  // A single launched server starts now and boots while the lock is parsed and checked (the lock's
  // bytes are read first: the server could rewrite the file once it runs).
  const sole = jobs.length === 1 ? (jobs[0] as LockJob) : null;
  // A --from file is read before the lock, so its text is gone before the lock's is read: a
  // 10,000-tool check holds one of the two texts at a time (about 10 MB less at its peak).
  const preread = sole !== null && sole.target === null && flags.from != null ? await prereadFromFile(flags) : null;
  const lockText = { pieces: await readTextPiecesIfExists(flags.lock) };
  const early =
    sole?.target?.kind === "stdio" && (lockText.pieces !== null || !flags.check) ? await launchEarly(sole.target, jobOutput(output, sole).err) : null;
  try {
    return await lockWithServers(flags, output, {
      config,
      jobs,
      identities,
      ignoreRequests,
      acceptNames,
      review,
      lockText,
      early,
      preread,
      modules,
      sarifBase: sarifBaseFound,
      artifactModules,
      knownBad,
    });
  } finally {
    await early?.discard();
  }
}

/** What runLock prepared before any server starts. */
interface LockRunPlan {
  config: string | null;
  jobs: LockJob[];
  identities: ClientIdentity[];
  ignoreRequests: ReturnType<typeof parseIgnore>[];
  acceptNames: ScopedName[];
  review: boolean;
  /** The lock's text as read before any server started; emptied once parsed, so a large lock's text is not kept. */
  lockText: { pieces: string[] | null };
  early: EarlyLaunch | null;
  preread: PrereadFile | null;
  modules: VerdictModules;
  /** Where the SARIF log's URIs start, settled before any server started (null without --sarif). */
  sarifBase: SarifBase | null;
  /** The artifact resolver, loaded before any server started; null when off or nothing is launched. */
  artifactModules: ArtifactModules | null;
  knownBad: KnownBadList | null;
}

async function lockWithServers(flags: LockFlags, output: Output, plan: LockRunPlan): Promise<number> {
  const { config, jobs, identities, ignoreRequests, acceptNames, review, lockText, early, preread, modules } = plan;
  const jsonToStdout = flags.json === "-";
  const repaired: string[] = [];
  // SARIF results point at the lines of the lock as it was read.
  const sarifLockText = flags.sarif != null ? lockText.pieces : null;
  // A server started early boots while the lock is read whole; without one, a large lock is read entry by entry.
  const { document, settle } = parseLock(lockText, flags, repaired, early === null);
  if (repaired.length > 0) {
    output.err(
      `mcp-lint: ${neutralize(flags.lock)} was edited by hand: the sha256 of ${repaired.map((name) => showName(name)).join(", ")} did not match; comparing with the definitions as stored, and --accept will rewrite it\n`,
    );
  }
  if (review && document === null) {
    throw new UsageError(`--review walks the changes against an existing lock, and ${flags.lock} does not exist yet; run "mcp-lint lock" first`);
  }
  const version = lockVersion(document, config, jobs, flags, ignoreRequests.length > 0 || identities.length > 0);
  if (version === LOCKFILE_VERSION_SERVERS && document?.version !== LOCKFILE_VERSION_SERVERS && !flags.check) {
    output.err(`mcp-lint: writing ${neutralize(flags.lock)} in lockfile format v2 (servers by name; prompts, resources and templates pinned too)\n`);
  }

  const redactor = redactorFor(mergedTargetSecrets(jobs), output);
  // What each launch runs is resolved from the registry while the servers are read.
  const artifacts =
    plan.artifactModules === null
      ? new Map<LockJob, Promise<Resolved>>()
      : startArtifacts(jobs, plan.artifactModules, (job) => previousFor(document, job)?.artifact ?? null);
  const runs = await readServers(jobs, document, version, identities, flags, redactor, output, { early, preread }, settle, {
    artifacts,
    knownBad: plan.knownBad,
  });

  const newIgnores = new Map<string | null, IgnoreRule[]>();
  for (const request of ignoreRequests) {
    const run = runs.find((item) => request.server === null || item.job.key === request.server);
    if (run === undefined) throw new UsageError(`--ignore names server ${JSON.stringify(neutralize(request.server ?? ""))}, which this run did not read`);
    const rules = newIgnores.get(run.job.key) ?? [];
    rules.push(ignoreRule(run, request, flags.reason ?? ""));
    newIgnores.set(run.job.key, rules);
  }
  const reportChannel = jsonToStdout ? output.err : output.out;
  const style = (jsonToStdout ? output.styles?.err : output.styles?.out) ?? PLAIN_STYLE;
  const say = (text: string) => reportChannel(redactor.text(text));
  const reviewed = review ? await reviewChanges(runs, newIgnores, style, config !== null, say, flags.lock, modules.schemaDiff) : null;
  if (reviewed !== null) pushAll(acceptNames, reviewed.names);
  for (const run of runs) {
    const names = new Set(acceptNames.filter((item) => item.server === null || item.server === run.job.key).map((item) => item.name));
    // Hidden text blocks only where something new is recorded: new or changed tools, changed instructions.
    const blocking = blockingFindings(run);
    if (flags.check) {
      // A check plans no write: only the ignore rules apply.
      const checked = applyIgnores(run.changes, run.previous?.ignores ?? [], run.snapshot);
      run.changes = [...checked.changes, ...divergences(run)];
      run.ignored = checked.ignored;
    } else {
      const options = { accept: flags.accept, acceptNames: names, newIgnores: newIgnores.get(run.job.key) ?? [], version, blocking, compared: run.changes };
      run.plan = planServer(run.snapshot, run.previous, options);
      run.changes = [...run.plan.changes, ...divergences(run)];
      run.ignored = run.plan.ignored;
    }
    run.input.changes = run.changes;
    if (run.changes.some((change) => SCHEMA_KINDS.has(change.kind))) run.input.schemaDiff = await modules.schemaDiff();
  }

  // A review showed each change as it asked; the whole report again would bury its answers.
  for (const run of reviewed === null ? runs : []) {
    if (run.job.label !== "") say(`=== ${run.job.label} ===\n`);
    say(renderTerminal(run.input, style));
    if (run.ignored.length > 0) {
      say(
        `Ignored by rules in the lock: ${run.ignored.map(({ rule }) => `${showName(rule.tool)} ${neutralize(rule.path)} (${quote(rule.reason)})`).join("; ")}\n`,
      );
    }
    if (runs.length > 1) say("\n");
  }

  let exitCode: number;
  let outcome: string;
  if (flags.check) {
    exitCode = Math.max(...runs.map((run) => checkExitWithHidden(checkExitCode(run.changes, flags.failOn), run.hidden, flags.failOn)));
    outcome = runs.every((run) => run.changes.length === 0) ? "clean" : "changed";
  } else if (runs.some((run) => run.snapshot.echoed !== undefined)) {
    // A lock is committed to git: never write one that would hold a secret a server echoed back
    // (nor "[redacted]" in its place, which would not be what the server serves).
    const places = runs.flatMap((run) => (run.snapshot.echoed?.places ?? []).map((place) => (run.job.label === "" ? place : `${run.job.label}: ${place}`)));
    const more = runs.some((run) => run.snapshot.echoed?.more === true) ? " and more" : "";
    throw new SecretEchoError(
      `refusing to write ${flags.lock}: a server echoed back a secret (an OAuth token, a --header-env or config header value, the URL's query or user info, a --pass-env or config env value, or a value a config placeholder read) in ${places.join(", ")}${more}; nothing was written`,
    );
  } else {
    ({ exitCode, outcome } = await writeLock(runs, document, version, flags, output));
  }
  if (reviewed !== null) say(`${reviewed.summary}\n`);
  if (flags.json !== null) {
    const text = jsonReportText(lockJsonReport(runs, flags, outcome, exitCode, config !== null), (raw) => redactor.text(raw));
    if (jsonToStdout) output.out(text);
    else await writeFileSafely(flags.json, text);
  }
  if (flags.sarif != null) {
    const [{ artifactUri }, { lockLines }] = await Promise.all([import("../report/sarif.js"), import("../report/sarif-places.js")]);
    // Found before any server ran (a launched one could move .git meanwhile).
    const base = plan.sarifBase;
    if (base === null) throw new Error("internal error: the SARIF base was not found before the servers ran");
    const lockUri = artifactUri(flags.lock, process.cwd(), base.dir);
    const first = runs[0] as ServerRun;
    const changes = runs.flatMap((run) => run.changes.map((change) => withServerName(change, run)));
    await writeFileSafely(
      flags.sarif,
      await lockSarifText({
        version: flags.version,
        lockUri,
        snapshot: first.snapshot,
        changes,
        findings: runs.flatMap((run) => run.hidden.map((finding) => (run.job.key === null ? finding : { ...finding, server: run.job.key }))),
        redact: (raw) => redactor.text(raw),
        lines: sarifLockText === null ? null : lockLines(sarifLockText.join("")),
        base,
      }),
    );
  }
  return exitCode;
}

/** Hidden-text findings that block like an error-level change: only where something new is recorded (new or changed tools, changed instructions). */
function blockingFindings(run: ServerRun): Array<{ tool: string | null }> {
  const fresh = new Set(run.changes.map((change) => change.tool));
  return run.hidden
    .filter((finding) => finding.severity === "error" && (run.previous === null || fresh.has(finding.tool)))
    .map((finding) => ({ tool: finding.tool }));
}

/** `--review`: ask about each refusing change on the terminal; the names answered `y`, as `--accept-tool` gives them, and the closing line. */
async function reviewChanges(
  runs: readonly ServerRun[],
  newIgnores: ReadonlyMap<string | null, IgnoreRule[]>,
  style: TerminalStyle,
  scoped: boolean,
  say: (text: string) => void,
  lockPath: string,
  schemaDiff: () => Promise<NonNullable<ReportInput["schemaDiff"]>>,
): Promise<{ names: ScopedName[]; summary: string }> {
  const sources = runs.map((run) => ({
    server: run.job.key,
    input: run.input,
    changes: applyIgnores(run.changes, [...(run.previous?.ignores ?? []), ...(newIgnores.get(run.job.key) ?? [])], run.snapshot).changes,
    blocking: blockingFindings(run),
  }));
  for (const run of runs) if (run.changes.some((change) => SCHEMA_KINDS.has(change.kind))) run.input.schemaDiff = await schemaDiff();
  const items = reviewItems(sources, style, scoped);
  if (items.length === 0) return { names: [], summary: "nothing to review: no change would be refused" };
  for (const run of runs) say(`${headerLine(run.input)}\n`);
  const outcome = await withTerminalKeys(say, (io) => reviewLoop(items, io));
  if (outcome.interrupted) throw new ReviewInterruptedError(`review stopped; nothing was written to ${neutralize(lockPath)}`);
  const names = items.flatMap((item, index) => (outcome.accepted[index] === true && item.name !== null ? [{ server: item.server, name: item.name }] : []));
  return { names, summary: reviewSummary(items, outcome.accepted) };
}

/**
 * Read and parse the lock, or null when there is none yet (an error for --check). Its text is not
 * kept: at 10,000 tools it is tens of megabytes that a check no longer needs once parsed. A check
 * of a large lock reads its tools entries later, one by one against the served tools (`settle`,
 * lock/deferred.ts), so the whole lock is never in memory as objects.
 */
function parseLock(
  read: { pieces: string[] | null },
  flags: LockFlags,
  repaired: string[],
  defer: boolean,
): { document: LockDocument | null; settle: DeferredLock["settle"] } {
  const pieces = read.pieces;
  read.pieces = null;
  if (pieces === null) {
    if (flags.check) throw new UsageError(`lock file ${flags.lock} does not exist; run "mcp-lint lock" first to create it`);
    return { document: null, settle: () => {} };
  }
  if (flags.check && defer) return readLockDeferred(pieces, flags.lock);
  const text = pieces.length === 1 ? (pieces[0] as string) : pieces.join("");
  return {
    document: parseLockDocument(parseJsonStrict(text, flags.lock), flags.lock, flags.accept ? { hashMismatch: "repair", repaired } : {}),
    settle: () => {},
  };
}

function checkLockFlags(flags: LockFlags, config: string | null, servers: readonly string[], acceptTools: readonly string[], ignores: readonly string[]): void {
  if (flags.check && flags.accept) throw new UsageError("--accept only applies when writing the lock; drop it or drop --check");
  if (flags.check && acceptTools.length > 0) throw new UsageError("--accept-tool only applies when writing the lock; drop it or drop --check");
  if (flags.review === true && (flags.check || flags.accept || acceptTools.length > 0)) {
    throw new UsageError("--review decides each change itself; drop --check, --accept and --accept-tool");
  }
  if (flags.review === true && flags.json === "-") throw new UsageError("--review asks on stdout; give --json a file path instead of -");
  if (flags.check && ignores.length > 0) throw new UsageError("--ignore records a rule in the lock, so it cannot be used with --check");
  if (ignores.length > 0 && (flags.reason ?? "").trim() === "") throw new UsageError("--ignore needs --reason TEXT saying why the change is accepted");
  if (ignores.length === 0 && flags.reason != null) throw new UsageError("--reason goes with --ignore");
  if (
    config !== null &&
    (flags.from !== null ||
      flags.url !== null ||
      flags.command.length > 0 ||
      flags.passEnv.length > 0 ||
      flags.headers.length > 0 ||
      flags.headerEnv.length > 0)
  ) {
    throw new UsageError(
      "--config reads every server's command, env and URL from the config file; drop --from, --url, --pass-env, --header, --header-env and the command after --",
    );
  }
  if (config === null && servers.length > 1) throw new UsageError("--server names one v2 entry for a single server; give several only with --config");
  if (config === null && flags.jobs !== undefined && flags.jobs !== 4) throw new UsageError("--jobs applies to --config runs");
}

/** The format to use: the existing file's, v2 for `--config` or a named `--server`, v1 for a new single-server lock. */
function lockVersion(document: LockDocument | null, config: string | null, jobs: readonly LockJob[], flags: LockFlags, needsV2: boolean): Lockfile["version"] {
  const named = jobs.some((job) => job.key !== null);
  if (document?.version === LOCKFILE_VERSION) {
    if (config !== null || named) {
      throw new UsageError(
        `${flags.lock} is a single-server lock (format v1); --config and --server write the v2 format: give another --lock path, or remove it to start over`,
      );
    }
    if (needsV2) throw new UsageError(`--ignore and --as-client need a v2 lock; name the server with --server NAME and give a new --lock path`);
    return LOCKFILE_VERSION;
  }
  if (document?.version === LOCKFILE_VERSION_SERVERS) {
    if (config === null && !named) {
      if (document.servers.size !== 1) {
        throw new UsageError(`${flags.lock} holds ${document.servers.size} servers; name the one this command reads with --server NAME`);
      }
      (jobs[0] as LockJob).key = [...document.servers.keys()][0] as string;
    }
    return LOCKFILE_VERSION_SERVERS;
  }
  if (needsV2 && !named) throw new UsageError("--ignore and --as-client need a v2 lock; name the server with --server NAME");
  return config !== null || named ? LOCKFILE_VERSION_SERVERS : LOCKFILE_VERSION;
}

function previousFor(document: LockDocument | null, job: LockJob): Lockfile | null {
  if (document === null) return null;
  if (document.version === LOCKFILE_VERSION) return document.lock;
  return job.key === null ? null : (document.servers.get(job.key) ?? null);
}

/** All secrets of all targets, as one target-like value for the redactor. */
function mergedTargetSecrets(jobs: readonly LockJob[]): Parameters<typeof redactorFor>[0] {
  const secrets = jobs.flatMap((job) => job.target?.secrets ?? []);
  const first = jobs.find((job) => job.target !== null)?.target ?? null;
  return first === null ? null : { ...first, secrets };
}

/**
 * Read every server (at most `--jobs` at once), each as the client identity it was locked as (or
 * the first `--as-client` when writing), and again as each other `--as-client` identity. Any
 * server that cannot be read stops the whole run, naming it: nothing is written.
 */
async function readServers(
  jobs: readonly LockJob[],
  document: LockDocument | null,
  version: Lockfile["version"],
  identities: readonly ClientIdentity[],
  flags: LockFlags,
  redactor: Redactor,
  output: Output,
  ahead: Pick<ReadOptions, "early" | "preread">,
  settle: DeferredLock["settle"],
  { artifacts, knownBad }: { artifacts: Map<LockJob, Promise<Resolved>>; knownBad: KnownBadList | null },
): Promise<ServerRun[]> {
  const progress = jobs.length > 1 && output.styles?.err.width != null ? progressLine(jobs.length, output) : null;
  try {
    return await inPool(jobs, flags.jobs ?? 4, async (job) => {
      const previous = previousFor(document, job);
      const primary = !flags.check && identities.length > 0 ? (identities[0] as ClientIdentity) : (previous?.readAs ?? null);
      const read = async (identity: ClientIdentity | null) => {
        try {
          const snapshot = await readSnapshot(flags, job.target, redactor, () => {}, job.label === "" ? output.err : prefixed(output, job.label).err, {
            catalog: version === LOCKFILE_VERSION_SERVERS,
            clientInfo: identity,
            progress: jobs.length === 1,
            ...ahead,
          });
          if (identity !== null) snapshot.readAs = identity;
          return snapshot;
        } catch (error) {
          if (job.label === "" || !(error instanceof McpLintError)) throw error;
          throw new ConnectionError(`${job.label}: ${error.message}`);
        }
      };
      const snapshot = await read(primary);
      const others: Array<{ identity: ClientIdentity; snapshot: ServerSnapshot }> = [];
      for (const identity of identities) {
        if (primary !== null && identity.name === primary.name && identity.version === primary.version) continue;
        others.push({ identity, snapshot: await read(identity) });
      }
      progress?.tick();
      if (previous !== null) settle(previous, snapshot.tools);
      const pending = artifacts.get(job);
      const resolved = pending === undefined ? null : await pending;
      if (resolved !== null) snapshot.artifact = resolved.artifact;
      const changes = compareSnapshot(snapshot, previous);
      if (resolved !== null) pushAll(changes, compareArtifacts(previous?.artifact ?? null, resolved.artifact, knownBad ?? EMPTY_KNOWN_BAD, resolved.unpinned));
      const hidden = lockHiddenText(snapshot, previous, changes, flags.check);
      const notes = await notesFor(snapshot, previous, changes);
      const input: ReportInput = {
        mode: flags.check ? "check" : "lock",
        lockPath: flags.lock,
        snapshot,
        lock: previous,
        changes,
        notes,
        hiddenText: hiddenTextNotes(hidden),
        artifactLine: flags.artifact === false ? null : artifactLine(resolved, previous?.artifact ?? null),
        ...(flags.brief === true ? { brief: true } : {}),
      };
      const run: ServerRun = { job, previous, snapshot, changes, hidden, notes, plan: null, ignored: [], input, primary, others };
      return run;
    });
  } finally {
    progress?.done();
  }
}

/** `client_divergence` for each tool (or the instructions) another client identity is served differently. */
function divergences(run: ServerRun): Change[] {
  const changes: Change[] = [];
  const primaryLabel = identityLabel(run.primary);
  for (const { identity, snapshot } of run.others) {
    const label = identityLabel(identity);
    const mine = new Map(run.snapshot.tools.map((tool) => [tool.name as string, tool]));
    const theirs = new Map(snapshot.tools.map((tool) => [tool.name as string, tool]));
    for (const name of new Set([...mine.keys(), ...theirs.keys()])) {
      const a = mine.get(name);
      const b = theirs.get(name);
      if (a !== undefined && b !== undefined && jsonEqual(a, b)) continue;
      changes.push({
        kind: "client_divergence",
        severity: CHANGE_KINDS.client_divergence.severity,
        tool: name,
        args: { fields: [primaryLabel, label], paths: differingFields(a, b), before: a, after: b },
      });
    }
    const mineText = run.snapshot.instructions.known ? run.snapshot.instructions.text : null;
    const theirText = snapshot.instructions.known ? snapshot.instructions.text : null;
    if (mineText !== theirText) {
      changes.push({
        kind: "client_divergence",
        severity: CHANGE_KINDS.client_divergence.severity,
        tool: null,
        args: { fields: [primaryLabel, label], paths: ["instructions"], before: mineText, after: theirText },
      });
    }
  }
  return changes;
}

function differingFields(a: JsonObject | undefined, b: JsonObject | undefined): string[] {
  if (a === undefined) return ["(not served to the first)"];
  if (b === undefined) return ["(not served to the second)"];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => !jsonEqual(a[key], b[key]))
    .sort()
    .map((key) => `/${key}`);
}

/** An ignore rule for `--ignore`: the change now at that tool and path, and the hash of the value served there. */
function ignoreRule(run: ServerRun, request: { name: string; path: string }, reason: string): IgnoreRule {
  const change = run.changes.find((item) => item.subject === undefined && item.tool === request.name && item.path === request.path);
  if (change === undefined) {
    const paths = run.changes.filter((item) => item.tool === request.name && item.path !== undefined).map((item) => neutralize(item.path as string));
    throw new UsageError(
      `--ignore ${neutralize(request.name)}:${neutralize(request.path)}: no change there to ignore${paths.length > 0 ? `; its changes are at ${[...new Set(paths)].join(", ")}` : ""}`,
    );
  }
  const served = run.snapshot.tools.find((tool) => tool.name === request.name);
  return { tool: request.name, path: request.path, kind: change.kind, valueSha256: ignoredValueSha256(served, request.path), reason: reason.trim() };
}

/** Write what the plans allow, all servers in one document; refusals are explained per server. */
async function writeLock(
  runs: ServerRun[],
  document: LockDocument | null,
  version: Lockfile["version"],
  flags: LockFlags,
  output: Output,
): Promise<{ exitCode: number; outcome: string }> {
  let refusedAny = false;
  const terminal = onTerminal();
  // One refused server leaves the whole file as it was, byte for byte: a review is of all of it.
  const refusedWhole = runs.some((run) => run.plan?.status === "refused");
  for (const run of runs) {
    const plan = run.plan as ServerPlan;
    const who = run.job.label === "" ? "" : ` for ${run.job.label}`;
    const verb = run.previous === null ? "write" : "update";
    // The name `--accept-tool` takes: SERVER/NAME with --config.
    const scope = (name: string) => (flags.config == null || run.job.key === null ? name : `${run.job.key}/${name}`);
    if (plan.duplicates.length > 0) {
      refusedAny = true;
      output.err(
        `Refusing to ${verb} ${neutralize(flags.lock)}${who}: the server serves more than one tool named ${plan.duplicates.map((name) => quote(name)).join(", ")}; a client may pick either, so there is nothing safe to lock.\n`,
      );
    } else if (plan.status === "refused" && run.previous === null && plan.refused.length === 0 && plan.refusedFindings > 0) {
      refusedAny = true;
      output.err(`${firstLockRefusal(run, flags.lock, who, scope)}\n`);
    } else if (plan.status === "refused" || plan.status === "partial") {
      refusedAny = true;
      const count = plan.refused.length + plan.refusedFindings;
      const names = [...new Set(plan.refused.map((change) => change.tool).filter((tool): tool is string => tool !== null))];
      const changes = `${count} error-level change${count === 1 ? "" : "s"}`;
      output.err(
        plan.status === "partial"
          ? `${refusedWhole ? "Would update" : "Updated"} the accepted changes in ${neutralize(flags.lock)}${who}; refusing ${changes}.\n`
          : `Refusing to ${verb} ${neutralize(flags.lock)}${who}: ${changes}.\n`,
      );
      const serverLevel = plan.refused.some((change) => change.tool === null);
      output.err(refusalHint(names.map(scope), serverLevel, terminal));
    }
  }
  const servers = new Map<string, Lockfile>(document?.version === LOCKFILE_VERSION_SERVERS ? document.servers : []);
  let single: Lockfile | null = document?.version === LOCKFILE_VERSION ? document.lock : null;
  for (const run of runs) {
    const entry = run.plan?.entry ?? null;
    if (entry === null) continue;
    if (version === LOCKFILE_VERSION) single = entry;
    else servers.set(run.job.key as string, entry);
  }
  const next: LockDocument | null =
    version === LOCKFILE_VERSION
      ? single === null
        ? null
        : { version: LOCKFILE_VERSION, lock: single }
      : servers.size === 0
        ? null
        : { version: LOCKFILE_VERSION_SERVERS, servers: sortedServers(servers) };
  const before = document === null ? null : serializeLockDocument(document);
  const text = next === null || refusedWhole ? null : serializeLockDocument(next);
  const written = text !== null && text !== before;
  if (written) await writeFileSafely(flags.lock, text);
  const toolCount = runs.reduce((sum, run) => sum + run.snapshot.tools.length, 0);
  const count = `${runs.length > 1 ? `${runs.length} servers, ` : ""}${toolCount} tool${toolCount === 1 ? "" : "s"}`;
  if (written) output.err(`${document === null ? "Wrote" : "Updated"} ${neutralize(flags.lock)} (${count})\n`);
  else if (refusedWhole && runs.some((run) => run.plan?.status === "partial")) {
    output.err(`Nothing was written to ${neutralize(flags.lock)}: a server was refused, so the accepted changes of the others wait for the same review.\n`);
  } else if (!refusedAny) output.err(`Unchanged: ${neutralize(flags.lock)} (${count})\n`);
  const outcome = refusedAny ? (written ? "partial" : "refused") : written ? (document === null ? "created" : "updated") : "unchanged";
  return { exitCode: refusedAny ? 1 : 0, outcome };
}

/** Both stdin and stdout are a terminal: `--review` can ask there. */
function onTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/**
 * What to do about a refused write: on a terminal, `--review` (each change shown, one key each);
 * elsewhere, `--accept-tool` for each refused tool once read. Never the bare `--accept`, which takes
 * everything unread; it is named only for the server's own changes, which no tool name accepts.
 */
function refusalHint(names: readonly string[], serverLevel: boolean, terminal: boolean): string {
  const server = serverLevel ? "  The server's own changes (its instructions) are accepted only by --accept, once read.\n" : "";
  if (terminal) return `  Review them one tool at a time, each change shown: mcp-lint lock --review (with the same arguments)\n${server}`;
  if (names.length > 0) return `  Read them above, then accept them one tool at a time: ${names.map(acceptToolFlag).join(" ")}\n${server}`;
  return serverLevel ? server : "  Read them above; a tool you have read is accepted alone with --accept-tool NAME.\n";
}

/**
 * `--accept-tool NAME` as a user may paste it: the name is the server's, so it is quoted for the
 * shell ("x; rm -rf ~" stays one argument) and neutralized for the terminal.
 */
function acceptToolFlag(name: string): string {
  return `--accept-tool ${showName(shellQuote([name]))}`;
}

/**
 * Why a first lock is refused, when S8 is the only reason: a server never locked has no changes, so
 * "N error-level changes" would say nothing. It names what S8 found, where, and how a reviewer who
 * judged a finding a false alarm accepts that one tool.
 */
function firstLockRefusal(run: ServerRun, lock: string, who: string, scope: (name: string) => string): string {
  const errors = run.hidden.filter((finding) => finding.severity === "error");
  const named = new Map<string, string>();
  for (const finding of errors) {
    const where = finding.args.where;
    const label = finding.tool === null ? "the server instructions" : where === undefined ? showName(finding.tool) : `${where} ${showName(finding.tool)}`;
    named.set(`${where ?? "tool"}\u0000${finding.tool ?? ""}`, label);
  }
  const allTools = errors.every((finding) => finding.tool !== null && finding.args.where === undefined);
  const count = named.size;
  const things = allTools ? `${count} tool${count === 1 ? "" : "s"}` : `${count} definition${count === 1 ? "" : "s"}`;
  const poisoning = errors.filter((finding) => finding.args.kind === "poisoning").length;
  const what = poisoning === errors.length ? "tool poisoning" : poisoning === 0 ? "hidden text" : "tool poisoning and hidden text";
  const tool = errors.find((finding) => finding.tool !== null)?.tool;
  const accept = tool === undefined || tool === null ? "--accept" : acceptToolFlag(scope(tool));
  return `mcp-lint: refusing to write ${neutralize(lock)}${who}: S8 found ${what} in ${things} of a server that was never locked (${[...named.values()].join(", ")}). Read the findings above; a finding you have reviewed and judged a false alarm is accepted with ${accept}.`;
}

/** Servers in name order, so the file's bytes do not depend on the order the config lists them. */
function sortedServers(servers: Map<string, Lockfile>): Map<string, Lockfile> {
  return new Map([...servers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function withServerName(change: Change, run: ServerRun): Change {
  return run.job.key === null ? change : { ...change, server: run.job.key };
}

/** The JSON report: one server as before; several (or a named v2 entry) with `server` on every change and a `servers` list. */
function lockJsonReport(runs: readonly ServerRun[], flags: LockFlags, outcome: string, exitCode: number, config: boolean): Record<string, unknown> {
  const reports = runs.map((run) => ({ run, report: withHiddenText(buildJsonReport(run.input, outcome, exitCode), run.hidden) }));
  const ignoredOf = (run: ServerRun) => run.ignored.map(({ rule, change }) => ({ tool: rule.tool, path: rule.path, kind: change.kind, reason: rule.reason }));
  if (!config && runs.length === 1 && (runs[0] as ServerRun).job.key === null) {
    const { run, report } = reports[0] as { run: ServerRun; report: Record<string, unknown> };
    return run.ignored.length > 0 ? { ...report, ignored: ignoredOf(run) } : report;
  }
  const tagged = <T extends Record<string, unknown>>(items: unknown, name: string | null): T[] =>
    Array.isArray(items) ? items.map((item) => ({ ...(item as T), server: name })) : [];
  const summary = { error: 0, warning: 0, info: 0 };
  for (const { report } of reports) {
    const counts = report.summary as typeof summary;
    summary.error += counts.error;
    summary.warning += counts.warning;
    summary.info += counts.info;
  }
  return {
    report_version: 1,
    mode: flags.check ? "check" : "lock",
    lock: flags.lock,
    outcome,
    exit_code: exitCode,
    servers: reports.map(({ run, report }) => ({ name: run.job.key, server: report.server, summary: report.summary })),
    summary,
    changes: reports.flatMap(({ run, report }) => tagged(report.changes, run.job.key)),
    notes: reports.flatMap(({ run, report }) => tagged(report.notes, run.job.key)),
    hidden_text: reports.flatMap(({ run, report }) => tagged(report.hidden_text, run.job.key)),
    ignored: runs.flatMap((run) => tagged(ignoredOf(run), run.job.key)),
  };
}

/** Where one job's messages go: prefixed with its server's name when the run reads several. */
function jobOutput(output: Output, job: LockJob): Output {
  return job.label === "" ? output : prefixed(output, job.label);
}

/** Output whose stderr lines name the server they are about. */
function prefixed(output: Output, label: string): Output {
  return { ...output, err: (text) => output.err(text.replace(/^mcp-lint: /, `mcp-lint: ${label}: `)) };
}

/** A progress line on a terminal while a config's servers are read. */
function progressLine(total: number, output: Output): { tick: () => void; done: () => void } {
  let finished = 0;
  const draw = () => output.err(`\rmcp-lint: reading ${total} servers: ${finished} done`);
  draw();
  return {
    tick: () => {
      finished++;
      draw();
    },
    done: () => output.err("\r\u001b[2K"),
  };
}

/** SDK-rejection notes, only for tools that are new or changed since the lock (locked ones were seen before), and the tool order note. */
async function notesFor(snapshot: ServerSnapshot, lock: Lockfile | null, changes: readonly Change[]): Promise<Note[]> {
  // A tool the comparison found unchanged was checked when it was locked; no second pass over them.
  const changed = new Set(changes.map((change) => change.tool));
  const order = lock === null ? null : toolOrderNote(lock, snapshot.tools);
  const fresh = snapshot.tools.filter((tool) => lock === null || !lock.tools.has(tool.name as string) || changed.has(tool.name as string));
  if (fresh.length === 0) return order === null ? [] : [order];
  const { sdkRejectionNotes } = await import("../connect/sdk-compat.js");
  return [...(await sdkRejectionNotes(fresh)), ...(order === null ? [] : [order])];
}
