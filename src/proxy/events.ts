/** What the proxy reports as it runs: events as data, one stderr line each, and the same event as an audit JSON line. Pure. */

import { neutralize } from "../text/neutralize.js";
import type { Subject } from "./guard.js";
import { INVALID_DECLARATION_TEXT } from "../connect/param-headers.js";
import type { ClientEraEvent } from "./client-era.js";
import type { EraEvent } from "./era-link.js";

/** How one pinned section of prompts, resources or templates was served. */
export interface EntryCounts {
  what: Subject;
  listed: number;
  served: number;
  withheld: number;
}

/** One class of hidden text removed from an answer, and how many (characters, or escape sequences). */
export interface Removed {
  kind: "tag" | "bidi" | "zero_width" | "escape" | "control";
  count: number;
}

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
      /** The pinned sections of prompts, resources and templates, when the lock pins any. */
      entries?: EntryCounts[];
      instructions: "as_sent" | "locked" | "none";
      /** Milliseconds the read and the comparison took. */
      ms: number;
    }
  /** `tool` names a prompt, resource or template when `subject` says so. */
  | { event: "withheld"; tool: string; subject?: Subject; kinds: string[]; severity: string }
  /** What the client was told the guard withholds (appended to its instructions, and as a warning): the line, already inert. */
  | { event: "withheld_notice"; trigger: "initialize" | "list_changed"; text: string }
  /** The server offers prompts or resources that the lock does not pin: they pass as sent. */
  | { event: "not_pinned"; what: Subject[]; lockVersion: number }
  /** Server-level changes (name, version, launch command): reported, never a reason to withhold. */
  | { event: "server_changed"; what: string[] }
  /** The lock holds another server (another name and no tool in common): nothing is served. */
  | { event: "another_server"; locked: string; live: string }
  | { event: "instructions_replaced"; served: "locked" | "none"; kinds: string[] }
  /** A call, `prompts/get` or `resources/read` refused; `template` is the withheld template a read's URI fits. */
  | { event: "call_refused"; tool: string; subject?: Subject; template?: string; kinds: string[] }
  /** Hidden text removed from the answer to a call (`tool`), a `prompts/get` or a `resources/read` (`subject`). */
  | { event: "result_cleaned"; tool: string; subject?: "prompt" | "resource"; removed: Removed[] }
  /** S8 read poisoning in an answer: `findings` are its messages (neutralized); `withheld` under --results strict. */
  | { event: "result_poisoned"; tool: string; subject?: "prompt" | "resource"; findings: string[]; withheld: boolean }
  | { event: "read_failed"; trigger: "initialize" | "list_changed"; message: string }
  | {
      event: "response_dropped";
      /** Who sent it: a server answer no client request waits for, or a client answer no server request waits for. */
      from: "server" | "client";
      /** The message's id as text (neutralized and capped when formatted). */
      id: string;
      why: DropReason;
      /** Responses dropped so far in this session, this one included. */
      total: number;
    }
  | { event: "send_failed"; method: string; message: string }
  /** What the links between the eras report (era-link.ts toward the server, client-era.ts toward the client). */
  | EraEvent
  | ClientEraEvent;

/** Why a response was not passed on. */
export type DropReason = "not_requested" | "already_answered" | "cancelled" | "not_waiting";

/** Dropped responses logged one by one; past this only every power of ten is, so a flood cannot fill the log. */
export const DROPS_LOGGED = 10;

/** Whether the n-th dropped response of a session gets its own log line. */
export function logDrop(total: number): boolean {
  if (total <= DROPS_LOGGED) return true;
  let n = total;
  while (n % 10 === 0) n /= 10;
  return n === 1;
}

const DROP_WHY: Record<DropReason, string> = {
  not_requested: "no request with that id is waiting for an answer",
  already_answered: "that request was already answered",
  cancelled: "that request was cancelled",
  not_waiting: "the proxy's own read no longer waits for it",
};

/** Longest id shown in a log line. */
const ID_CHARS = 64;

/** The one stderr line for an event (clients show a server's stderr in their logs). `review` is the command that shows the changes. */
export function eventLine(event: ProxyEvent, review: string): string {
  const tool = (name: string) => JSON.stringify(neutralize(name));
  const kinds = (list: readonly string[]) => list.map((kind) => neutralize(kind)).join(", ");
  switch (event.event) {
    case "compared": {
      const entries = (event.entries ?? []).map(
        (counts) => `; ${counts.listed} ${counts.what}${counts.listed === 1 ? "" : "s"} listed, ${counts.served} served, ${counts.withheld} withheld`,
      );
      return (
        `mcp-lint proxy: compared the server with the lock (${event.trigger}): ${event.listed} tool${event.listed === 1 ? "" : "s"} listed, ` +
        `${event.served} served, ${event.withheld} withheld, ${event.changes} change${event.changes === 1 ? "" : "s"}${entries.join("")}; ` +
        `instructions ${instructionsWord(event.instructions)} (read and compared in ${event.ms} ms)`
      );
    }
    case "withheld":
      return `mcp-lint proxy: withheld ${event.subject ?? "tool"} ${tool(event.tool)} (${event.severity}: ${kinds(event.kinds)}); review with: ${review}`;
    case "withheld_notice":
      // The client's line begins "mcp-lint withheld"; the log says it in its own voice.
      return `mcp-lint proxy: ${neutralize(event.text.replace(/^mcp-lint /, ""))}`;
    case "not_pinned": {
      // Only a v1 lock leaves sections unpinned (a v2 lock pins all three, an absent one as empty).
      const why = "a version 1 lock pins tools and instructions only; a lock written with --server NAME pins them too";
      return `mcp-lint proxy: the lock does not pin this server's ${listWords(event.what.map((what) => `${what}s`))} (${why}); they pass as the server sends them`;
    }
    case "server_changed":
      return `mcp-lint proxy: the server changed since it was locked (${kinds(event.what)}); its tools are compared as usual`;
    case "another_server":
      return (
        `mcp-lint proxy: the lock holds another server (${JSON.stringify(neutralize(event.locked))}; this one calls itself ${JSON.stringify(neutralize(event.live))} ` +
        `and serves none of its tools): no tool and no instructions are served; lock this server first, after: ${review}`
      );
    case "instructions_replaced":
      return `mcp-lint proxy: the server's instructions changed (${kinds(event.kinds)}); serving ${event.served === "locked" ? "the locked text" : "no instructions"} instead; review with: ${review}`;
    case "call_refused":
      if (event.template !== undefined) {
        return `mcp-lint proxy: refused a read of ${tool(event.tool)}: it fits withheld resource template ${tool(event.template)} (${kinds(event.kinds)}); review with: ${review}`;
      }
      if (event.subject === "resource")
        return `mcp-lint proxy: refused a read of withheld resource ${tool(event.tool)} (${kinds(event.kinds)}); review with: ${review}`;
      if (event.subject !== undefined)
        return `mcp-lint proxy: refused a request for withheld ${event.subject} ${tool(event.tool)} (${kinds(event.kinds)}); review with: ${review}`;
      return `mcp-lint proxy: refused a call to withheld tool ${tool(event.tool)} (${kinds(event.kinds)}); review with: ${review}`;
    case "result_cleaned": {
      const total = event.removed.reduce((sum, removed) => sum + removed.count, 0);
      const parts = event.removed.map((removed) => `${removed.count} ${REMOVED_WORDS[removed.kind]}${removed.count === 1 ? "" : "s"}`);
      return `mcp-lint proxy: removed hidden text from ${answerOf(event)}: ${parts.join(", ")} (${total} in all)`;
    }
    case "result_poisoned": {
      const what = event.findings.map((finding) => neutralize(finding)).join("; ");
      const done = event.withheld ? "withheld it (--results strict)" : "passed it on (--results strict would withhold it)";
      return `mcp-lint proxy: warning: ${answerOf(event)} reads as tool poisoning (S8): ${what}; ${done}`;
    }
    case "read_failed":
      return `mcp-lint proxy: could not read the server's whole tool list (${event.trigger}): ${neutralize(event.message)}; no tools are served until it can be read`;
    case "response_dropped": {
      const more = event.total === DROPS_LOGGED ? "; further ones are counted, and logged at every power of ten" : "";
      return (
        `mcp-lint proxy: dropped a response from the ${event.from} with id ${shownId(event.id)}: ${DROP_WHY[event.why]} ` +
        `(${event.total} dropped in this session${more})`
      );
    }
    case "send_failed":
      return `mcp-lint proxy: could not send ${neutralize(event.method)} to the server: ${neutralize(event.message)}`;
    case "server_era":
      return `mcp-lint proxy: the server refused initialize and speaks MCP ${neutralize(event.era)}; the proxy speaks it to the server and the client's protocol to the client`;
    case "client_era":
      return `mcp-lint proxy: the client speaks MCP ${neutralize(event.era)}; the proxy speaks that revision to it`;
    case "server_request_refused":
      return `mcp-lint proxy: refused the server's ${JSON.stringify(neutralize(event.method).slice(0, ID_CHARS))} request: the client speaks MCP 2026-07-28, where servers send no requests`;
    case "notification_dropped": {
      const why = event.why === "not_subscribed" ? "it came from no subscription" : "it came from a subscription the proxy did not open";
      return `mcp-lint proxy: dropped a ${JSON.stringify(neutralize(event.method).slice(0, ID_CHARS))} notification from the server: ${why}`;
    }
    case "tool_excluded": {
      const header = event.header === null ? "its x-mcp-header" : `its x-mcp-header ${JSON.stringify(neutralize(event.header).slice(0, ID_CHARS))}`;
      return `mcp-lint proxy: left tool ${tool(event.tool)} out of the list: ${header} ${INVALID_DECLARATION_TEXT[event.why]}; calls to it are refused`;
    }
    case "header_refused":
      return (
        `mcp-lint proxy: refused a call to tool ${tool(event.tool)}: the value for its header ${neutralize(event.header).slice(0, ID_CHARS)} has the form ` +
        "of a credential (a token or key), and a header is seen by every proxy and log on the way; the call was not sent"
      );
  }
}

/** What the removed classes are called, singular (an `s` is added for more than one). */
const REMOVED_WORDS: Record<Removed["kind"], string> = {
  tag: "TAG character",
  bidi: "bidi control",
  zero_width: "zero-width character",
  escape: "terminal escape sequence",
  control: "control character",
};

/** Whose answer: `the result of tool "x"`, `the answer to prompt "x"`, `the contents of resource "u"`. */
function answerOf(event: { tool: string; subject?: "prompt" | "resource" }): string {
  const name = JSON.stringify(neutralize(event.tool));
  if (event.subject === "prompt") return `the answer to prompt ${name}`;
  if (event.subject === "resource") return `the contents of resource ${name}`;
  return `the result of tool ${name}`;
}

/** `a`, `a and b`, `a, b and c`. */
function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

function shownId(id: string): string {
  const cut = id.length > ID_CHARS ? `${id.slice(0, ID_CHARS)}...` : id;
  return neutralize(cut);
}

function instructionsWord(served: "as_sent" | "locked" | "none"): string {
  return served === "as_sent" ? "as sent" : served === "locked" ? "replaced by the locked text" : "withheld";
}

/** Events after which the user has something to review: their audit records name the review command. */
const REVIEWABLE = new Set<ProxyEvent["event"]>(["withheld", "instructions_replaced", "call_refused", "another_server"]);

/**
 * The audit record for an event: one JSON line with the time and the lock, server text neutralized.
 * `review` is the command that shows the changes, added where there is something to review.
 */
export function auditLine(event: ProxyEvent, time: Date, lock: string | null, review: string | null = null): string {
  const record: Record<string, unknown> = { time: time.toISOString(), ...event };
  if ("tool" in event) record.tool = neutralize(event.tool);
  if ("kinds" in event) record.kinds = event.kinds.map((kind) => neutralize(kind));
  if ("message" in event) record.message = neutralize(event.message);
  if ("method" in event) record.method = neutralize(event.method);
  if ("what" in event) record.what = event.what.map((what) => neutralize(what));
  if ("template" in event && event.template !== undefined) record.template = neutralize(event.template);
  if ("header" in event && event.header !== null) record.header = neutralize(event.header);
  if ("text" in event) record.text = neutralize(event.text);
  if ("findings" in event) record.findings = event.findings.map((finding) => neutralize(finding));
  if (event.event === "another_server") {
    record.locked = neutralize(event.locked);
    record.live = neutralize(event.live);
  }
  if ("id" in event) record.id = shownId(event.id);
  if (lock !== null) record.lock = lock;
  if (review !== null && REVIEWABLE.has(event.event)) record.review = review;
  return `${JSON.stringify(record)}\n`;
}
