// Probes in the report: the terminal table, the JSON entries (preview or whole response), and inert server text.
import { describe, expect, it } from "vitest";
import { makeRedactor } from "../../../src/text/redact.js";
import { lintServer } from "../../../src/lint/lint.js";
import type { ServerSnapshot } from "../../../src/lock/snapshot.js";
import { measureResult } from "../../../src/probe/response.js";
import type { PlannedProbe, ProbeRecord } from "../../../src/probe/types.js";
import { buildLintJsonReport } from "../../../src/report/lint-json.js";
import { probeEntry, probeTableLines } from "../../../src/report/lint-probes.js";
import { buildLintReport } from "../../../src/report/lint-report.js";
import { renderLintTerminal } from "../../../src/report/lint-terminal.js";
import { planned } from "./helpers.js";

const answered = (probe: PlannedProbe, text: string, isError = false, latencyMs = 4): ProbeRecord => ({
  probe,
  status: isError ? "tool_error" : "ok",
  latencyMs,
  note: null,
  response: measureResult({ content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) }, makeRedactor([])),
});

const records: ProbeRecord[] = [
  answered(planned("read_text_file", { label: "small" }), "hello world!"),
  answered(planned("read_text_file", { label: "big" }), "x".repeat(348_856), false, 7),
  answered(planned("read_text_file", { label: "missing file", expectError: true }), "ENOENT: no such file or directory, open '/sandbox/nope.txt'", true, 2),
  {
    probe: planned("write_file", { label: "should be blocked", action: "blocked", blocked: { code: "not_read_only" }, args: null }),
    status: "blocked",
    latencyMs: null,
    response: null,
    note: null,
  },
];

describe("the probe table", () => {
  it("shows each probe's status, estimated tokens and latency, and why a blocked one was held back", () => {
    expect(probeTableLines(records)).toEqual([
      "Probes",
      "  read_text_file (small)          ok                         ~13 tok  4 ms",
      "  read_text_file (big)            ok                     ~87,224 tok  7 ms",
      "  read_text_file (missing file)   tool_error (expected)      ~29 tok  2 ms",
      "  write_file (should be blocked)  blocked",
      '      tool is not marked read-only (readOnlyHint: true), so it may change data; add "allow_destructive": true to run it (sandbox only)',
      "  3 called, 1 blocked, 0 skipped; tokens are estimated (compact JSON, 4 characters per token)",
    ]);
  });

  it("names generated error probes by what they send", () => {
    const probe = planned("get", { origin: "error_probe", variant: "unknown_value", param: "path", expectError: true });
    expect(probeTableLines([answered(probe, "not found", true)])[1]).toMatch(/^ {2}get \(error: unknown value for path\) +tool_error \(expected\)/);
  });

  it("keeps hostile server text inert", () => {
    const probe = planned("evil\u001b[2J\u202etool", { label: "x\nInjected: line" });
    const lines = probeTableLines([answered(probe, "fine")]);
    expect(lines[1]).toContain("evil\\u{1B}[2J\\u{202E}tool (x\\u{A}Injected: line)");
  });
});

describe("probes held back for their Mcp-Param headers", () => {
  const held = (blocked: PlannedProbe["blocked"]): ProbeRecord => ({
    probe: planned("search", { action: "blocked", blocked, args: null }),
    status: "blocked",
    latencyMs: null,
    response: null,
    note: null,
  });

  it("say why a client of the revision leaves the tool out, the server's header name made inert", () => {
    const [, , reason] = probeTableLines([held({ code: "invalid_param_headers", why: "not_token", header: "a b\u001b]0;pwned\u0007" })]);
    expect(reason).toBe(
      '      its x-mcp-header "a b\\u{1B}]0;pwned\\u{7}" is not a header name (a non-empty RFC 9110 token), so a client of MCP 2026-07-28 over HTTP must leave the tool out; it was not called',
    );
    expect(probeEntry(held({ code: "invalid_param_headers", why: "duplicate", header: null }), false).reason).toBe(
      "its x-mcp-header repeats another declaration's name (letter case aside), so a client of MCP 2026-07-28 over HTTP must leave the tool out; it was not called",
    );
  });

  it("name the header a credential was bound for", () => {
    expect(probeEntry(held({ code: "credential_in_header", header: "Mcp-Param-Token" }), false).reason).toBe(
      'the value for its header "Mcp-Param-Token" has the form of a credential (a token or key) or is a secret this run holds, ' +
        "and a header is seen by every proxy and log on the way; the call was not sent",
    );
  });
});

describe("the JSON probes entries", () => {
  it("previews 400 characters, neutralized line by line, unless whole responses are asked for", () => {
    const long = answered(planned("t"), `line one\u001b[31m\n${"y".repeat(1000)}`);
    const preview = probeEntry(long, false);
    expect(preview).toMatchObject({ tool: "t", status: "ok", tokens_estimated: 265, content_types: ["text"], truncated: true, is_error: false, latency_ms: 4 });
    expect(preview.preview).toBe(`line one\\u{1B}[31m\n${"y".repeat(400 - 14)}`);
    expect(preview).not.toHaveProperty("response");
    const whole = probeEntry(long, true);
    expect(whole.response).toBe(`line one\\u{1B}[31m\n${"y".repeat(1000)}`);
    expect(whole).not.toHaveProperty("preview");
  });

  it("appear in the report only for a run that probed, and the score says so", () => {
    const snapshot: ServerSnapshot = {
      tools: [{ name: "t", description: "x", inputSchema: { type: "object" } }],
      instructions: { known: true, text: null },
      name: "s",
      version: "1",
      commandSha256: "x",
      transport: "stdio",
    };
    const result = lintServer({ tools: snapshot.tools });
    const plain = buildLintJsonReport(buildLintReport({ toolVersion: "0", command: "run", source: null, snapshot, result, install: [] }));
    expect(plain).not.toHaveProperty("probes");
    const probed = buildLintReport({ toolVersion: "0", command: "run", source: null, snapshot, result, install: [], probes: records });
    expect((buildLintJsonReport(probed).probes as unknown[]).length).toBe(4);
    expect(renderLintTerminal(probed)).toContain("\nProbes\n  read_text_file (small)");
  });
});
