/** Time bounds of a live run (each request, start-up, the whole run), the connect options that set them, and the texts that name them. */

import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { LoginContext } from "./oauth/login.js";
import type { Redactor } from "../text/redact.js";

/** Bound on each request, in ms, when none is given (the CLI's `--timeout` default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Bound on starting a launched server and its `initialize`, in ms: long enough for a first `npx -y` download. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 120_000;
/** Bound on the whole run, in ms: up to 100 pages at `--timeout` each could otherwise take 50 minutes. */
export const DEFAULT_DEADLINE_MS = 600_000;

/** Options of snapshotFromStdio and snapshotFromHttp. */
export interface ConnectOptions {
  /** Bound on each request after start-up, in ms (the CLI's `--timeout`). */
  timeoutMs: number;
  /** Bound on a launched server's start-up and `initialize`, in ms; default `timeoutMs`. HTTP connects within `timeoutMs`. */
  startupTimeoutMs?: number;
  /** Bound on the whole run, from connecting to the last page, in ms; default DEFAULT_DEADLINE_MS. */
  deadlineMs?: number;
  clientVersion: string;
  /** Also read prompts, resources and templates when the server advertises them (a v2 lock pins them). */
  catalog?: boolean;
  /** The identity sent as `clientInfo` (`--as-client`), instead of mcp-lint's own. */
  clientInfo?: { name: string; version: string };
  /**
   * Capabilities declared in `initialize`, or in each request of a 2026-07-28 connection (none when
   * absent). Some servers register tools only for a client that declares one (roots, elicitation),
   * so crosscheck reads as a client with all of them.
   */
  clientCapabilities?: ClientCapabilities;
  redactor: Redactor;
  /** Log in to a remote server that asks for it (the MCP authorization flow); absent: never. */
  login?: Omit<LoginContext, "redactor">;
  /** Show a progress line on stderr while a launched server starts, when stderr is a terminal. */
  progress?: boolean;
}

/** The timeout of one step: its own bound, or what is left of the deadline when that is less. */
export interface Bound {
  ms: number;
  byDeadline: boolean;
}

/** The clock of one run: hands each step the smaller of its own bound and what is left of the deadline. */
export class RunClock {
  private readonly endsAt: number;

  constructor(readonly deadlineMs: number) {
    this.endsAt = Date.now() + deadlineMs;
  }

  /** The bound for a step allowed `ms` on its own. */
  bound(ms: number): Bound {
    const left = this.endsAt - Date.now();
    return left < ms ? { ms: Math.max(1, left), byDeadline: true } : { ms, byDeadline: false };
  }

  /** Whether the deadline has passed. */
  get expired(): boolean {
    return Date.now() >= this.endsAt;
  }
}

/** The code of the SDK v2 client's timeout error (an SdkError), read without loading that SDK here. */
const V2_REQUEST_TIMEOUT = "REQUEST_TIMEOUT";

/** Whether an SDK request (the v1 client's or the v2 client's) failed because its timeout ran out. */
export function isTimeout(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout;
  return error instanceof Error && (error as { code?: unknown }).code === V2_REQUEST_TIMEOUT;
}

/** Milliseconds as seconds for a message: "120", "2.5". */
export function seconds(ms: number): string {
  const value = ms / 1000;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Why the run stopped at the deadline; names both bounds so the user knows which one to raise. */
export function deadlineText(deadlineMs: number, step: string): string {
  return `the run did not finish within its overall deadline of ${seconds(deadlineMs)} s (stopped at ${step}); raise --deadline SECONDS (--timeout bounds each request, --deadline the whole run)`;
}

/** Why a step timed out, naming --timeout (or the deadline, when that was the tighter bound). */
export function timeoutText(step: string, bound: Bound, deadlineMs: number, startup = false): string {
  if (bound.byDeadline) return deadlineText(deadlineMs, step);
  const hint = startup
    ? "if the server is still downloading or starting (a first npx run can take minutes), raise --startup-timeout SECONDS"
    : "raise --timeout SECONDS if the server is only slow";
  return `no answer to ${step} within ${seconds(bound.ms)} s; ${hint}`;
}
