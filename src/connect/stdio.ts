/** Launch a stdio MCP server with the SDK client and read what it tells a model, exactly as sent. */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ConnectionError } from "../errors.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { type LaunchedServer, MAX_MESSAGE_BYTES } from "./launch.js";
import type { Redactor } from "./redact.js";
import { firstLine, readSession } from "./session.js";
import { describeTarget, type StdioTarget, type Target, targetSha256 } from "./target.js";

const STDERR_SHOWN = 300;

/** Talk to a launched stdio server: initialize and every tools/list page, then end its process group. */
export async function snapshotFromStdio(
  target: StdioTarget & Target,
  server: LaunchedServer,
  options: { timeoutMs: number; clientVersion: string; redactor: Redactor },
): Promise<ServerSnapshot> {
  const { transport } = server;
  const where = describeTarget(target);
  const failure = (error: unknown) => {
    const message = firstLine(error);
    const sized = /exceeds maximum buffer size|buffer size/i.test(message)
      ? `the server sent a message larger than ${MAX_MESSAGE_BYTES / 1048576} MiB`
      : message;
    return `${sized}${stderrHint(server.stderrTail(), options.redactor)}`;
  };
  const client = new Client({ name: "mcp-lint", version: options.clientVersion }, { capabilities: {} });
  let transportError: unknown;
  transport.onerror = (error) => {
    transportError ??= error;
  };
  try {
    try {
      const connecting = client.connect(transport, { timeout: options.timeoutMs });
      transport.flushEarly();
      await connecting;
    } catch (error) {
      throw new ConnectionError(`could not start or initialize ${where}: ${failure(transportError ?? error)}`);
    }
    return await readSession(client, {
      where,
      timeoutMs: options.timeoutMs,
      transport: "stdio",
      commandSha256: targetSha256(target),
      failure: (error) => failure(transportError ?? error),
    });
  } finally {
    await client.close().catch(() => undefined);
    await transport.close();
  }
}

/** The last line the server wrote to stderr, redacted and cut short, to explain a failure. */
function stderrHint(tail: string, redactor: Redactor): string {
  const lines = tail.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  const last = lines.pop();
  if (last === undefined) return "";
  const shown = redactor.text(last).replace(/[^\x20-\x7e]/g, "?");
  const cut = shown.length > STDERR_SHOWN ? `...${shown.slice(-STDERR_SHOWN)}` : shown;
  return ` (server stderr, last line: ${JSON.stringify(cut)})`;
}
