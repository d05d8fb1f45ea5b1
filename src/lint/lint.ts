/** The linter's entry point: run every enabled rule over a served tool list and score it. Pure. */

import type { Severity } from "../lock/kinds.js";
import { buildContext, collector, FORWARDED_FIELDS } from "./context.js";
import { RULE_LIST } from "./rules/index.js";
import { type LintScore, scoreServer, staticCosts } from "./score.js";
import { RULES } from "./table.js";
import type { LintFinding, LintInput, LintOptions, RuleId } from "./types.js";

/** Options with nothing disabled, default portability and the default format allowlist. */
export const DEFAULT_LINT_OPTIONS: LintOptions = { disable: new Set(), portability: "default", formatAllowlist: [] };

/** What one lint run found. */
export interface LintResult {
  /** Tool findings in list order (then rule order), followed by server findings. */
  findings: LintFinding[];
  /** Tools checked. */
  tools: number;
  /**
   * Estimated tokens (compact JSON / 4) of what clients send the model of each definition, in all
   * and per tool in list order, and the fields counted.
   */
  tokens: { total: number; perTool: number[]; fields: readonly string[] };
  /** Findings per severity, and tools without any finding. */
  counts: Record<Severity, number> & { cleanTools: number };
  score: LintScore;
}

/** True when a rule runs under these options. */
export function ruleEnabled(id: RuleId, options: LintOptions): boolean {
  if (options.disable.has(id)) return false;
  return !RULES[id].strictOnly || options.portability === "strict";
}

const RULE_ORDER = new Map<RuleId, number>(RULE_LIST.map((rule, index) => [rule.id, index]));

/**
 * Findings in report order: by tool (server findings last), then rule order; within a rule, emission
 * order. Rules run in rule order, so the list already is in rule order and a stable bucketing by tool
 * gives that order in linear time; a finding on a position outside the list (no rule makes one)
 * falls back to the general sort.
 */
function reportOrder(findings: readonly LintFinding[], tools: number): LintFinding[] {
  const perTool: (LintFinding[] | undefined)[] = new Array(tools);
  const server: LintFinding[] = [];
  let rank = -1;
  for (const finding of findings) {
    const index = finding.toolIndex;
    const ruleRank = RULE_ORDER.get(finding.rule) ?? 0;
    if (ruleRank < rank || (index !== null && !(Number.isInteger(index) && index >= 0 && index < tools))) return sortedFindings(findings);
    rank = ruleRank;
    if (index === null) {
      server.push(finding);
      continue;
    }
    const bucket = perTool[index];
    if (bucket === undefined) perTool[index] = [finding];
    else bucket.push(finding);
  }
  const out: LintFinding[] = [];
  for (const bucket of perTool) if (bucket !== undefined) for (const finding of bucket) out.push(finding);
  for (const finding of server) out.push(finding);
  return out;
}

/** Stable sort: by tool (server findings last), then rule order; within a rule, emission order. */
function sortedFindings(findings: readonly LintFinding[]): LintFinding[] {
  return findings
    .map((finding, position) => ({ finding, position }))
    .sort((x, y) => {
      const toolX = x.finding.toolIndex ?? Number.MAX_SAFE_INTEGER;
      const toolY = y.finding.toolIndex ?? Number.MAX_SAFE_INTEGER;
      if (toolX !== toolY) return toolX - toolY;
      const ruleX = RULE_ORDER.get(x.finding.rule) ?? 0;
      const ruleY = RULE_ORDER.get(y.finding.rule) ?? 0;
      return ruleX - ruleY || x.position - y.position;
    })
    .map(({ finding }) => finding);
}

/** Lint a served tool list (and instructions). Definitions are read as data; nothing is fetched or run. */
export function lintServer(input: LintInput, options: LintOptions = DEFAULT_LINT_OPTIONS): LintResult {
  const context = buildContext(input.tools, input.instructions ?? null, options);
  const findings: LintFinding[] = [];
  for (const rule of RULE_LIST) {
    if (ruleEnabled(rule.id, options)) rule.check(context, collector(rule.id, findings));
  }
  const ordered = reportOrder(findings, context.tools.length);

  const counts = { info: 0, warning: 0, error: 0, cleanTools: 0 };
  const flagged = new Set<number>();
  for (const finding of ordered) {
    counts[finding.severity]++;
    if (finding.toolIndex !== null) flagged.add(finding.toolIndex);
  }
  counts.cleanTools = context.tools.length - flagged.size;
  const perTool = context.tools.map((view) => view.tokens);
  return {
    findings: ordered,
    tools: context.tools.length,
    tokens: { total: perTool.reduce((sum, tokens) => sum + tokens, 0), perTool, fields: FORWARDED_FIELDS },
    counts,
    score: scoreServer(staticCosts(context.tools, ordered)),
  };
}
