/** The structural diff of two schemas a reviewer reads: JSON paths added, removed and changed. */

import { atomizeChangeset, diff } from "json-diff-ts";
import { pushAll } from "../arrays.js";
import { neutralize } from "../text/neutralize.js";
import { thousands } from "../numbers.js";

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
  // json-diff-ts's diff is quadratic in the keys of one object (it concatenates its change list
  // per key), so a schema pair past MAX_DIFF_VALUES gets one line instead; every change in it is
  // still reported by the lock's own comparison.
  const values = Math.max(countValues(before, MAX_DIFF_VALUES), countValues(after, MAX_DIFF_VALUES));
  if (values > MAX_DIFF_VALUES)
    return [`(structural diff not shown: a schema holds more than ${thousands(MAX_DIFF_VALUES)} values; each change is listed on its own)`];
  // `required` is a set: compared by name, not by index, and shown as one line of names added and dropped.
  const sets = requiredSets(before, after);
  const changeset = diff({ schema: sets.before }, { schema: sets.after });
  // atomizeChangeset is quadratic in the number of changes (it rebuilds its result list per
  // change: 150,000 changed properties took minutes), and only MAX_LINES atoms are shown: count
  // every atom, atomize a copy cut to the atoms shown, and say how many more there are.
  const total = countAtoms(changeset, undefined);
  const atoms = atomizeChangeset(firstAtoms(changeset, undefined, { left: MAX_LINES }) as Changeset);
  const lines = atoms.map((atom) => {
    const path = neutralize(atom.path.replace(/^\$\.schema/, "$"));
    if (atom.type === "ADD") return `+ ${path} = ${show(atom.value)}`;
    if (atom.type === "REMOVE") return `- ${path} (was ${show(atom.value)})`;
    return `~ ${path}: ${show(atom.oldValue)} -> ${show(atom.value)}`;
  });
  if (total > lines.length) lines.push(`... ${total - lines.length} more`);
  return [...sets.lines, ...lines];
}

/**
 * Copies of two schemas where every `required` list both sides hold at the same place is taken out of the
 * structural diff, with a line `~ $.path.required: + name, - type` for each list whose names differ.
 */
function requiredSets(before: unknown, after: unknown): { before: unknown; after: unknown; lines: string[] } {
  const lines: string[] = [];
  const copy = (value: unknown, other: unknown, path: string, side: "before" | "after", depth: number): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => copy(item, Array.isArray(other) ? other[i] : undefined, `${path}[${i}]`, side, depth + 1));
    if (typeof value !== "object" || value === null || depth > 200) return value;
    const out: { [key: string]: unknown } = {};
    const peer = typeof other === "object" && other !== null && !Array.isArray(other) ? (other as { [key: string]: unknown }) : undefined;
    for (const key of Object.keys(value)) {
      const mine = (value as { [key: string]: unknown })[key];
      const theirs = peer !== undefined && Object.hasOwn(peer, key) ? peer[key] : undefined;
      if (key === "required" && names(mine) && names(theirs)) {
        if (side === "before") {
          const was = new Set(mine);
          const now = new Set(theirs);
          const changes = [...[...now].filter((n) => !was.has(n)).map((n) => `+ ${n}`), ...[...was].filter((n) => !now.has(n)).map((n) => `- ${n}`)];
          if (changes.length > 0) lines.push(`~ ${neutralize(`${path}.required`)}: ${neutralize(changes.join(", "))}`);
        }
        continue;
      }
      out[key] = copy(mine, theirs, `${path}.${key}`, side, depth + 1);
    }
    return out;
  };
  return { before: copy(before, after, "$", "before", 0), after: copy(after, before, "$", "after", 0), lines };
}

function names(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** Most values (objects, arrays, scalars) in one schema for which the structural diff is computed. */
const MAX_DIFF_VALUES = 20_000;

/** Values in a JSON value, counting stops just past `limit`. */
function countValues(root: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && count <= limit) {
    const value = stack.pop();
    count++;
    if (Array.isArray(value)) pushAll(stack, value as unknown[]);
    else if (typeof value === "object" && value !== null) pushAll(stack, Object.values(value));
  }
  return count;
}

type Changeset = ReturnType<typeof diff>;

/** A node of a json-diff-ts changeset, as far as counting atoms needs. */
interface ChangeNode {
  changes?: unknown;
  embeddedKey?: unknown;
}

/**
 * Atoms atomizeChangeset makes of a changeset (an array of nodes, or one node): one per leaf, and
 * one per child of an array diffed by value (`$value`), whatever that child holds.
 */
function countAtoms(node: unknown, parentKey: unknown): number {
  if (Array.isArray(node)) {
    let count = 0;
    for (const child of node) count += countAtoms(child, parentKey);
    return count;
  }
  const branch = node as ChangeNode;
  if (parentKey === "$value" || !Array.isArray(branch.changes)) return 1;
  return countAtoms(branch.changes, branch.embeddedKey);
}

/** A copy of a changeset holding only its first `budget.left` atoms, in order; null when it holds none. */
function firstAtoms(node: unknown, parentKey: unknown, budget: { left: number }): unknown {
  if (Array.isArray(node)) {
    const kept: unknown[] = [];
    for (const child of node) {
      if (budget.left <= 0) break;
      const copy = firstAtoms(child, parentKey, budget);
      if (copy !== null) kept.push(copy);
    }
    return kept;
  }
  const branch = node as ChangeNode;
  if (parentKey === "$value" || !Array.isArray(branch.changes)) {
    budget.left--;
    return node;
  }
  const changes = firstAtoms(branch.changes, branch.embeddedKey, budget) as unknown[];
  return changes.length === 0 ? null : { ...branch, changes };
}
