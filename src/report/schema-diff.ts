/** The structural diff of two schemas a reviewer reads: JSON paths added, removed and changed. */

import { atomizeChangeset, diff } from "json-diff-ts";
import { pushAll } from "../arrays.js";
import { neutralize } from "../text/neutralize.js";
import { thousands } from "../numbers.js";
import { unescapePointer, valueAtPointer } from "../json/value.js";
import { canonical } from "../schema/json.js";

const MAX_LINES = 60;
const MAX_VALUE_SHOWN = 300;

function show(value: unknown): string {
  const text = neutralize(JSON.stringify(value) ?? "null");
  return text.length <= MAX_VALUE_SHOWN ? text : `${text.slice(0, MAX_VALUE_SHOWN)}...(${text.length - MAX_VALUE_SHOWN} more characters)`;
}

/**
 * Lines like `+ $.properties.notes = {"type":"string"}`, computed with json-diff-ts. A schema added
 * or removed as a whole is one line. Text the model reads is reported whole by its own change; this
 * diff is the structural picture, so long values and long diffs are cut. With `pointer`, only what
 * sits at that JSON Pointer inside both schemas is compared, and lines name it from the schema's root.
 */
export function schemaDiffLines(wholeBefore: unknown, wholeAfter: unknown, pointer = ""): string[] {
  let before = valueAtPointer(wholeBefore, pointer);
  let after = valueAtPointer(wholeAfter, pointer);
  let at = pointer;
  const last = unescapePointer(pointer.slice(pointer.lastIndexOf("/") + 1));
  if (pointer !== "" && SET_KEYWORDS.has(last) && Array.isArray(before) && Array.isArray(after)) {
    // A pointer at an enum or a required list: compared inside its object, so it reads by value.
    at = pointer.slice(0, pointer.lastIndexOf("/"));
    before = { [last]: before };
    after = { [last]: after };
  }
  const root = at === "" ? "$" : neutralize(dollarPath(wholeBefore, wholeAfter, at));
  if (before === undefined && after === undefined) return [];
  if (before === undefined) return [at === "" ? `+ $ (new schema) = ${show(after)}` : `+ ${root} = ${show(after)}`];
  if (after === undefined) return [at === "" ? `- $ (schema removed; was ${show(before)})` : `- ${root} (was ${show(before)})`];
  // json-diff-ts's diff is quadratic in the keys of one object (it concatenates its change list
  // per key), so a schema pair past MAX_DIFF_VALUES gets one line instead; every change in it is
  // still reported by the lock's own comparison.
  const values = Math.max(countValues(before, MAX_DIFF_VALUES), countValues(after, MAX_DIFF_VALUES));
  if (values > MAX_DIFF_VALUES)
    return [`(structural diff not shown: a schema holds more than ${thousands(MAX_DIFF_VALUES)} values; each change is listed on its own)`];
  // `required` and `enum` are sets: compared by value, not by index, each shown as one line.
  const sets = valueSets(before, after, root);
  const changeset = diff({ schema: sets.before }, { schema: sets.after });
  // atomizeChangeset is quadratic in the number of changes (it rebuilds its result list per
  // change: 150,000 changed properties took minutes), and only MAX_LINES atoms are shown: count
  // every atom, atomize a copy cut to the atoms shown, and say how many more there are.
  const total = countAtoms(changeset, undefined);
  const atoms = atomizeChangeset(firstAtoms(changeset, undefined, { left: MAX_LINES }) as Changeset);
  const lines = atoms.map((atom) => {
    const path = neutralize(atom.path.replace(/^\$\.schema/, () => root));
    if (atom.type === "ADD") return `+ ${path} = ${show(atom.value)}`;
    if (atom.type === "REMOVE") return `- ${path} (was ${show(atom.value)})`;
    return `~ ${path}: ${show(atom.oldValue)} -> ${show(atom.value)}`;
  });
  if (total > lines.length) lines.push(`... ${total - lines.length} more`);
  return [...sets.lines, ...lines];
}

/**
 * Copies of two schemas where every `required` and `enum` list both sides hold at the same place is
 * taken out of the structural diff, with one line for each list that changed: json-diff-ts compares
 * arrays by index, so one value dropped from the front of a 15-value enum read as 15 changed values.
 */
function valueSets(before: unknown, after: unknown, root: string): { before: unknown; after: unknown; lines: string[] } {
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
      if (key === "enum" && Array.isArray(mine) && Array.isArray(theirs)) {
        if (side === "before") {
          const line = enumChange(mine, theirs);
          if (line !== null) lines.push(`~ ${neutralize(`${path}.enum`)}: ${line}`);
        }
        continue;
      }
      out[key] = copy(mine, theirs, `${path}.${key}`, side, depth + 1);
    }
    return out;
  };
  return { before: copy(before, after, root, "before", 0), after: copy(after, before, root, "after", 0), lines };
}

/** Keywords whose lists are sets, compared by value. */
const SET_KEYWORDS: ReadonlySet<string> = new Set(["enum", "required"]);

/** Values of one enum change named on its line; the rest are counted. */
const MAX_ENUM_VALUES_SHOWN = 10;

/**
 * An enum's change in words, by value: `lost value "x"`, `new values "y", "z"`, both, or `same values,
 * new order` (or `duplicates changed`) when no value came or went; null when the lists are equal.
 */
function enumChange(before: readonly unknown[], after: readonly unknown[]): string | null {
  const was = new Map(before.map((value) => [canonical(value), value] as const));
  const now = new Map(after.map((value) => [canonical(value), value] as const));
  const lost = [...was].filter(([key]) => !now.has(key)).map(([, value]) => value);
  const gained = [...now].filter(([key]) => !was.has(key)).map(([, value]) => value);
  const listed = (word: string, values: readonly unknown[]) => {
    if (values.length === 0) return [];
    const shown = values.slice(0, MAX_ENUM_VALUES_SHOWN).map(show).join(", ");
    const more = values.length - MAX_ENUM_VALUES_SHOWN;
    return [`${word} value${values.length === 1 ? "" : "s"} ${shown}${more > 0 ? ` and ${thousands(more)} more` : ""}`];
  };
  const parts = [...listed("lost", lost), ...listed("new", gained)];
  if (parts.length > 0) return parts.join("; ");
  const order = (list: readonly unknown[]) => list.map((value) => canonical(value));
  const [old, fresh] = [order(before), order(after)];
  if (old.length === fresh.length && old.every((key, index) => key === fresh[index])) return null;
  const sorted = (keys: string[]) => [...keys].sort().join("\u0000");
  return old.length === fresh.length && sorted(old) === sorted(fresh) ? "same values, new order" : "same values, duplicates changed";
}

/** A JSON Pointer into the schemas in json-diff-ts's notation (`$.properties.a.enum`, `$.anyOf[1]`, `$.properties[a.b]`). */
function dollarPath(before: unknown, after: unknown, pointer: string): string {
  let path = "$";
  let [left, right] = [before, after];
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const token = unescapePointer(raw);
    const inArray = Array.isArray(left) || Array.isArray(right);
    path += inArray && /^\d+$/.test(token) ? `[${token}]` : token.includes(".") ? `[${token}]` : `.${token}`;
    [left, right] = [valueAtPointer(left, `/${raw}`), valueAtPointer(right, `/${raw}`)];
  }
  return path;
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
