/** Start a stdio server as early as possible: only the SDK's environment rules, and a PID namespace or a process group. */

import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ProcessGroupTransport } from "./process-group.js";
import type { StdioTarget } from "./target.js";

/** Largest single message read from a server; a bigger one is refused rather than buffered. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** The end of the server's stderr kept to explain a failure; enough for npm's error block after a long log. */
const STDERR_KEEP = 64 * 1024;

/** A server process started and not yet spoken to. */
export interface LaunchedServer {
  transport: ProcessGroupTransport;
  /** The end of what the server wrote to stderr, kept only to explain a failure. */
  stderrTail: () => string;
}

/** A launch: the server, and when its process runs (rejected if it cannot start). */
export interface Launch {
  server: LaunchedServer;
  running: Promise<void>;
}

/**
 * Spawn the server in a PID namespace of its own where the machine allows one (else in its own
 * process group, with one warning per run unless the target opted out) with the SDK's minimal safe
 * environment (PATH, HOME, ...) plus only what --pass-env named and the certificate-path variables
 * that are set (see target.ts). Resolves once the process runs (or rejects if it cannot start);
 * the SDK client attaches afterwards, while the server is still booting.
 */
export function launchStdioServer(
  target: StdioTarget,
  /** Also called with each stderr chunk (the proxy passes the server's log on, neutralized). */
  onStderr?: (chunk: string) => void,
  /** Where the warning of a launch without a namespace goes. */
  warn: (line: string) => void = (line) => {
    if (!process.stderr.destroyed) process.stderr.write(line);
  },
): Launch {
  let tail = "";
  const transport = new ProcessGroupTransport({
    command: target.command,
    args: target.args,
    env: { ...getDefaultEnvironment(), ...target.env },
    maxMessageBytes: MAX_MESSAGE_BYTES,
    pidNamespace: target.pidNamespace !== false,
    warn,
    onStderr: (chunk) => {
      tail += chunk;
      // Cut at a line start: a line cut in the middle could hold the end of a secret, which no redaction would know.
      // A line longer than the whole tail explains nothing and is dropped.
      if (tail.length > STDERR_KEEP) {
        const start = tail.indexOf("\n", tail.length - STDERR_KEEP);
        tail = start < 0 ? "" : tail.slice(start + 1);
      }
      onStderr?.(chunk);
    },
  });
  return { server: { transport, stderrTail: () => tail }, running: transport.launch() };
}
