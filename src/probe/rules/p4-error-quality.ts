/**
 * P4: the answer to a call meant to fail (an `expect_error` probe or a generated error probe) does
 * not help an agent fix the call: a leaked stack trace, an empty or opaque message, an error
 * returned as a success, invalid arguments accepted, or no word on the bad input or what is expected.
 * An error that every call gets whatever it sends (a browser or key missing) tests nothing: it is
 * never judged as guidance, and a tool left with such answers gets one untested finding.
 */

import { looksLikeError } from "../../proxy/fixes/errors.js";
import type { Severity } from "../../lock/kinds.js";
import { errorKey, hasGuidance, hasStackTrace, isEmptyError, isOpaqueError } from "../detect/errors.js";
import { parametersOf } from "../tools.js";
import type { ProbeRecord, ProbeResponse } from "../types.js";
import { answered, type ProbeContext, type ProbeRule } from "./rule.js";

/** The first line of a text, short enough to quote. */
function firstLine(text: string): string {
  // The first line that says something: a Markdown heading ("### Error") or a fence says what follows, not what failed.
  const lines = text.trim().split(/\r?\n/, 20);
  const line = lines.find((candidate) => !/^\s*(?:#{1,6}(?:\s|$)|```|$)/.test(candidate)) ?? lines[0] ?? "";
  return line.length > 200 ? line.slice(0, 200) : line;
}

/** Whether a successful answer reads as an error (the proxy's errors fix uses the same test). */
function readsAsError(response: ProbeResponse): boolean {
  // Only an all-text answer can be judged; an image or resource next to the text is real output.
  if (response.contentTypes.some((type) => type !== "text")) return false;
  return looksLikeError({ content: [{ type: "text", text: response.text }] });
}

/** Parameter names an error may name to count as naming the bad input. */
function namesFor(record: ProbeRecord, context: ProbeContext): string[] {
  const { probe } = record;
  if (probe.param !== null) return [probe.param];
  const declared = context.tools.copies(probe.tool).flatMap((tool) => parametersOf(tool).map((param) => param.name));
  return [...new Set([...probe.argNames, ...declared])];
}

/**
 * The most serious problem of one answer, or null when it helps. An `environmental` error (one the
 * call would have got whatever it sent) is still judged as text the agent reads (a stack trace, an
 * empty or opaque message), but not for guidance: naming what was not found proves nothing then.
 */
export function judgeErrorAnswer(
  record: ProbeRecord,
  context: ProbeContext,
  environmental = false,
): { severity: Severity; reason: string; text: string } | null {
  const response = answered(record);
  if (response === null) return null;
  if (record.status === "ok") {
    if (readsAsError(response)) return { severity: "warning", reason: "as_success", text: firstLine(response.text) };
    // A search for something that is not there may rightly find nothing.
    if (record.probe.variant === "unknown_value") return null;
    return { severity: "warning", reason: "accepted", text: "" };
  }
  const { text } = response;
  if (hasStackTrace(text)) return { severity: "warning", reason: "stack_trace", text: firstLine(text) };
  if (isEmptyError(text)) return { severity: "warning", reason: "empty", text: "" };
  if (isOpaqueError(text)) return { severity: "warning", reason: "opaque", text: firstLine(text) };
  if (environmental) return null;
  if (!hasGuidance(text, namesFor(record, context), record.probe.argValues)) return { severity: "info", reason: "no_guidance", text: firstLine(text) };
  return null;
}

// Generated variants whose bad argument the input schema rejects; `unknown_value` passes it and reaches the tool's own code.
const SCHEMA_REJECTS: ReadonlySet<string> = new Set(["missing_required", "wrong_type", "invalid_enum"]);

/**
 * Error texts that do not depend on the input (`errorKey` form). A text is one when every answered
 * error probe of some tool got it as an error, and they include an argument the schema accepts
 * (`unknown_value`) and one it rejects: an accepted argument answered word for word like a rejected
 * one shows that the answer did not come from the input (most often a browser, key or service is
 * missing, and every call fails alike).
 */
export function environmentFailures(records: readonly ProbeRecord[]): Set<string> {
  const byTool = new Map<string, ProbeRecord[]>();
  for (const record of records) {
    if (!record.probe.expectError || answered(record) === null) continue;
    const list = byTool.get(record.probe.tool);
    if (list === undefined) byTool.set(record.probe.tool, [record]);
    else list.push(record);
  }
  const failures = new Set<string>();
  for (const [tool, list] of byTool) {
    if (list.some((record) => record.status === "ok")) continue;
    const keys = new Set(list.map((record) => errorKey(record.response?.text ?? "", tool)));
    if (keys.size !== 1) continue;
    const accepted = list.some((record) => record.probe.variant === "unknown_value");
    const rejected = list.some((record) => record.probe.variant !== null && SCHEMA_REJECTS.has(record.probe.variant));
    if (accepted && rejected) for (const key of keys) failures.add(key);
  }
  return failures;
}

/** P4. */
export const p4ErrorQuality: ProbeRule = {
  id: "P4",
  check(context, report) {
    const failures = environmentFailures(context.records);
    const answeredPerTool = new Map<string, number>();
    const untested = new Map<string, { record: ProbeRecord; count: number; text: string }>();
    for (const record of context.records) {
      if (!record.probe.expectError) continue;
      const response = answered(record);
      const { tool } = record.probe;
      if (response !== null) answeredPerTool.set(tool, (answeredPerTool.get(tool) ?? 0) + 1);
      const environmental = response !== null && record.status !== "ok" && failures.has(errorKey(response.text, tool));
      const verdict = judgeErrorAnswer(record, context, environmental);
      if (verdict !== null) report(record, verdict.severity, { reason: verdict.reason, text: verdict.text });
      // Only an answer left unjudged is untested: a stack trace or an opaque text is reported for what it is.
      if (!environmental || response === null || verdict !== null) continue;
      const seen = untested.get(tool);
      if (seen === undefined) untested.set(tool, { record, count: 1, text: firstLine(response.text) });
      else seen.count++;
    }
    // Not a fault of the tool's error handling, but a run that tested nothing must not read as a pass.
    for (const [tool, { record, count, text }] of untested) {
      report.tool(record, "warning", { reason: "untested", count, total: answeredPerTool.get(tool) ?? count, text });
    }
  },
};
