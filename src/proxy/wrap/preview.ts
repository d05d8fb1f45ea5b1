/** What `wrap --dry-run` and `unwrap --dry-run` print: the changed lines of the entries they edit, never another entry's text, secrets redacted. Pure. */

import { structuredPatch } from "diff";
import { neutralize } from "../../text/neutralize.js";

/** A range of a text, [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** Where the edited entries sit in the text before and after, when the syntax says (JSON); null for whole lines. */
export interface EntrySpans {
  before: readonly Span[] | null;
  after: readonly Span[] | null;
}

/** A changed line past this length is cut to the edited entries' text on it. */
const LONG_LINE = 160;

/**
 * A unified diff of `before` and `after` without context lines. A long changed line (a config
 * written on one line) is cut to the parts of it that belong to an edited entry, so the other
 * entries on it, and their env values and headers, are not shown; `redact` replaces what is left
 * of a secret, and every line is neutralized.
 */
export function previewPatch(path: string, before: string, after: string, spans: EntrySpans, redact: (text: string) => string): string {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: 0 });
  const starts = { before: lineStarts(before), after: lineStarts(after) };
  const out = [`--- ${neutralize(path)}`, `+++ ${neutralize(path)}`];
  for (const hunk of patch.hunks) {
    out.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const sign = line[0];
      const body = line.slice(1);
      if (sign === "-") out.push(`-${shown(body, starts.before[oldLine - 1] ?? 0, spans.before, redact)}`);
      else if (sign === "+") out.push(`+${shown(body, starts.after[newLine - 1] ?? 0, spans.after, redact)}`);
      if (sign === "-" || sign === " ") oldLine++;
      if (sign === "+" || sign === " ") newLine++;
    }
  }
  return `${out.join("\n")}\n`;
}

/** Offsets where each line of a text starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

/** A changed line as shown: whole when short or when entries are not known, else only the edited entries' parts of it. */
function shown(line: string, offset: number, spans: readonly Span[] | null, redact: (text: string) => string): string {
  if (spans === null || line.length <= LONG_LINE) return neutralize(redact(line));
  const parts: string[] = [];
  for (const span of spans) {
    const from = Math.max(span.start, offset) - offset;
    const to = Math.min(span.end, offset + line.length) - offset;
    if (to > from) parts.push(line.slice(from, to));
  }
  if (parts.length === 0) return neutralize(redact(line));
  return `...${parts.map((part) => neutralize(redact(part))).join("...")}...`;
}
