/** A stdio transport for the SDK client that starts the server in its own process group and ends the group and every descendant. */

import { type ChildProcess, spawn } from "node:child_process";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { aliveTracked, signalTracked, type Tracked, trackDescendants } from "./descendants.js";
import { JsonLineReader } from "./lines.js";
import { clearProgress } from "./progress.js";

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

/** Every server still running, with the descendants seen so far (they may have left its group). */
const live = new Map<ChildProcess, Tracked>();
let handlersInstalled = false;
/** How often the process tree of a running server is walked, to remember descendants before they can be orphaned. */
const TRACK_EVERY_MS = 1000;

/**
 * On the first launch, make sure no server outlives mcp-lint: on exit, and on Ctrl-C or SIGTERM,
 * which otherwise leave an `npx` child running. A signal must end the run at once, so this is the
 * one place that calls process.exit.
 */
function installExitHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.once("exit", killAllGroups);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAllGroups();
      clearProgress();
      process.stderr.write(`mcp-lint: interrupted by ${signal}; stopped the server\n`);
      process.exit(130);
    });
  }
}

/**
 * Kill every server still running, its process group and every descendant, synchronously. Used on
 * exit and on Ctrl-C, so a server that `npx` or a shell started, and anything it spawned (even in
 * a session of its own), does not outlive mcp-lint.
 */
export function killAllGroups(): void {
  for (const [child, tracked] of live) {
    trackDescendants(roots(child, tracked), tracked);
    killGroup(child, "SIGKILL");
    signalTracked(tracked, "SIGKILL");
  }
  live.clear();
}

/**
 * Where to start a walk for descendants: the server while Node has not reaped it (after that its
 * pid may belong to another process), and every tracked process still running.
 */
function roots(child: ChildProcess, tracked: Tracked): number[] {
  const running = child.pid !== undefined && child.exitCode === null && child.signalCode === null;
  return running ? [child.pid as number, ...aliveTracked(tracked)] : aliveTracked(tracked);
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

/** How the server process ended, once it has. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Line framing over a child in its own process group: JsonLineReader in, the SDK's serializeMessage out. */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server process, kept after it exits: its group may still hold children to end. */
  private child: ChildProcess | undefined;
  private closed = false;
  private closeReported = false;
  private readonly reader: JsonLineReader;
  /** Descendants seen while the server ran. */
  private readonly tracked: Tracked = new Map();
  private tracker: NodeJS.Timeout | undefined;
  private exitInfo: ExitInfo | null = null;

  constructor(private readonly options: GroupTransportOptions) {
    this.reader = new JsonLineReader(options.maxMessageBytes);
  }

  /** Process id of the server (the group leader), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the server exited, or null while it runs (or never started). */
  get exit(): ExitInfo | null {
    return this.exitInfo;
  }

  /**
   * Start the server now, before the SDK client exists, so its start-up overlaps what the caller
   * does meanwhile (parsing the lock). Calling it again returns the same promise.
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

  /** The client learns the connection is gone once, however it ended. */
  private reportClose(): void {
    if (this.closeReported) return;
    this.closeReported = true;
    this.onclose?.();
  }

  /**
   * A fatal stream error (an oversized or malformed message): report it, fail the waiting request
   * at once by reporting the connection closed, and end the server in the background.
   */
  private fail(error: Error): void {
    if (this.closing !== undefined) return;
    this.onerror?.(error);
    this.reportClose();
    void this.close();
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
      live.set(child, this.tracked);
      this.exited = new Promise((done) =>
        child.once("exit", (code, signal) => {
          this.exitInfo = { code, signal };
          done();
        }),
      );
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => {
        resolve();
        this.options.onSpawn?.();
        if (process.platform === "linux") {
          // Remember descendants while their parents live: one started in a new session and then
          // orphaned is still ended at close.
          this.tracker = setInterval(() => {
            if (!this.closed) trackDescendants(roots(child, this.tracked), this.tracked);
          }, TRACK_EVERY_MS);
          this.tracker.unref();
        }
      });
      child.on("close", () => this.reportClose());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        if (this.closed) return;
        try {
          // Counts bytes before buffering: a line past the cap is refused the moment it passes it.
          this.reader.push(chunk, (message) => this.deliver(message));
        } catch (error) {
          this.fail(error instanceof Error ? error : new Error(String(error)));
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

  /**
   * End stdin, give the server a moment, then end its whole group and every descendant seen
   * (walking /proc on Linux, so one that called setsid is ended too): TERM, then KILL.
   */
  close(): Promise<void> {
    // Every caller waits for the same ending: the SDK client and the run both close the transport.
    this.closing ??= this.end();
    return this.closing;
  }

  private closing: Promise<void> | undefined;

  private async end(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.closed = true;
    clearInterval(this.tracker);
    this.reader.clear();
    const tracked = this.tracked;
    const walk = () => trackDescendants(roots(child, tracked), tracked);
    // Before anything can exit: a descendant orphaned later is no longer below the server.
    walk();
    try {
      child.stdin?.end();
    } catch {
      // Ignore: the pipe may be gone already.
    }
    // Most servers exit as soon as stdin ends; wait for that event (not a poll) for up to 500 ms.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)))]);
    clearTimeout(timer);
    walk();
    const running = () => groupAlive(child) || aliveTracked(tracked).length > 0;
    if (running()) {
      killGroup(child, "SIGTERM");
      signalTracked(tracked, "SIGTERM");
      await waitFor(() => !running(), 1000);
    }
    if (running()) {
      walk();
      killGroup(child, "SIGKILL");
      signalTracked(tracked, "SIGKILL");
    }
    live.delete(child);
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
