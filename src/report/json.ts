/** The `--json` report: stable field names, documented in the README. */

import type { Change } from "../lock/kinds.js";
import { countBySeverity } from "../lock/engine.js";
import { changeMessage } from "./messages.js";
import { neutralize } from "../text/neutralize.js";
import { serverJson } from "./json-text.js";
import { textHunks } from "./text-diff.js";
import type { ReportInput } from "./terminal.js";

const TEXT_KINDS: ReadonlySet<string> = new Set(["description_changed", "title_changed", "schema_text_changed", "instructions_changed", "annotations_changed"]);

export { jsonReportText, serverJson } from "./json-text.js";

/** Version of the JSON report's shape; bumped only on an incompatible change. */
export const REPORT_VERSION = 1;

/** Build the JSON report object. `outcome` says what the run did (checked, created, updated, ...). */
export function buildJsonReport(input: ReportInput, outcome: string, exitCode: number): Record<string, unknown> {
  const { snapshot } = input;
  return {
    report_version: REPORT_VERSION,
    mode: input.mode,
    lock: input.lockPath,
    outcome,
    exit_code: exitCode,
    server: serverJson(snapshot),
    summary: countBySeverity(input.changes),
    changes: input.changes.map(changeEntry),
    notes: input.notes.map((note) => ({ tool: note.tool, severity: note.severity, message: neutralize(note.message) })),
  };
}

function changeEntry(change: Change): Record<string, unknown> {
  const { args } = change;
  const entry: Record<string, unknown> = {
    kind: change.kind,
    severity: change.severity,
    tool: change.tool,
    message: changeMessage(change),
    path: change.path ?? null,
  };
  if (change.subject !== undefined) entry.subject = change.subject;
  if (change.server !== undefined) entry.server = change.server;
  if (args.reason !== undefined) entry.reason = args.reason;
  if (args.before !== undefined) entry.before = args.before;
  if (args.after !== undefined) entry.after = args.after;
  if (args.fields !== undefined) entry.fields = args.fields;
  if (args.paths !== undefined) entry.paths = args.paths;
  if (args.renamedFrom !== undefined) entry.renamed_from = args.renamedFrom;
  if (args.count !== undefined) entry.count = args.count;
  if (args.detail !== undefined) entry.detail = args.detail;
  if (args.definition !== undefined) entry.definition = args.definition;
  // Every edit of a text the model reads, whole; values are raw (JSON escapes them), messages are inert.
  if (TEXT_KINDS.has(change.kind) && typeof args.before === "string" && typeof args.after === "string") {
    entry.hunks = textHunks(args.before, args.after);
  }
  return entry;
}
