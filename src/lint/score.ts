/** The token-weighted score: per-tool and server scores out of 100 from estimated tokens wasted per session. */

import {
  DEFINITION_FREE_TOKENS,
  DEFINITION_OVERHEAD_FACTOR,
  GRADE_FLOORS,
  SERVER_HALF_LIFE,
  STATIC_WASTE,
  TOOL_HALF_LIFE,
  TOOLS_USED_PER_SESSION,
} from "./score-constants.js";
import type { LintFinding } from "./types.js";

/** A letter grade. */
export type Grade = "A" | "B" | "C" | "D" | "F";

/**
 * One source of waste for a tool. `basis` says where the number comes from: a table estimate for a
 * finding, the definition's own size, or (later) a probe's measurement.
 */
export interface WasteItem {
  /** A rule ID (`S1`, later `P1`), or `definition` for definition overhead. */
  cause: string;
  /** The finding's sub-case, when the table prices it separately (`short`, `untyped`). */
  reason: string | null;
  /** Where in the tool, when the finding has a place. */
  path: string | null;
  tokens: number;
  basis: "estimated" | "definition" | "measured";
}

/** What the score needs to know about one tool. */
export interface ToolCost {
  tool: string;
  toolIndex: number;
  /** Estimated tokens of the definition. */
  definitionTokens: number;
  /** Waste from findings and, once probes exist, from measurements. */
  waste: WasteItem[];
}

/** One tool's score. */
export interface ToolScore {
  tool: string;
  toolIndex: number;
  score: number;
  grade: Grade;
  /** Total estimated tokens wasted per session by this tool, definition overhead included. */
  wasted: number;
  /** The sources, largest first. */
  waste: WasteItem[];
}

/** The server's score and every tool's. */
export interface LintScore {
  server: number;
  grade: Grade;
  /** True while no probe measurement contributed (the report says "static checks only"). */
  static_only: boolean;
  /** Estimated tokens wasted per session: all definition overhead plus average usage waste x tools used. */
  wasted: number;
  /** Sum of every tool's definition overhead. */
  definitionOverhead: number;
  /** Average per-tool waste from use (everything but definition overhead). */
  averageUsageWaste: number;
  /** Per tool, in list order. */
  tools: ToolScore[];
}

/** The grade for a score out of 100. */
export function grade(score: number): Grade {
  for (const [letter, floor] of GRADE_FLOORS) if (score >= floor) return letter;
  return "F";
}

/** Score out of 100 that halves every `halfLife` wasted tokens. */
function halving(wasted: number, halfLife: number): number {
  return Math.round(100 * 0.5 ** (wasted / halfLife));
}

/** The table's estimate for one finding, or 0 when the table does not price it. */
export function findingWaste(finding: LintFinding): number {
  const reason = finding.args.reason;
  if (reason !== undefined) {
    const specific = STATIC_WASTE[`${finding.rule}:${reason}`];
    if (specific !== undefined) return specific;
  }
  return STATIC_WASTE[finding.rule] ?? 0;
}

/** Definition overhead of a tool of this many estimated tokens. */
export function definitionOverhead(tokens: number): number {
  return Math.max(0, tokens - DEFINITION_FREE_TOKENS) * DEFINITION_OVERHEAD_FACTOR;
}

/** Static costs of each tool: definition overhead plus the table estimate of each of its findings. */
export function staticCosts(tools: readonly { name: string; index: number; tokens: number }[], findings: readonly LintFinding[]): ToolCost[] {
  const costs = tools.map(
    (tool): ToolCost => ({
      tool: tool.name,
      toolIndex: tool.index,
      definitionTokens: tool.tokens,
      waste:
        definitionOverhead(tool.tokens) > 0
          ? [{ cause: "definition", reason: null, path: null, tokens: definitionOverhead(tool.tokens), basis: "definition" }]
          : [],
    }),
  );
  for (const finding of findings) {
    if (finding.toolIndex === null) continue;
    const tokens = findingWaste(finding);
    const cost = costs[finding.toolIndex];
    if (tokens === 0 || cost === undefined) continue;
    cost.waste.push({ cause: finding.rule, reason: finding.args.reason ?? null, path: finding.path, tokens, basis: "estimated" });
  }
  return costs;
}

/**
 * Score tools and server. Probe measurements join by adding `measured` items to a tool's waste
 * before calling this; `static_only` then turns false, as it does when `probed` says probes were
 * answered even if none of them wasted anything.
 */
export function scoreServer(costs: readonly ToolCost[], options: { probed?: boolean } = {}): LintScore {
  let overhead = 0;
  let usage = 0;
  let measured = false;
  const tools = costs.map((cost): ToolScore => {
    const waste = [...cost.waste].sort((x, y) => y.tokens - x.tokens);
    let wasted = 0;
    for (const item of waste) {
      wasted += item.tokens;
      if (item.basis === "definition") overhead += item.tokens;
      else usage += item.tokens;
      if (item.basis === "measured") measured = true;
    }
    const score = halving(wasted, TOOL_HALF_LIFE);
    return { tool: cost.tool, toolIndex: cost.toolIndex, score, grade: grade(score), wasted, waste };
  });
  const averageUsageWaste = costs.length === 0 ? 0 : Math.round(usage / costs.length);
  const wasted = overhead + averageUsageWaste * TOOLS_USED_PER_SESSION;
  const server = halving(wasted, SERVER_HALF_LIFE);
  return { server, grade: grade(server), static_only: !measured && options.probed !== true, wasted, definitionOverhead: overhead, averageUsageWaste, tools };
}
