/** The `proxy` command: checks that fail closed before anything starts, then one proxied session between this process's stdio and the server. */

import { closeSync, constants, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { quote as shellQuote } from "shell-quote";
import { type Bound, isTimeout, RunClock, timeoutText } from "../connect/bounds.js";
import { boundedFetch, networkCause, originsOnly, printable } from "../connect/http.js";
import { launchStdioServer } from "../connect/launch.js";
import { MessageTooLargeError } from "../connect/lines.js";
import type { ProcessGroupTransport } from "../connect/process-group.js";
import type { Redactor } from "../text/redact.js";
import { firstLine, readSession, v1Listing } from "../connect/session.js";
import { explainStderr } from "../connect/stderr.js";
import { describeTarget, givesAuthorization, type Target, targetSha256 } from "../connect/target.js";
import { ConnectionError, InputFileError, UsageError } from "../errors.js";
import { parseJsonStrict } from "../json/parse.js";
import type { FailOn } from "../lock/engine.js";
import { type Lockfile, parseLockDocument } from "../lock/format.js";
import { readJsonFile, readTextIfExists } from "../lock/io.js";
import { auditLine, eventLine, type ProxyEvent } from "../proxy/events.js";
import { type Descriptions, type FixOptions, parseDescriptions } from "../proxy/fixes/index.js";
import { headerPolicy } from "../connect/param-headers.js";
import { ClientEraLink } from "../proxy/client-era.js";
import { EraLink } from "../proxy/era-link.js";
import { HttpLink } from "../proxy/http-link.js";
import { pinnedSections } from "../proxy/guard.js";
import { selectLock } from "../proxy/lock-select.js";
import type { ResultsMode } from "../proxy/results.js";
import { type GuardSetup, ProxySession } from "../proxy/session.js";
import { neutralize, withoutColour } from "../text/neutralize.js";
import { knownBadList, loadVerdictModules, lintOwnLaunch, type Output, redactorFor, resolveSource, type SourceFlags } from "./source.js";

/** Flags of `mcp-lint proxy`, already checked for shape. Fix flags are null when not given. */
export interface ProxyFlags extends SourceFlags {
  lock: string | null;
  server: string | null;
  failOn: FailOn | null;
  audit: string | null;
  paging: boolean | null;
  errors: boolean | null;
  descriptions: string | null;
  /** `--results`: how answers to calls, prompts/get and resources/read are read; null when not given (clean). */
  results: ResultsMode | null;
  /** `--from-config FILE` and `--entry NAME`: the config entry this proxy runs from (wrap writes them); only named in the review command. */
  fromConfig: string | null;
  entry: string | null;
  /** `--pinned`: run the package tree the lock pins instead of what the runner would fetch; `--allow-install-scripts` lets its locked install scripts run. */
  pinned?: boolean;
  allowInstallScripts?: boolean;
}

/** How long answers already owed may take after the client closes its input. */
const CLIENT_GRACE_MS = 10_000;
/** Longest server stderr line passed on; the rest of a longer one is cut. */
const STDERR_LINE_CHARS = 4000;

/**
 * Run the proxy until either side goes away. Returns 0 when the client ended the session; a
 * failure (the lock, the launch, a list that cannot be read whole, the server going away) is
 * thrown as an McpLintError, so the CLI prints one line and exits 2.
 */
export async function runProxy(flags: ProxyFlags, output: Output): Promise<number> {
  if (flags.from !== null) throw new UsageError("proxy serves a live server: give its command after -- or --url URL");
  const target = resolveSource(flags, "mcp-lint proxy", { fromAllowed: false }) as Target;
  const guarded = flags.lock !== null;
  if (!guarded && flags.failOn !== null) throw new UsageError("--fail-on applies with --lock");
  if (!guarded && flags.server !== null) throw new UsageError("--server applies with --lock");
  if ((flags.fromConfig === null) !== (flags.entry === null)) {
    throw new UsageError("--from-config FILE and --entry NAME go together: the client config this proxy runs from and the server's name in it");
  }
  if (!guarded && flags.fromConfig !== null) throw new UsageError("--from-config and --entry apply with --lock");
  if (flags.pinned === true && (!guarded || target.kind !== "stdio"))
    throw new UsageError("--pinned runs the package tree a lock pins: give --lock and the server's launch command after --");
  if (flags.allowInstallScripts === true && flags.pinned !== true) throw new UsageError("--allow-install-scripts applies with --pinned");

  // The modules a verdict needs load while the lock is read (a launched server could rewrite
  // files on disk, so all of them load before it starts; a remote one cannot).
  const loading = loadVerdictModules(target.kind === "stdio");
  loading.catch(() => undefined);
  // Everything that can fail closed does so before the server starts.
  // Messages name the lock by its full path: the client starts the proxy in a folder of its choosing.
  const lockPath = flags.lock === null ? null : resolve(flags.lock);
  const lock = lockPath === null ? null : await loadLock(lockPath, flags);
  const descriptions = flags.descriptions === null ? null : await loadDescriptions(flags.descriptions);
  // A guard changes nothing it was not asked to: with --lock the fixes are off unless named.
  const fixes: FixOptions = { paging: flags.paging ?? !guarded, errors: flags.errors ?? !guarded, descriptions };
  const audit = flags.audit === null ? null : openAudit(flags.audit);
  try {
    const modules = await loading;
    if (target.kind === "stdio") await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output);
    // The locked tree is installed (or found complete) before anything starts; it can only be refused, never replaced.
    const launchAs =
      flags.pinned === true && lock !== null && target.kind === "stdio" && modules.install !== null
        ? await (await import("./pinned.js")).pinnedTarget(
            target,
            lock,
            await knownBadList(flags.knownBad, modules.install),
            flags.allowInstallScripts === true,
          )
        : target;
    const redactor = redactorFor(target, output);
    const review = reviewCommand(lockPath, target, flags);
    const report = (event: ProxyEvent) => {
      output.err(`${redactor.text(eventLine(event, review))}\n`);
      audit?.write(redactor.text(auditLine(event, new Date(), lockPath, review)));
    };
    return await serve(flags, target, lock, fixes, redactor, report, output, redactor.text(noticeReview(lockPath, target, flags)), launchAs);
  } finally {
    audit?.close();
  }
}

async function serve(
  flags: ProxyFlags,
  target: Target,
  lock: Lockfile | null,
  fixes: FixOptions,
  redactor: Redactor,
  report: (event: ProxyEvent) => void,
  output: Output,
  review: string,
  // What actually starts: the target itself, or the locked tree's bin with --pinned (the lock still compares the launch as written).
  launchAs: Target = target,
): Promise<number> {
  const where = describeTarget(target);
  // The client's era is known once it speaks; the server's link asks it (input requests pass only to a 2026-07-28 client).
  let clientLink: ClientEraLink | null = null;
  const clientIsModern = () => clientLink?.clientEra === "modern";
  let server: Transport;
  let stderrTail = () => "";
  let exitOf: () => ProcessGroupTransport["exit"] = () => null;
  let kind = (): "stdio" | "streamable-http" | "sse" => "stdio";
  let oversize: Error | null = null;
  const stderrLines = stderrPassThrough(redactor, output);
  if (target.kind === "stdio") {
    for (const name of target.unset) output.err(`mcp-lint: warning: --pass-env ${name}: ${name} is not set here, so the server starts without it\n`);
    const launched = launchStdioServer(launchAs.kind === "stdio" ? launchAs : target, stderrLines.onChunk);
    // A server that refuses the client's initialize may speak MCP 2026-07-28: the link speaks it then.
    server = new EraLink(launched.server.transport, report, { clientIsModern });
    stderrTail = launched.server.stderrTail;
    const transport = launched.server.transport;
    exitOf = () => transport.exit;
    try {
      await launched.running;
    } catch (error) {
      await transport.close();
      const code = (error as { code?: unknown } | null)?.code;
      const why =
        code === "ENOENT"
          ? "the command was not found (is it installed and on PATH?)"
          : code === "EACCES"
            ? "the command is not executable"
            : redactor.text(firstLine(error));
      throw new ConnectionError(`could not start ${where}: ${why}`);
    }
  } else {
    let link: HttpLink | null = null;
    const fetchImpl = await boundedFetch(target.url, (error) => {
      oversize ??= error;
      link?.onerror?.(error);
      void link?.close();
    });
    // A token in a header (--header-env Authorization=VAR) wins; otherwise log in when the server asks.
    const login =
      target.oauth != null && !givesAuthorization(target)
        ? await (await import("../connect/oauth/login.js")).Login.start(target.url, {
            settings: target.oauth,
            redactor,
            say: output.err,
            waitMs: flags.startupTimeoutMs,
          })
        : null;
    link = new HttpLink(target, fetchImpl, login);
    const httpLink = link;
    // A server that refuses the client's initialize may speak MCP 2026-07-28, as over stdio; over HTTP the
    // link also copies declared arguments into Mcp-Param headers, refusing a call whose value there is a
    // credential: a well-known token form, or a secret this run holds (a --header-env value, the login's token).
    server = new EraLink(link, report, { mirror: headerPolicy(redactor), discoverFirst: true, clientIsModern });
    kind = () => httpLink.kind;
  }

  const failure = (error: unknown, step: string, bound: Bound): string => {
    let text: string;
    if (oversize !== null) text = oversize.message;
    else if (error instanceof MessageTooLargeError) text = error.message;
    else if (isTimeout(error)) text = timeoutText(step, bound, flags.deadlineMs);
    else if (target.kind === "http") text = printable(redactor.text(networkCause(error, target.url) ?? originsOnly(firstLine(error))));
    else text = redactor.text(firstLine(error));
    const stderr = explainStderr(stderrTail(), redactor);
    return stderr === "" ? text : `${text} (server stderr: ${stderr})`;
  };
  const guard: GuardSetup | null =
    lock === null
      ? null
      : {
          lock,
          failOn: flags.failOn ?? "warning",
          review,
          read: (client) =>
            readSession(v1Listing(client), {
              where,
              timeoutMs: flags.timeoutMs,
              // --deadline bounds each whole read of the list (the session itself runs as long as the client wants).
              clock: new RunClock(flags.deadlineMs),
              transport: kind(),
              commandSha256: targetSha256(target),
              failure,
              // Prompts, resources and templates only as far as the lock pins them; the rest pass as sent.
              catalog: pinnedSections(lock),
            }),
        };
  // A client that opens with server/discover speaks MCP 2026-07-28: the link speaks it to that client.
  const client = new ClientEraLink(new StdioServerTransport(process.stdin, process.stdout), report);
  clientLink = client;
  const session = new ProxySession({
    client,
    server,
    guard,
    fixes,
    report,
    version: flags.version,
    results: flags.results ?? "clean",
    redact: (text) => redactor.text(text),
    serverEnd: () => exitText(exitOf()),
    onInitialized: (result) => {
      if (typeof result.protocolVersion === "string") server.setProtocolVersion?.(result.protocolVersion);
    },
  });
  // The SDK's stdio transport does not notice the client closing its end; the proxy must. Input
  // ending lets answers already owed go out; output closing means nobody reads them.
  const inputEnded = () => session.clientDone(CLIENT_GRACE_MS);
  const clientGone = () => void session.close();
  process.stdin.once("end", inputEnded);
  process.stdin.once("close", inputEnded);
  process.stdout.once("close", clientGone);
  await session.start();
  // The server is booting in its own process meanwhile; the client's first message waits in the pipe.
  session.prepare();
  const end = await session.ended;
  stderrLines.flush();
  process.stdin.off("end", inputEnded);
  process.stdin.off("close", inputEnded);
  process.stdout.off("close", clientGone);
  if (end.by === "client") return 0;
  if (end.by === "failed") {
    const stderr = explainStderr(stderrTail(), redactor);
    throw new ConnectionError(
      `${redactor.text(end.error.message)}${stderr === "" || end.error.message.includes("server stderr:") ? "" : ` (server stderr: ${stderr})`}`,
    );
  }
  throw new ConnectionError(serverGone(where, exitOf(), end.error, stderrTail(), redactor));
}

/** How a launched server ended, or null while it runs (or for a remote one). */
function exitText(exit: ProcessGroupTransport["exit"]): string | null {
  if (exit === null) return null;
  return exit.signal !== null ? `it was killed by ${exit.signal}` : `it exited with code ${exit.code}`;
}

/** Why the session ended from the server's side, in one line. */
function serverGone(where: string, exit: ProcessGroupTransport["exit"], error: Error | null, tail: string, redactor: Redactor): string {
  const how = exit === null ? "closed the connection" : exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const cause = error === null ? "" : `: ${redactor.text(firstLine(error))}`;
  const stderr = explainStderr(tail, redactor);
  return `${where} ${how} while the client was connected${cause}${stderr === "" ? "" : ` (server stderr: ${stderr})`}`;
}

/** Read and select the lock; every way it can be unusable is an error before anything starts. */
async function loadLock(path: string, flags: ProxyFlags): Promise<Lockfile> {
  const text = await readTextIfExists(path);
  if (text === null) {
    const command =
      flags.fromConfig !== null && flags.entry !== null
        ? `mcp-lint lock --config ${shellQuote([resolve(flags.fromConfig)])} --server ${shellQuote([flags.entry])}`
        : `mcp-lint lock --lock ${shellQuote([path])} -- <server command>`;
    throw new InputFileError(`lock file ${path} does not exist; lock the server first (${neutralize(command)}); the proxy serves nothing without it`);
  }
  return selectLock(parseLockDocument(parseJsonStrict(text, path), path), flags.server, path);
}

async function loadDescriptions(path: string): Promise<Descriptions> {
  return parseDescriptions(await readJsonFile(path, "--descriptions file"), path);
}

/**
 * The command that walks the user through what changed and writes what they accept into the lock
 * this proxy reads, for stderr and --audit. Run from a config entry (`--from-config FILE --entry
 * NAME`, which wrap writes), it is `lock --review --config FILE --server NAME`, which reads the
 * server as the entry launches it. Started by hand, it names the lock and where the server's
 * arguments go, never the arguments (they may hold secrets).
 */
function reviewCommand(lockPath: string | null, target: Target, flags: ProxyFlags): string {
  if (flags.fromConfig !== null && flags.entry !== null) {
    return neutralize(`mcp-lint lock --review --config ${shellQuote([resolve(flags.fromConfig)])} --server ${shellQuote([flags.entry])}`);
  }
  const lock = lockPath === null ? "" : ` --lock ${shellQuote([lockPath])}`;
  const server = flags.server === null ? "" : ` --server ${shellQuote([flags.server])}`;
  const source = target.kind === "stdio" ? "-- <server command>" : "--url <server url>";
  return neutralize(`mcp-lint lock --review${lock}${server} ${source}`);
}

/** Longest config path or lock path the client's notice names as it is. */
const NOTICE_PATH_CHARS = 512;
/** An entry name the client's notice names as it is: a plain name (a project's config can be anyone's, and the line reaches the model). */
const NOTICE_ENTRY = /^[A-Za-z0-9_.@+:-]{1,64}$/;

/**
 * The review command as the client's notice names it: the same command, with a config entry name,
 * a path or a --server name that is not plain shown as a placeholder instead (the exact command is
 * on stderr).
 */
function noticeReview(lockPath: string | null, target: Target, flags: ProxyFlags): string {
  const path = (value: string, placeholder: string) => (value.length <= NOTICE_PATH_CHARS && neutralize(value) === value ? shellQuote([value]) : placeholder);
  const name = (value: string) => (NOTICE_ENTRY.test(value) ? value : "NAME");
  if (flags.fromConfig !== null && flags.entry !== null) {
    return `mcp-lint lock --review --config ${path(resolve(flags.fromConfig), "FILE")} --server ${name(flags.entry)}`;
  }
  const lock = lockPath === null ? "" : ` --lock ${path(lockPath, "LOCK")}`;
  const server = flags.server === null ? "" : ` --server ${name(flags.server)}`;
  const source = target.kind === "stdio" ? "-- <server command>" : "--url <server url>";
  return `mcp-lint lock --review${lock}${server} ${source}`;
}

/** An append-only audit file, opened before the server starts; never through a symbolic link. */
interface AuditFile {
  write(line: string): void;
  close(): void;
}

function openAudit(path: string): AuditFile {
  let fd: number;
  try {
    // O_NOFOLLOW refuses a link in the same call that opens the file, so no swap can slip in between.
    const noFollow = constants.O_NOFOLLOW ?? 0;
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | noFollow, 0o600);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ELOOP" || code === "EMLINK")
      throw new InputFileError(`refusing to write ${path}: it is a symbolic link; mcp-lint never writes through one, so give the real path`);
    if (code === "EISDIR") throw new InputFileError(`cannot write ${path}: it is a folder`);
    if (code === "ENOENT") throw new InputFileError(`cannot write ${path}: its folder does not exist`);
    throw new InputFileError(`cannot write ${path}: ${typeof code === "string" ? code : firstLine(error)}`);
  }
  let open = true;
  return {
    write(line) {
      if (!open) return;
      try {
        writeSync(fd, line);
      } catch {
        // A full disk must not take the session down; stderr still has every event.
      }
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** How long a held stderr line waits for more before it is given out anyway. */
const STDERR_IDLE_MS = 500;

/**
 * The server's stderr, passed on line by line, redacted and neutralized (clients keep it in their
 * logs). Redaction reads the stream as one text, so a secret split over two lines or two chunks is
 * found, and runs before a long line is cut, so no part of a secret survives the cut.
 */
function stderrPassThrough(redactor: Redactor, output: Output): { onChunk: (chunk: string) => void; flush: () => void } {
  const stream = redactor.lines();
  let idle: NodeJS.Timeout | undefined;
  const show = (lines: readonly string[]) => {
    for (const line of lines) {
      const shown = neutralize(withoutColour(line).slice(0, STDERR_LINE_CHARS));
      if (shown !== "") output.err(`${shown}\n`);
    }
  };
  const flush = () => {
    clearTimeout(idle);
    show(stream.flush());
  };
  return {
    onChunk: (chunk) => {
      show(stream.push(chunk));
      clearTimeout(idle);
      idle = setTimeout(flush, STDERR_IDLE_MS);
      idle.unref();
    },
    flush,
  };
}
