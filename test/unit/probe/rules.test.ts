// Table-driven cases per probe rule: test/fixtures/probe/cases/<rule>.json holds firing cases and near
// misses, each a probe record (what was sent, how it ended, what came back, measured as the runner
// measures a live answer) and the findings expected of that rule as [severity, reason] (format-parity:
// [severity, field]).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fix, message } from "../../../src/lint/messages.js";
import { findingWaste } from "../../../src/lint/score.js";
import { RULE_IDS } from "../../../src/lint/types.js";
import { RULE_LIST } from "../../../src/lint/rules/index.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { judgeProbes } from "../../../src/probe/judge.js";
import { measureProtocolError, measureResult } from "../../../src/probe/response.js";
import { makeRedactor } from "../../../src/text/redact.js";
import { PROBE_RULES } from "../../../src/probe/rules/index.js";
import type { PlannedProbe, ProbeRecord, ProbeResponse, ProbeStatus } from "../../../src/probe/types.js";
import { planned } from "./helpers.js";

/** One probe of a case: what was sent (a `tool` here overrides the case's tool), how it ended, what came back. */
interface CaseProbe {
  probe?: Partial<PlannedProbe>;
  status: ProbeStatus;
  response: CaseResponse;
}

interface Case extends Partial<CaseProbe> {
  name: string;
  tool?: JsonObject | "summary";
  /** Several probes judged together (P4 compares the answers of a tool); without it the case is one probe. */
  probes?: CaseProbe[];
  expect: [string, string][];
}

interface CaseResponse {
  text?: string;
  repeat?: { line: string; times: number; append?: string; prepend?: string; middle?: string };
  repeatUuids?: { times: number; format: string; json?: boolean };
  isError?: boolean;
  structured?: unknown;
  contentEmpty?: boolean;
  errorCode?: number;
  /** Characters of base64 in an image block next to the text (counted in tokens, not in text tokens). */
  imageChars?: number;
}

const NO_SECRETS = makeRedactor([]);

const DEFAULT_TOOL: JsonObject = { name: "tool", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } };
const SUMMARY_TOOL: JsonObject = {
  name: "tool",
  inputSchema: { type: "object", properties: {} },
  outputSchema: { type: "object", properties: { title: { type: "string" } } },
  annotations: { readOnlyHint: true },
};

/** A UUID per number, always well-formed. */
function uuid(n: number): string {
  const hex = (n * 2654435761 + 0x9e3779b9).toString(16).padStart(8, "0").slice(-8);
  return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-8${hex.slice(2, 5)}-${hex}${hex.slice(0, 4)}`;
}

function textOf(response: CaseResponse): string {
  if (response.repeat !== undefined) {
    const { line, times, append, prepend, middle } = response.repeat;
    const lines = Array.from({ length: times }, () => line);
    if (middle !== undefined) lines.splice(Math.floor(times / 2), 0, middle);
    if (append !== undefined) lines.push(append);
    return `${prepend ?? ""}${lines.join("\n")}`;
  }
  if (response.repeatUuids !== undefined) {
    const { times, format, json } = response.repeatUuids;
    const entries = Array.from({ length: times }, (_, index) => format.replaceAll("{id}", uuid(index + 1)));
    return json === true ? `[${entries.join(", ")}]` : entries.join("\n");
  }
  return response.text ?? "";
}

/** The answer as a server sends it, measured the way the runner measures a live one. */
function responseOf(item: CaseProbe): ProbeResponse {
  const { response } = item;
  const text = textOf(response);
  if (item.status === "protocol_error") return measureProtocolError(response.errorCode ?? -32603, text, NO_SECRETS);
  const content: JsonObject[] = response.contentEmpty === true ? [] : [{ type: "text", text }];
  const media = response.imageChars ?? 0;
  if (media > 0) content.push({ type: "image", mimeType: "image/png", data: "A".repeat(media) });
  const result: JsonObject = {
    content,
    ...(response.structured === undefined ? {} : { structuredContent: response.structured }),
    ...(response.isError === true ? { isError: true } : {}),
  };
  return measureResult(result, NO_SECRETS);
}

function recordOf(item: CaseProbe, tool: JsonObject): ProbeRecord {
  return { probe: planned(tool.name as string, item.probe), status: item.status, latencyMs: 1, note: null, response: responseOf(item) };
}

/** The records of a case, in order. */
function recordsOf(item: Case, tool: JsonObject): ProbeRecord[] {
  if (item.probes !== undefined) return item.probes.map((probe) => recordOf(probe, tool));
  if (item.status === undefined || item.response === undefined) throw new Error(`case "${item.name}" has neither probes nor a status and response`);
  return [recordOf({ probe: item.probe ?? {}, status: item.status, response: item.response }, tool)];
}

const dir = join(import.meta.dirname, "../../fixtures/probe/cases");
const files = readdirSync(dir).filter((name) => name.endsWith(".json"));

for (const file of files) {
  const rule = file.replace(/\.json$/, "");
  const cases = JSON.parse(readFileSync(join(dir, file), "utf8")) as Case[];
  describe(`probe rule ${rule}`, () => {
    it("has a firing case and a near miss", () => {
      expect(cases.some((item) => item.expect.length > 0)).toBe(true);
      expect(cases.some((item) => item.expect.length === 0)).toBe(true);
    });
    for (const item of cases) {
      it(item.name, () => {
        const tool = item.tool === "summary" ? SUMMARY_TOOL : (item.tool ?? DEFAULT_TOOL);
        const { findings } = judgeProbes(recordsOf(item, tool), [tool], new Set());
        const got = findings
          .filter((finding) => finding.rule === rule)
          .map((finding) => [finding.severity, rule === "format-parity" ? finding.args.field : finding.args.reason]);
        expect(got).toEqual(item.expect);
      });
    }
  });
}

describe("the probe rule registry", () => {
  it("has a case file for every probe rule", () => {
    expect(files.map((name) => name.replace(/\.json$/, "")).sort()).toEqual(PROBE_RULES.map((rule) => rule.id).sort());
  });

  it("together with the lint rules registers every rule ID exactly once", () => {
    const ids = [...RULE_LIST.map((rule) => rule.id), ...PROBE_RULES.map((rule) => rule.id)];
    expect(ids.sort()).toEqual([...RULE_IDS].sort());
  });

  it("says how many error probes met an environment failure, quotes it, and charges nothing for it", () => {
    const failing = (variant: string, text: string): CaseProbe => ({
      probe: { origin: "error_probe", variant: variant as PlannedProbe["variant"], param: "url", expectError: true },
      status: "tool_error",
      response: { text, isError: true },
    });
    const chrome = "Chromium distribution 'chrome' is not found";
    const item: Case = {
      name: "mixed",
      probes: [failing("missing_required", chrome), failing("wrong_type", "Expected string, received number"), failing("unknown_value", chrome)],
      expect: [],
    };
    const { findings } = judgeProbes(recordsOf(item, DEFAULT_TOOL), [DEFAULT_TOOL], new Set());
    expect(findings).toEqual([]);
    // The same text on every call, one the schema accepts among them: nothing was tested.
    const all: Case = { ...item, probes: [failing("missing_required", chrome), failing("wrong_type", chrome), failing("unknown_value", chrome)] };
    const [untested, ...rest] = judgeProbes(recordsOf(all, DEFAULT_TOOL), [DEFAULT_TOOL], new Set()).findings;
    expect(rest).toEqual([]);
    expect(untested).toMatchObject({ rule: "P4", severity: "warning", tool: "tool", args: { reason: "untested", count: 3, total: 3, text: chrome } });
    expect(untested?.args).not.toHaveProperty("variant");
    if (untested === undefined) return;
    expect(message(untested)).toBe(
      `Untested: all 3 error probes got the same error whatever was sent: "${chrome}", so they show nothing of how the tool answers bad input (a missing browser, key or service fails every call alike).`,
    );
    expect(fix(untested)).toMatch(/^Fix what makes every call fail/);
    expect(findingWaste(untested)).toBe(0);
  });

  // Issue 23 survey: playwright 0.0.83 without Chrome answers "### Error" on its first line; the quote showed only that heading.
  it("quotes the line that says what failed, not a Markdown heading above it", () => {
    const failing = (variant: string): CaseProbe => ({
      probe: { origin: "error_probe", variant: variant as PlannedProbe["variant"], param: "url", expectError: true },
      status: "tool_error",
      response: { text: "### Error\nError: Chromium distribution 'chrome' is not found", isError: true },
    });
    const item: Case = { name: "heading", probes: [failing("missing_required"), failing("wrong_type"), failing("unknown_value")], expect: [] };
    const [untested] = judgeProbes(recordsOf(item, DEFAULT_TOOL), [DEFAULT_TOOL], new Set()).findings;
    expect(untested?.args.text).toBe("Error: Chromium distribution 'chrome' is not found");
  });

  it("skips a disabled rule", () => {
    const item: Case = { name: "big", status: "ok", response: { repeat: { line: "The quick brown fox jumps over the lazy dog.", times: 2728 } }, expect: [] };
    const { findings } = judgeProbes(recordsOf(item, DEFAULT_TOOL), [DEFAULT_TOOL], new Set(["P1", "P5"]));
    expect(findings.map((finding) => finding.rule)).toEqual(["P3"]);
  });
});
