/** The structural diff of two schemas a reviewer reads: JSON paths added, removed and changed. */

import { atomizeChangeset, diff } from "json-diff-ts";
import { neutralize } from "./neutralize.js";

const MAX_LINES = 60;
const MAX_VALUE_SHOWN = 300;

function show(value: unknown): string {
  const text = neutralize(JSON.stringify(value) ?? "null");
  return text.length <= MAX_VALUE_SHOWN ? text : `${text.slice(0, MAX_VALUE_SHOWN)}...(${text.length - MAX_VALUE_SHOWN} more characters)`;
}

/**
 * Lines like `+ $.properties.notes = {"type":"string"}`, computed with json-diff-ts. A schema added
 * or removed as a whole is one line. Text the model reads is reported whole by its own change; this
 * diff is the structural picture, so long values and long diffs are cut.
 */
export function schemaDiffLines(before: unknown, after: unknown): string[] {
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [`+ $ (new schema) = ${show(after)}`];
  if (after === undefined) return [`- $ (schema removed; was ${show(before)})`];
  const atoms = atomizeChangeset(diff({ schema: before }, { schema: after }));
  const lines = atoms.map((atom) => {
    const path = neutralize(atom.path.replace(/^\$\.schema/, "$"));
    if (atom.type === "ADD") return `+ ${path} = ${show(atom.value)}`;
    if (atom.type === "REMOVE") return `- ${path} (was ${show(atom.value)})`;
    return `~ ${path}: ${show(atom.oldValue)} -> ${show(atom.value)}`;
  });
  if (lines.length > MAX_LINES) {
    const extra = lines.length - MAX_LINES;
    return [...lines.slice(0, MAX_LINES), `... ${extra} more`];
  }
  return lines;
}
