/** Probes in the `run` report: the terminal's probe table, the JSON `probes` entries, and the sentence for each held-back or failed probe. Pure. */

import { INVALID_DECLARATION_TEXT } from "../connect/param-headers.js";
import type { ArgumentProblem, BlockReason, PlannedProbe, ProbeNote, ProbeRecord } from "../probe/types.js";
import { capDisplay, neutralize, neutralizeLines } from "../text/neutralize.js";
import { maxOf } from "../arrays.js";
import { thousands } from "../numbers.js";

/** Characters of each response kept in the JSON report without `--include-responses`. */
export const PREVIEW_CHARS = 400;
/** Longest probe name shown in the table. */
const MAX_PROBE_NAME = 80;

const VARIANT_WORDS: Readonly<Record<string, string>> = {
  missing_required: "missing",
  wrong_type: "wrong type for",
  invalid_enum: "invalid value for",
  unknown_value: "unknown value for",
};

/** Server or user text as an inert quoted string. */
function quote(text: string, max = 80): string {
  return `"${capDisplay(neutralize(text), max)}"`;
}

/** How a probe is named in the table: the tool, then its label or, for an error probe, what it sends. */
export function probeName(probe: PlannedProbe): string {
  const tool = capDisplay(neutralize(probe.tool), MAX_PROBE_NAME);
  if (probe.variant !== null) return `${tool} (error: ${VARIANT_WORDS[probe.variant] ?? probe.variant} ${capDisplay(neutralize(probe.param ?? ""), 40)})`;
  return probe.label === null ? tool : `${tool} (${capDisplay(neutralize(probe.label), 60)})`;
}

/** The status column: the status, `(expected)` after an error a probe asked for, the JSON-RPC code of a protocol error. */
export function statusText(record: ProbeRecord): string {
  const expected = record.probe.expectError && (record.status === "tool_error" || record.status === "protocol_error") ? " (expected)" : "";
  if (record.status === "protocol_error") return `protocol_error ${record.response?.errorCode ?? ""}${expected}`.replace(/ +/g, " ");
  return `${record.status === "not_run" ? "not run" : record.status}${expected}`;
}

function problemText(problem: ArgumentProblem): string {
  const at = problem.at === "" ? "" : ` at ${quote(problem.at, 60)}`;
  switch (problem.keyword) {
    case "required":
      return `missing required argument ${quote(problem.property ?? "", 60)}${at}`;
    case "additionalProperties":
      return `unknown argument ${quote(problem.property ?? "", 60)}${at}`;
    case "type":
      return `argument${at} must be ${neutralize(problem.expected ?? "another type")}`;
    case "enum":
      return `argument${at} must be one of ${capDisplay(neutralize(problem.expected ?? "the listed values"), 120)}`;
    case "pattern":
      return problem.expected === null
        ? `argument${at} does not match its pattern`
        : `argument${at}: ${neutralize(problem.text)} (${quote(problem.expected, 60)})`;
    default:
      return `argument${at} ${capDisplay(neutralize(problem.text), 120)}`;
  }
}

/** Why the gate held a probe back, as one line. */
export function blockText(reason: BlockReason): string {
  switch (reason.code) {
    case "unknown_tool":
      return "the server has no tool of this name; check the name against tools/list";
    case "not_read_only":
      return 'tool is not marked read-only (readOnlyHint: true), so it may change data; add "allow_destructive": true to run it (sandbox only)';
    case "missing_variable":
      return `\${${neutralize(reason.name)}} is not set in this environment; set it, or change the fixture`;
    case "invalid_arguments":
      return `arguments do not match the tool's input schema: ${reason.problems.map(problemText).join("; ")}; add "expect_error": true if the call is meant to fail`;
    case "schema_unusable":
      return `arguments cannot be checked, so the probe is not sent: ${capDisplay(neutralize(reason.detail), 200)}`;
    case "no_longer_applies":
      return "the tool's new definition no longer fits this probe, so it was not sent";
    case "invalid_param_headers": {
      const header = reason.header === null ? "its x-mcp-header" : `its x-mcp-header ${quote(reason.header, 60)}`;
      return `${header} ${INVALID_DECLARATION_TEXT[reason.why]}, so a client of MCP 2026-07-28 over HTTP must leave the tool out; it was not called`;
    }
    case "credential_in_header":
      return (
        `the value for its header ${quote(reason.header, 80)} has the form of a credential (a token or key) or is a secret this run holds, ` +
        "and a header is seen by every proxy and log on the way; the call was not sent"
      );
  }
}

/** Why a probe was not run, failed or timed out, as one line. */
export function noteText(note: ProbeNote): string {
  switch (note.code) {
    case "timed_out":
      return `no answer within ${note.seconds} s (--probe-timeout); the call was cancelled with notifications/cancelled`;
    case "server_stopped":
      return `the server stopped answering after the call to ${quote(note.after)} timed out, so it was stopped`;
    case "server_gone":
      return `the server ${neutralize(note.how)} before this probe`;
    case "call_failed":
      return `the call failed: ${capDisplay(neutralize(note.detail), 300)}`;
    case "list_changed":
      return "the server changed its tool list during the run, so this probe was judged again against the new list";
    case "list_unreadable":
      return `the server changed its tool list during the run and the new list could not be read, so nothing more was called: ${capDisplay(neutralize(note.detail), 300)}`;
  }
}

/** The second line under a table row, or null when the row says it all. */
export function reasonLine(record: ProbeRecord): string | null {
  if (record.probe.blocked !== null) {
    const changed = record.note?.code === "list_changed" ? " (after the server changed its tool list during the run)" : "";
    return `${blockText(record.probe.blocked)}${changed}`;
  }
  if (record.note !== null) return noteText(record.note);
  return null;
}

/** The probe table for the terminal: one row per probe (name, status, estimated tokens, latency), a reason under held-back and failed ones. */
export function probeTableLines(records: readonly ProbeRecord[]): string[] {
  if (records.length === 0) return ["Probes", "  No probes to run."];
  const names = records.map((record) => probeName(record.probe));
  const statuses = records.map(statusText);
  const tokens = records.map((record) => (record.response === null ? "" : `~${thousands(record.response.tokens)} tok`));
  const nameWidth =
    Math.min(
      64,
      maxOf(
        names.map((name) => name.length),
        0,
      ),
    ) + 2;
  const statusWidth =
    maxOf(
      statuses.map((status) => status.length),
      0,
    ) + 2;
  const tokenWidth = maxOf(
    tokens.map((text) => text.length),
    0,
  );
  const lines = ["Probes"];
  records.forEach((record, index) => {
    const name = names[index] as string;
    const status = statuses[index] as string;
    let row = `  ${name}${" ".repeat(Math.max(1, nameWidth - name.length))}${status}`;
    if (record.latencyMs !== null || record.response !== null) {
      row += `${" ".repeat(statusWidth - status.length)}${(tokens[index] as string).padStart(tokenWidth)}`;
      if (record.latencyMs !== null) row += `  ${thousands(record.latencyMs)} ms`;
    }
    lines.push(row.trimEnd());
    const reason = reasonLine(record);
    if (reason !== null) lines.push(`      ${reason}`);
  });
  const ran = records.filter((record) => record.latencyMs !== null).length;
  const held = records.filter((record) => record.status === "blocked").length;
  const skipped = records.filter((record) => record.status === "skipped").length;
  const notRun = records.filter((record) => record.status === "not_run").length;
  const parts = [`${ran} called`, `${held} blocked`, `${skipped} skipped`];
  if (notRun > 0) parts.push(`${notRun} not run`);
  lines.push(`  ${parts.join(", ")}; tokens are estimated (compact JSON, 4 characters per token)`);
  return lines;
}

/** Response text for the JSON report: neutralized line by line, newlines kept. */
function inert(text: string): string {
  return neutralizeLines(text).join("\n");
}

/** One probe as a JSON report entry; the response is previewed (400 characters) unless `includeResponses`. */
export function probeEntry(record: ProbeRecord, includeResponses: boolean): Record<string, unknown> {
  const { probe, response } = record;
  const entry: Record<string, unknown> = {
    tool: probe.tool,
    label: probe.label,
    origin: probe.origin,
    variant: probe.variant,
    param: probe.param,
    expect_error: probe.expectError,
    status: record.status,
    reason: reasonLine(record),
    latency_ms: record.latencyMs,
    tokens_estimated: response === null ? null : response.tokens,
    content_types: response === null ? [] : response.contentTypes,
    is_error: response === null ? null : response.isError,
    error_code: response === null ? null : response.errorCode,
  };
  if (response !== null) {
    if (includeResponses) {
      entry.response = inert(response.text);
    } else {
      entry.preview = inert(response.text.slice(0, PREVIEW_CHARS));
      entry.truncated = response.text.length > PREVIEW_CHARS;
    }
  }
  return entry;
}
