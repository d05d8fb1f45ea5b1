/** Decide what one server's part of a lock becomes: ignores applied, changes accepted one tool at a time, partial refreshes. Pure. */

import { artifactJson } from "../artifact/lock-section.js";
import { canonicalSha256 } from "../json/canonical.js";
import { valueAtPointer } from "../json/value.js";
import { duplicateNames } from "./compare.js";
import { compareSnapshot } from "./engine.js";
import { buildLockfile, type IgnoreRule, type Lockfile } from "./format.js";
import type { Change } from "./kinds.js";
import { CHANGE_KINDS } from "./kinds.js";
import { ENTRY_SECTIONS, type JsonObject, type ServerSnapshot, ownField } from "./snapshot.js";

/** Hash of the value at a path of a served definition, as an ignore rule records it (absent differs from null). */
export function ignoredValueSha256(definition: JsonObject | undefined, path: string): string {
  const value = definition === undefined ? undefined : valueAtPointer(definition, path);
  return canonicalSha256(value === undefined ? [] : [value]);
}

/** A change an ignore rule silenced. */
export interface IgnoredChange {
  rule: IgnoreRule;
  change: Change;
}

/**
 * Silence each change that an ignore rule grants: same tool, path and kind, and the served value
 * at the path still hashes to what the rule was granted for. A rule that silences nothing is
 * stale and becomes an `ignore_stale` warning.
 */
export function applyIgnores(
  changes: readonly Change[],
  rules: readonly IgnoreRule[],
  snapshot: ServerSnapshot,
): { changes: Change[]; ignored: IgnoredChange[]; stale: IgnoreRule[] } {
  if (rules.length === 0) return { changes: [...changes], ignored: [], stale: [] };
  const served = new Map(snapshot.tools.map((tool) => [tool.name as string, tool]));
  const used = new Set<IgnoreRule>();
  const ignored: IgnoredChange[] = [];
  const kept: Change[] = [];
  for (const change of changes) {
    const rule =
      change.subject === undefined && change.tool !== null && change.path !== undefined
        ? rules.find(
            (candidate) =>
              candidate.tool === change.tool &&
              candidate.path === change.path &&
              candidate.kind === change.kind &&
              candidate.valueSha256 === ignoredValueSha256(served.get(change.tool as string), candidate.path),
          )
        : undefined;
    if (rule === undefined) {
      kept.push(change);
    } else {
      used.add(rule);
      ignored.push({ rule, change });
    }
  }
  const stale = rules.filter((rule) => !used.has(rule));
  for (const rule of stale) {
    kept.push({
      kind: "ignore_stale",
      severity: CHANGE_KINDS.ignore_stale.severity,
      tool: rule.tool,
      path: rule.path,
      args: { reason: rule.kind, detail: { because: rule.reason } },
    });
  }
  return { changes: kept, ignored, stale };
}

/** What to do with one server's part of the lock. */
export interface ServerPlan {
  /** Changes still reported (ignored ones removed, stale ignores added). */
  changes: Change[];
  ignored: IgnoredChange[];
  /** The entry to write, or null when nothing may be written for this server. */
  entry: Lockfile | null;
  /**
   * created / updated / unchanged: written or already current. refused: error-level changes not
   * accepted, or duplicate names; nothing is written. partial: changes accepted by name
   * (--accept-tool) were written, other error-level changes were refused.
   */
  status: "created" | "updated" | "unchanged" | "refused" | "partial";
  /** Error-level changes not accepted (they keep the locked definitions). */
  refused: Change[];
  /** Blocking findings (hidden text) not accepted. */
  refusedFindings: number;
  /** Names served more than once; a lock keyed by name cannot hold them. */
  duplicates: string[];
}

/** How the user decided about this server's changes. */
export interface PlanOptions {
  /** `--accept`: every change is accepted. */
  accept: boolean;
  /** `--accept-tool`: the tools or prompts whose changes are accepted. */
  acceptNames: ReadonlySet<string>;
  /** New ignore rules from `--ignore`. */
  newIgnores: readonly IgnoreRule[];
  /** Format to write. */
  version: Lockfile["version"];
  /** The comparison of this snapshot with `previous`, when the caller has it already. */
  compared?: readonly Change[];
  /**
   * Error-level findings outside the comparison that must be accepted too (hidden text in a new or
   * changed tool, or in the instructions when `tool` is null), like an error-level change of it.
   */
  blocking?: readonly { tool: string | null }[];
}

/**
 * Plan one server. Error-level changes refuse unless accepted (all by `--accept`, by name with
 * `--accept-tool`); what is accepted, and warnings and info, refresh. A refused tool, prompt or
 * the instructions keep their locked form, so the rest can still be written.
 */
export function planServer(snapshot: ServerSnapshot, previous: Lockfile | null, options: PlanOptions): ServerPlan {
  const rules = [...(previous?.ignores ?? []), ...options.newIgnores];
  const compared = applyIgnores(options.compared ?? compareSnapshot(snapshot, previous), rules, snapshot);
  const changes = compared.changes;
  const duplicates = [...duplicateNames(snapshot.tools).keys()];
  if (duplicates.length > 0) return { changes, ignored: compared.ignored, entry: null, status: "refused", refused: [], refusedFindings: 0, duplicates };

  const acceptedName = (tool: string | null) => options.accept || (tool !== null && options.acceptNames.has(tool));
  const accepted = (change: Change) => acceptedName(change.tool);
  // A first lock has nothing to protect from changes; only hidden text must be accepted there.
  const refused = previous === null ? [] : changes.filter((change) => change.severity === "error" && change.kind !== "ignore_stale" && !accepted(change));
  const refusedFindings = (options.blocking ?? []).filter((finding) => !acceptedName(finding.tool));
  const held = new Set(refused.map((change) => `${change.subject ?? "tool"}\u0000${change.tool ?? ""}`));
  for (const finding of refusedFindings) held.add(`tool\u0000${finding.tool ?? ""}`);
  // A tool with an active ignore keeps its locked definition, so the ignore keeps meaning what it was granted for.
  for (const { change } of compared.ignored) if (!accepted(change)) held.add(`tool\u0000${change.tool ?? ""}`);

  const filtered = keepLocked(snapshot, previous, held);
  const entry = buildLockfile(filtered, previous, options.version);
  const acceptedTools = new Set(changes.filter(accepted).map((change) => change.tool));
  const blocked = refused.length + refusedFindings.length > 0;
  // Stale rules are dropped on a write that goes through; a refused run leaves them for the review.
  entry.ignores = [
    ...(previous?.ignores ?? []).filter((rule) => !acceptedTools.has(rule.tool) && (blocked || !compared.stale.includes(rule))),
    ...options.newIgnores,
  ];
  const base = { changes, ignored: compared.ignored, refused, refusedFindings: refusedFindings.length, duplicates };
  if (blocked) {
    // A first lock is all or nothing: a lock without the refused tool would look complete.
    if (previous === null) return { ...base, entry: null, status: "refused" };
    // A refusal writes nothing, whatever else differs (a new launch path, a new version, warnings):
    // only a change the user accepted by name (--accept-tool) is written beside a refused one.
    const acceptedByName = changes.some((change) => change.tool !== null && options.acceptNames.has(change.tool));
    if (!acceptedByName || sameLock(entry, previous)) return { ...base, entry: null, status: "refused" };
    return { ...base, entry, status: "partial" };
  }
  return { ...base, entry, status: previous === null ? "created" : sameLock(entry, previous) ? "unchanged" : "updated" };
}

/** The snapshot with held items replaced by their locked form (or left out when never locked). */
function keepLocked(snapshot: ServerSnapshot, previous: Lockfile | null, held: ReadonlySet<string>): ServerSnapshot {
  if (held.size === 0) return snapshot;
  const isHeld = (subject: string, name: string | null) => held.has(`${subject}\u0000${name ?? ""}`);
  const tools: JsonObject[] = [];
  for (const tool of snapshot.tools) {
    const name = tool.name as string;
    if (!isHeld("tool", name)) tools.push(tool);
    else {
      const locked = previous?.tools.get(name);
      if (locked) tools.push(locked.definition);
    }
  }
  // A removed tool whose removal is held (never: removal is info) needs no care; instructions are held by their change.
  const serverHeld = isHeld("tool", null) && previous !== null;
  const instructions = serverHeld ? previous.instructions : snapshot.instructions;
  const filtered: ServerSnapshot = { ...snapshot, tools, instructions };
  // A refused artifact change keeps the locked artifact, as a refused instructions change keeps the locked text.
  if (serverHeld) filtered.artifact = previous.artifact;
  for (const { section, key, what } of ENTRY_SECTIONS) {
    const served = snapshot[section];
    if (served === undefined) continue;
    const locked = previous?.[section] ?? null;
    filtered[section] = served.flatMap((item) => {
      const name = ownField(item, key) as string;
      if (!isHeld(what, name)) return [item];
      const pinned = locked?.get(name);
      return pinned ? [pinned.definition] : [];
    });
  }
  return filtered;
}

/** Whether two locks for one server hold the same content (their text would be identical). */
function sameLock(entry: Lockfile, previous: Lockfile | null): boolean {
  if (previous === null) return false;
  const same = (a: Map<string, { sha256: string }> | null, b: Map<string, { sha256: string }> | null) =>
    a === null || b === null ? a === b : a.size === b.size && [...a].every(([name, item]) => b.get(name)?.sha256 === item.sha256);
  return (
    entry.version === previous.version &&
    JSON.stringify(entry.server) === JSON.stringify(previous.server) &&
    JSON.stringify(entry.instructions) === JSON.stringify(previous.instructions) &&
    JSON.stringify(entry.readAs) === JSON.stringify(previous.readAs) &&
    JSON.stringify(entry.ignores) === JSON.stringify(previous.ignores) &&
    sameArtifact(entry, previous) &&
    same(entry.tools, previous.tools) &&
    same(entry.prompts, previous.prompts) &&
    same(entry.resources, previous.resources) &&
    same(entry.resourceTemplates, previous.resourceTemplates)
  );
}

function sameArtifact(entry: Lockfile, previous: Lockfile): boolean {
  const a = entry.artifact;
  const b = previous.artifact;
  if (a === null || b === null) return a === b;
  return JSON.stringify(artifactJson(a)) === JSON.stringify(artifactJson(b));
}
