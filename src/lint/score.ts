/** The token-weighted score: per-tool and server scores out of 100 from estimated tokens wasted per session. */

import {
  DEFINITION_FREE_TOKENS,
  DEFINITION_OVERHEAD_FACTOR,
  GRADE_FLOORS,
  LIST_REJECTED_MAX_SCORE,
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
  /** The parameter's place in the data (S2, S3), which names it better than the pointer. */
  place?: string;
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
  /** The definition makes MCP SDK 1.x clients reject the whole list (client-sdk1-rejects): the tool and the server are graded F. */
  rejected?: boolean;
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
  /** Tools whose definition makes MCP SDK 1.x clients reject the whole list; any caps the server at LIST_REJECTED_MAX_SCORE. */
  rejectedTools: number;
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

/**
 * What a finding is charged as, when several findings charge one thing: a parameter (S2, S3) is
 * charged once for its costliest finding, and a tool SDK 1.x clients reject once. Null: each finding
 * is charged on its own.
 */
function chargeKey(finding: LintFinding): string | null {
  if (finding.args.place !== undefined && (finding.rule === "S2" || finding.rule === "S3")) return `param\u0000${finding.args.place}`;
  if (finding.rule === "client-sdk1-rejects") return "rejected";
  return null;
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
  const charged = new Map<string, WasteItem>();
  for (const finding of findings) {
    if (finding.toolIndex === null) continue;
    const cost = costs[finding.toolIndex];
    if (cost === undefined) continue;
    if (finding.rule === "client-sdk1-rejects" && finding.severity === "error") cost.rejected = true;
    const tokens = findingWaste(finding);
    if (tokens === 0) continue;
    const item: WasteItem = { cause: finding.rule, reason: finding.args.reason ?? null, path: finding.path, tokens, basis: "estimated" };
    if (finding.args.place !== undefined) item.place = finding.args.place;
    const key = chargeKey(finding);
    if (key === null) {
      cost.waste.push(item);
      continue;
    }
    const toolKey = `${finding.toolIndex}\u0000${key}`;
    const before = charged.get(toolKey);
    if (before === undefined) {
      charged.set(toolKey, item);
      cost.waste.push(item);
    } else if (tokens > before.tokens) {
      Object.assign(before, item);
    }
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
  let rejectedTools = 0;
  const tools = costs.map((cost): ToolScore => {
    const waste = [...cost.waste].sort((x, y) => y.tokens - x.tokens);
    let wasted = 0;
    for (const item of waste) {
      wasted += item.tokens;
      if (item.basis === "definition") overhead += item.tokens;
      else usage += item.tokens;
      if (item.basis === "measured") measured = true;
    }
    if (cost.rejected === true) rejectedTools++;
    const halved = halving(wasted, TOOL_HALF_LIFE);
    const score = cost.rejected === true ? Math.min(halved, LIST_REJECTED_MAX_SCORE) : halved;
    return { tool: cost.tool, toolIndex: cost.toolIndex, score, grade: grade(score), wasted, waste };
  });
  const averageUsageWaste = costs.length === 0 ? 0 : Math.round(usage / costs.length);
  const wasted = overhead + averageUsageWaste * TOOLS_USED_PER_SESSION;
  const halved = halving(wasted, SERVER_HALF_LIFE);
  // One tool SDK 1.x clients reject takes every tool of the server away from them.
  const server = rejectedTools > 0 ? Math.min(halved, LIST_REJECTED_MAX_SCORE) : halved;
  return {
    server,
    grade: grade(server),
    static_only: !measured && options.probed !== true,
    wasted,
    definitionOverhead: overhead,
    averageUsageWaste,
    rejectedTools,
    tools,
  };
}
