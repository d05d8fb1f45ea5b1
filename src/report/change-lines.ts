/**
 * One change as a reviewer reads it: a short headline and, for text the model reads, every edit as
 * display lines (line breaks kept as lines, each line made inert). The terminal report shows the same
 * block; the GitHub Action's summary and pull-request comment show it from the JSON report. Pure.
 */

import { isJsonObject, ownField } from "../json/value.js";
import { type Change, SEVERITIES, type Severity } from "../lock/kinds.js";
import { neutralize, neutralizeLines } from "../text/neutralize.js";
import { changeMessage, editCount, WHITESPACE_ONLY } from "./messages.js";
import { type DiffStyle, diffDisplayLines, isRewrite, PLAIN_DIFF_STYLE, textSegments, whitespaceOnly } from "./text-diff.js";

/** The word-diff markers, and how a whole old or new line is marked in a rewrite. */
export interface LineDiffStyle extends DiffStyle {
  removedLine: (text: string) => string;
  insertedLine: (text: string) => string;
}

/** Plain markers (`[-removed-]`, `{+inserted+}`), whole lines as they are. */
export const PLAIN_LINE_STYLE: LineDiffStyle = { ...PLAIN_DIFF_STYLE, removedLine: (text) => text, insertedLine: (text) => text };

/** A change's headline and the lines under it; every line is inert (no control character, no line break). */
export interface ChangeLines {
  headline: string;
  lines: string[];
}

/** What to show for one change: a headline and, for text, every edit as lines. */
export function changeLines(change: Change, style: LineDiffStyle = PLAIN_LINE_STYLE): ChangeLines {
  const { args } = change;
  const textDiff = (what: string): ChangeLines => {
    if (typeof args.before !== "string" || typeof args.after !== "string") return { headline: changeMessage(change), lines: [] };
    const count = editCount(args.before, args.after);
    // The same words in the same order: one line, not a hunk per space.
    if (whitespaceOnly(args.before, args.after)) return { headline: `${what} changed: ${WHITESPACE_ONLY}${count === "" ? "" : ` (${count})`}`, lines: [] };
    const segments = textSegments(args.before, args.after);
    if (isRewrite(args.before, args.after, segments)) {
      // Most of it changed: the old and the new text each read whole, not interleaved word by word.
      const indented = (text: string, mark: (line: string) => string) => neutralizeLines(text).map((line) => `  ${line === "" ? "" : mark(line)}`);
      return {
        headline: `${what} rewritten${count === "" ? "" : ` (${count})`}; the old and the new text in full:`,
        lines: ["before:", ...indented(args.before, style.removedLine), "after:", ...indented(args.after, style.insertedLine)],
      };
    }
    return { headline: `${what} changed${count === "" ? "" : `: ${count}`}`, lines: diffDisplayLines(segments, (text) => neutralize(text), style) };
  };
  switch (change.kind) {
    case "description_changed":
      return textDiff("description");
    case "title_changed":
      return textDiff("title");
    case "instructions_changed":
      if (args.reason === "changed") return textDiff("server instructions");
      if (args.reason === "not_in_lock" && typeof args.after === "string") {
        return { headline: "server instructions not in the lock:", lines: neutralizeLines(args.after) };
      }
      return { headline: changeMessage(change), lines: [] };
    case "schema_text_changed":
      if (args.reason === "text_changed") return textDiff(`text at ${neutralize(change.path ?? "")}`);
      if (args.reason === "text_added" && typeof args.after === "string") {
        return { headline: `new text the model reads at ${neutralize(change.path ?? "")}:`, lines: neutralizeLines(args.after) };
      }
      return { headline: changeMessage(change), lines: [] };
    case "prompt_changed":
    case "resource_changed":
    case "resource_template_changed":
      if (typeof args.before === "string" && typeof args.after === "string") return textDiff(neutralize(change.path ?? ""));
      return { headline: changeMessage(change), lines: [] };
    case "tool_added": {
      const headline = changeMessage({ ...change, args: { ...args, after: undefined } }).replace(/; no description$/, "");
      const lines = typeof args.after === "string" ? ["description:", ...neutralizeLines(args.after).map((line) => `  ${line}`)] : ["no description"];
      const schema = args.definition === undefined ? undefined : ownField(args.definition, "inputSchema");
      if (schema !== undefined) {
        lines.push("input schema:", ...(JSON.stringify(schema, null, 2) ?? "null").split("\n").map((line) => `  ${neutralize(line)}`));
      }
      return { headline, lines };
    }
    default:
      return { headline: changeMessage(change), lines: [] };
  }
}

const SUBJECTS: ReadonlySet<string> = new Set(["prompt", "resource", "resource template"]);

/**
 * A change entry of the `lock --check` JSON report as the change it was written from, for a reader
 * of the report (the GitHub Action) to group and show it as the terminal does. The file comes from
 * a run a server could disturb, so every field is checked and a wrong one is dropped, never trusted:
 * an unknown severity reads as an error.
 */
export function changeFromJson(entry: unknown): Change {
  const field = (key: string) => (isJsonObject(entry) ? ownField(entry, key) : undefined);
  const text = (key: string) => {
    const value = field(key);
    return typeof value === "string" ? value : undefined;
  };
  const strings = (key: string) => {
    const value = field(key);
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
  };
  const severity = text("severity");
  const subject = text("subject");
  const tool = field("tool");
  const count = field("count");
  const detail = field("detail");
  const definition = field("definition");
  const change: Change = {
    kind: (text("kind") ?? "unknown") as Change["kind"],
    severity: severity !== undefined && (SEVERITIES as readonly string[]).includes(severity) ? (severity as Severity) : "error",
    tool: typeof tool === "string" ? tool : null,
    args: {},
  };
  if (subject !== undefined && SUBJECTS.has(subject)) change.subject = subject as NonNullable<Change["subject"]>;
  const server = text("server");
  if (server !== undefined) change.server = server;
  const path = text("path");
  if (path !== undefined) change.path = path;
  const { args } = change;
  if (field("before") !== undefined) args.before = field("before");
  if (field("after") !== undefined) args.after = field("after");
  const reason = text("reason");
  if (reason !== undefined) args.reason = reason;
  const fields = strings("fields");
  if (fields !== undefined) args.fields = fields;
  const paths = strings("paths");
  if (paths !== undefined) args.paths = paths;
  const renamedFrom = text("renamed_from");
  if (renamedFrom !== undefined) args.renamedFrom = renamedFrom;
  if (typeof count === "number" && Number.isSafeInteger(count)) args.count = count;
  if (isJsonObject(detail) && Object.values(detail).every((value) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value)))) {
    args.detail = detail as Record<string, string | number>;
  }
  if (isJsonObject(definition)) args.definition = definition;
  return change;
}
