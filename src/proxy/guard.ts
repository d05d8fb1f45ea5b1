/**
 * The guard's decision: which tools, prompts, resources, resource templates and instructions the
 * proxy serves, and whether a read may reach the server, as a pure function of the lock and the
 * live lists.
 */

import { jsonEqual } from "../json/equal.js";
import { hiddenTextScanner, scanInstructionsHiddenText } from "../lint/index.js";
import { compareSnapshot, type FailOn } from "../lock/engine.js";
import { LOCKFILE_VERSION_SERVERS, type Lockfile } from "../lock/format.js";
import { type Change, type Severity, severityRank } from "../lock/kinds.js";
import { ENTRY_SECTIONS, type EntrySection, type JsonObject, type ServerSnapshot } from "../lock/snapshot.js";
import { neutralize } from "../text/neutralize.js";
import { looseUri, matchTemplate } from "./uri-match.js";

/** Why a tool (or prompt, resource, template) is withheld. */
export type WithholdReason = "changed" | "not_in_lock" | "duplicate" | "hidden_text";

/** What a withheld entry is, when it is not a tool. */
export type Subject = "prompt" | "resource" | "resource template";

/** One withheld tool, prompt, resource or template: the change kinds (and `S8 <kind>` for hidden text) that withheld it. */
export interface Withheld {
  /** The tool's or prompt's name, the resource's URI, the template's URI template. */
  tool: string;
  /** Absent for a tool. */
  subject?: Subject;
  reasons: WithholdReason[];
  kinds: string[];
  severity: Severity;
}

/** The verdict on one section of prompts, resources or templates that the lock pins. */
export interface SectionVerdict {
  /** Served entries with their live definitions, in the server's order. */
  served: JsonObject[];
  /** Their keys (names, URIs, URI templates). */
  keys: ReadonlySet<string>;
  withheld: ReadonlyMap<string, Withheld>;
  /** Entries the server listed. */
  listed: number;
}

/** Each section's verdict; null for a section the lock does not pin, which passes as the server sends it. */
export type EntryVerdicts = Record<EntrySection, SectionVerdict | null>;

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
  /** Prompts, resources and templates, by section. */
  entries: EntryVerdicts;
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

/** What each section of entries is called in the proxy's words. */
export const SUBJECTS: Readonly<Record<EntrySection, Subject>> = {
  prompts: "prompt",
  resources: "resource",
  resourceTemplates: "resource template",
};

/**
 * The sections of prompts, resources and templates this lock pins: all three in a v2 lock, where a
 * section left out means the server offered none when it was locked (so each one it offers now is
 * new, as lock --check reports it). A v1 lock pins none.
 */
export function pinnedSections(lock: Lockfile): EntrySection[] {
  if (lock.version !== LOCKFILE_VERSION_SERVERS) return [];
  return ENTRY_SECTIONS.map((entry) => entry.section);
}

/**
 * The sections a server offers (by its capabilities) that the lock does not pin: they pass as the
 * server sends them, and the proxy says so once.
 */
export function unpinnedSections(lock: Lockfile, capabilities: JsonObject): EntrySection[] {
  const pinned = pinnedSections(lock);
  const offered: EntrySection[] = [];
  if (isObject(capabilities.prompts)) offered.push("prompts");
  if (isObject(capabilities.resources)) offered.push("resources", "resourceTemplates");
  return offered.filter((section) => !pinned.includes(section));
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Error-level hidden text (S8) in each locked definition, as `S8 <kind>` entries, by section; see prepareGuard. */
export type LockedHiddenText = Readonly<Record<"tools" | EntrySection, ReadonlyMap<string, string[]>>>;

/**
 * Scan every locked definition for error-level hidden text once, ahead of time (the proxy does it
 * while the server starts), so judging a served tool that equals its locked definition costs a
 * comparison instead of a scan.
 */
export function prepareGuard(lock: Lockfile): LockedHiddenText {
  const scan = hiddenTextScanner();
  const scanned = (entries: Lockfile["tools"] | null) => {
    const found = new Map<string, string[]>();
    let index = 0;
    for (const [name, entry] of entries ?? []) found.set(name, hiddenErrors(scan, entry.definition, index++));
    return found;
  };
  return {
    tools: scanned(lock.tools),
    prompts: scanned(lock.prompts),
    resources: scanned(lock.resources),
    resourceTemplates: scanned(lock.resourceTemplates),
  };
}

/** The S8 errors in one tool (invisible TAG or bidi text, tool poisoning), as the kinds the proxy names; `scan` is shared by the tools of one list. */
function hiddenErrors(scan: ReturnType<typeof hiddenTextScanner>, tool: JsonObject, index: number): string[] {
  return scan(tool, index)
    .filter((finding) => finding.severity === "error")
    .map((finding) => `S8 ${String(finding.args.kind)}`);
}

/** The function that records why an entry is withheld, in `withheld`. */
type Hold = (name: string, reason: WithholdReason, kind: string, severity: Severity) => void;

function holder(withheld: Map<string, Withheld>, subject: Subject | null): Hold {
  return (name, reason, kind, severity) => {
    const entry = withheld.get(name) ?? { tool: name, ...(subject === null ? {} : { subject }), reasons: [], kinds: [], severity };
    if (!entry.reasons.includes(reason)) entry.reasons.push(reason);
    if (!entry.kinds.includes(kind)) entry.kinds.push(kind);
    if (severityRank(severity) > severityRank(entry.severity)) entry.severity = severity;
    withheld.set(name, entry);
  };
}

/**
 * Compare the live lists with the lock (the engine `lock --check` uses) and decide. A tool is
 * withheld when it is not in the lock, when any change to it is at or above `failOn`, when its
 * name is served twice, or when S8 finds error-level hidden text in any of its strings (even if
 * the lock holds it). Prompts, resources and templates of a section the lock pins are judged the
 * same way; a section it does not pin is not judged (its verdict is null). Instructions changed
 * at error level are replaced by the locked text; instructions with error-level hidden text are
 * replaced too, or dropped when the locked text has it as well.
 */
export function judge(lock: Lockfile, snapshot: ServerSnapshot, failOn: FailOn, prepared: LockedHiddenText | null = null): GuardVerdict {
  // A section the lock does not pin is not compared, even when this read holds it.
  const pinned = pinnedSections(lock);
  const compared: ServerSnapshot = { ...snapshot };
  for (const { section } of ENTRY_SECTIONS) if (!pinned.includes(section)) delete compared[section];
  const changes = compareSnapshot(compared, lock);
  const floor = failOn === "never" ? Number.POSITIVE_INFINITY : severityRank(failOn);
  const withheld = new Map<string, Withheld>();
  const hold = holder(withheld, null);

  // Only changes about a served tool decide what is withheld; server-level changes are reported,
  // never a reason to cut a tool. Changes to prompts, resources and templates are judged below.
  const listedNames = new Set(snapshot.tools.map((tool) => tool.name as string));
  for (const change of changes) {
    if (change.tool === null || change.subject !== undefined || !listedNames.has(change.tool)) continue;
    if (change.kind === "tool_added") hold(change.tool, "not_in_lock", change.kind, change.severity);
    else if (change.kind === "duplicate_tool") hold(change.tool, "duplicate", change.kind, change.severity);
    else if (severityRank(change.severity) >= floor) hold(change.tool, "changed", change.kind, change.severity);
  }
  const scan = hiddenTextScanner();
  snapshot.tools.forEach((tool, index) => {
    const name = tool.name as string;
    const locked = lock.tools.get(name);
    const known = prepared?.tools.get(name);
    const kinds = known !== undefined && locked !== undefined && jsonEqual(locked.definition, tool) ? known : hiddenErrors(scan, tool, index);
    for (const kind of kinds) hold(name, "hidden_text", kind, "error");
  });

  // Another server's lock approves nothing here: every tool is new to it (so already withheld),
  // and its instructions are not this server's to serve.
  const foreign = anotherServer(lock, snapshot);
  const tools = snapshot.tools.filter((tool) => !withheld.has(tool.name as string));
  const entries = {} as Record<EntrySection, SectionVerdict | null>;
  for (const { section, key } of ENTRY_SECTIONS) {
    entries[section] = pinned.includes(section) ? judgeSection(section, key, lock, compared, changes, floor, scan, prepared) : null;
  }
  return {
    changes,
    tools,
    served: new Set(tools.map((tool) => tool.name as string)),
    withheld,
    entries,
    instructions: foreign === null ? decideInstructions(lock, snapshot, changes) : { text: null, served: "none", kinds: ["another_server"] },
    listed: snapshot.tools.length,
    anotherServer: foreign,
  };
}

/** The kinds that say an entry is not in the lock at all: withheld whatever `failOn` says, as a new tool is. */
const ADDED_KINDS: ReadonlySet<string> = new Set(["prompt_added", "resource_added", "resource_template_added"]);

/**
 * One pinned section: an entry is withheld when it is not in the lock, when a change to it is at
 * or above the floor, or when S8 finds error-level hidden text in it (even if the lock holds it).
 * Entries the section no longer lists are only reported. A section the server no longer offers
 * serves nothing.
 */
function judgeSection(
  section: EntrySection,
  key: string,
  lock: Lockfile,
  snapshot: ServerSnapshot,
  changes: readonly Change[],
  floor: number,
  scan: ReturnType<typeof hiddenTextScanner>,
  prepared: LockedHiddenText | null,
): SectionVerdict {
  const subject = SUBJECTS[section];
  const live = snapshot[section] ?? [];
  const listed = new Set(live.map((entry) => entry[key] as string));
  const withheld = new Map<string, Withheld>();
  const hold = holder(withheld, subject);
  for (const change of changes) {
    if (change.subject !== subject || change.tool === null || !listed.has(change.tool)) continue;
    if (ADDED_KINDS.has(change.kind)) hold(change.tool, "not_in_lock", change.kind, change.severity);
    else if (severityRank(change.severity) >= floor) hold(change.tool, "changed", change.kind, change.severity);
  }
  live.forEach((entry, index) => {
    const name = entry[key] as string;
    const locked = lock[section]?.get(name);
    const known = prepared?.[section].get(name);
    const kinds = known !== undefined && locked !== undefined && jsonEqual(locked.definition, entry) ? known : hiddenErrors(scan, entry, index);
    for (const kind of kinds) hold(name, "hidden_text", kind, "error");
  });
  const served = live.filter((entry) => !withheld.has(entry[key] as string));
  return { served, keys: new Set(served.map((entry) => entry[key] as string)), withheld, listed: live.length };
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
  const what = entry.subject ?? "tool";
  const sent = entry.subject === undefined ? "The call was not sent to the server." : "The request was not sent to the server.";
  return (
    `mcp-lint withheld the ${what} ${JSON.stringify(neutralize(entry.tool))}: ${withheldReason(entry)} (${entry.kinds.join(", ")}). ` +
    `${sent} The user must review the change before this ${what} can be used; until then, do not try to get around this refusal.`
  );
}

function withheldReason(entry: Withheld): string {
  const what = entry.subject ?? "tool";
  return entry.reasons.includes("not_in_lock")
    ? `it is a new ${what} that was never approved`
    : entry.reasons.includes("duplicate")
      ? `the server lists more than one ${what} with this name`
      : entry.reasons.includes("hidden_text") && entry.reasons.length === 1
        ? "its definition contains hidden text"
        : "its definition changed since it was approved";
}

/** The text a `resources/read` gets when the URI fits a withheld template. Like withheldCallText, it names no command. */
export function withheldTemplateReadText(uri: string, template: Withheld): string {
  return (
    `mcp-lint did not send this read of ${JSON.stringify(neutralize(uri))}: it fits the resource template ${JSON.stringify(neutralize(template.tool))}, ` +
    `which mcp-lint withheld: ${withheldReason(template)} (${template.kinds.join(", ")}). ` +
    "The user must review the change before it can be used; until then, do not try to get around this refusal."
  );
}

/** The text a caller gets while no comparison stands (the last read of the list failed); the cause is in the proxy's log only. */
export const UNREAD_CALL_TEXT =
  "mcp-lint did not send this call: the server's tool list could not be read whole, so no tool is served until it can be. The reason is in the proxy's log.";

/** The text a caller gets for a name the compared list does not hold. */
export function notListedCallText(name: string): string {
  return `mcp-lint did not send this call: the server does not list a tool named ${JSON.stringify(neutralize(name))}, and only listed, approved tools are served.`;
}

/** The text a `prompts/get` gets for a name the compared list does not hold. */
export function notListedPromptText(name: string): string {
  return `mcp-lint did not send this request: the server does not list a prompt named ${JSON.stringify(neutralize(name))}, and only listed, approved prompts are served.`;
}

/** The text a `resources/read` gets for a URI that is neither listed nor fits an approved template. */
export function notListedReadText(uri: string): string {
  return (
    `mcp-lint did not send this read: the server lists no resource ${JSON.stringify(neutralize(uri))} and no approved resource template fits it, ` +
    "and only listed, approved resources are read."
  );
}

/** Whether a `resources/read` may reach the server: yes, no for a withheld resource or template, or no for a URI nothing approved stands for. */
export type ReadJudgement = { allowed: true } | { allowed: false; withheld: Withheld } | { allowed: false; withheld: null };

/**
 * Judge a `resources/read` of `uri` by the last verdict. A URI the server lists and the verdict
 * serves is read. A URI that is a withheld resource in another spelling (case, escapes, dot
 * segments, slashes: see looseUri), or fits a withheld template, is refused: a server may read
 * either spelling as the withheld resource. A URI that fits a served template (unchanged, or
 * changed below `--fail-on`) is read, as servers read resources they do not list. Anything else is
 * refused: only what was approved reaches the server. With neither section pinned every read passes;
 * with one of them pinned, reads are refused only for what that one withheld.
 */
export function judgeRead(entries: EntryVerdicts, uri: string): ReadJudgement {
  const resources = entries.resources;
  const templates = entries.resourceTemplates;
  if (resources === null && templates === null) return { allowed: true };
  if (resources?.keys.has(uri) === true) return { allowed: true };
  const loose = looseUri(uri);
  for (const entry of resources?.withheld.values() ?? []) if (looseUri(entry.tool) === loose) return { allowed: false, withheld: entry };
  // A template too long to match is taken to fit: a refusal, never a way around one.
  for (const entry of templates?.withheld.values() ?? []) if (matchTemplate(entry.tool, uri, true) !== "no") return { allowed: false, withheld: entry };
  if (resources === null || templates === null) return { allowed: true };
  const fits = templates.served.some((template) => matchTemplate(template.uriTemplate as string, uri) === "yes");
  return fits ? { allowed: true } : { allowed: false, withheld: null };
}
