/** The score with probes: measured waste from real responses joins the static estimates (seed 003, "Score"). Pure. */

import { RESPONSE_BUDGET_TOKENS } from "./score-constants.js";
import { type LintScore, scoreServer, staticCosts, type WasteItem } from "./score.js";
import type { LintFinding } from "./types.js";
import { pushAll } from "../arrays.js";

/** What the score reads from one answered probe. */
export interface ResponseMeasure {
  toolIndex: number;
  /** Estimated tokens of the response. */
  tokens: number;
  /** The probe set a paging or size argument (`max_length`, `limit`, ...): the size was asked for. */
  askedBig: boolean;
  /** The response says what is left ("19000 remaining", a cursor): the agent controls the rest. */
  saysWhatIsLeft: boolean;
  /** Characters spent on opaque IDs in records without a readable label, when P2's test holds; else 0. */
  unlabelledIdChars: number;
}

/**
 * Measured waste per tool (by position): the largest response's tokens over the budget (P1), and
 * the largest count of unlabelled ID characters as tokens (P2). Responses asked to be big, and
 * responses that say what is left, are not charged. Several probes of one tool are not added up:
 * the tool is used about once per session in the server's formula, so its worst answer stands.
 */
export function measuredWaste(measures: readonly ResponseMeasure[]): Map<number, WasteItem[]> {
  const over = new Map<number, number>();
  const ids = new Map<number, number>();
  for (const measure of measures) {
    if (!measure.askedBig && !measure.saysWhatIsLeft) {
      const excess = measure.tokens - RESPONSE_BUDGET_TOKENS;
      if (excess > 0) over.set(measure.toolIndex, Math.max(over.get(measure.toolIndex) ?? 0, excess));
    }
    if (measure.unlabelledIdChars > 0) {
      const tokens = Math.ceil(measure.unlabelledIdChars / 4);
      ids.set(measure.toolIndex, Math.max(ids.get(measure.toolIndex) ?? 0, tokens));
    }
  }
  const out = new Map<number, WasteItem[]>();
  const add = (index: number, item: WasteItem) => out.set(index, [...(out.get(index) ?? []), item]);
  for (const [index, tokens] of over) add(index, { cause: "P1", reason: "over_budget", path: null, tokens, basis: "measured" });
  for (const [index, tokens] of ids) add(index, { cause: "P2", reason: "unlabelled_ids", path: null, tokens, basis: "measured" });
  return out;
}

/** What scoreWithProbes needs. */
export interface ProbeScoreInput {
  /** Every served tool: name, position, estimated definition tokens. */
  tools: readonly { name: string; index: number; tokens: number }[];
  /** Static and probe findings together. */
  findings: readonly LintFinding[];
  measures: readonly ResponseMeasure[];
  /** At least one probe was answered (the score then no longer says "static checks only"). */
  probed: boolean;
}

/**
 * Score a server with its probes. An S7 estimate is dropped for a tool a probe measured (the
 * measurement replaces the guess), and a priced probe finding counts once per tool and reason, so
 * four error probes that each get "Internal error" cost what one does.
 */
export function scoreWithProbes(input: ProbeScoreInput): LintScore {
  const measured = new Set(input.measures.map((measure) => measure.toolIndex));
  const seen = new Set<string>();
  const priced = input.findings.filter((finding) => {
    if (finding.rule === "S7" && finding.toolIndex !== null && measured.has(finding.toolIndex)) return false;
    if (!finding.rule.startsWith("P")) return true;
    const key = `${finding.toolIndex}\u0000${finding.rule}\u0000${finding.args.reason ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const costs = staticCosts(input.tools, priced);
  const waste = measuredWaste(input.measures);
  for (const cost of costs) pushAll(cost.waste, waste.get(cost.toolIndex) ?? []);
  return scoreServer(costs, { probed: input.probed });
}
