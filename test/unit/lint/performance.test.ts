// 10,000 tools lint in well under the bound, including S4's search when many tools act on the same things.
import { describe, expect, it } from "vitest";
import { lintServer } from "../../../src/lint/index.js";

const VERBS = ["get", "list", "create", "update", "delete", "search"];
const NOUNS = ["issue", "branch", "invoice", "contact", "page", "table", "bucket", "channel", "message", "ticket"];

/**
 * Worst case for S4's blocking rather than a realistic server: few head nouns, so blocks hold
 * hundreds of tools with templated descriptions and shared parameters.
 */
function crowdedTools(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const verb = VERBS[index % VERBS.length] as string;
    const noun = NOUNS[Math.floor(index / VERBS.length) % NOUNS.length] as string;
    return {
      // One service prefix: names that differ by a word (`svc3_` / `svc5_`) are other things to S4, not overlaps.
      name: `svc_${verb}_${noun}_${index}`,
      description: `${verb} a ${noun} in workspace ${index % 13}. Returns the ${noun} with its fields; fails when the ${noun} is locked.`,
      inputSchema: {
        type: "object",
        properties: {
          [`${noun}_id`]: { type: "string", description: `The ${noun} id.` },
          workspace: { type: "string", description: "Workspace slug." },
          [`field_${index % 5}`]: { type: "string", format: index % 2 === 0 ? "uri" : "email" },
        },
        required: [`${noun}_id`],
      },
      annotations: { readOnlyHint: verb === "get" || verb === "list" || verb === "search" },
    };
  });
}

describe("performance", () => {
  it("lints 10,000 tools with crowded overlap blocks within its comparison budget", () => {
    const tools = crowdedTools(10_000);
    const result = lintServer({ tools });
    expect(result.tools).toBe(10_000);
    // S4 found the overlaps inside blocks, without running out of budget.
    const s4 = result.findings.filter((finding) => finding.rule === "S4");
    expect(s4.length).toBeGreaterThan(0);
    expect(s4.some((finding) => finding.args.reason === "budget")).toBe(false);
    // A tool that overlaps hundreds of others gets its three closest, with the total in the finding.
    const perTool = new Map<number, number>();
    for (const finding of s4) perTool.set(finding.toolIndex ?? -1, (perTool.get(finding.toolIndex ?? -1) ?? 0) + 1);
    expect(Math.max(...perTool.values())).toBe(3);
    expect(Math.max(...s4.map((finding) => finding.args.count ?? 0))).toBeGreaterThan(100);
  });
});
