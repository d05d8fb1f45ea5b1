/** Changes repeated across tools: the same edit made to many tools is one thing to review, not many. Pure. */

import type { Change } from "../lock/kinds.js";
import { valueAtPointer } from "../json/value.js";

/** One change made identically to several tools (or prompts, resources, templates of one kind). */
export interface RepeatedChange {
  /** The change as reported for the first tool, in report order. */
  change: Change;
  /** The names it was reported for, in report order. */
  names: string[];
}

/**
 * What makes two changes the same for a reviewer: kind, severity, what they are about, the place
 * inside the definition and every fact the report shows (before and after values included). A
 * change carrying a whole definition (a new or removed tool) is never the same as another's. A
 * structural schema change carries both whole schemas, which differ from tool to tool even when the
 * change does not: it is compared by what sits at its paths instead (the same `$schema` URI edit
 * on nine tools is one change).
 */
export function sameness(change: Change): string | null {
  if (change.tool === null || change.args.definition !== undefined) return null;
  const spots = changedSpots(change);
  const { before, after, ...facts } = change.args;
  const shown = (value: unknown) => (value === undefined ? 0 : [value]);
  const compared =
    spots === null
      ? change.args
      : { ...facts, spots: spots.map((spot) => [spot.pointer, shown(valueAtPointer(before, spot.pointer)), shown(valueAtPointer(after, spot.pointer))]) };
  return JSON.stringify([change.kind, change.severity, change.subject ?? "tool", change.server ?? null, change.path ?? null, compared]);
}

/** Kinds whose `before` and `after` hold the whole input or output schema, with `paths` saying where it changed. */
const WHOLE_SCHEMA_KINDS: ReadonlySet<string> = new Set(["schema_changed", "output_schema_changed"]);

/** A place a schema change is at: a JSON Pointer into the schema `before` and `after` hold. */
export interface ChangedSpot {
  pointer: string;
}

/**
 * The places inside its schema a whole-schema change is at (the schema itself when it names none);
 * null when the change does not carry whole schemas, or a place holds the same on both sides (it is
 * not a literal place in them), so the change can only be compared whole.
 */
export function changedSpots(change: Change): ChangedSpot[] | null {
  const { args } = change;
  const root = change.path;
  if (!WHOLE_SCHEMA_KINDS.has(change.kind) || args.paths === undefined || root === undefined) return null;
  if (args.before === undefined && args.after === undefined) return null;
  if (args.paths.length === 0) return [{ pointer: "" }];
  const spots: ChangedSpot[] = [];
  for (const path of new Set(args.paths)) {
    if (path !== root && !path.startsWith(`${root}/`)) return null;
    const pointer = path.slice(root.length);
    // A place whose value did not change (a path inside a reference's target, say) does not show the change.
    if (JSON.stringify(valueAtPointer(args.before, pointer)) === JSON.stringify(valueAtPointer(args.after, pointer))) return null;
    spots.push({ pointer });
  }
  return spots;
}

/**
 * Split the changes into those repeated in at least `least` names (each group once, the most
 * severe and the most widespread first) and the rest, in their order. JSON and SARIF keep one
 * entry per tool; this is only how the terminal shows them.
 */
export function splitRepeated(changes: readonly Change[], least = 2): { repeated: RepeatedChange[]; rest: Change[] } {
  const groups = new Map<string, RepeatedChange>();
  for (const change of changes) {
    const key = sameness(change);
    if (key === null) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { change, names: [change.tool as string] });
    else if (!group.names.includes(change.tool as string)) group.names.push(change.tool as string);
  }
  const repeated = [...groups.values()].filter((group) => group.names.length >= least);
  const grouped = new Set(repeated.map((group) => sameness(group.change)));
  const rank = { info: 0, warning: 1, error: 2 } as const;
  repeated.sort((a, b) => rank[b.change.severity] - rank[a.change.severity] || b.names.length - a.names.length);
  return { repeated, rest: changes.filter((change) => !grouped.has(sameness(change))) };
}
