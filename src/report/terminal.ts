/** The terminal report: one line per changed tool, then each change with the diff a reviewer needs. */

import type { Lockfile } from "../lock/format.js";
import type { Change, Severity } from "../lock/kinds.js";
import { countBySeverity } from "../lock/engine.js";
import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { ownField } from "../lock/snapshot.js";
import { capPath, neutralize, neutralizeLines, showNameCapped } from "../text/neutralize.js";
import { PLAIN_STYLE, paint, type TerminalStyle, wrapLine } from "./style.js";
import { changedSpots, sameness, splitRepeated } from "./repeated.js";
import { maxOf, pushAll } from "../arrays.js";
import { catalogGroups, toolTexts } from "./first-lock.js";
import { changeLines, type LineDiffStyle } from "./change-lines.js";

/** Everything the report shows. */
export interface ReportInput {
  mode: "check" | "lock";
  lockPath: string;
  snapshot: ServerSnapshot;
  lock: Lockfile | null;
  changes: readonly Change[];
  notes: readonly Note[];
  /** Structural schema diff (json-diff-ts), passed in only when a schema changed so it loads only then; with `pointer`, of what sits there. */
  schemaDiff?: (before: unknown, after: unknown, pointer?: string) => string[];
  /** S8 hidden-text findings shown next to the changes (see cli/hidden-text.ts); counted in the summary line. */
  hiddenText?: readonly HiddenTextNote[];
  /** `lock --brief`: a first lock lists only each tool's description and the instructions, not every string. */
  brief?: boolean;
  /** What the launch runs (package, tree, provenance), or why nothing is pinned; one line under the header. */
  artifactLine?: string | null;
}

/** One S8 finding in the lock report; `message` is already inert (built by the linter's messages). */
export interface HiddenTextNote {
  tool: string | null;
  severity: Severity;
  message: string;
  /** The JSON Pointer the finding is at (null: the instructions), raw; with `bare`, the first-lock listing shows the finding under that string. */
  path?: string | null;
  /** `message` without its place, for a line right under the string it was found in. */
  bare?: string;
}

/**
 * An observation that is not a change: a tool SDK 1.x clients would reject (an error: no client of
 * that SDK can call any tool of the list). Counted in the closing line, never a reason to refuse.
 */
export interface Note {
  tool: string | null;
  severity: "info" | "error";
  message: string;
}

/** Kinds whose report shows a structural schema diff. */
export const SCHEMA_KINDS: ReadonlySet<string> = new Set(["schema_widened", "schema_changed", "schema_text_changed", "output_schema_changed"]);

/** Longest tool name, server name or version shown; a 2 MB name must not flood the report. */
export const MAX_NAME_SHOWN = 128;

/** A server-chosen name, made inert and capped. */
export function showName(name: string): string {
  return showNameCapped(name, MAX_NAME_SHOWN);
}

/** One line naming the server and what was compared. */
export function headerLine(input: ReportInput): string {
  const { snapshot } = input;
  const who = snapshot.name === null ? "server" : `server ${showName(snapshot.name)}${snapshot.version === null ? "" : ` ${showName(snapshot.version)}`}`;
  const how = snapshot.transport === "file" ? "from file" : `over ${snapshot.transport}`;
  const count = `${snapshot.tools.length} tool${snapshot.tools.length === 1 ? "" : "s"}`;
  return `mcp-lint lock${input.mode === "check" ? " --check" : ""}: ${who} ${how}, ${count}; lock ${neutralize(input.lockPath)}`;
}

/** The closing count line. */
export function summaryLine(changes: readonly Change[], hiddenText: readonly HiddenTextNote[] = [], notes: readonly Note[] = []): string {
  const counts = countBySeverity(changes);
  for (const note of hiddenText) counts[note.severity]++;
  for (const note of notes) counts[note.severity]++;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${counts.info} info`;
}

const SEVERITY_COLOUR = { error: "red", warning: "yellow", info: "cyan" } as const;
const INDENT_DETAIL = " ".repeat(13);

/** Render the whole report. Server text is neutralized; colour and wrapping follow `style`. */
export function renderTerminal(input: ReportInput, style: TerminalStyle = PLAIN_STYLE): string {
  const lines: string[] = [headerLine(input)];
  if (input.artifactLine != null) lines.push(input.artifactLine);
  lines.push("");
  const { repeated, rest } = splitRepeated(input.changes);
  const groups = groupByTool({ ...input, changes: rest });
  const severity = severityPainter(style);

  if (input.changes.length > 0) {
    pushAll(lines, overviewLines(input.changes, severity));
    lines.push("");
  }
  const diffStyle = terminalDiffStyle(style);
  // The same edit to many tools is read once, with the names it applies to.
  // Changes repeated in the very same names are one block.
  const byNames = new Map<string, { subject: string; names: string[]; changes: Change[] }>();
  for (const group of repeated) {
    const subject = group.change.subject ?? "tool";
    const key = JSON.stringify([subject, group.names]);
    const entry = byNames.get(key) ?? { subject, names: group.names, changes: [] };
    entry.changes.push(group.change);
    byNames.set(key, entry);
  }
  for (const { subject, names, changes } of byNames.values()) {
    lines.push(paint(style, "bold", `${names.length} ${subject}s: ${namesList(names)}`));
    for (const change of changes) {
      pushAll(lines, changeBlock(change, diffStyle, severity));
      // A repeated structural change shows the part of the diff it is about, the same in every tool named.
      for (const line of spotDiffs(input, change)) lines.push(`${INDENT_DETAIL}${line}`);
    }
    lines.push("");
  }
  for (const [key, changes] of groups) pushAll(lines, groupLines(input, key, changes, style));
  if (input.lock === null) {
    pushAll(lines, firstLockLines(input, severity));
    lines.push("");
  } else if (input.changes.length === 0) {
    lines.push("No changes.", "");
  }
  lines.push(summaryLine(input.changes, input.hiddenText, input.notes));
  return `${lines.flatMap((line) => wrapLine(line, style.width)).join("\n")}\n`;
}

/** Names a repeated change applies to, capped so a 500-tool server stays readable (--json lists every one). */
const MAX_NAMES_LISTED = 30;

function namesList(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_LISTED).map((name) => showName(name));
  const more = names.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? ` and ${more} more (every one is in --json)` : ""}`;
}

/** One group of the report as `lock --review` walks it: what it is about, its changes, and its block of the report. */
export interface ReportGroup {
  /** The tool, prompt, resource or template name; null for the server itself. */
  name: string | null;
  /** "tool", "prompt", "resource" or "resource template" (server-level groups say "tool", as the lock keys them). */
  subject: string;
  /** How the report names it: `get_weather`, `prompt summarize`, `(server)` (inert, capped). */
  label: string;
  changes: readonly Change[];
  /** The group's block exactly as the full report shows it. */
  text: string;
}

/** The report's per-tool blocks, one per group, in the report's order. */
export function reportGroups(input: ReportInput, style: TerminalStyle = PLAIN_STYLE): ReportGroup[] {
  return [...groupByTool(input)].map(([key, changes]) => ({
    name: key === null ? null : nameOf(key),
    subject: key === null ? "tool" : subjectOf(key),
    label: key === null ? "(server)" : showName(labelOf(key)),
    changes,
    text: `${groupLines(input, key, changes, style)
      .flatMap((line) => wrapLine(line, style.width))
      .join("\n")}\n`,
  }));
}

/** One group's block: its name, each change with its diff, notes, hidden text, schema diffs, a blank line. */
function groupLines(input: ReportInput, key: GroupKey, changes: readonly Change[], style: TerminalStyle): string[] {
  const lines: string[] = [];
  const severity = severityPainter(style);
  const diffStyle = terminalDiffStyle(style);
  const tool = key === null ? null : nameOf(key);
  const isTool = key === null || subjectOf(key) === "tool";
  lines.push(key === null ? "(server)" : paint(style, "bold", neutralize(showNameCapped(labelOf(key), MAX_NAME_SHOWN), { lineStart: true })));
  for (const change of changes) pushAll(lines, changeBlock(change, diffStyle, severity));
  for (const note of isTool ? input.notes.filter((item) => item.tool === tool) : []) {
    lines.push(`  ${severity(note.severity, 8)}${pad(note.severity === "error" ? "client-sdk1-rejects" : "", 23)}${neutralize(note.message)}`);
  }
  for (const hit of isTool ? (input.hiddenText ?? []).filter((item) => item.tool === tool) : []) {
    lines.push(`  ${severity(hit.severity, 8)}${pad("S8 hidden_text", 23)}${hit.message}`);
  }
  if (tool !== null && isTool && changes.some((change) => SCHEMA_KINDS.has(change.kind))) {
    pushAll(lines, schemaDiffs(input, tool, changes));
  }
  lines.push("");
  return lines;
}

/** A group of the report: a tool, prompt, resource or template by name (null: the server itself). */
type GroupKey = string | null;

function keyOf(change: Change): GroupKey {
  return change.tool === null ? null : `${change.subject ?? "tool"}\u0000${change.tool}`;
}

function subjectOf(key: string): string {
  return key.slice(0, key.indexOf("\u0000"));
}

function nameOf(key: string): string {
  return key.slice(key.indexOf("\u0000") + 1);
}

/** How a group is named: a tool by its name, anything else with what it is ("prompt summarize"). */
function labelOf(key: string): string {
  const subject = subjectOf(key);
  return subject === "tool" ? nameOf(key) : `${subject} ${nameOf(key)}`;
}

/** Changes and notes by tool (then prompts, resources, templates), in name order, server-level last. */
function groupByTool(input: ReportInput): Map<GroupKey, Change[]> {
  const groups = new Map<GroupKey, Change[]>();
  for (const change of input.changes) {
    const key = keyOf(change);
    const group = groups.get(key);
    if (group) group.push(change);
    else groups.set(key, [change]);
  }
  const toolKey = (tool: string | null): GroupKey => (tool === null ? null : `tool\u0000${tool}`);
  for (const note of input.notes) if (!groups.has(toolKey(note.tool))) groups.set(toolKey(note.tool), []);
  for (const hit of input.hiddenText ?? []) if (!groups.has(toolKey(hit.tool))) groups.set(toolKey(hit.tool), []);
  const order = [...groups.keys()].sort((a, b) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1));
  return new Map(order.map((key) => [key, groups.get(key) ?? []]));
}

/** The opening overview: one line per changed tool (or prompt, resource, template) with its top severity and the kinds of change. */
function overviewLines(changes: readonly Change[], severity: (level: Severity, width: number) => string): string[] {
  const byKey = new Map<GroupKey, Change[]>();
  for (const change of changes) {
    const key = keyOf(change);
    const group = byKey.get(key);
    if (group) group.push(change);
    else byKey.set(key, [change]);
  }
  const rank = { info: 0, warning: 1, error: 2 } as const;
  const perKey = [...byKey].map(([key, group]) => {
    const top = group.reduce<Severity>((best, change) => (rank[change.severity] > rank[best] ? change.severity : best), "info");
    // Names whose changes are all the same as another's share one row.
    const signatures = group.map((change) => sameness(change));
    const same = key === null || signatures.includes(null) ? null : `${subjectOf(key)}\u0000${JSON.stringify(signatures.sort())}`;
    return { key, top, kinds: [...new Set(group.map((change) => change.kind))].join(", "), same };
  });
  const merged = new Map<string, { key: GroupKey; top: Severity; kinds: string; keys: string[] }>();
  const rows: { key: GroupKey; top: Severity; kinds: string; keys: string[] }[] = [];
  for (const row of perKey) {
    const existing = row.same === null ? undefined : merged.get(row.same);
    if (existing !== undefined) existing.keys.push(row.key as string);
    else {
      const entry = { key: row.key, top: row.top, kinds: row.kinds, keys: row.key === null ? [] : [row.key] };
      rows.push(entry);
      if (row.same !== null) merged.set(row.same, entry);
    }
  }
  rows.sort((a, b) => rank[b.top] - rank[a.top] || (a.key === b.key ? 0 : a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : 1));
  const names = rows.map((row) =>
    row.key === null
      ? "(server)"
      : row.keys.length > 1
        ? `${row.keys.length} ${subjectOf(row.key)}s: ${namesList(row.keys.map(nameOf))}`
        : showName(labelOf(row.key)),
  );
  const width = Math.min(
    40,
    maxOf(
      names.map((name) => name.length),
      0,
    ) + 2,
  );
  const count = (subject: string, word: string) => {
    const n = rows.filter((row) => row.key !== null && subjectOf(row.key) === subject).reduce((sum, row) => sum + row.keys.length, 0);
    return n === 0 ? [] : [`${n} ${word}${n === 1 ? "" : "s"}`];
  };
  const parts = [...count("tool", "tool"), ...count("prompt", "prompt"), ...count("resource", "resource"), ...count("resource template", "resource template")];
  if (rows.some((row) => row.key === null)) parts.push("the server");
  const title = `Changed: ${parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`}`;
  return [
    title,
    ...rows.map(
      (row, index) => `  ${severity(row.top, 9)}${pad(names[index] as string, width)}${(names[index] as string).length >= width ? " " : ""}${row.kinds}`,
    ),
  ];
}

function terminalDiffStyle(style: TerminalStyle): LineDiffStyle {
  return {
    removed: (text) => paint(style, "red", `[-${text}-]`),
    inserted: (text) => paint(style, "green", `{+${text}+}`),
    removedLine: (text) => paint(style, "red", text),
    insertedLine: (text) => paint(style, "green", text),
  };
}

/** A severity as a padded, coloured column ("note" is never coloured). */
type SeverityPainter = (level: Severity | "note", width: number) => string;

function severityPainter(style: TerminalStyle): SeverityPainter {
  return (level, width) => {
    const text = pad(level, width);
    return level === "note" ? text : paint(style, SEVERITY_COLOUR[level], text);
  };
}

/** One change as report lines: severity, kind and headline, then its block indented under them. */
function changeBlock(change: Change, diffStyle: LineDiffStyle, severity: SeverityPainter): string[] {
  const { headline, lines: block } = changeLines(change, diffStyle);
  return [`  ${severity(change.severity, 8)}${pad(change.kind, 23)}${headline}`, ...block.map((line) => `${INDENT_DETAIL}${line}`)];
}

/** Longest text one listing entry shows; the rest is counted. S8 reads all of it either way. */
export const MAX_ENTRY_SHOWN = 20_000;

/**
 * On a first lock there is nothing to compare: show all the text being recorded, so it gets a look.
 * With `brief`, each tool's description and the instructions; otherwise every string the model reads,
 * by tool, at its JSON Pointer, each once, with the S8 findings in it right below (they are also
 * listed with their tool above, as on every lock run).
 */
function firstLockLines(input: ReportInput, severity: (level: Severity, width: number) => string): string[] {
  const { snapshot } = input;
  const lines = ["Recording (no lock yet):"];
  // Findings by tool and pointer, so the listing stays linear however many there are.
  const byPlace = new Map<string, HiddenTextNote[]>();
  const place = (tool: string | null, path: string | null) => `${tool === null ? "" : `t${tool}`}\u0000${path ?? ""}`;
  for (const note of input.brief === true ? [] : (input.hiddenText ?? [])) {
    if (note.bare === undefined) continue;
    const key = place(note.tool, note.path ?? null);
    const list = byPlace.get(key);
    if (list) list.push(note);
    else byPlace.set(key, [note]);
  }
  const findings = (tool: string | null, at: readonly (string | null)[]) => {
    for (const path of at) {
      const key = place(tool, path);
      for (const note of byPlace.get(key) ?? []) lines.push(`      ${severity(note.severity, 8)}S8 ${path === at[0] ? note.bare : note.message}`);
      byPlace.delete(key);
    }
  };
  const entry = (at: string, text: string) => {
    const cut = text.length > MAX_ENTRY_SHOWN ? MAX_ENTRY_SHOWN - (isHighSurrogate(text.charCodeAt(MAX_ENTRY_SHOWN - 1)) ? 1 : 0) : text.length;
    const shownLines = neutralizeLines(text.slice(0, cut));
    if (cut < text.length) shownLines[shownLines.length - 1] += `...(${text.length - cut} more characters)`;
    const [first, ...others] = shownLines;
    lines.push(`    ${capPath(neutralize(at), MAX_NAME_SHOWN)}: ${first ?? ""}`, ...others.map((line) => `      ${line}`));
  };
  for (const tool of snapshot.tools) {
    const name = String(tool.name);
    lines.push(`  ${showName(name)}`);
    if (input.brief === true) {
      const description = ownField(tool, "description");
      if (typeof description === "string")
        pushAll(
          lines,
          neutralizeLines(description).map((line) => `      ${line}`),
        );
      continue;
    }
    findings(name, ["/name"]);
    for (const item of toolTexts(tool)) {
      entry(item.at, item.text);
      findings(name, [item.at, ...(item.also ?? [])]);
    }
  }
  const { instructions } = snapshot;
  if (!instructions.known) lines.push("  instructions: not known (not in the input)");
  else if (instructions.text === null) lines.push("  instructions: none");
  else {
    lines.push("  instructions:", ...neutralizeLines(instructions.text).map((line) => `      ${line}`));
    findings(null, [null]);
  }
  if (input.brief !== true) {
    for (const group of catalogGroups(snapshot)) {
      lines.push(`  ${group.subject} ${showName(group.name)}`);
      for (const item of group.texts) entry(item.at, item.text);
    }
  }
  return lines;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Most diff lines a repeated structural change shows; the places past them are counted. */
const MAX_SPOT_LINES = 60;

/** The diff at each place a repeated structural schema change is at (its first tool's, the same in every one). */
function spotDiffs(input: ReportInput, change: Change): string[] {
  if (input.schemaDiff === undefined) return [];
  const spots = changedSpots(change) ?? [];
  const lines: string[] = [];
  for (const [index, spot] of spots.entries()) {
    if (lines.length >= MAX_SPOT_LINES) {
      lines.push(`... the diff at ${spots.length - index} more place${spots.length - index === 1 ? "" : "s"}`);
      break;
    }
    pushAll(lines, input.schemaDiff(change.args.before, change.args.after, spot.pointer));
  }
  return lines;
}

function schemaDiffs(input: ReportInput, tool: string, changes: readonly Change[]): string[] {
  const { schemaDiff } = input;
  if (schemaDiff === undefined) return [];
  const before = input.lock?.tools.get(tool)?.definition;
  const after = input.snapshot.tools.find((definition) => definition.name === tool);
  if (!before || !after) return [];
  const lines: string[] = [];
  for (const field of ["inputSchema", "outputSchema"]) {
    if (!changes.some((change) => change.path?.startsWith(`/${field}`))) continue;
    const diff = schemaDiff(ownField(before as JsonObject, field), ownField(after, field));
    if (diff.length === 0) continue;
    lines.push(`  ${field} diff:`, ...diff.map((line) => `      ${line}`));
  }
  return lines;
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text + " ".repeat(width - text.length);
}
