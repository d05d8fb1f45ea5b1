/** The structural diff of two schemas a reviewer reads: JSON paths added, removed and changed. */

import { atomizeChangeset, diff } from "json-diff-ts";
import { clip, visible } from "./visible.js";

const MAX_LINES = 30;

/** Lines like `+ $.properties.notes = {"type":"string"}`, at most 30, computed with json-diff-ts. */
export function schemaDiffLines(before: unknown, after: unknown): string[] {
  const wrap = (value: unknown) => ({ schema: value === undefined ? null : value });
  const atoms = atomizeChangeset(diff(wrap(before), wrap(after)));
  const lines = atoms.map((atom) => {
    const path = visible(atom.path.replace(/^\$\.schema/, "$"));
    const show = (value: unknown) => clip(visible(JSON.stringify(value) ?? "null"), 100);
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
