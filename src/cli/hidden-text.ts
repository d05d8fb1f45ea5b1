/** S8 guarding the lock: hidden text in what `lock` records or `lock --check` finds new, its effect on refusing and on the exit code, and its place in the reports. */

import type { SarifBase } from "../report/sarif.js";
import type { LockLines } from "../report/sarif-places.js";
import type { FailOn, LockOutcome } from "../lock/engine.js";
import type { Lockfile } from "../lock/format.js";
import { type Change, type Severity, severityRank } from "../lock/kinds.js";
import { ENTRY_SECTIONS, type ServerSnapshot } from "../lock/snapshot.js";
import { fix, message } from "../lint/messages.js";
import { hiddenTextScanner, scanInstructionsHiddenText } from "../lint/rules/s8-hidden-text.js";
import type { LintFinding } from "../lint/types.js";
import { hiddenFacts, jsonReportText } from "../report/json-text.js";
import { neutralize } from "../text/neutralize.js";
import { changeMessage } from "../report/messages.js";
import type { HiddenTextNote } from "../report/terminal.js";
import { pushAll } from "../arrays.js";
import { TooManyFindingsError } from "../errors.js";
import { MAX_FINDINGS } from "../limits.js";
import { thousands } from "../numbers.js";

/**
 * S8 findings for a lock run. Writing (first lock or refresh): every tool and the instructions it
 * is about to record, so a file never holds TAG or bidi text nobody accepted. `--check`: tools that
 * are new or changed and instructions that changed, next to their change kinds (the rest was
 * checked when it was locked). Prompts, resources and templates are scanned the same way.
 */
export function lockHiddenText(snapshot: ServerSnapshot, lock: Lockfile | null, changes: readonly Change[], check: boolean): LintFinding[] {
  const fresh = new Set<string>();
  const freshEntries = new Set<string>();
  let instructionsChanged = false;
  for (const change of changes) {
    if (change.kind === "instructions_changed") instructionsChanged = true;
    else if (change.tool !== null && change.subject !== undefined) freshEntries.add(`${change.subject}\u0000${change.tool}`);
    else if (change.tool !== null && change.kind !== "tool_removed") fresh.add(change.tool);
  }
  const everything = !check || lock === null;
  const findings: LintFinding[] = [];
  const scan = hiddenTextScanner();
  snapshot.tools.forEach((tool, index) => {
    if (everything || fresh.has(tool.name as string)) pushAll(findings, scan(tool, index));
    // Each finding is a report line; past the bound, stop before the report outgrows memory.
    if (findings.length > MAX_FINDINGS) {
      throw new TooManyFindingsError(
        `more than ${thousands(MAX_FINDINGS)} hidden-text (S8) findings in what the server sent, the last in tool ${JSON.stringify(neutralize(String(tool.name)).slice(0, 120))}; refusing to lock it`,
      );
    }
  });
  if (snapshot.instructions.known && (everything || instructionsChanged)) pushAll(findings, scanInstructionsHiddenText(snapshot.instructions.text));
  // Prompts and resources are read by the model too: the same scan, named by their key.
  for (const { section, key, what } of ENTRY_SECTIONS) {
    for (const entry of snapshot[section] ?? []) {
      const name = entry[key];
      if (typeof name !== "string" || !(everything || freshEntries.has(`${what}\u0000${name}`))) continue;
      for (const finding of scan(entry)) findings.push({ ...finding, tool: name, toolIndex: null, args: { ...finding.args, where: what } });
    }
  }
  return findings;
}

/** S8 errors among the findings: each one blocks writing the lock unless `--accept` is given. */
function errorCount(findings: readonly LintFinding[]): number {
  return findings.filter((finding) => finding.severity === "error").length;
}

/**
 * The write plan with S8 applied: an S8 error refuses a write like an error-level change (its count
 * joins theirs in the refusal line), unless accepted. A lock that would stay byte-for-byte the same
 * is not a write and is never refused for what it already holds.
 */
export function guardPlan(plan: LockOutcome, findings: readonly LintFinding[], accept: boolean): LockOutcome {
  const errors = errorCount(findings);
  if (accept || errors === 0 || plan.status === "unchanged") return plan;
  if (plan.status !== "refused") return { status: "refused", reason: "errors", errorCount: errors };
  return plan.reason === "errors" ? { ...plan, errorCount: plan.errorCount + errors } : plan;
}

/** `lock --check` exit code with S8: 1 when a change or an S8 finding reaches `--fail-on`. */
export function checkExitWithHidden(changesExit: number, findings: readonly LintFinding[], failOn: FailOn): number {
  if (changesExit !== 0 || failOn === "never") return changesExit;
  const floor = severityRank(failOn as Severity);
  return findings.some((finding) => severityRank(finding.severity) >= floor) ? 1 : 0;
}

/** The findings as lines for the lock's terminal report: message, the place, and the fix. */
export function hiddenTextNotes(findings: readonly LintFinding[]): HiddenTextNote[] {
  return findings.map((finding) => ({
    tool: finding.tool,
    severity: finding.severity,
    message: `${message(finding)}${finding.path === null ? "" : ` (at ${neutralize(finding.path)})`} -> ${fix(finding)}`,
    path: finding.path,
    bare: `${message(finding)} -> ${fix(finding)}`,
  }));
}

/** The lock's JSON report with the S8 findings added as `hidden_text` (left out when there are none). */
export function withHiddenText(report: Record<string, unknown>, findings: readonly LintFinding[]): Record<string, unknown> {
  if (findings.length === 0) return report;
  const hidden = findings.map((finding) => ({
    rule: finding.rule,
    severity: finding.severity,
    tool: finding.tool,
    path: finding.path,
    ...hiddenFacts(finding),
    message: message(finding),
    fix: fix(finding),
  }));
  return { ...report, hidden_text: hidden };
}

/** SARIF text of a `lock --check` run: its changes and the S8 findings, at the lock file. */
export async function lockSarifText(input: {
  version: string;
  lockUri: string;
  snapshot: ServerSnapshot;
  changes: readonly Change[];
  findings: ReadonlyArray<LintFinding & { server?: string }>;
  redact: (text: string) => string;
  lines: LockLines | null;
  base: SarifBase;
}): Promise<string> {
  // Loaded only for --sarif: the SARIF builder brings every rule and kind table with it.
  const { lockSarif } = await import("../report/sarif.js");
  const log = lockSarif({
    version: input.version,
    lockUri: input.lockUri,
    server: input.snapshot.name,
    changes: input.changes,
    hidden: input.findings,
    changeMessage,
    lines: input.lines,
    base: input.base,
  });
  return jsonReportText(log, input.redact);
}
