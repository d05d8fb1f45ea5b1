/** S8: hidden text in any string of a tool (keys included) or in the server's instructions. */

import { HIDDEN_SEVERITY, scanText } from "../hidden.js";
import { forEachString, isObject, own } from "../json.js";
import type { LintArgs, LintFinding } from "../types.js";
import type { Rule } from "./rule.js";

/**
 * S8 on one tool definition alone, for callers outside a full lint run (the lock checks every tool
 * it is about to write). `index` is the tool's position in its list, when known.
 */
export function scanToolHiddenText(tool: unknown, index: number | null = null): LintFinding[] {
  const rawName = isObject(tool) ? own(tool, "name") : undefined;
  const name = typeof rawName === "string" ? rawName : `#${(index ?? 0) + 1}`;
  const findings: LintFinding[] = [];
  forEachString(tool, "", (text, inKey, pointer) => {
    for (const hit of scanText(text)) {
      const args: LintArgs = { kind: hit.kind, text: hit.text, count: hit.count };
      if (inKey) args.inKey = true;
      findings.push({ rule: "S8", severity: HIDDEN_SEVERITY[hit.kind], tool: name, toolIndex: index, path: pointer(), args });
    }
  });
  return findings;
}

/** S8 on the server's instructions alone; findings are server-level (`tool` null) with `where: "instructions"`. */
export function scanInstructionsHiddenText(instructions: string | null | undefined): LintFinding[] {
  if (typeof instructions !== "string") return [];
  return scanText(instructions).map((hit) => ({
    rule: "S8",
    severity: HIDDEN_SEVERITY[hit.kind],
    tool: null,
    toolIndex: null,
    path: null,
    args: { kind: hit.kind, text: hit.text, count: hit.count, where: "instructions" },
  }));
}

/** S8 rule. */
export const s8HiddenText: Rule = {
  id: "S8",
  check(context, report) {
    for (const view of context.tools) {
      for (const finding of scanToolHiddenText(view.definition, view.index)) report.tool(view, finding.severity, finding.path, finding.args);
    }
    for (const finding of scanInstructionsHiddenText(context.instructions)) report.server(finding.severity, finding.args);
  },
};
