/** What `run` and `check` report: lint findings and the launch's own install findings as one list of items with their words, and the exit code. Pure. */

import type { InstallFinding } from "../install/kinds.js";
import { installMessage } from "../install/messages.js";
import type { FailOn } from "../lock/engine.js";
import { type Severity, severityRank } from "../lock/kinds.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import type { LintResult } from "../lint/lint.js";
import { fix, message } from "../lint/messages.js";
import type { LintFinding } from "../lint/types.js";
import type { ProbeRecord } from "../probe/types.js";

/** One reported item: a lint finding or an I1 finding on the launch command, as data plus its sentence and hint. */
export interface LintReportItem {
  /** Rule ID (`S1`, `name-format`, `I1`). */
  rule: string;
  /** The I1 kind (`unpinned`, ...) for install findings; null for lint findings. */
  kind: string | null;
  severity: Severity;
  /** Tool name as served (raw), or null for a server-level item. */
  tool: string | null;
  /** Position of the tool in the list, null for a server-level item. */
  toolIndex: number | null;
  /** JSON Pointer into the tool definition, or null. */
  path: string | null;
  /** One line; every piece of server text in it is neutralized. */
  message: string;
  /** One-line fix hint; neutralized like the message. */
  fix: string;
  /** The lint finding behind the item (null for I1), for builders that need its facts. */
  finding: LintFinding | null;
}

/** Everything a `run` or `check` report shows. */
export interface LintReport {
  /** mcp-lint's own version. */
  toolVersion: string;
  /** `run` (a live server) or `check` (a saved list). */
  command: "run" | "check";
  /** The file `check` read, as given; null for `run`. */
  source: string | null;
  snapshot: ServerSnapshot;
  result: LintResult;
  /** Tool items in list order, then server items (I1 first, then lint). */
  items: LintReportItem[];
  /** Items per severity, I1 included. */
  counts: Record<Severity, number>;
  /** Every probe with what it did, in plan order; null when the run did not probe. */
  probes: ProbeRecord[] | null;
  /** The JSON report keeps whole responses rather than a preview (`--include-responses`). */
  includeResponses: boolean;
}

// One line of advice per I1 kind. Kinds added later fall back to a general hint.
const INSTALL_FIX: Readonly<Record<string, string>> = {
  known_bad: "Pin a release that is not on the known-bad list, or drop the server.",
  unpinned: "Pin an exact version (some-server@1.2.3) so every start runs the release you reviewed.",
  unpinned_source: "Pin the git or URL source to a full 40-character commit SHA.",
  no_digest: "Pin the image by digest (image@sha256:<64 hex>).",
  no_hashes: "Install with --require-hashes and a hashed requirements file.",
  unparsed: "Spell the launch out without variables or shell constructs so it can be checked.",
};

/** The fix hint for an install finding of this kind. */
export function installFix(kind: string): string {
  return INSTALL_FIX[kind] ?? "Launch a pinned, exact release so every start runs what you reviewed.";
}

/** A lint finding as a report item. */
export function lintItem(finding: LintFinding): LintReportItem {
  return {
    rule: finding.rule,
    kind: null,
    severity: finding.severity,
    tool: finding.tool,
    toolIndex: finding.toolIndex,
    path: finding.path,
    message: message(finding),
    fix: fix(finding),
    finding,
  };
}

/** An install finding on the launch command as a server-level report item. */
export function installItem(finding: InstallFinding): LintReportItem {
  return {
    rule: finding.rule,
    kind: finding.kind,
    severity: finding.severity,
    tool: null,
    toolIndex: null,
    path: null,
    message: installMessage(finding),
    fix: installFix(finding.kind),
    finding: null,
  };
}

/** Build the report: items in report order and counts. `install` holds the launch's I1 findings (empty for files and URLs). */
export function buildLintReport(input: {
  toolVersion: string;
  command: "run" | "check";
  source: string | null;
  snapshot: ServerSnapshot;
  result: LintResult;
  install: readonly InstallFinding[];
  /** The probe records of `run --probe` or `--error-probes`; absent without probes. */
  probes?: ProbeRecord[] | null;
  includeResponses?: boolean;
}): LintReport {
  const toolItems: LintReportItem[] = [];
  const serverItems: LintReportItem[] = input.install.map(installItem);
  for (const finding of input.result.findings) (finding.toolIndex === null ? serverItems : toolItems).push(lintItem(finding));
  const items = [...toolItems, ...serverItems];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const item of items) counts[item.severity]++;
  return {
    toolVersion: input.toolVersion,
    command: input.command,
    source: input.source,
    snapshot: input.snapshot,
    result: input.result,
    items,
    counts,
    probes: input.probes ?? null,
    includeResponses: input.includeResponses === true,
  };
}

/** True when an item is at or above a severity floor. */
export function atLeast(severity: Severity, floor: Severity): boolean {
  return severityRank(severity) >= severityRank(floor);
}

/**
 * Exit code of `run` and `check`: 1 when an item reaches `--fail-on` or the server score is under
 * `--fail-under`, else 0. `--min-severity` never changes it (it only hides lines on the terminal).
 */
export function lintExitCode(report: LintReport, failOn: FailOn, failUnder: number | null): 0 | 1 {
  if (failOn !== "never" && report.items.some((item) => atLeast(item.severity, failOn))) return 1;
  if (failUnder !== null && report.result.score.server < failUnder) return 1;
  return 0;
}
