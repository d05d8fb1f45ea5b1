/** A stdio transport for the SDK client that starts the server in its own process group and ends the whole group. */

import { type ChildProcess, spawn } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Options for launching the server. */
export interface GroupTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Largest single JSON-RPC message accepted from the server, in bytes. */
  maxMessageBytes: number;
  /** Called with each stderr chunk (the caller keeps a bounded tail). */
  onStderr: (chunk: string) => void;
  /** Called once the process is running, before the handshake. */
  onSpawn?: () => void;
}

const live = new Set<ChildProcess>();
let handlersInstalled = false;

/**
 * On the first launch, make sure no server group outlives mcp-lint: on exit, and on Ctrl-C or
 * SIGTERM, which otherwise leave an `npx` child running. A signal must end the run at once, so
 * this is the one place that calls process.exit.
 */
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", killAllGroups);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAllGroups();
      process.stderr.write(`mcp-lint: interrupted by ${signal}; stopped the server\n`);
      process.exit(130);
    });
  }
}

/**
 * Kill every process group still running, synchronously. Used on exit and on Ctrl-C, so a server
 * that `npx` or a shell started, and anything it spawned, does not outlive mcp-lint.
 */
export function killAllGroups(): void {
  for (const child of live) killGroup(child, "SIGKILL");
  live.clear();
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the whole group the server leads (it was started detached).
    process.kill(process.platform === "win32" ? child.pid : -child.pid, signal);
  } catch {
    // Already gone.
  }
}

function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The SDK's own line framing (ReadBuffer, serializeMessage) over a child in its own process group. */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server process, kept after it exits: its group may still hold children to end. */
  private child: ChildProcess | undefined;
  private closed = false;
  private pendingBytes = 0;
  private readonly buffer: ReadBuffer;

  constructor(private readonly options: GroupTransportOptions) {
    this.buffer = new ReadBuffer({ maxBufferSize: options.maxMessageBytes });
  }

  /** Process id of the server (the group leader), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Start the server now, before the SDK client exists, so its start-up overlaps loading the rest
   * of the SDK. Calling it again returns the same promise.
   */
  launch(): Promise<void> {
    this.launched ??= this.spawnServer();
    return this.launched;
  }

  /** Transport start, called by Client.connect: launches the server unless already launched. */
  start(): Promise<void> {
    return this.launch();
  }

  private launched: Promise<void> | undefined;
  /** Messages that arrived before the client attached (a server should send none before initialize). */
  private early: JSONRPCMessage[] = [];

  private deliver(message: JSONRPCMessage): void {
    if (this.onmessage) this.onmessage(message);
    else this.early.push(message);
  }

  /** Hand over anything that arrived before the client attached its handler. */
  flushEarly(): void {
    const queued = this.early;
    this.early = [];
    for (const message of queued) this.onmessage?.(message);
  }

  private spawnServer(): Promise<void> {
    installExitHandlers();
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: this.options.env,
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      this.child = child;
      live.add(child);
      this.exited = new Promise((done) => child.once("exit", () => done()));
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => {
        resolve();
        this.options.onSpawn?.();
      });
      child.on("close", () => this.onclose?.());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        if (this.closed) return;
        // Bound the line being assembled before buffering it: a flood without newlines is refused
        // as soon as it passes the limit, not after the read buffer has grown to hold it.
        const newline = chunk.lastIndexOf(10);
        this.pendingBytes = newline < 0 ? this.pendingBytes + chunk.length : chunk.length - newline - 1;
        if (this.pendingBytes > this.options.maxMessageBytes) {
          this.onerror?.(new Error(`message exceeds maximum buffer size of ${this.options.maxMessageBytes} bytes`));
          void this.close();
          return;
        }
        try {
          this.buffer.append(chunk);
          for (;;) {
            const message = this.buffer.readMessage();
            if (message === null) break;
            this.deliver(message);
          }
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          void this.close();
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => this.options.onStderr(chunk.toString("utf8")));
    });
  }

  private exited: Promise<void> = Promise.resolve();

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.closed) {
        reject(new Error("server is not running"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** End stdin, give the server a moment, then end its whole group: TERM, then KILL. */
  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined || this.closed) return;
    this.closed = true;
    try {
      child.stdin?.end();
    } catch {
      // Ignore: the pipe may be gone already.
    }
    // Most servers exit as soon as stdin ends; wait for that event (not a poll) for up to 500 ms.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)))]);
    clearTimeout(timer);
    if (groupAlive(child)) {
      killGroup(child, "SIGTERM");
      await waitFor(() => !groupAlive(child), 1000);
    }
    if (groupAlive(child)) killGroup(child, "SIGKILL");
    live.delete(child);
    this.buffer.clear();
  }
}

function waitFor(done: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = () => {
      if (done() || Date.now() - started >= ms) resolve();
      else setTimeout(tick, 25);
    };
    tick();
  });
}
