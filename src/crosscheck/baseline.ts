/** Crosscheck baselines: reviewed rendering drift, one entry per finding identity (client, rule, tool, path, evidence), written deterministically. Pure. */

import { UsageError } from "../errors.js";
import { stringifyLockText } from "../json/canonical.js";
import { isJsonObject } from "../json/value.js";
import type { RenderFinding } from "./compare.js";
import { CROSSCHECK_RULE_IDS } from "./rules.js";

/** The format version written at the top of a baseline. */
export const BASELINE_VERSION = 1;

/** One acknowledged finding identity. `tool` and `path` are "" for a client-level finding. */
export interface BaselineEntry {
  client: string;
  rule: string;
  tool: string;
  path: string;
  evidence: string;
}

/** Rules a baseline may hold: rendering drift, never a client that failed to run. */
export function baselineable(finding: Pick<RenderFinding, "rule">): boolean {
  return finding.rule !== "render-client-failed";
}

/** The identity of an entry or finding, as one string. */
export function entryKey(entry: BaselineEntry): string {
  return JSON.stringify([entry.client, entry.rule, entry.tool, entry.path, entry.evidence]);
}

/** A finding's baseline entry. */
export function entryOf(client: string, finding: RenderFinding): BaselineEntry {
  return { client, rule: finding.rule, tool: finding.tool ?? "", path: finding.path ?? "", evidence: finding.evidence };
}

/** Parse a baseline file's JSON; a wrong shape is a usage error naming the file. */
export function parseBaseline(value: unknown, file: string): BaselineEntry[] {
  const bad = (why: string) => new UsageError(`--baseline ${file}: ${why}; fix the file or write it again with --update-baseline`);
  if (!isJsonObject(value)) throw bad("not a crosscheck baseline (a JSON object)");
  if (value.crosscheckBaseline !== BASELINE_VERSION) throw bad(`crosscheckBaseline must be ${BASELINE_VERSION}`);
  if (!Array.isArray(value.entries)) throw bad("entries must be an array");
  const rules = new Set<string>(CROSSCHECK_RULE_IDS);
  return value.entries.map((entry, index) => {
    if (!isJsonObject(entry)) throw bad(`entry ${index + 1} is not an object`);
    const fields = ["client", "rule", "tool", "path", "evidence"] as const;
    for (const field of fields) if (typeof entry[field] !== "string") throw bad(`entry ${index + 1} needs a string ${field}`);
    if (!rules.has(entry.rule as string)) throw bad(`entry ${index + 1} names an unknown rule ${JSON.stringify(entry.rule)}`);
    return {
      client: entry.client as string,
      rule: entry.rule as string,
      tool: entry.tool as string,
      path: entry.path as string,
      evidence: entry.evidence as string,
    };
  });
}

/** The file's text: entries deduplicated and sorted by code unit, ASCII-only JSON with sorted keys. */
export function baselineText(entries: readonly BaselineEntry[]): string {
  const byKey = new Map<string, BaselineEntry>();
  for (const entry of entries) byKey.set(entryKey(entry), entry);
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return stringifyLockText({ crosscheckBaseline: BASELINE_VERSION, entries: keys.map((key) => byKey.get(key) as BaselineEntry) });
}

/**
 * The updated entries: those of clients not compared in this run are kept as they were; the
 * compared clients' entries are replaced by their current findings.
 */
export function updatedEntries(previous: readonly BaselineEntry[], compared: ReadonlyMap<string, readonly RenderFinding[]>): BaselineEntry[] {
  const kept = previous.filter((entry) => !compared.has(entry.client));
  const fresh = [...compared].flatMap(([client, findings]) => findings.filter(baselineable).map((finding) => entryOf(client, finding)));
  return [...kept, ...fresh];
}
