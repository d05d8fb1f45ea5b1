/** Changes repeated across tools: the same edit made to many tools is one thing to review, not many. Pure. */

import type { Change } from "../lock/kinds.js";

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
 * change carrying a whole definition (a new or removed tool) is never the same as another's.
 */
export function sameness(change: Change): string | null {
  if (change.tool === null || change.args.definition !== undefined) return null;
  return JSON.stringify([change.kind, change.severity, change.subject ?? "tool", change.server ?? null, change.path ?? null, change.args]);
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
