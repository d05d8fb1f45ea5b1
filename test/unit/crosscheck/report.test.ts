// The crosscheck report: baseline acknowledgement and stale entries, the exit code, one-line
// messages (server text neutralized), the terminal text and the JSON report.
import { describe, expect, it } from "vitest";
import { type BaselineEntry, baselineText, parseBaseline, updatedEntries } from "../../../src/crosscheck/baseline.js";
import { compareRendering, type RenderFinding } from "../../../src/crosscheck/compare.js";
import {
  buildCrosscheckReport,
  type ClientResult,
  type CrosscheckReport,
  crosscheckExitCode,
  crosscheckJson,
  crosscheckMessage,
  parameterOf,
  groupFindings,
  renderCrosscheckTerminal,
} from "../../../src/crosscheck/report.js";
import { CROSSCHECK_RULE_IDS, CROSSCHECK_RULES } from "../../../src/crosscheck/rules.js";
import type { RenderedTool } from "../../../src/crosscheck/types.js";
import type { LintReportItem } from "../../../src/report/lint-report.js";
import { expectInert } from "../../hostile-strings.js";

type ClientInput = Omit<ClientResult, "items"> & { findings: RenderFinding[] };

const serverToolName = (rendered: string, names: readonly string[]): string | null => names.find((name) => `mcp__target__${name}` === rendered) ?? null;

function client(overrides: Partial<ClientInput> = {}): ClientInput {
  return {
    id: "claude-code",
    label: "Claude Code",
    version: "2.1.0",
    testedVersion: "2.1.0",
    npmPackage: "@anthropic-ai/claude-code",
    status: "compared",
    reason: null,
    shown: 3,
    total: 3,
    ms: 1234,
    refused: 0,
    findings: [],
    ...overrides,
  };
}

function finding(overrides: Partial<RenderFinding> = {}): RenderFinding {
  return {
    rule: "render-param-missing",
    severity: "error",
    tool: "search",
    path: "/inputSchema/properties/limit",
    evidence: "missing",
    detail: { name: "limit" },
    ...overrides,
  };
}

const minimum = finding({ rule: "render-constraint-dropped", severity: "info", evidence: "minimum", detail: { name: "limit", keyword: "minimum" } });

function entry(overrides: Partial<BaselineEntry> = {}): BaselineEntry {
  return { client: "claude-code", rule: "render-param-missing", tool: "search", path: "/inputSchema/properties/limit", evidence: "missing", ...overrides };
}

function report(clients: ClientInput[], baseline: BaselineEntry[] = [], extra: Partial<Parameters<typeof buildCrosscheckReport>[0]> = {}): CrosscheckReport {
  return buildCrosscheckReport({
    toolVersion: "9.9.9",
    server: { name: "notes", version: "1.2.3" },
    tools: 3,
    groundTruth: [],
    clients,
    limited: [],
    baseline,
    ...extra,
  });
}

/** A raw character no message may carry. */
const RAW = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

describe("buildCrosscheckReport", () => {
  it("counts unacknowledged findings by severity and gives each a message and the rule's fix", () => {
    const built = report([client({ findings: [finding(), minimum, finding({ tool: "other" })] })]);
    expect(built.counts).toEqual({ info: 1, warning: 0, error: 2 });
    const items = built.clients[0]?.items ?? [];
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({
      rule: "render-param-missing",
      client: "claude-code",
      acknowledged: false,
      message: 'Claude Code does not show parameter "limit" to its model.',
      fix: CROSSCHECK_RULES["render-param-missing"].fix,
    });
    expect(built.stale).toEqual([]);
  });

  it("does not count findings the baseline acknowledges, and exits 0 when they are the only ones", () => {
    const findings = [finding(), minimum];
    const baseline = [entry(), entry({ rule: "render-constraint-dropped", evidence: "minimum" })];
    const open = report([client({ findings })]);
    expect(crosscheckExitCode(open, "info")).toBe(1);
    const acknowledged = report([client({ findings })], baseline);
    expect(acknowledged.counts).toEqual({ info: 0, warning: 0, error: 0 });
    expect(acknowledged.clients[0]?.items.map((item) => item.acknowledged)).toEqual([true, true]);
    expect(acknowledged.stale).toEqual([]);
    for (const failOn of ["info", "warning", "error"] as const) expect(crosscheckExitCode(acknowledged, failOn)).toBe(0);
  });

  it("acknowledges a finding only with an entry of the same client, rule, tool, path and evidence", () => {
    const cases: BaselineEntry[] = [
      entry({ client: "codex" }),
      entry({ rule: "render-nested-dropped" }),
      entry({ tool: "other" }),
      entry({ path: "/inputSchema/properties/limit2" }),
      entry({ evidence: "optional" }),
    ];
    for (const baseline of cases) {
      const built = report([client({ findings: [finding()] })], [baseline]);
      expect(built.clients[0]?.items[0]?.acknowledged).toBe(false);
      expect(built.counts.error).toBe(1);
      expect(crosscheckExitCode(built, "error")).toBe(1);
    }
  });

  it("acknowledges a client-level finding with empty tool and path", () => {
    const absent = finding({ rule: "render-tools-absent", tool: null, path: null, evidence: "none", detail: {} });
    const built = report([client({ findings: [absent] })], [entry({ rule: "render-tools-absent", tool: "", path: "", evidence: "none" })]);
    expect(built.clients[0]?.items[0]?.acknowledged).toBe(true);
    expect(built.counts.error).toBe(0);
  });

  it("never acknowledges a failed client, even with a matching entry", () => {
    const failed = finding({ rule: "render-client-failed", tool: null, path: null, evidence: "failed", detail: { reason: "timed out" } });
    const built = report(
      [client({ status: "failed", reason: "timed out", findings: [failed] })],
      [entry({ rule: "render-client-failed", tool: "", path: "", evidence: "failed" })],
    );
    expect(built.clients[0]?.items[0]?.acknowledged).toBe(false);
    expect(built.counts.error).toBe(1);
    expect(crosscheckExitCode(built, "error")).toBe(1);
  });

  it("lists stale entries only for compared clients", () => {
    const baseline = [
      entry({ evidence: "gone" }),
      entry({ client: "codex", evidence: "skipped" }),
      entry({ client: "gemini-cli", evidence: "failed" }),
      entry({ client: "opencode", evidence: "not selected" }),
      entry(),
    ];
    const built = report(
      [
        client({ findings: [finding()] }),
        client({ id: "codex", label: "Codex", status: "skipped", reason: "codex is not on PATH" }),
        client({ id: "gemini-cli", label: "Gemini CLI", status: "failed", reason: "timed out" }),
      ],
      baseline,
    );
    expect(built.stale).toEqual([entry({ evidence: "gone" })]);
  });

  it("lists an entry as stale when its client now finds nothing", () => {
    expect(report([client()], [entry()]).stale).toEqual([entry()]);
  });

  it("keeps the server, tool count, ground truth and limited places as given", () => {
    const limited = [{ client: "claude-code", tool: "deep", path: "/inputSchema/properties/n" }];
    const built = report([client()], [], { limited });
    expect(built.toolVersion).toBe("9.9.9");
    expect(built.server).toEqual({ name: "notes", version: "1.2.3" });
    expect(built.tools).toBe(3);
    expect(built.limited).toEqual(limited);
  });
});

describe("crosscheckExitCode", () => {
  function withCounts(severities: RenderFinding["severity"][]): CrosscheckReport {
    return report([client({ findings: severities.map((severity, index) => finding({ severity, tool: `t${index}` })) })]);
  }

  it("is 0 with no findings at every level", () => {
    for (const failOn of ["info", "warning", "error", "never"] as const) expect(crosscheckExitCode(withCounts([]), failOn)).toBe(0);
  });

  it("honours failOn: a finding fails the run at its severity and below, never with never", () => {
    const table: [RenderFinding["severity"], Record<"info" | "warning" | "error" | "never", 0 | 1>][] = [
      ["info", { info: 1, warning: 0, error: 0, never: 0 }],
      ["warning", { info: 1, warning: 1, error: 0, never: 0 }],
      ["error", { info: 1, warning: 1, error: 1, never: 0 }],
    ];
    for (const [severity, expected] of table) {
      const built = withCounts([severity]);
      for (const failOn of ["info", "warning", "error", "never"] as const) {
        expect(crosscheckExitCode(built, failOn), `${severity} finding, --fail-on ${failOn}`).toBe(expected[failOn]);
      }
    }
  });
});

describe("parameterOf", () => {
  it("names nested properties with dots and array items with []", () => {
    expect(parameterOf("/inputSchema/properties/a/properties/b")).toBe("a.b");
    expect(parameterOf("/inputSchema/properties/a/items")).toBe("a[]");
    expect(parameterOf("/inputSchema/properties/a/items/properties/b")).toBe("a[].b");
    expect(parameterOf("/inputSchema/properties/a/items/items")).toBe("a[][]");
    expect(parameterOf("/outputSchema/properties/temperature")).toBe("temperature");
    expect(parameterOf("/inputSchema/properties/filter/properties/author/properties/name")).toBe("filter.author.name");
  });

  it("unescapes pointer tokens, and reads a property called items or properties as a name", () => {
    expect(parameterOf("/inputSchema/properties/a~1b~0c")).toBe("a/b~c");
    expect(parameterOf("/inputSchema/properties/~01")).toBe("~1");
    expect(parameterOf("/inputSchema/properties/items")).toBe("items");
    expect(parameterOf("/inputSchema/properties/properties/properties/x")).toBe("properties.x");
  });

  it("skips the branch or member a property is declared in", () => {
    expect(parameterOf("/inputSchema/oneOf/1/properties/b")).toBe("b");
    expect(parameterOf("/inputSchema/allOf/0/properties/a/anyOf/2/properties/b")).toBe("a.b");
    expect(parameterOf("/inputSchema/oneOf/1")).toBeNull();
  });

  it("is null for paths that name no parameter", () => {
    expect(parameterOf(null)).toBeNull();
    expect(parameterOf("/description")).toBeNull();
    expect(parameterOf("/inputSchema")).toBeNull();
    expect(parameterOf("/outputSchema")).toBeNull();
    expect(parameterOf("/annotations/properties/x")).toBeNull();
    expect(parameterOf("/inputSchema/properties/a/additionalProperties")).toBeNull();
  });

  // Regression (found in review, fixed): "" is a valid property name; compareRendering points at it as `/inputSchema/properties/`,
  // but the pattern needs a non-empty token, so the message loses the parameter.
  it("names a property whose name is the empty string", () => {
    expect(parameterOf("/inputSchema/properties/")).toBe("");
    expect(crosscheckMessage(finding({ path: "/inputSchema/properties/", detail: { name: "" } }), "Codex")).toBe(
      'Codex does not show parameter "" to its model.',
    );
  });
});

describe("crosscheckMessage", () => {
  const label = "Claude Code";

  it("has a sentence for every rule", () => {
    for (const rule of CROSSCHECK_RULE_IDS) {
      const message = crosscheckMessage(finding({ rule, detail: { name: "limit", keyword: "enum", declared: ["integer"], rendered: [] } }), label);
      expect(message.startsWith(label), rule).toBe(true);
      expect(message.endsWith("."), rule).toBe(true);
    }
  });

  it("says what each rule found", () => {
    const at = "/inputSchema/properties/filter/properties/author";
    const cases: [RenderFinding, string][] = [
      [
        finding({ rule: "render-client-failed", tool: null, path: null, evidence: "failed", detail: { reason: "gave no tools within 60 s" } }),
        "Claude Code gave no tools within 60 s.",
      ],
      [
        finding({ rule: "render-tools-absent", tool: null, path: null, evidence: "none", detail: {} }),
        "Claude Code asked its model without any of the server's tools: it did not connect to the server or rejected its whole list.",
      ],
      [finding({ rule: "render-tool-missing", path: null, detail: {} }), "Claude Code does not show this tool to its model."],
      [finding({ path: at }), 'Claude Code does not show parameter "filter.author" to its model.'],
      [
        finding({ rule: "render-nested-dropped", path: at, evidence: "properties" }),
        'Claude Code shows parameter "filter.author" without the fields declared inside it.',
      ],
      [
        finding({ rule: "render-nested-dropped", path: "/inputSchema/properties/tags", evidence: "items" }),
        'Claude Code shows parameter "tags" without the schema of its items.',
      ],
      [finding({ rule: "render-required-lost", evidence: "optional" }), 'Claude Code shows the required parameter "limit" as optional.'],
      [
        finding({ rule: "render-type-changed", evidence: "integer->number", detail: { declared: ["integer"], rendered: ["number"] } }),
        'Claude Code shows parameter "limit" (declared integer) with type number.',
      ],
      [
        finding({ rule: "render-type-changed", evidence: "null|string->none", detail: { declared: ["null", "string"], rendered: [] } }),
        'Claude Code shows parameter "limit" (declared null or string) with no type.',
      ],
      [
        finding({ rule: "render-type-changed", evidence: "any->string", detail: { declared: ["any"], rendered: ["string"] } }),
        'Claude Code shows parameter "limit" (declared to take any value) with type string.',
      ],
      [finding({ rule: "render-description-missing", path: "/description", detail: {} }), "Claude Code shows this tool without its description."],
      [finding({ rule: "render-description-missing", severity: "info" }), 'Claude Code shows parameter "limit" without its description.'],
      [minimum, 'Claude Code drops minimum from parameter "limit".'],
      [
        finding({
          rule: "render-constraint-dropped",
          evidence: "enum:changed",
          detail: { keyword: "enum", declaredValue: '["a","b"]', renderedValue: '["a"]' },
        }),
        'Claude Code changes enum of parameter "limit" from ["a","b"] to ["a"].',
      ],
      [
        finding({ rule: "render-branches-ignored", path: "/inputSchema", evidence: "anyOf+oneOf" }),
        "Claude Code drops the root anyOf and oneOf alternatives of the input schema.",
      ],
      [
        finding({ rule: "render-description-truncated", path: "/description", evidence: "3390->2048", detail: { declaredLength: 3390, renderedLength: 2048 } }),
        "Claude Code cuts the description from 3390 to 2048 characters.",
      ],
      [
        finding({ rule: "render-description-truncated", evidence: "40->20", detail: { declaredLength: 40, renderedLength: 20 } }),
        'Claude Code cuts the parameter "limit"\'s description from 40 to 20 characters.',
      ],
      [
        finding({ rule: "render-description-rewritten", path: "/description", evidence: "added:0", detail: { renderedText: "Note.", added: true } }),
        'Claude Code adds text to the description: "Note.".',
      ],
      [
        finding({ rule: "render-description-rewritten", path: "/description", evidence: "0123456789abcdef", detail: { renderedText: "Other." } }),
        'Claude Code shows the tool with another description: "Other.".',
      ],
      [finding({ rule: "render-output-lost", path: "/outputSchema", evidence: "not-shown" }), "Claude Code does not show its model this tool's outputSchema."],
      [
        finding({ rule: "render-output-lost", path: "/outputSchema/properties/unit", evidence: "render-constraint-dropped:enum" }),
        'Claude Code shows the outputSchema with a loss at parameter "unit" (render-constraint-dropped:enum).',
      ],
      [
        finding({ rule: "render-output-lost", path: "/outputSchema", evidence: "render-branches-ignored:oneOf" }),
        "Claude Code shows the outputSchema with a loss at its root (render-branches-ignored:oneOf).",
      ],
    ];
    for (const [input, expected] of cases) expect(crosscheckMessage(input, label)).toBe(expected);
  });

  it("caps a long rewritten description", () => {
    const long = "x".repeat(5000);
    const message = crosscheckMessage(finding({ rule: "render-description-rewritten", path: "/description", detail: { renderedText: long } }), label);
    expect(message.length).toBeLessThan(300);
    expect(message).toContain("more characters)");
  });
});

describe("hostile server text", () => {
  const evil = "evil\n\u001b[31mred\u202eexe";
  const input = {
    type: "object",
    properties: {
      [evil]: { type: "string" },
      mode: { type: "string", description: "Mode.", enum: [evil, "b"] },
      [`${evil}2`]: { type: "object", properties: { [evil]: { type: "string", description: "Plain." } } },
    },
    required: [`${evil}2`],
  };
  const rendered: RenderedTool = {
    name: `mcp__target__${evil}`,
    description: `Changed\n\u001b[2J\u202e${evil}`,
    inputSchema: {
      type: "object",
      properties: {
        mode: { type: "string", description: `Mode.\n\u001b[31m${evil}`, enum: ["b"] },
        [`${evil}2`]: { type: "object", properties: { [evil]: {} } },
      },
    },
  };
  const comparison = compareRendering([{ name: evil, description: `Tool ${evil}.`, inputSchema: input }], [rendered], serverToolName);

  it("produces findings that carry the raw text (the report neutralizes it)", () => {
    expect(comparison.findings.map((item) => item.rule)).toEqual([
      "render-description-rewritten",
      "render-param-missing",
      "render-constraint-dropped",
      "render-description-rewritten",
      "render-required-lost",
      "render-type-changed",
      "render-description-missing",
    ]);
    expect(comparison.findings.every((item) => item.tool === evil)).toBe(true);
  });

  it("never puts a raw newline, ANSI escape or bidi override in a message", () => {
    for (const item of comparison.findings) {
      const message = crosscheckMessage(item, "Claude Code");
      expect(RAW.test(message), JSON.stringify(message)).toBe(false);
      expect(message).not.toContain("\u001b");
      expect(message).not.toContain("\u202e");
    }
    const missing = crosscheckMessage(comparison.findings[1] as RenderFinding, "Claude Code");
    expect(missing).toBe('Claude Code does not show parameter "evil\\u{A}\\u{1B}[31mred\\u{202E}exe" to its model.');
  });

  it("keeps the terminal report inert, tool names and server name included", () => {
    const built = report([client({ findings: comparison.findings, shown: comparison.shown, total: 1 })], [], {
      server: { name: `srv\u001b[31m\n::error::x`, version: "1.0\u202e" },
    });
    const text = renderCrosscheckTerminal(built);
    expectInert("terminal", text);
    expect(text).not.toContain("evil\n");
    expect(text).not.toContain("\u001b");
    expect(text).not.toContain("\u202e");
    expect(text).toContain("evil\\u{A}\\u{1B}[31mred\\u{202E}exe: ");
    expect(text.split("\n")[0]).toBe("crosscheck: srv\\u{1B}[31m\\u{A}::error::x 1.0\\u{202E}, 3 tools in tools/list");
  });

  // Regression (found in review, fixed): the declared and rendered types of render-type-changed are server (and client) text,
  // joined into the message without neutralize, so a type like "\u001b[31mstring" reaches the terminal raw.
  it("neutralizes a hostile type name in render-type-changed", () => {
    const types = compareRendering(
      [{ name: "t", description: "d", inputSchema: { type: "object", properties: { a: { type: "\u001b[31mstring\u202e" } } } }],
      [{ name: "mcp__target__t", description: "d", inputSchema: { type: "object", properties: { a: { type: "string" } } } }],
      serverToolName,
    );
    expect(types.findings.map((item) => item.rule)).toEqual(["render-type-changed"]);
    const message = crosscheckMessage(types.findings[0] as RenderFinding, "Codex");
    expect(message).not.toContain("\u001b");
    expect(message).not.toContain("\u202e");
  });

  // Regression (found in review, fixed): the same raw type reaches the message of an outputSchema loss through its evidence.
  it("neutralizes a hostile type name in render-output-lost evidence", () => {
    const types = compareRendering(
      [{ name: "t", description: "d", inputSchema: {}, outputSchema: { type: "object", properties: { a: { type: "\u001b[31mstring" } } } }],
      [{ name: "mcp__target__t", description: "d", inputSchema: {}, outputSchema: { type: "object", properties: { a: { type: "string" } } } }],
      serverToolName,
    );
    expect(types.findings.map((item) => item.rule)).toEqual(["render-output-lost"]);
    expect(crosscheckMessage(types.findings[0] as RenderFinding, "Codex")).not.toContain("\u001b");
  });

  // Regression (found in review, fixed): a failed client's reason ends with the last line of the client's stderr (capture.ts
  // withTail, redacted but not neutralized), which crosscheckMessage and the terminal print raw; clients
  // colour their stderr, and may echo the server's own error text in it.
  it("neutralizes a failed client's reason", () => {
    const reason = "ended (exit code 1) before it asked its model; its last error line: \u001b[31mError:\u001b[0m server said \u202eboom";
    const failed = finding({ rule: "render-client-failed", tool: null, path: null, evidence: "failed", detail: { reason } });
    expect(crosscheckMessage(failed, "Codex")).not.toContain("\u001b");
    expectInert("terminal", renderCrosscheckTerminal(report([client({ status: "failed", reason, findings: [failed] })])));
  });
});

describe("renderCrosscheckTerminal", () => {
  const groundTruth: LintReportItem[] = [
    {
      rule: "client-sdk1-rejects",
      kind: null,
      severity: "warning",
      tool: "search",
      toolIndex: 0,
      path: "/inputSchema",
      message: "A client on SDK 1 rejects this schema.",
      fix: "Fix it.",
      finding: null,
    },
  ];

  it("lays out the header, ground truth, each client, stale entries and the summary", () => {
    const built = report(
      [
        client({
          version: "2.2.0",
          shown: 2,
          findings: [finding(), minimum, finding({ rule: "render-tool-missing", tool: "ping", path: null, evidence: "missing", detail: {} })],
        }),
        client({
          id: "codex",
          label: "Codex",
          version: null,
          status: "skipped",
          reason: "codex is not on PATH (npm i -g @openai/codex@0.171.0)",
          shown: 0,
          ms: 0,
        }),
        client({
          id: "gemini-cli",
          label: "Gemini CLI",
          version: "0.9.0",
          testedVersion: "0.9.0",
          status: "failed",
          reason: "gave no tools within 60 s",
          shown: 0,
          ms: 60_000,
          findings: [finding({ rule: "render-client-failed", tool: null, path: null, evidence: "failed", detail: { reason: "gave no tools within 60 s" } })],
        }),
      ],
      [entry({ rule: "render-constraint-dropped", evidence: "minimum" }), entry({ evidence: "old" })],
      { groundTruth },
    );
    expect(renderCrosscheckTerminal(built)).toBe(
      [
        "crosscheck: notes 1.2.3, 3 tools in tools/list",
        "",
        "every client: 1 note on the definitions as served",
        "  ! search: A client on SDK 1 rejects this schema. [client-sdk1-rejects]",
        "",
        "Claude Code 2.2.0: 2 of 3 tools shown, 2 errors (1 more in the baseline) [tested with 2.1.0] (1.2 s)",
        "Codex: skipped, codex is not on PATH (npm i -g @openai/codex@0.171.0)",
        "Gemini CLI 0.9.0: did not run to the end (60.0 s)",
        "",
        "3 distinct findings (--json lists each tool and client on its own):",
        '  x search: Claude Code does not show parameter "limit" to its model. [render-param-missing]',
        "  x ping: Claude Code does not show this tool to its model. [render-tool-missing]",
        "  x Gemini CLI gave no tools within 60 s. [render-client-failed]",
        "",
        "baseline: 1 entry no longer found (run --update-baseline to drop them)",
        "",
        "summary: 3 errors across 2 clients, 1 skipped",
        "",
      ].join("\n"),
    );
  });

  it("says N of M tools shown and no differences for a clean client", () => {
    const text = renderCrosscheckTerminal(report([client({ shown: 1, total: 1, ms: 500 })], [], { tools: 1 }));
    expect(text).toContain("Claude Code 2.1.0: 1 of 1 tool shown, no differences (0.5 s)");
    expect(text).toContain("summary: no differences across 1 client\n");
    expect(text).not.toContain("tested with");
    expect(text).not.toContain("baseline:");
  });

  it("shows a skipped client with its reason, or a default one", () => {
    const text = renderCrosscheckTerminal(
      report([client({ status: "skipped", reason: "claude is not on PATH" }), client({ id: "codex", label: "Codex", status: "skipped", reason: null })]),
    );
    expect(text).toContain("\nClaude Code: skipped, claude is not on PATH\n");
    expect(text).toContain("\nCodex: skipped, not available\n");
    expect(text).toContain("summary: no differences across 0 clients, 2 skipped");
  });

  it("counts and hides findings below the minimum severity", () => {
    const built = report([client({ findings: [finding(), minimum, { ...minimum, evidence: "maximum" }] })]);
    const text = renderCrosscheckTerminal(built, undefined, "error");
    expect(text).toContain("3 of 3 tools shown");
    expect(text).toContain("1 error, 2 infos");
    expect(text).toContain("render-param-missing");
    expect(text).not.toContain("[render-constraint-dropped]");
    expect(text).toContain("\n  (2 findings below error not shown)\n");
    const onlyInfos = renderCrosscheckTerminal(report([client({ findings: [minimum] })]), undefined, "error");
    expect(onlyInfos).not.toContain("distinct finding");
    expect(onlyInfos).toContain("(1.2 s)\n\n(1 finding below error not shown)\n");
  });

  it("names the refused requests of a client whose model endpoint another process posted to", () => {
    const text = renderCrosscheckTerminal(report([client({ shown: 1, total: 1, ms: 500, refused: 2 })], [], { tools: 1 }));
    expect(text).toContain("Claude Code 2.1.0: 1 of 1 tool shown, no differences; its model endpoint refused 2 requests without the run's key (0.5 s)");
    expect(crosscheckJson(report([client({ refused: 2 })])).clients).toMatchObject([{ refused: 2 }]);
  });

  it("paints markers and names only when colour is on", () => {
    const built = report([client({ findings: [finding()] })]);
    expect(renderCrosscheckTerminal(built)).not.toContain("\u001b");
    const coloured = renderCrosscheckTerminal(built, { colour: true, width: null });
    expect(coloured).toContain("\u001b[31mx\u001b[39m");
    expect(coloured).toContain("\u001b[1mClaude Code 2.1.0\u001b[22m");
  });
});

describe("grouped findings (issue 37, item 4)", () => {
  // 14 tools that all declare an outputSchema, as server-filesystem's do: each agent client hides every one.
  const tools = Array.from({ length: 14 }, (_, index) => `tool_${String(index + 1).padStart(2, "0")}`);
  const hidden = (tool: string) => finding({ rule: "render-output-lost", severity: "info", tool, path: "/outputSchema", evidence: "not-shown", detail: {} });
  const agents = [
    client({ findings: tools.map(hidden), total: 14, shown: 14 }),
    client({ id: "codex", label: "Codex", findings: tools.map(hidden), total: 14, shown: 14 }),
    client({ id: "gemini-cli", label: "Gemini CLI", findings: tools.map(hidden), total: 14, shown: 14 }),
    client({ id: "inspector", label: "MCP Inspector", total: 14, shown: 14 }),
  ];

  // Regression (issue 37, item 4): one server gave 42 near-identical lines, "X does not show its model this
  // tool's outputSchema" once per tool per client.
  it("shows a finding shared by many tools and clients on one line: a count, a capped list of tools, and the clients", () => {
    const built = report(agents, [], { tools: 14 });
    const text = renderCrosscheckTerminal(built);
    const lines = text.split("\n").filter((line) => line.includes("[render-output-lost]"));
    expect(lines).toEqual([
      "  i 14 tools (tool_01, tool_02, tool_03, tool_04, tool_05 and 9 more): Each of Claude Code, Codex and Gemini CLI does not show its model this tool's outputSchema. [render-output-lost]",
    ]);
    expect(text).toContain("\n1 distinct finding (--json lists each tool and client on its own):\n");
    expect(text).toContain("Codex 2.1.0: 14 of 14 tools shown, 14 infos (1.2 s)");
    expect(text).toContain("MCP Inspector 2.1.0: 14 of 14 tools shown, no differences (1.2 s)");
    expect(text).toContain("summary: 42 infos across 4 clients");
  });

  it("keeps the JSON report complete: one finding per tool per client", () => {
    const json = crosscheckJson(report(agents, [], { tools: 14 }));
    const clients = json.clients as { id: string; findings: { tool: string; message: string }[] }[];
    expect(clients.map((entry) => entry.findings.length)).toEqual([14, 14, 14, 0]);
    expect(clients[1]?.findings[13]).toMatchObject({ tool: "tool_14", message: "Codex does not show its model this tool's outputSchema." });
  });

  it("keeps findings apart that differ in rule, evidence or sentence, and lists a tool once", () => {
    const built = report([
      client({
        findings: [
          minimum,
          finding({ ...minimum, tool: "other" }),
          finding({ ...minimum, evidence: "maximum", detail: { keyword: "maximum" } }),
          finding({ ...minimum, tool: "third", path: "/inputSchema/properties/size" }),
          // The same sentence at two places of one tool (two oneOf branches declare `limit`).
          finding({ ...minimum, path: "/inputSchema/oneOf/1/properties/limit" }),
        ],
      }),
      client({ id: "codex", label: "Codex", findings: [finding({ ...minimum, tool: "fourth" }), finding()] }),
    ]);
    const { groups, hidden } = groupFindings(built);
    expect(hidden).toBe(0);
    expect(groups.map((group) => [group.rule, group.tools, group.clients, group.message])).toEqual([
      ["render-param-missing", ["search"], ["Codex"], 'Codex does not show parameter "limit" to its model.'],
      [
        "render-constraint-dropped",
        ["search", "other", "fourth"],
        ["Claude Code", "Codex"],
        'Each of Claude Code and Codex drops minimum from parameter "limit".',
      ],
      ["render-constraint-dropped", ["search"], ["Claude Code"], 'Claude Code drops maximum from parameter "limit".'],
      ["render-constraint-dropped", ["third"], ["Claude Code"], 'Claude Code drops minimum from parameter "size".'],
    ]);
    const text = renderCrosscheckTerminal(built);
    expect(text).toContain(
      '  i 3 tools (search, other, fourth): Each of Claude Code and Codex drops minimum from parameter "limit". [render-constraint-dropped]\n',
    );
  });

  it("leaves out acknowledged findings and counts those below the floor", () => {
    const built = report([client({ findings: [finding(), minimum, finding({ ...minimum, tool: "other" })] })], [entry()]);
    expect(groupFindings(built).groups.map((group) => group.rule)).toEqual(["render-constraint-dropped"]);
    expect(groupFindings(built, "error")).toEqual({ groups: [], hidden: 2 });
  });

  it("shows a long tool name whole up to 128 characters, and a longer one by its head, tail and digest, inert", () => {
    const long = `${"a".repeat(119)}_\u001b[31mone`;
    const longer = `${"b".repeat(200)}_two`;
    const built = report([client({ findings: [finding({ tool: long }), finding({ tool: longer })] })]);
    const text = renderCrosscheckTerminal(built);
    expectInert("terminal", text);
    expect(text).toContain(`2 tools (${"a".repeat(119)}_\\u{1B}[31mone, ${"b".repeat(101)}...`);
    expect(text).toMatch(/\(204 characters, #[0-9a-f]{8}\)\): Claude Code does not show parameter "limit" to its model\./);
  });
});

describe("crosscheckJson", () => {
  it("has reportVersion 1, command crosscheck, and every client's findings with their acknowledgement", () => {
    const limited = [{ client: "claude-code", tool: "deep", path: "/inputSchema/properties/n" }];
    const built = report(
      [client({ findings: [finding(), minimum] }), client({ id: "codex", label: "Codex", status: "skipped", reason: "not on PATH", shown: 0 })],
      [entry({ rule: "render-constraint-dropped", evidence: "minimum" }), entry({ evidence: "old" })],
      { limited },
    );
    const json = crosscheckJson(built);
    expect(json.reportVersion).toBe(1);
    expect(json.command).toBe("crosscheck");
    expect(json.tool).toEqual({ name: "mcp-lint", version: "9.9.9" });
    expect(json.server).toEqual({ name: "notes", version: "1.2.3" });
    expect(json.tools).toBe(3);
    expect(json.groundTruth).toEqual({ findings: [] });
    expect(json.baseline).toEqual({ stale: [entry({ evidence: "old" })] });
    expect(json.counts).toEqual({ info: 0, warning: 0, error: 1 });
    const clients = json.clients as Record<string, unknown>[];
    expect(clients.map((item) => [item.id, item.status, item.reason])).toEqual([
      ["claude-code", "compared", null],
      ["codex", "skipped", "not on PATH"],
    ]);
    expect(clients[0]).toMatchObject({
      label: "Claude Code",
      version: "2.1.0",
      testedVersion: "2.1.0",
      npmPackage: "@anthropic-ai/claude-code",
      shown: 3,
      total: 3,
      ms: 1234,
      limited: [{ tool: "deep", path: "/inputSchema/properties/n" }],
    });
    expect(clients[1]?.limited).toEqual([]);
    expect(clients[0]?.findings).toEqual([
      {
        rule: "render-param-missing",
        severity: "error",
        tool: "search",
        path: "/inputSchema/properties/limit",
        evidence: "missing",
        acknowledged: false,
        message: 'Claude Code does not show parameter "limit" to its model.',
        fix: CROSSCHECK_RULES["render-param-missing"].fix,
      },
      {
        rule: "render-constraint-dropped",
        severity: "info",
        tool: "search",
        path: "/inputSchema/properties/limit",
        evidence: "minimum",
        acknowledged: true,
        message: 'Claude Code drops minimum from parameter "limit".',
        fix: CROSSCHECK_RULES["render-constraint-dropped"].fix,
      },
    ]);
    // Plain data: it survives a JSON round trip unchanged, and leaks no detail or internal field.
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(JSON.stringify(json)).not.toContain('"detail"');
  });
});

describe("baseline round trip", () => {
  it("accepts the drift of a run after --update-baseline: exit 0 and nothing stale", () => {
    const declared = {
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, description: "How many." }, q: { type: "string" } },
      required: ["q"],
    };
    const shownSchema = { type: "object", properties: { limit: { type: "number" }, q: { type: "string" } } };
    const comparison = compareRendering(
      [{ name: "search", description: "Search.", inputSchema: declared }],
      [{ name: "mcp__target__search", description: "Search.", inputSchema: shownSchema }],
      serverToolName,
    );
    expect(comparison.findings.length).toBe(4);
    const first = report([client({ findings: comparison.findings })]);
    expect(crosscheckExitCode(first, "error")).toBe(1);
    const text = baselineText(updatedEntries([entry({ client: "codex" })], new Map([["claude-code", comparison.findings]])));
    const baseline = parseBaseline(JSON.parse(text), "baseline.json");
    expect(baseline).toHaveLength(5);
    const second = report([client({ findings: comparison.findings })], baseline);
    expect(second.counts).toEqual({ info: 0, warning: 0, error: 0 });
    expect(second.stale).toEqual([]);
    expect(crosscheckExitCode(second, "info")).toBe(0);
  });
});
