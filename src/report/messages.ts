/** One-line sentences for changes: the only place change data becomes words. */

import type { Change } from "../lock/kinds.js";
import { SCHEMA_REASONS } from "../schema/reasons.js";
import { clip, locateEdit, visible } from "./visible.js";

const QUOTE = 120;

/** Quote a JSON value for a message: strings visible and clipped, other values as compact JSON. */
export function quote(value: unknown): string {
  if (value === undefined) return "(absent)";
  if (typeof value === "string") return `"${clip(visible(value), QUOTE)}"`;
  return clip(visible(JSON.stringify(value)), QUOTE);
}

/** The largest inserted or replaced part of a text edit, quoted; what was removed when nothing was added. */
function describeTextEdit(before: unknown, after: unknown): string {
  if (typeof before !== "string" || typeof after !== "string") {
    return `${quote(before)} -> ${quote(after)}`;
  }
  const edit = locateEdit(before, after);
  if (edit.inserted === "") return `removed ${quote(edit.removed)}`;
  if (edit.removed === "") return `inserted ${quote(edit.inserted)}`;
  return `replaced ${quote(edit.removed)} with ${quote(edit.inserted)}`;
}

function schemaReason(change: Change): string {
  const reason = change.args.reason;
  const info = reason !== undefined && Object.hasOwn(SCHEMA_REASONS, reason)
    ? SCHEMA_REASONS[reason as keyof typeof SCHEMA_REASONS]
    : undefined;
  const detail = change.args.detail;
  const facts = detail === undefined
    ? ""
    : ` (${Object.keys(detail).map((key) => `${key}: ${quote(detail[key])}`).join(", ")})`;
  return `${info?.summary ?? reason ?? "changed"}${facts}`;
}

const HINT_WORDS: Record<string, string> = {
  readOnlyHint: "read-only",
  idempotentHint: "idempotent",
  destructiveHint: "destructive",
  openWorldHint: "open-world",
};

/** The one-line message for a change. */
export function changeMessage(change: Change): string {
  const { args } = change;
  const at = change.path ?? "";
  switch (change.kind) {
    case "duplicate_tool":
      return `${args.count ?? 2} tools are named ${quote(change.tool)}; a client may pick either one`;
    case "tool_added": {
      const start = typeof args.after === "string" ? clip(visible(args.after), 100) : "(no description)";
      const rename = args.renamedFrom === undefined ? "" : `renamed from ${quote(args.renamedFrom)}; `;
      return `new tool, not in the lock; ${rename}description starts "${start}"`;
    }
    case "tool_removed": {
      const to = args.detail?.renamedTo;
      return to === undefined ? "tool is no longer served" : `tool is no longer served (renamed to ${quote(to)})`;
    }
    case "description_changed":
      return `description changed: ${describeTextEdit(args.before, args.after)}`;
    case "title_changed":
      return `title changed: ${quote(args.before)} -> ${quote(args.after)}`;
    case "schema_text_changed":
      if (args.reason === "text_added" || args.reason === "name_added") return `new text the model reads at ${at}: ${quote(args.after)}`;
      if (args.reason === "text_removed") return `text removed at ${at}: ${quote(args.before)}`;
      return `text at ${at} changed: ${describeTextEdit(args.before, args.after)}`;
    case "schema_widened":
      return `input schema accepts or asks for more at ${at}: ${schemaReason(change)}`;
    case "schema_changed":
      return `input schema changed structurally at ${(args.paths ?? [at]).join(", ")}; review the diff`;
    case "output_schema_changed": {
      const how = args.reason === "added" ? "added" : args.reason === "removed" ? "removed" : args.reason === "widened" ? "widened" : "changed";
      const where = args.paths && args.paths.length > 0 ? ` at ${args.paths.join(", ")}` : "";
      return `output schema ${how}${where}`;
    }
    case "annotations_changed": {
      if (args.reason === "title") return `annotations.title changed (shown to the user): ${quote(args.before)} -> ${quote(args.after)}`;
      const hint = args.reason ?? "";
      if (hint in HINT_WORDS) {
        const safer = args.detail?.safer === 1;
        return `${hint} ${quote(args.before)} -> ${quote(args.after)}${safer ? `: the tool now claims to be ${change.args.reason === "destructiveHint" || change.args.reason === "openWorldHint" ? "not " : ""}${HINT_WORDS[hint]}` : ""}`;
      }
      return `annotations changed${args.fields && args.fields.length > 0 ? `: ${args.fields.join(", ")}` : ""}`;
    }
    case "meta_changed":
      return `${(args.fields ?? []).join(", ")} changed; hosts act on it or show it to users`;
    case "definition_changed":
      return `other fields of the definition changed: ${(args.fields ?? []).map((field) => quote(field)).join(", ")}`;
    case "instructions_changed":
      if (args.reason === "removed") return "server instructions removed";
      if (args.reason === "not_in_lock") return `server instructions not in lock; they start ${quote(args.after)}`;
      return `server instructions changed: ${describeTextEdit(args.before, args.after)}`;
    case "instructions_unchecked":
      return "the lock holds server instructions but this run does not know them (a --from file without \"instructions\"), so they were not checked";
    case "server_changed":
      if (args.reason === "command") return "the launch command changed (compared by hash; the command is never stored)";
      return `server ${args.reason ?? "version"} changed: ${quote(args.before)} -> ${quote(args.after)}`;
  }
}
