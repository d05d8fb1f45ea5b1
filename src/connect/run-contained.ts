/** Run a program that is not an MCP server to its end, contained like every launch (PID namespace or process group), bounded in time and output. */

import { ProcessGroupTransport } from "./process-group.js";

/** What to run. */
export interface ContainedRun {
  command: string;
  args: string[];
  /** The whole environment of the program. */
  env: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
  /** Standard output kept at most; more is counted, not kept. */
  maxOutputBytes: number;
  pidNamespace: boolean;
  warn: (line: string) => void;
}

/** How it ended. */
export interface ContainedResult {
  /** What it printed, up to maxOutputBytes. */
  stdout: Buffer;
  /** Everything it printed, kept or not. */
  stdoutBytes: number;
  /** The end of its standard error (2 KB). */
  stderrTail: string;
  timedOut: boolean;
  /** The errno code when it could not be started (`ENOENT`), `""` for another start failure; null when it ran. */
  startError: string | null;
}

const STDERR_KEEP = 2048;

/** Start it with standard input closed, wait for its end or the bound, then end everything it started. */
export async function runContained(run: ContainedRun): Promise<ContainedResult> {
  const chunks: Buffer[] = [];
  let stdoutBytes = 0;
  let stderrTail = "";
  const transport = new ProcessGroupTransport({
    command: run.command,
    args: run.args,
    env: run.env,
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    noInput: true,
    maxMessageBytes: run.maxOutputBytes,
    pidNamespace: run.pidNamespace,
    warn: run.warn,
    onStderr: (chunk) => {
      stderrTail = (stderrTail + chunk).slice(-STDERR_KEEP);
    },
    onStdout: (chunk) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes <= run.maxOutputBytes) chunks.push(chunk);
    },
  });
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  let timedOut = false;
  let startError: string | null = null;
  try {
    await transport.launch();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      ended,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          timedOut = true;
          resolve();
        }, run.timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    startError = typeof code === "string" ? code : "";
  } finally {
    await transport.close();
  }
  return { stdout: Buffer.concat(chunks), stdoutBytes, stderrTail, timedOut, startError };
}

/** The last non-empty line of a program's error output, trimmed; undefined when there is none. */
export function lastErrorLine(stderr: string): string | undefined {
  return stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .at(-1);
}
