/** Launch a stdio MCP server with the SDK client and read what it tells a model, exactly as sent. */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ConnectionError } from "../errors.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { type Bound, type ConnectOptions, DEFAULT_DEADLINE_MS, isTimeout, RunClock, timeoutText } from "./bounds.js";
import type { LaunchedServer } from "./launch.js";
import { MessageTooLargeError } from "./lines.js";
import { showProgress, startingText } from "./progress.js";
import { firstLine, type OpenSession, readSession } from "./session.js";
import { explainStderr } from "./stderr.js";
import { describeTarget, type StdioTarget, type Target, targetSha256 } from "./target.js";

/** Talk to a launched stdio server: initialize and every tools/list page, then end its process group. */
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
export async function openStdioSession(target: StdioTarget & Target, server: LaunchedServer, options: ConnectOptions): Promise<OpenSession> {
  const { transport } = server;
  const where = describeTarget(target);
  const clock = new RunClock(options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const redact = (text: string) => options.redactor.text(text);
  let transportError: unknown;
  transport.onerror = (error) => {
    transportError ??= error;
  };
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
  const client = new Client(options.clientInfo ?? { name: "mcp-lint", version: options.clientVersion }, { capabilities: options.clientCapabilities ?? {} });
  const close = async () => {
    await client.close().catch(() => undefined);
    await transport.close();
  };
  try {
    const bound = clock.bound(options.startupTimeoutMs ?? options.timeoutMs);
    try {
      const connecting = client.connect(transport, { timeout: bound.ms });
      transport.flushEarly();
      await connecting;
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
    const snapshot = await readSession(client, reading);
    return {
      client,
      snapshot,
      reread: () => readSession(client, reading),
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
