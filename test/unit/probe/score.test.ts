// The score with probes: measured waste joins the static estimates (seed 003, "Score").
import { describe, expect, it } from "vitest";
import { lintServer } from "../../../src/lint/lint.js";
import { measuredWaste, scoreWithProbes } from "../../../src/lint/score-probes.js";
import { scoreServer } from "../../../src/lint/score.js";
import type { LintFinding } from "../../../src/lint/types.js";
import { withProbes } from "../../../src/probe/judge.js";

const measure = (fields: Partial<Parameters<typeof measuredWaste>[0][number]> = {}) => ({
  toolIndex: 0,
  tokens: 0,
  askedBig: false,
  saysWhatIsLeft: false,
  unlabelledIdChars: 0,
  ...fields,
});

describe("measuredWaste", () => {
  it("charges the largest response's tokens over the 2,000-token budget, once per tool", () => {
    expect(measuredWaste([measure({ tokens: 87_224 }), measure({ tokens: 5_000 })]).get(0)).toEqual([
      { cause: "P1", reason: "over_budget", path: null, tokens: 85_224, basis: "measured" },
    ]);
  });

  it("does not charge a response the probe asked to be big, or one that says what is left", () => {
    expect(measuredWaste([measure({ tokens: 50_000, askedBig: true }), measure({ tokens: 50_000, saysWhatIsLeft: true })]).size).toBe(0);
    expect(measuredWaste([measure({ tokens: 1_999 })]).size).toBe(0);
  });

  it("charges characters spent on unlabelled IDs as tokens", () => {
    expect(measuredWaste([measure({ unlabelledIdChars: 1_080 })]).get(0)).toEqual([
      { cause: "P2", reason: "unlabelled_ids", path: null, tokens: 270, basis: "measured" },
    ]);
  });
});

const finding = (rule: string, toolIndex: number, reason?: string): LintFinding =>
  ({ rule, severity: "warning", tool: `t${toolIndex}`, toolIndex, path: null, args: reason === undefined ? {} : { reason } }) as LintFinding;
const tools = [
  { name: "t0", index: 0, tokens: 100 },
  { name: "t1", index: 1, tokens: 100 },
];

describe("scoreWithProbes", () => {
  it("turns static_only off once probes were answered, even when nothing was wasted", () => {
    expect(scoreWithProbes({ tools, findings: [], measures: [], probed: true }).static_only).toBe(false);
    expect(scoreWithProbes({ tools, findings: [], measures: [], probed: false }).static_only).toBe(true);
    expect(scoreServer([]).static_only).toBe(true);
  });

  it("drops the S7 guess for a tool a probe measured, and keeps it for the others", () => {
    const score = scoreWithProbes({ tools, findings: [finding("S7", 0), finding("S7", 1)], measures: [measure({ toolIndex: 0, tokens: 10 })], probed: true });
    expect(score.tools.map((tool) => tool.waste.map((item) => item.cause))).toEqual([[], ["S7"]]);
  });

  it("prices each P4 reason once per tool", () => {
    const score = scoreWithProbes({
      tools,
      findings: [
        finding("P4", 0, "opaque"),
        finding("P4", 0, "opaque"),
        finding("P4", 0, "accepted"),
        finding("P3", 1, "no_params"),
        finding("P3", 1, "has_params"),
        finding("P5", 1, "no_concise_mode"),
      ],
      measures: [],
      probed: true,
    });
    expect(score.tools.map((tool) => tool.waste.map((item) => [item.cause, item.tokens]))).toEqual([
      [
        ["P4", 1_500],
        ["P4", 500],
      ],
      [
        ["P3", 1_000],
        ["P5", 300],
      ],
    ]);
  });

  it("ranks a tool that dumps whole files below one with a short description", () => {
    const score = scoreWithProbes({ tools, findings: [finding("S1", 1, "short")], measures: [measure({ toolIndex: 0, tokens: 87_224 })], probed: true });
    expect(score.tools[0]?.score).toBe(0);
    expect(score.tools[1]?.score).toBe(93);
    expect(score.server).toBeLessThan(50);
  });
});

describe("withProbes", () => {
  it("puts probe findings after each tool's static ones, redoes the counts and rescores", () => {
    const result = lintServer({
      tools: [
        { name: "read", description: "Read.", inputSchema: { type: "object", properties: {} } },
        {
          name: "list_all_documents_in_the_workspace",
          description: "List every document in the workspace with its title and id, newest first.",
          inputSchema: { type: "object", properties: {} },
        },
      ],
    });
    const probe = finding("P1", 0, "over_cap");
    const merged = withProbes(result, { findings: [probe], measures: [measure({ tokens: 30_000 })], probed: true });
    const rules = merged.findings.map((item) => `${item.toolIndex}:${item.rule}`);
    expect(rules.indexOf("0:P1")).toBe(rules.filter((rule) => rule.startsWith("0:")).length - 1);
    expect(merged.counts.warning).toBe(result.counts.warning + 1);
    expect(merged.score.static_only).toBe(false);
    expect(merged.score.tools[0]?.waste.some((item) => item.basis === "measured" && item.tokens === 28_000)).toBe(true);
  });
});
