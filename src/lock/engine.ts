/** Decide what `lock` and `lock --check` do with a snapshot and the current lock. Pure. */

import { compareWithLock, duplicateNames } from "./compare.js";
import { buildLockfile, type Lockfile, serializeLockfile } from "./format.js";
import type { Change, Severity } from "./kinds.js";
import { severityRank } from "./kinds.js";
import type { ServerSnapshot } from "./snapshot.js";

/** What `lock` decided. */
export type LockOutcome =
  | { status: "created" | "updated" | "unchanged"; text: string }
  | { status: "refused"; reason: "errors"; errorCount: number }
  | { status: "refused"; reason: "duplicates"; names: string[] };

/** Compare the snapshot with the lock; with no lock, only duplicate names can be reported. */
export function compareSnapshot(snapshot: ServerSnapshot, lock: Lockfile | null): Change[] {
  if (lock !== null) return compareWithLock(lock, snapshot);
  return [...duplicateNames(snapshot.tools)].map(([name, count]) => ({
    kind: "duplicate_tool",
    severity: "error",
    tool: name,
    args: { count },
  }));
}

/**
 * Decide whether to write the lock. Duplicate names always refuse (a lock keyed by name cannot hold
 * both); error-level changes refuse unless accepted; warnings and info refresh.
 */
export function planLockWrite(
  snapshot: ServerSnapshot,
  previous: Lockfile | null,
  previousText: string | null,
  changes: readonly Change[],
  accept: boolean,
): LockOutcome {
  const duplicates = [...duplicateNames(snapshot.tools).keys()];
  if (duplicates.length > 0) return { status: "refused", reason: "duplicates", names: duplicates };
  const errorCount = changes.filter((change) => change.severity === "error").length;
  if (previous !== null && errorCount > 0 && !accept) return { status: "refused", reason: "errors", errorCount };
  const text = serializeLockfile(buildLockfile(snapshot, previous));
  if (previous === null) return { status: "created", text };
  return { status: text === previousText ? "unchanged" : "updated", text };
}

/** `--fail-on` levels: a severity, or never. */
export type FailOn = Severity | "never";

/** Exit code of `lock --check`: 1 when any change is at or above the `--fail-on` level. */
export function checkExitCode(changes: readonly Change[], failOn: FailOn): 0 | 1 {
  if (failOn === "never") return 0;
  const floor = severityRank(failOn);
  return changes.some((change) => severityRank(change.severity) >= floor) ? 1 : 0;
}

/** Count changes by severity. */
export function countBySeverity(changes: readonly Change[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const change of changes) counts[change.severity]++;
  return counts;
}
