// Property: whatever a server puts in any field, no lint channel (terminal, JSON, SARIF, the lock's S8 lines) carries a
// raw control, bidi, zero-width or TAG character, or a line that starts a workflow command.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardPlan, hiddenTextNotes, lockHiddenText, withHiddenText } from "../../../src/cli/hidden-text.js";
import type { InstallFinding } from "../../../src/install/kinds.js";
import type { JsonObject, ServerSnapshot } from "../../../src/lock/snapshot.js";
import { lintServer } from "../../../src/lint/index.js";
import { jsonReportText } from "../../../src/report/json.js";
import { changeMessage } from "../../../src/report/messages.js";
import { buildLintJsonReport } from "../../../src/report/lint-json.js";
import { buildLintReport } from "../../../src/report/lint-report.js";
import { renderLintTerminal } from "../../../src/report/lint-terminal.js";
import { installSarif, lintSarif, lockSarif } from "../../../src/report/sarif.js";
import { renderTerminal } from "../../../src/report/terminal.js";
import { expectInert, HOSTILE, hostileText } from "../../hostile-strings.js";

/** A tool with a hostile string in every place S8 and the report read. */
function tool(name: string, s: string[]): JsonObject {
  const [a = "", b = "", c = "", d = "", e = "", f = "", g = ""] = s;
  return {
    name,
    title: a,
    description: b,
    inputSchema: {
      type: "object",
      properties: {
        [c]: { type: "string", description: d, enum: [e, "plain"], default: f, format: g, examples: [a], "x-mcp-header": e },
        list_all: { type: "array", items: { type: "object", properties: { [g]: { const: b } } } },
        nested: {
          type: "object",
          properties: { deep: { type: "object", properties: { deeper: { type: "object", properties: { [d]: { type: "string" } } } } } },
        },
      },
      anyOf: [{ properties: { [e]: {} } }],
      required: [c],
    },
    outputSchema: { type: "object", properties: { [f]: { description: a } } },
    annotations: { title: e, readOnlyHint: true, destructiveHint: f },
    _meta: { [g]: b, ui: { resourceUri: d } },
  };
}

describe("hostile strings on every lint channel", () => {
  it("terminal (plain and coloured), JSON, SARIF and the lock's S8 lines stay inert", () => {
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 8, maxLength: 8 }), fc.constantFrom(...HOSTILE), (strings, name) => {
        const tools = [tool(name, strings), tool(`${name}_2`, strings.slice().reverse()), tool(name, strings)];
        const snapshot: ServerSnapshot = {
          tools,
          instructions: { known: true, text: strings[0] ?? null },
          name: strings[1] ?? null,
          version: strings[2] ?? null,
          commandSha256: null,
          transport: "file",
        };
        const install = [{ rule: "I1", kind: "unpinned", severity: "warning", package: strings[3] ?? "", args: {} } as InstallFinding];
        const result = lintServer({ tools, instructions: strings[0] ?? null }, { disable: new Set(), portability: "strict", formatAllowlist: [] });
        const report = buildLintReport({ toolVersion: "0.1.0", command: "run", source: strings[4] ?? null, snapshot, result, install });
        expectInert("terminal", renderLintTerminal(report));
        expectInert("terminal (colour)", renderLintTerminal(report, { colour: true, width: 50 }).replace(/\u001b\[[0-9;]*m/g, ""));
        expectInert("JSON", jsonReportText(buildLintJsonReport(report)));
        expectInert("SARIF", jsonReportText(lintSarif(report, "tools.json")));
        expectInert("install SARIF", jsonReportText(installSarif("0.1.0", [{ uri: "x.json", line: 1, name: strings[5] ?? "", findings: install }])));
        for (const item of report.items) {
          expectInert(`message of ${item.rule}`, item.message);
          expectInert(`fix of ${item.rule}`, item.fix);
        }
        // The lock's view: first lock shows every S8 finding next to the recorded text.
        const hidden = lockHiddenText(snapshot, null, [], false);
        expect(guardPlan({ status: "created", text: "" }, hidden, false).status).toBe(
          hidden.some((finding) => finding.severity === "error") ? "refused" : "created",
        );
        const input = { mode: "lock" as const, lockPath: "mcp-lint.lock", snapshot, lock: null, changes: [], notes: [], hiddenText: hiddenTextNotes(hidden) };
        expectInert("lock terminal", renderTerminal(input));
        expectInert("lock JSON", jsonReportText(withHiddenText({ changes: [] }, hidden)));
        expectInert(
          "lock SARIF",
          jsonReportText(lockSarif({ version: "0.1.0", lockUri: "mcp-lint.lock", server: snapshot.name, changes: [], hidden, changeMessage })),
        );
      }),
      { numRuns: 40, seed: 20261130 },
    );
  });
});
