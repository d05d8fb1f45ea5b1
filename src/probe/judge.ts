/** Judge probe records with the probe rules, and fold the findings and measured waste into a lint result. Pure. */

import type { LintResult } from "../lint/lint.js";
import { type ResponseMeasure, scoreWithProbes } from "../lint/score-probes.js";
import type { LintFinding } from "../lint/types.js";
import type { JsonObject } from "../lock/snapshot.js";
import { hasPagingHint } from "./detect/paging.js";
import { PROBE_RULES } from "./rules/index.js";
import { unlabelledIds } from "./rules/p2-opaque-ids.js";
import { idStatsOf, probeCollector, succeeded } from "./rules/rule.js";
import { indexTools, isPagingParameter } from "./tools.js";
import type { ProbeRecord } from "./types.js";

/** What the probe rules concluded. */
export interface ProbeJudgement {
  /** Findings in rule order, then probe order. */
  findings: LintFinding[];
  /** What the score measures, one entry per answered fixture probe. */
  measures: ResponseMeasure[];
  /** At least one probe got an answer. */
  probed: boolean;
}

/** Run every enabled probe rule over the records and measure the answers for the score. */
export function judgeProbes(records: readonly ProbeRecord[], tools: readonly JsonObject[], disable: ReadonlySet<string>): ProbeJudgement {
  const context = { records, tools: indexTools(tools) };
  const findings: LintFinding[] = [];
  for (const rule of PROBE_RULES) if (!disable.has(rule.id)) rule.check(context, probeCollector(rule.id, findings));
  const measures: ResponseMeasure[] = [];
  for (const record of records) {
    const response = succeeded(record);
    // Generated error probes send made-up arguments: what they cost says nothing about real use.
    if (response === null || record.probe.origin !== "fixture" || record.probe.toolIndex === null) continue;
    const stats = disable.has("P2") ? null : idStatsOf(record);
    measures.push({
      toolIndex: record.probe.toolIndex,
      tokens: disable.has("P1") ? 0 : response.tokens,
      askedBig: record.probe.argNames.some(isPagingParameter),
      saysWhatIsLeft: hasPagingHint(response.text),
      unlabelledIdChars: stats !== null && unlabelledIds(stats) ? stats.unlabelledIdChars : 0,
    });
  }
  return { findings, measures, probed: records.some((record) => record.response !== null) };
}

/**
 * The lint result with the probe findings placed under their tools (after the static ones), the
 * counts redone and the score recomputed with measured waste.
 */
export function withProbes(result: LintResult, judgement: ProbeJudgement): LintResult {
  const staticByTool = groupByTool(result.findings);
  const probeByTool = groupByTool(judgement.findings);
  const findings: LintFinding[] = [];
  // Loops rather than push(...list): a schema with 100,000 properties has as many S3 findings.
  for (let index = 0; index < result.tools; index++) {
    for (const finding of staticByTool.get(index) ?? []) findings.push(finding);
    for (const finding of probeByTool.get(index) ?? []) findings.push(finding);
  }
  for (const finding of result.findings) if (finding.toolIndex === null) findings.push(finding);
  const counts = { info: 0, warning: 0, error: 0, cleanTools: 0 };
  const flagged = new Set<number>();
  for (const finding of findings) {
    counts[finding.severity]++;
    if (finding.toolIndex !== null) flagged.add(finding.toolIndex);
  }
  counts.cleanTools = result.tools - flagged.size;
  const tools = result.score.tools.map((tool) => ({ name: tool.tool, index: tool.toolIndex, tokens: result.tokens.perTool[tool.toolIndex] ?? 0 }));
  const score = scoreWithProbes({ tools, findings, measures: judgement.measures, probed: judgement.probed });
  return { ...result, findings, counts, score };
}

/** Tool findings by tool position, each list in its original order. */
function groupByTool(findings: readonly LintFinding[]): Map<number, LintFinding[]> {
  const groups = new Map<number, LintFinding[]>();
  for (const finding of findings) {
    if (finding.toolIndex === null) continue;
    const group = groups.get(finding.toolIndex);
    if (group === undefined) groups.set(finding.toolIndex, [finding]);
    else group.push(finding);
  }
  return groups;
}
