/** The terminal report: changes grouped by tool, each with its message and the diff a reviewer needs. */

import type { Lockfile } from "../lock/format.js";
import type { Change } from "../lock/kinds.js";
import { countBySeverity } from "../lock/engine.js";
import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { ownField } from "../lock/snapshot.js";
import { changeMessage } from "./messages.js";
import { clip, editLines, visible } from "./visible.js";

/** Everything the report shows. */
export interface ReportInput {
  mode: "check" | "lock";
  lockPath: string;
  snapshot: ServerSnapshot;
  lock: Lockfile | null;
  changes: readonly Change[];
  notes: readonly Note[];
  /** Structural schema diff (json-diff-ts), passed in only when a schema changed so it loads only then. */
  schemaDiff?: (before: unknown, after: unknown) => string[];
}

/** An observation that is not a change (for example a tool SDK clients would reject). */
export interface Note {
  tool: string | null;
  severity: "info";
  message: string;
}

/** Kinds whose report shows a structural schema diff. */
export const SCHEMA_KINDS: ReadonlySet<string> = new Set(["schema_widened", "schema_changed", "schema_text_changed", "output_schema_changed"]);
const TEXT_KINDS = new Set(["description_changed", "title_changed", "schema_text_changed", "instructions_changed"]);

/** One line naming the server and what was compared. */
export function headerLine(input: ReportInput): string {
  const { snapshot } = input;
  const who = snapshot.name === null ? "server" : `server ${visible(snapshot.name)}${snapshot.version === null ? "" : ` ${visible(snapshot.version)}`}`;
  const how = snapshot.transport === "file" ? "from file" : `over ${snapshot.transport}`;
  const count = `${snapshot.tools.length} tool${snapshot.tools.length === 1 ? "" : "s"}`;
  return `mcp-lint lock${input.mode === "check" ? " --check" : ""}: ${who} ${how}, ${count}; lock ${visible(input.lockPath)}`;
}

/** The closing count line. */
export function summaryLine(changes: readonly Change[]): string {
  const counts = countBySeverity(changes);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${counts.info} info`;
}

/** Render the whole report as lines of plain ASCII text. */
export function renderTerminal(input: ReportInput): string {
  const lines: string[] = [headerLine(input), ""];
  const groups = new Map<string | null, Change[]>();
  for (const change of input.changes) {
    const group = groups.get(change.tool);
    if (group) group.push(change);
    else groups.set(change.tool, [change]);
  }
  for (const note of input.notes) {
    if (!groups.has(note.tool)) groups.set(note.tool, []);
  }
  const order = [...groups.keys()].sort((a, b) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1));
  for (const tool of order) {
    lines.push(tool === null ? "(server)" : visible(tool));
    const changes = groups.get(tool) ?? [];
    for (const change of changes) {
      lines.push(`  ${pad(change.severity, 8)}${pad(change.kind, 23)}${changeMessage(change)}`);
      if (TEXT_KINDS.has(change.kind) && typeof change.args.before === "string" && typeof change.args.after === "string") {
        const edit = editLines(change.args.before, change.args.after);
        lines.push(`${" ".repeat(12)}before: ${edit.before}`, `${" ".repeat(12)}after:  ${edit.after}`);
      }
    }
    for (const note of input.notes.filter((item) => item.tool === tool)) {
      lines.push(`  ${pad("note", 8)}${pad("", 23)}${note.message}`);
    }
    if (tool !== null && changes.some((change) => SCHEMA_KINDS.has(change.kind))) {
      lines.push(...schemaDiffs(input, tool, changes));
    }
    lines.push("");
  }
  if (input.lock === null) {
    lines.push(...firstLockLines(input.snapshot), "");
  } else if (input.changes.length === 0) {
    lines.push("No changes.", "");
  }
  lines.push(summaryLine(input.changes));
  return `${lines.join("\n")}\n`;
}

/** On a first lock there is nothing to compare: show what is being recorded, so it gets a look. */
function firstLockLines(snapshot: ServerSnapshot): string[] {
  const lines = ["Recording (no lock yet):"];
  for (const tool of snapshot.tools) {
    const description = ownField(tool, "description");
    const start = typeof description === "string" ? ` - ${clip(visible(description), 80)}` : "";
    lines.push(`  ${visible(String(tool.name))}${start}`);
  }
  const { instructions } = snapshot;
  const said = !instructions.known
    ? "not known (not in the input)"
    : instructions.text === null
      ? "none"
      : clip(visible(instructions.text), 80);
  lines.push(`  instructions: ${said}`);
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
