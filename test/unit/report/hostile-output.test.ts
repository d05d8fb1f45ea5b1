// Property: whatever a server puts in any field of its list, no report channel carries a raw control
// character, a bidi or zero-width character, or a line that starts a workflow command (`::`).
import fc from "fast-check";
import { describe, it } from "vitest";
import { compareSnapshot } from "../../../src/lock/engine.js";
import { buildLockfile } from "../../../src/lock/format.js";
import type { JsonObject, ServerSnapshot } from "../../../src/lock/snapshot.js";
import { buildJsonReport, jsonReportText } from "../../../src/report/json.js";
import { changeMessage } from "../../../src/report/messages.js";
import { type ReportInput, renderTerminal } from "../../../src/report/terminal.js";
import { schemaDiffLines } from "../../../src/report/schema-diff.js";
import { expectInert, HOSTILE, hostileText } from "../../hostile-strings.js";

function tool(name: string, strings: string[]): JsonObject {
  const [a = "", b = "", c = "", d = "", e = "", f = "", g = ""] = strings;
  return {
    name,
    title: a,
    description: b,
    inputSchema: {
      type: "object",
      properties: {
        // x-mcp-header: a hostile header name and parameter name reach mcp_header_changed's sentence too.
        [c]: { type: "string", description: d, enum: [e, "plain"], default: f, "x-mcp-header": g },
        nested: { type: "object", properties: { deep: { type: "object", properties: { [g]: { type: "string", description: a } } } } },
      },
      patternProperties: { [`^${d}$`]: { type: "string" } },
      required: [c],
    },
    annotations: { title: e, [f]: true, readOnlyHint: false },
    _meta: { [g]: b },
  };
}

function snapshot(tools: JsonObject[], strings: string[]): ServerSnapshot {
  return {
    tools,
    instructions: { known: true, text: strings[0] ?? null },
    name: strings[1] ?? null,
    version: strings[2] ?? null,
    commandSha256: null,
    transport: "file",
  };
}

describe("server-controlled strings stay inert on every channel", () => {
  it("terminal report, JSON report and every message, for lists made of hostile strings", () => {
    fc.assert(
      fc.property(
        fc.array(hostileText, { minLength: 8, maxLength: 8 }),
        fc.array(hostileText, { minLength: 8, maxLength: 8 }),
        fc.constantFrom(...HOSTILE),
        (before, after, name) => {
          const old = snapshot([tool(name, before), tool("stable", before)], before);
          const next = snapshot([tool(name, after), tool("stable", after), tool(`${name}2`, after)], after);
          const lock = buildLockfile(old, null);
          const changes = compareSnapshot(next, lock);
          const input: ReportInput = {
            mode: "check",
            lockPath: "mcp-lint.lock",
            snapshot: next,
            lock,
            changes,
            notes: [{ tool: name, severity: "info", message: `note about ${after[3] ?? ""}` }],
            schemaDiff: schemaDiffLines,
          };
          expectInert("terminal", renderTerminal(input));
          expectInert("first lock", renderTerminal({ ...input, lock: null, changes: [] }));
          for (const change of changes) expectInert(`message of ${change.kind}`, changeMessage(change));
          expectInert("JSON report", jsonReportText(buildJsonReport(input, "changed", 1)));
        },
      ),
      { numRuns: 100, seed: 20261130 },
    );
  });
});
