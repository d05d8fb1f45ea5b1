/** S8: hidden text in any string of a tool (keys included) or in the server's instructions. */

import { HIDDEN_SEVERITY, type HiddenHit, scanText } from "../hidden.js";
import { MAX_DEFINITION_DEPTH } from "../../limits.js";
import { isObject, type JsonObject, own, pointerToken } from "../json.js";
import type { LintArgs, LintFinding } from "../types.js";
import type { Rule } from "./rule.js";

/**
 * S8 on one tool definition alone, for callers outside a full lint run (the lock checks every tool
 * it is about to write). `index` is the tool's position in its list, when known.
 */
export function scanToolHiddenText(tool: unknown, index: number | null = null): LintFinding[] {
  return toolFindings(tool, index, new ScanMemo());
}

/** Longest string whose scan result is remembered; longer ones rarely repeat and are scanned each time. */
const MEMO_MAX_LENGTH = 4_096;

/**
 * scanText with a memory of the strings already scanned. Definitions repeat the same keys and
 * values (`type`, `string`, `description`) thousands of times across tools, and the result depends
 * on the text alone. Only references to the input's own strings are kept, so memory stays linear in
 * the input.
 */
class ScanMemo {
  /** Strings scanned without a hit: the usual case, one set lookup each. */
  readonly clean = new Set<string>();
  private readonly dirty = new Map<string, readonly HiddenHit[]>();

  /** The hits in a string that is not in `clean`. */
  scan(text: string): readonly HiddenHit[] {
    if (text.length > MEMO_MAX_LENGTH) return scanText(text);
    const known = this.dirty.get(text);
    if (known !== undefined) return known;
    const hits = scanText(text);
    if (hits.length === 0) this.clean.add(text);
    else this.dirty.set(text, hits);
    return hits;
  }
}

/**
 * S8 on every string of one tool definition, keys included, in document order (each key right before
 * its value). A finding's JSON Pointer (for a key: of the value it names) is built only when there
 * is a finding. Bounded by the definition depth limit; an object met twice (a cycle, or sharing that
 * parsed JSON never has) is read once, so hostile in-memory input cannot make the walk exponential.
 */
function toolFindings(tool: unknown, index: number | null, memo: ScanMemo): LintFinding[] {
  const rawName = isObject(tool) ? own(tool, "name") : undefined;
  const name = typeof rawName === "string" ? rawName : `#${(index ?? 0) + 1}`;
  const findings: LintFinding[] = [];
  const clean = memo.clean;
  // The keys and positions from the tool down to the container being read; numbers stay numbers
  // until a pointer is needed.
  const tokens: (string | number)[] = [];
  const seen = new Set<object>();
  /** Findings for the hits in one string: a key (`inKey`), or the value at `last` in the current container. */
  const report = (hits: readonly HiddenHit[], last: string | number | null, inKey: boolean) => {
    let path = "";
    for (const token of tokens) path += `/${pointerToken(token)}`;
    if (last !== null) path += `/${pointerToken(last)}`;
    for (const hit of hits) {
      const args: LintArgs = { kind: hit.kind, text: hit.text, count: hit.count };
      if (inKey) args.inKey = true;
      findings.push({ rule: "S8", severity: HIDDEN_SEVERITY[hit.kind], tool: name, toolIndex: index, path, args });
    }
  };
  // Strings are checked where they are met (no scan for the usual clean one); only containers recurse.
  const member = (item: unknown, token: string | number, depth: number): void => {
    if (typeof item === "string") {
      if (!clean.has(item)) {
        const hits = memo.scan(item);
        if (hits.length > 0) report(hits, token, false);
      }
    } else if (typeof item === "object" && item !== null && depth < MAX_DEFINITION_DEPTH && !seen.has(item)) {
      tokens.push(token);
      walk(item, depth + 1);
      tokens.pop();
    }
  };
  const walk = (container: object, depth: number): void => {
    seen.add(container);
    if (Array.isArray(container)) {
      const list = container as unknown[];
      for (let position = 0; position < list.length; position++) member(list[position], position, depth);
      return;
    }
    const record = container as JsonObject;
    const keys = Object.keys(record);
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at] as string;
      if (!clean.has(key)) {
        const hits = memo.scan(key);
        if (hits.length > 0) report(hits, key, true);
      }
      member(record[key], key, depth);
    }
  };
  if (typeof tool === "string") {
    const hits = memo.scan(tool);
    if (hits.length > 0) report(hits, null, false);
  } else if (typeof tool === "object" && tool !== null) {
    walk(tool, 1);
  }
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
    // One memory for the whole run: tools share most of their keys and many values.
    const memo = new ScanMemo();
    for (const view of context.tools) {
      for (const finding of toolFindings(view.definition, view.index, memo)) report.tool(view, finding.severity, finding.path, finding.args);
    }
    for (const finding of scanInstructionsHiddenText(context.instructions)) report.server(finding.severity, finding.args);
  },
};
