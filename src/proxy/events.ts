/** What the proxy reports as it runs: events as data, one stderr line each, and the same event as an audit JSON line. Pure. */

import { neutralize } from "../report/neutralize.js";

/** One thing the proxy did or saw. Tool names and messages are raw server text until formatted. */
export type ProxyEvent =
  | {
      event: "compared";
      /** Why the list was read: the client's initialize, or the server's list_changed. */
      trigger: "initialize" | "list_changed";
      listed: number;
      served: number;
      withheld: number;
      changes: number;
      instructions: "as_sent" | "locked" | "none";
      /** Milliseconds the read and the comparison took. */
      ms: number;
    }
  | { event: "withheld"; tool: string; kinds: string[]; severity: string }
  | { event: "instructions_replaced"; served: "locked" | "none"; kinds: string[] }
  | { event: "call_refused"; tool: string; kinds: string[] }
  | { event: "read_failed"; trigger: "initialize" | "list_changed"; message: string };

/** The one stderr line for an event (clients show a server's stderr in their logs). `review` is the command that shows the changes. */
export function eventLine(event: ProxyEvent, review: string): string {
  const tool = (name: string) => JSON.stringify(neutralize(name));
  const kinds = (list: readonly string[]) => list.map((kind) => neutralize(kind)).join(", ");
  switch (event.event) {
    case "compared":
      return (
        `mcp-lint proxy: compared the server with the lock (${event.trigger}): ${event.listed} tool${event.listed === 1 ? "" : "s"} listed, ` +
        `${event.served} served, ${event.withheld} withheld, ${event.changes} change${event.changes === 1 ? "" : "s"}; instructions ${instructionsWord(event.instructions)} ` +
        `(read and compared in ${event.ms} ms)`
      );
    case "withheld":
      return `mcp-lint proxy: withheld tool ${tool(event.tool)} (${event.severity}: ${kinds(event.kinds)}); review with: ${review}`;
    case "instructions_replaced":
      return `mcp-lint proxy: the server's instructions changed (${kinds(event.kinds)}); serving ${event.served === "locked" ? "the locked text" : "no instructions"} instead; review with: ${review}`;
    case "call_refused":
      return `mcp-lint proxy: refused a call to withheld tool ${tool(event.tool)} (${kinds(event.kinds)})`;
    case "read_failed":
      return `mcp-lint proxy: could not read the server's whole tool list (${event.trigger}): ${neutralize(event.message)}; no tools are served until it can be read`;
  }
}

function instructionsWord(served: "as_sent" | "locked" | "none"): string {
  return served === "as_sent" ? "as sent" : served === "locked" ? "replaced by the locked text" : "withheld";
}

/** The audit record for an event: one JSON line with the time and the lock, server text neutralized. */
export function auditLine(event: ProxyEvent, time: Date, lock: string | null): string {
  const record: Record<string, unknown> = { time: time.toISOString(), ...event };
  if ("tool" in event) record.tool = neutralize(event.tool);
  if ("kinds" in event) record.kinds = event.kinds.map((kind) => neutralize(kind));
  if ("message" in event) record.message = neutralize(event.message);
  if (lock !== null) record.lock = lock;
  return `${JSON.stringify(record)}\n`;
}
