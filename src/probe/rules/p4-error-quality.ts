/**
 * P4: the answer to a call meant to fail (an `expect_error` probe or a generated error probe) does
 * not help an agent fix the call: a leaked stack trace, an empty or opaque message, an error
 * returned as a success, invalid arguments accepted, or no word on the bad input or what is expected.
 */

import { looksLikeError } from "../../proxy/fixes/errors.js";
import type { Severity } from "../../lock/kinds.js";
import { hasGuidance, hasStackTrace, isEmptyError, isOpaqueError } from "../detect/errors.js";
import { parametersOf } from "../tools.js";
import type { ProbeRecord, ProbeResponse } from "../types.js";
import { answered, type ProbeContext, type ProbeRule } from "./rule.js";

/** The first line of a text, short enough to quote. */
function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
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

/** The most serious problem of one answer, or null when it helps. */
export function judgeErrorAnswer(record: ProbeRecord, context: ProbeContext): { severity: Severity; reason: string; text: string } | null {
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
  if (!hasGuidance(text, namesFor(record, context), record.probe.argValues)) return { severity: "info", reason: "no_guidance", text: firstLine(text) };
  return null;
}

/** P4. */
export const p4ErrorQuality: ProbeRule = {
  id: "P4",
  check(context, report) {
    for (const record of context.records) {
      if (!record.probe.expectError) continue;
      const verdict = judgeErrorAnswer(record, context);
      if (verdict !== null) report(record, verdict.severity, { reason: verdict.reason, text: verdict.text });
    }
  },
};
