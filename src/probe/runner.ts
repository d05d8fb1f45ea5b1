/**
 * The only module that calls tools: it sends the probes the safety gate cleared, one at a time and
 * in order, bounds each with the probe timeout (cancelling with `notifications/cancelled`), judges
 * what is left again when the server changes its tool list, and stops the server when it no longer
 * answers.
 */

import { ProtocolError, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import type { Redactor } from "../text/redact.js";
import type { OpenSession } from "../connect/session.js";
import type { JsonObject } from "../lock/snapshot.js";
import { measureProtocolError, measureResult } from "./response.js";
import type { PlannedProbe, ProbeNote, ProbeRecord } from "./types.js";

/** How one call ended, before it is measured. */
export type CallOutcome =
  | { kind: "result"; result: unknown }
  | { kind: "error"; code: number; message: string }
  | { kind: "timeout" }
  | { kind: "failed"; detail: string };

/** What the runner needs from a session; the CLI binds it to the SDK client, tests to a fake. */
export interface ProbeLink {
  /**
   * Call a tool with the `Mcp-Param-*` headers the gate built (empty but on a 2026-07-28 session over
   * HTTP; last, so a link written before them still fits); a call still unanswered after `timeoutMs`
   * is cancelled and reported as a timeout.
   */
  call(name: string, args: JsonObject, timeoutMs: number, headers: Readonly<Record<string, string>>): Promise<CallOutcome>;
  /** True when the server answers a ping within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  /** How the server went away, once it has; null while it is there. */
  ended(): string | null;
  /** End the session and the server (its whole process group, for a launched one). */
  stop(): Promise<void>;
  /** True when the server announced notifications/tools/list_changed since the last read. */
  listChanged(): boolean;
  /** Read the whole tool list again (clears listChanged); rejects when it cannot be read whole. */
  reread(): Promise<readonly JsonObject[]>;
}

/** Longest wait for the ping that tells a busy tool from a server that stopped answering. */
export const PING_TIMEOUT_MS = 5_000;

/**
 * Any object: a malformed result is measured as sent, not thrown away by validation. (On a
 * 2026-07-28 connection the SDK checks the result against the revision's schema first.)
 */
const AS_SENT: StandardSchemaV1<unknown, unknown> = {
  "~standard": {
    version: 1,
    vendor: "mcp-lint",
    validate: (value) => (typeof value === "object" && value !== null ? { value } : { issues: [{ message: "the result is not an object" }] }),
  },
};

/** Bind a link to an open SDK session. */
export function sdkProbeLink(session: OpenSession): ProbeLink {
  let closed = false;
  let changed = false;
  session.client.setNotificationHandler("notifications/tools/list_changed", () => {
    changed = true;
  });
  const previous = session.client.onclose;
  session.client.onclose = () => {
    closed = true;
    previous?.();
  };
  return {
    async call(name, args, timeoutMs, headers) {
      const controller = new AbortController();
      let timedOut = false;
      // The abort makes the SDK send notifications/cancelled for this request id, then reject it.
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(`no answer within ${timeoutMs / 1000} s (--probe-timeout)`);
      }, timeoutMs);
      try {
        // The SDK's callTool would add the headers itself, but validates the result first; its
        // transports put `options.headers` on this request's POST (stdio has none to add).
        const result = await session.client.request({ method: "tools/call", params: { name, arguments: args } }, AS_SENT, {
          signal: controller.signal,
          timeout: timeoutMs + 60_000,
          ...(Object.keys(headers).length > 0 ? { headers: { ...headers } } : {}),
        });
        return { kind: "result", result };
      } catch (error) {
        if (timedOut) return { kind: "timeout" };
        // The server's own JSON-RPC error; the SDK's (closed, timed out, invalid) carry string codes.
        if (!closed && error instanceof ProtocolError) {
          return { kind: "error", code: error.code, message: error.message };
        }
        return { kind: "failed", detail: session.explain(error, `tools/call ${name}`) };
      } finally {
        clearTimeout(timer);
      }
    },
    async ping(timeoutMs) {
      if (closed) return false;
      try {
        // 2026-07-28 has no ping; server/discover is the request every such server must answer.
        if (session.client.getProtocolEra() === "modern") await session.client.discover({ timeout: timeoutMs });
        else await session.client.ping({ timeout: timeoutMs });
        return true;
      } catch {
        return false;
      }
    },
    ended: () => session.ended() ?? (closed ? "closed the connection" : null),
    stop: () => session.close(),
    listChanged: () => changed,
    async reread() {
      changed = false;
      return (await session.reread()).tools;
    },
  };
}

/** Options of a probe run. */
export interface RunOptions {
  /** Bound on each call (`--probe-timeout`), in ms. */
  timeoutMs: number;
  /** Applied to every response text before it is kept. */
  redactor: Redactor;
  /** Monotonic milliseconds; tests pass a fake clock. */
  now?: () => number;
  /**
   * The safety gate, bound to the run's fixtures and environment: judges a probe again against a
   * newer tool list. Without it a list_changed stops the run's remaining probes (nothing unchecked is sent).
   */
  regate?: (probe: PlannedProbe, tools: readonly JsonObject[]) => PlannedProbe;
}

/**
 * Run the plan in order. A probe the gate held back is recorded as blocked or skipped, never sent.
 * After a timeout the server is pinged: if it does not answer, it is stopped (its process group
 * ended) and every probe left is reported as not run, as after a server that exited.
 */
export async function runProbes(plan: readonly PlannedProbe[], link: ProbeLink, options: RunOptions): Promise<ProbeRecord[]> {
  const now = options.now ?? (() => performance.now());
  const records: ProbeRecord[] = [];
  let stopped: ProbeNote | null = null;
  /** The latest list, once the server changed it during the run; every later probe is judged against it. */
  let latest: readonly JsonObject[] | null = null;
  for (const planned of plan) {
    let probe = planned;
    if (probe.action === "call" && stopped === null && link.listChanged()) {
      // The gate cleared this plan against a list the server has since replaced: read the new one first.
      try {
        latest = await link.reread();
        if (options.regate === undefined) stopped = { code: "list_changed" };
      } catch (error) {
        stopped = { code: "list_unreadable", detail: options.redactor.text(error instanceof Error ? error.message : String(error)) };
      }
    }
    const regated = latest !== null && options.regate !== undefined && probe.action === "call";
    if (regated && options.regate !== undefined && latest !== null) probe = options.regate(probe, latest);
    if (probe.action !== "call" || probe.args === null) {
      const note: ProbeNote | null = regated ? { code: "list_changed" } : null;
      records.push({ probe, status: probe.action === "skipped" ? "skipped" : "blocked", latencyMs: null, response: null, note });
      continue;
    }
    if (stopped !== null) {
      records.push({ probe, status: "not_run", latencyMs: null, response: null, note: stopped });
      continue;
    }
    const started = now();
    const outcome = await link.call(probe.tool, probe.args, options.timeoutMs, probe.headers);
    const latencyMs = Math.max(0, Math.round(now() - started));
    switch (outcome.kind) {
      case "result": {
        const response = measureResult(outcome.result, options.redactor);
        records.push({ probe, status: response.isError ? "tool_error" : "ok", latencyMs, response, note: null });
        break;
      }
      case "error":
        records.push({
          probe,
          status: "protocol_error",
          latencyMs,
          response: measureProtocolError(outcome.code, outcome.message, options.redactor),
          note: null,
        });
        break;
      case "timeout": {
        records.push({ probe, status: "timeout", latencyMs, response: null, note: { code: "timed_out", seconds: options.timeoutMs / 1000 } });
        const alive = await link.ping(Math.min(PING_TIMEOUT_MS, options.timeoutMs));
        if (!alive) {
          await link.stop();
          stopped = { code: "server_stopped", after: probe.tool };
        }
        break;
      }
      case "failed":
        records.push({ probe, status: "failed", latencyMs, response: null, note: { code: "call_failed", detail: options.redactor.text(outcome.detail) } });
        break;
    }
    const gone = link.ended();
    if (stopped === null && gone !== null) {
      await link.stop();
      stopped = { code: "server_gone", how: gone };
    }
  }
  return records;
}
