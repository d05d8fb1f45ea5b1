/** The `--json` report of `run` and `check`: stable field names, documented in the README. Pure. */

import type { LintReport, LintReportItem } from "./lint-report.js";
import { probeEntry } from "./lint-probes.js";
import { hiddenFacts, serverJson } from "./json-text.js";

/** Version of the lint JSON report's shape; bumped only on an incompatible change. */
export const LINT_REPORT_VERSION = 1;

function findingEntry(item: LintReportItem): Record<string, unknown> {
  return withHiddenFacts({ rule: item.rule, severity: item.severity, tool: item.tool, path: item.path, message: item.message, fix: item.fix }, item);
}

function serverFindingEntry(item: LintReportItem): Record<string, unknown> {
  const entry: Record<string, unknown> = { rule: item.rule, severity: item.severity, message: item.message, fix: item.fix };
  // I1 findings say which install kind they are.
  if (item.kind !== null) entry.kind = item.kind;
  return withHiddenFacts(entry, item);
}

/** S8 findings also say their class, and a poisoning finding its parts (which, of what kind, where): facts a script can act on. */
function withHiddenFacts(entry: Record<string, unknown>, item: LintReportItem): Record<string, unknown> {
  if (item.finding?.rule !== "S8") return entry;
  return { ...entry, ...hiddenFacts(item.finding) };
}

/**
 * Build the JSON report. Messages and fixes are inert one-liners; tool names and paths are raw (the
 * writer escapes every non-ASCII character). Score entries are keyed by tool name; a name served
 * more than once keeps its lowest-scoring copy (name-unique reports the duplicate).
 */
export function buildLintJsonReport(report: LintReport): Record<string, unknown> {
  const { snapshot, result } = report;
  // A null-prototype map: a tool named `__proto__` is an ordinary key, not a prototype swap.
  const tools: Record<string, { score: number; grade: string; waste: unknown[] }> = Object.create(null) as Record<string, never>;
  for (const tool of result.score.tools) {
    const seen = tools[tool.tool];
    if (seen !== undefined && seen.score <= tool.score) continue;
    tools[tool.tool] = {
      score: tool.score,
      grade: tool.grade,
      waste: tool.waste.map((item) => ({ cause: item.cause, reason: item.reason, path: item.path, tokens: item.tokens, basis: item.basis })),
    };
  }
  return {
    version: LINT_REPORT_VERSION,
    server: serverJson(snapshot),
    tools: result.tools,
    tokens_estimated: result.tokens.total,
    // The definition fields counted: those clients send the model (outputSchema, annotations and title are not).
    tokens_counted: [...result.tokens.fields],
    findings: report.items.filter((item) => item.toolIndex !== null).map(findingEntry),
    server_findings: report.items.filter((item) => item.toolIndex === null).map(serverFindingEntry),
    score: { server: result.score.server, grade: result.score.grade, static_only: result.score.static_only, tools },
    // Only a run that probed has the key, so the report of a run without probes stays as it was.
    ...(report.probes === null ? {} : { probes: report.probes.map((record) => probeEntry(record, report.includeResponses)) }),
  };
}
