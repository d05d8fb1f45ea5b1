/** A stdio transport for the SDK client that starts the server in a PID namespace (Linux) or its own process group, and ends all of it. */

import { type ChildProcess, spawn } from "node:child_process";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type Containment, containmentFor, findCommand, warnOnce } from "./containment.js";
import { aliveTracked, childrenOfPid, signalTracked, type Tracked, termIsDefault, trackDescendants } from "./descendants.js";
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
  /** Start it in a PID namespace where this machine allows one (false: --no-pid-namespace). */
  pidNamespace: boolean;
  /** Where the one warning of a run without a namespace goes. */
  warn: (line: string) => void;
  /**
   * Take standard output as it comes instead of as JSON-RPC lines: for a program that is not an
   * MCP server (a client crosscheck runs), kept in the same containment.
   */
  onStdout?: (chunk: Buffer) => void;
  /** Working folder of the process; the caller's own when absent. */
  cwd?: string;
  /** End its standard input at once (a client that reads a prompt from a pipe would wait for it). */
  noInput?: boolean;
}

/** With --no-pid-namespace: the process group and the /proc walk, by choice, so no warning. */
const OPTED_OUT: Containment = { kind: "group", warning: null, why: null };

/**
 * What util-linux 2.38's unshare prints, as its last words, when the server it holds is killed by
 * SIGKILL from outside: it then exits 1 instead of dying by the same signal (later releases do).
 */
const UNSHARE_SIGKILL_LINE = "unshare: sigprocmask unblock failed: Invalid argument\n";

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
  /** Whether the server runs in a PID namespace (behind unshare, as its pid 1). */
  private namespaced = false;
  /** The end of stderr held back while it may be unshare's own last line. */
  private heldStderr = "";

  constructor(private readonly options: GroupTransportOptions) {
    this.reader = new JsonLineReader(options.maxMessageBytes);
  }

  /** Process id of what was started (the server, or the launcher holding its namespace), the group leader. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Always null: stderr is read here and handed to `onStderr`. The SDK v2 client tells a stdio
   * transport by its `pid` and `stderr` (the properties of its own): on stdio a `server/discover`
   * probe that gets no answer means a legacy server, where over HTTP it means an outage.
   */
  get stderr(): null {
    return null;
  }

  /** Lines the server wrote to stdout that were not JSON-RPC messages, skipped. */
  get skippedLines(): number {
    return this.reader.skipped;
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

  private async spawnServer(): Promise<void> {
    installExitHandlers();
    const containment = this.options.pidNamespace ? await containmentFor(this.options.env.PATH) : OPTED_OUT;
    // Closed while the probe ran: nothing may start after close.
    if (this.closing !== undefined) throw new Error("the transport was closed before the server started");
    let argv = [this.options.command, ...this.options.args];
    if (containment.kind === "namespace") {
      // unshare starts (so the spawn succeeds) even when the command cannot; find it first, as
      // execvp will, so a missing or non-executable command is reported as without unshare.
      const found = findCommand(this.options.command, this.options.env.PATH);
      if ("code" in found) {
        const error = Object.assign(new Error(`spawn ${this.options.command} ${found.code}`), {
          code: found.code,
          syscall: "spawn",
          path: this.options.command,
        });
        this.onerror?.(error);
        throw error;
      }
      argv = [...containment.launcher, ...argv];
      this.namespaced = true;
    } else {
      warnOnce(containment, this.options.warn);
    }
    return this.spawnProcess(argv[0] as string, argv.slice(1));
  }

  private spawnProcess(command: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: this.options.env,
        cwd: this.options.cwd,
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
        if (this.options.noInput === true) child.stdin?.end();
        resolve();
        this.options.onSpawn?.();
        if (process.platform === "linux" && !this.namespaced) {
          // Remember descendants while their parents live: one started in a new session and then
          // orphaned is still ended at close. (In a namespace every process stays below its pid 1.)
          this.tracker = setInterval(() => {
            if (!this.closed) trackDescendants(roots(child, this.tracked), this.tracked);
          }, TRACK_EVERY_MS);
          this.tracker.unref();
        }
      });
      child.on("close", () => {
        this.flushStderr();
        this.reportClose();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        if (this.closed) return;
        if (this.options.onStdout !== undefined) {
          this.options.onStdout(chunk);
          return;
        }
        try {
          // Counts bytes before buffering: a line past the cap is refused the moment it passes it.
          this.reader.push(chunk, (message) => this.deliver(message));
        } catch (error) {
          this.fail(error instanceof Error ? error : new Error(String(error)));
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => this.passStderr(chunk.toString("utf8")));
    });
  }

  /** Pass stderr on, holding back in a namespace what may turn out to be unshare's last line. */
  private passStderr(chunk: string): void {
    if (!this.namespaced) {
      this.options.onStderr(chunk);
      return;
    }
    const text = this.heldStderr + chunk;
    const lastLine = text.lastIndexOf("\n", text.length - 2) + 1;
    const tail = text.slice(lastLine);
    this.heldStderr = tail !== "" && UNSHARE_SIGKILL_LINE.startsWith(tail) ? tail : "";
    const passed = text.slice(0, text.length - this.heldStderr.length);
    if (passed !== "") this.options.onStderr(passed);
  }

  /** Once every stream is closed: unshare's line after exit code 1 means the server was killed by SIGKILL. */
  private flushStderr(): void {
    const held = this.heldStderr;
    this.heldStderr = "";
    if (held === UNSHARE_SIGKILL_LINE && this.exitInfo?.code === 1) this.exitInfo = { code: null, signal: "SIGKILL" };
    else if (held !== "") this.options.onStderr(held);
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
    // One line for the whole run, whatever the count: a server that logs to stdout logs a lot.
    if (this.reader.skipped > 0) this.options.warn(skippedWarning(this.reader.skipped));
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
    // In a namespace every process is a tracked descendant of the launcher. A zombie is not
    // running, but kill(-group, 0) finds it until it is reaped, and a container's pid 1 may reap
    // the namespace's orphaned pid 1 late or never.
    const running = this.namespaced
      ? () => (child.exitCode === null && child.signalCode === null) || aliveTracked(tracked).length > 0
      : () => groupAlive(child) || aliveTracked(tracked).length > 0;
    if (running()) {
      killGroup(child, "SIGTERM");
      signalTracked(tracked, "SIGTERM");
      // The server as a namespace's pid 1 is spared a signal it has no handler for (a plain node
      // server's handler resets itself and raises TERM again, which is dropped). Where TERM's
      // default would have ended it, it is killed as soon as the rest of its tree has had its TERM
      // and gone, so close takes no longer than without the namespace.
      const init = this.namespaced && child.pid !== undefined ? (childrenOfPid(child.pid)[0] ?? null) : null;
      const spared = () => init !== null && termIsDefault(init) === true && aliveTracked(tracked).every((pid) => pid === init);
      await waitFor(() => !running() || spared(), 1000);
    }
    if (running()) {
      walk();
      killGroup(child, "SIGKILL");
      signalTracked(tracked, "SIGKILL");
      // The kernel ends what is left of the namespace with its pid 1: wait for that, so nothing of
      // the server runs once close returns.
      if (this.namespaced) await waitFor(() => !running(), 2000);
    }
    live.delete(child);
  }
}

/** The warning for lines skipped on a server's stdout (they never reach a client through the proxy either). */
export function skippedWarning(count: number): string {
  const lines = count === 1 ? "1 line" : `${count} lines`;
  return `mcp-lint: warning: skipped ${lines} the server wrote to stdout that ${count === 1 ? "is not a JSON-RPC message" : "are not JSON-RPC messages"}, as MCP clients skip them (a stdio server should write its log to stderr)\n`;
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
