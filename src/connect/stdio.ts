/** Launch a stdio MCP server with the SDK client and read what it tells a model, exactly as sent. */

import type { Transport } from "@modelcontextprotocol/client";
import { ConnectionError } from "../errors.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { type Bound, type ConnectOptions, DEFAULT_DEADLINE_MS, isTimeout, RunClock, timeoutText } from "./bounds.js";
import { eraClient, eraListing } from "./client.js";
import { type LaunchedServer, launchStdioServer } from "./launch.js";
import { MessageTooLargeError } from "./lines.js";
import { showProgress, startingText } from "./progress.js";
import { firstLine, type OpenSession, readSession } from "./session.js";
import { explainStderr } from "./stderr.js";
import { describeTarget, type StdioTarget, type Target, targetSha256 } from "./target.js";

/** Talk to a launched stdio server: discover or initialize, every tools/list page, then end its process group. */
export async function snapshotFromStdio(target: StdioTarget & Target, server: LaunchedServer, options: ConnectOptions): Promise<ServerSnapshot> {
  const session = await openStdioSession(target, server, options);
  try {
    return session.snapshot;
  } finally {
    await session.close();
  }
}

/**
 * Like snapshotFromStdio, but the session stays open for further requests (the probe runner calls
 * tools on it). The caller must `close()` it, which ends the server's whole process group; on a
 * failure before it is returned, the group is already ended.
 */
export async function openStdioSession(target: StdioTarget & Target, launched: LaunchedServer, options: ConnectOptions): Promise<OpenSession> {
  // The server spoken to: the one launched, or a second one when the first exited at the era probe.
  let server = launched;
  let transport = server.transport;
  const where = describeTarget(target);
  const clock = new RunClock(options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const redact = (text: string) => options.redactor.text(text);
  let transportError: unknown;
  const watch = () => {
    transport.onerror = (error) => {
      transportError ??= error;
    };
  };
  watch();
  /** One line on why a step failed: the cause, then the stderr lines that explain it. */
  const failure = (error: unknown, step: string, bound: Bound, startup = false) => {
    const cause = transportError ?? error;
    let text: string;
    if (cause instanceof MessageTooLargeError) text = cause.message;
    else if (isTimeout(cause)) text = timeoutText(step, bound, clock.deadlineMs, startup);
    else text = describeStartError(cause, transport.exit, step) ?? redact(firstLine(cause));
    const skipped = transport.skippedLines;
    // A server that answers only with log lines: say so, or the timeout alone looks like silence.
    if (skipped > 0 && isTimeout(cause))
      text += `; it wrote ${skipped === 1 ? "1 line" : `${skipped} lines`} to stdout that ${skipped === 1 ? "was" : "were"} not JSON-RPC`;
    const stderr = explainStderr(server.stderrTail(), options.redactor);
    return stderr === "" ? text : `${text} (server stderr: ${stderr})`;
  };
  const hideProgress = options.progress === true ? showProgress(startingText(target.command)) : () => {};
  let client = eraClient(options);
  const close = async () => {
    await client.close().catch(() => undefined);
    await transport.close();
  };
  try {
    let bound = clock.bound(options.startupTimeoutMs ?? options.timeoutMs);
    try {
      try {
        // The client probes with server/discover on this very process (the SDK spawns a throwaway
        // sibling only for its own stdio transport): a legacy server answers "method not found", or
        // stays silent for the bound, and is then initialized on the same pipe (so a server that
        // never answers is given the start-up bound twice).
        const connecting = client.connect(transport as Transport, { timeout: bound.ms });
        transport.flushEarly();
        await connecting;
      } catch (error) {
        // Servers on some SDKs exit at any request before initialize: such a server gets a second
        // start and initialize alone, as the SDK does with its throwaway sibling (once, and only then).
        if (!exitedAtProbe(error, transport.exit)) throw error;
        await transport.close();
        server = await relaunch(target);
        transport = server.transport;
        transportError = undefined;
        watch();
        client = eraClient(options, "legacy");
        bound = clock.bound(options.startupTimeoutMs ?? options.timeoutMs);
        const connecting = client.connect(transport as Transport, { timeout: bound.ms });
        transport.flushEarly();
        await connecting;
      }
    } catch (error) {
      hideProgress();
      throw new ConnectionError(`could not start or initialize ${where}: ${failure(error, "initialize", bound, true)}${proxyHint(target)}`);
    } finally {
      hideProgress();
    }
    const reading = {
      where,
      timeoutMs: options.timeoutMs,
      clock,
      transport: "stdio",
      commandSha256: targetSha256(target),
      failure,
      catalog: options.catalog === true,
    } as const;
    const listing = eraListing(client);
    const snapshot = await readSession(listing, reading);
    return {
      client,
      snapshot,
      reread: () => readSession(listing, reading),
      explain: (error, step) => failure(error, step, { ms: options.timeoutMs, byDeadline: false }),
      ended: () => {
        const exit = transport.exit;
        if (exit === null) return null;
        return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The SDK v2 client's code for an era negotiation that could not finish (read without loading its error class). */
const ERA_NEGOTIATION_FAILED = "ERA_NEGOTIATION_FAILED";

/**
 * Whether the server went away during the `server/discover` probe: the client gave up on the era
 * and the process has exited by itself. (A server that cannot start at all looks the same; its
 * second start fails the same way and is the one reported.)
 */
function exitedAtProbe(error: unknown, exit: { code: number | null; signal: string | null } | null): boolean {
  // A server killed by a signal (the OOM killer, a user) did not choose to exit at the probe: it is reported, never started again.
  return exit !== null && exit.signal === null && (error as { code?: unknown } | null)?.code === ERA_NEGOTIATION_FAILED;
}

/** Start the server again, as the first was started, once it runs. */
async function relaunch(target: StdioTarget): Promise<LaunchedServer> {
  const { server, running } = launchStdioServer(target);
  await running;
  return server;
}

/** Plain words for a server that could not be started or went away; null to use the error's own text. */
function describeStartError(error: unknown, exit: { code: number | null; signal: string | null } | null, step: string): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "the command was not found (is it installed and on PATH?)";
  if (code === "EACCES") return "the command is not executable (permission denied)";
  if (exit !== null) {
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return `the server ${how} before answering ${step}`;
  }
  return null;
}

/** After a failed start: proxy variables set here but not passed, and the flags that would pass them. */
function proxyHint(target: StdioTarget): string {
  const names = target.proxyNotPassed;
  if (names.length === 0) return "";
  const flags = names.map((name) => `--pass-env ${name}`).join(" ");
  return `; ${names.join(", ")} ${names.length === 1 ? "is" : "are"} set here but not passed to the server: if it needs a proxy to download or connect, add ${flags}`;
}
