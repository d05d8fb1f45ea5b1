// Table-driven cases per probe rule: test/fixtures/probe/cases/<rule>.json holds firing cases and near
// misses, each a probe record (what was sent, how it ended, what came back, measured as the runner
// measures a live answer) and the findings expected of that rule as [severity, reason] (format-parity:
// [severity, field]).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULE_IDS } from "../../../src/lint/types.js";
import { RULE_LIST } from "../../../src/lint/rules/index.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { judgeProbes } from "../../../src/probe/judge.js";
import { measureProtocolError, measureResult } from "../../../src/probe/response.js";
import { makeRedactor } from "../../../src/text/redact.js";
import { PROBE_RULES } from "../../../src/probe/rules/index.js";
import type { PlannedProbe, ProbeRecord, ProbeResponse, ProbeStatus } from "../../../src/probe/types.js";
import { planned } from "./helpers.js";

interface Case {
  name: string;
  tool?: JsonObject | "summary";
  probe?: Partial<PlannedProbe>;
  status: ProbeStatus;
  response: {
    text?: string;
    repeat?: { line: string; times: number; append?: string; prepend?: string; middle?: string };
    repeatUuids?: { times: number; format: string; json?: boolean };
    isError?: boolean;
    structured?: unknown;
    contentEmpty?: boolean;
    errorCode?: number;
    /** Characters of base64 in an image block next to the text (counted in tokens, not in text tokens). */
    imageChars?: number;
  };
  expect: [string, string][];
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

function textOf(response: Case["response"]): string {
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
function responseOf(item: Case): ProbeResponse {
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

function recordOf(item: Case, tool: JsonObject): ProbeRecord {
  return { probe: planned(tool.name as string, item.probe), status: item.status, latencyMs: 1, note: null, response: responseOf(item) };
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
        const { findings } = judgeProbes([recordOf(item, tool)], [tool], new Set());
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

  it("skips a disabled rule", () => {
    const item: Case = { name: "big", status: "ok", response: { repeat: { line: "The quick brown fox jumps over the lazy dog.", times: 2728 } }, expect: [] };
    const { findings } = judgeProbes([recordOf(item, DEFAULT_TOOL)], [DEFAULT_TOOL], new Set(["P1", "P5"]));
    expect(findings.map((finding) => finding.rule)).toEqual(["P3"]);
  });
});
