/** The guard's decision: which tools and which instructions the proxy serves, as a pure function of the lock and the live list. */

import { jsonEqual } from "../json/equal.js";
import { hiddenTextScanner, scanInstructionsHiddenText } from "../lint/index.js";
import { compareSnapshot, type FailOn } from "../lock/engine.js";
import type { Lockfile } from "../lock/format.js";
import { type Change, type Severity, severityRank } from "../lock/kinds.js";
import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { neutralize } from "../text/neutralize.js";

/** Why a tool is withheld. */
export type WithholdReason = "changed" | "not_in_lock" | "duplicate" | "hidden_text";

/** One withheld tool: the change kinds (and `S8 <kind>` for hidden text) that withheld it. */
export interface Withheld {
  tool: string;
  reasons: WithholdReason[];
  kinds: string[];
  severity: Severity;
}

/** What the client is told as `instructions`: as sent, the locked text instead, or nothing. */
export interface InstructionsVerdict {
  text: string | null;
  served: "as_sent" | "locked" | "none";
  /** Why the server's text was not served (change kinds, `S8 <kind>`); empty when it was. */
  kinds: string[];
}

/** The outcome of one comparison. */
export interface GuardVerdict {
  changes: Change[];
  /** Tools served, with their live definitions, in the server's order. */
  tools: JsonObject[];
  /** Names served, for judging calls. */
  served: ReadonlySet<string>;
  withheld: ReadonlyMap<string, Withheld>;
  instructions: InstructionsVerdict;
  /** Tools the server listed. */
  listed: number;
  /** Set when the lock holds another server altogether; then nothing is served. */
  anotherServer: AnotherServer | null;
}

/** Why a lock is taken to hold another server: the names it was recorded with and the live one. */
export interface AnotherServer {
  locked: string;
  live: string;
}

/**
 * A lock holds another server when the server calls itself by another name than the lock
 * recorded AND serves no tool the lock holds. Either alone is an ordinary change (a renamed server
 * keeps its tools; a server that replaced every tool kept its name), which the comparison reports
 * tool by tool. A launch command that differs is never enough: moving a server or bumping its
 * version pin must show what changed, not stop the server. A lock from a saved list, or a server
 * that gives no name, has nothing to tell them apart by, so it is compared as usual.
 */
export function anotherServer(lock: Lockfile, snapshot: ServerSnapshot): AnotherServer | null {
  const locked = lock.server.name;
  const live = snapshot.name;
  if (locked === null || live === null || locked === live) return null;
  if (snapshot.tools.some((tool) => typeof tool.name === "string" && lock.tools.has(tool.name))) return null;
  return { locked, live };
}

/** A server-level change in a few words for the proxy's log: `version "1.0.0" -> "1.1.0"`, `launch command`. */
export function serverChangeText(change: Change): string {
  const { reason, before, after } = change.args;
  if (reason === "command") return "launch command";
  const quoted = (value: unknown) => (value === undefined || value === null ? "(none)" : JSON.stringify(String(value)));
  return `${String(reason)} ${quoted(before)} -> ${quoted(after)}`;
}

/** Error-level hidden text (S8) in each locked tool, as `S8 <kind>` entries; see prepareGuard. */
export type LockedHiddenText = ReadonlyMap<string, string[]>;

/**
 * Scan every locked definition for error-level hidden text once, ahead of time (the proxy does it
 * while the server starts), so judging a served tool that equals its locked definition costs a
 * comparison instead of a scan.
 */
export function prepareGuard(lock: Lockfile): LockedHiddenText {
  const found = new Map<string, string[]>();
  const scan = hiddenTextScanner();
  let index = 0;
  for (const [name, entry] of lock.tools) found.set(name, hiddenErrors(scan, entry.definition, index++));
  return found;
}

/** The S8 errors in one tool (invisible TAG or bidi text, tool poisoning), as the kinds the proxy names; `scan` is shared by the tools of one list. */
function hiddenErrors(scan: ReturnType<typeof hiddenTextScanner>, tool: JsonObject, index: number): string[] {
  return scan(tool, index)
    .filter((finding) => finding.severity === "error")
    .map((finding) => `S8 ${String(finding.args.kind)}`);
}

/**
 * Compare the live list with the lock (the engine `lock --check` uses) and decide. A tool is
 * withheld when it is not in the lock, when any change to it is at or above `failOn`, when its
 * name is served twice, or when S8 finds error-level hidden text in any of its strings (even if
 * the lock holds it). Instructions changed at error level are replaced by the locked text;
 * instructions with error-level hidden text are replaced too, or dropped when the locked text has
 * it as well.
 */
export function judge(lock: Lockfile, snapshot: ServerSnapshot, failOn: FailOn, prepared: LockedHiddenText | null = null): GuardVerdict {
  const changes = compareSnapshot(snapshot, lock);
  const floor = failOn === "never" ? Number.POSITIVE_INFINITY : severityRank(failOn);
  const withheld = new Map<string, Withheld>();
  const hold = (tool: string, reason: WithholdReason, kind: string, severity: Severity) => {
    const entry = withheld.get(tool) ?? { tool, reasons: [], kinds: [], severity };
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    if (!entry.kinds.includes(kind)) entry.kinds.push(kind);
    if (severityRank(severity) > severityRank(entry.severity)) entry.severity = severity;
    withheld.set(tool, entry);
  };

  // Only changes about a served tool decide what is withheld; server-level changes (and any
  // section a newer lock format adds) are reported, never a reason to cut a tool.
  const listedNames = new Set(snapshot.tools.map((tool) => tool.name as string));
  for (const change of changes) {
    if (change.tool === null || !listedNames.has(change.tool)) continue;
    if (change.kind === "tool_added") hold(change.tool, "not_in_lock", change.kind, change.severity);
    else if (change.kind === "duplicate_tool") hold(change.tool, "duplicate", change.kind, change.severity);
    else if (severityRank(change.severity) >= floor) hold(change.tool, "changed", change.kind, change.severity);
  }
  const scan = hiddenTextScanner();
  snapshot.tools.forEach((tool, index) => {
    const name = tool.name as string;
    const locked = lock.tools.get(name);
    const known = prepared?.get(name);
    const kinds = known !== undefined && locked !== undefined && jsonEqual(locked.definition, tool) ? known : hiddenErrors(scan, tool, index);
    for (const kind of kinds) hold(name, "hidden_text", kind, "error");
  });

  // Another server's lock approves nothing here: every tool is new to it (so already withheld),
  // and its instructions are not this server's to serve.
  const foreign = anotherServer(lock, snapshot);
  const tools = snapshot.tools.filter((tool) => !withheld.has(tool.name as string));
  return {
    changes,
    tools,
    served: new Set(tools.map((tool) => tool.name as string)),
    withheld,
    instructions: foreign === null ? decideInstructions(lock, snapshot, changes) : { text: null, served: "none", kinds: ["another_server"] },
    listed: snapshot.tools.length,
    anotherServer: foreign,
  };
}

function decideInstructions(lock: Lockfile, snapshot: ServerSnapshot, changes: readonly Change[]): InstructionsVerdict {
  const live = snapshot.instructions.known ? snapshot.instructions.text : null;
  const locked = lock.instructions.known ? lock.instructions.text : null;
  const hiddenIn = (text: string | null) =>
    scanInstructionsHiddenText(text)
      .filter((finding) => finding.severity === "error")
      .map((finding) => `S8 ${String(finding.args.kind)}`);
  const kinds = changes
    .filter((change) => change.tool === null && change.kind === "instructions_changed" && change.severity === "error")
    .map((change) => change.kind);
  const hidden = hiddenIn(live);
  if (kinds.length === 0 && hidden.length === 0) return { text: live, served: "as_sent", kinds: [] };
  const why = [...new Set([...kinds, ...hidden])];
  // The approved text, unless it carries hidden text itself (a lock written before S8 existed).
  if (locked !== null && hiddenIn(locked).length === 0) return { text: locked, served: "locked", kinds: why };
  return { text: null, served: "none", kinds: why };
}

/**
 * The text a withheld tool's caller gets. It reaches the model, so it says what happened and that
 * the user must review the change, and names no command: an agent with a shell could run an
 * approve command itself and accept the very change it was shielded from. The review command goes
 * to the proxy's log (stderr and --audit), which the user reads.
 */
export function withheldCallText(entry: Withheld): string {
  const reason = entry.reasons.includes("not_in_lock")
    ? "it is a new tool that was never approved"
    : entry.reasons.includes("duplicate")
      ? "the server lists more than one tool with this name"
      : entry.reasons.includes("hidden_text") && entry.reasons.length === 1
        ? "its definition contains hidden text"
        : "its definition changed since it was approved";
  return (
    `mcp-lint withheld the tool ${JSON.stringify(neutralize(entry.tool))}: ${reason} (${entry.kinds.join(", ")}). ` +
    "The call was not sent to the server. The user must review the change before this tool can be used; " +
    "until then, do not try to get around this refusal."
  );
}

/** The text a caller gets while no comparison stands (the last read of the list failed); the cause is in the proxy's log only. */
export const UNREAD_CALL_TEXT =
  "mcp-lint did not send this call: the server's tool list could not be read whole, so no tool is served until it can be. The reason is in the proxy's log.";

/** The text a caller gets for a name the compared list does not hold. */
export function notListedCallText(name: string): string {
  return `mcp-lint did not send this call: the server does not list a tool named ${JSON.stringify(neutralize(name))}, and only listed, approved tools are served.`;
}
