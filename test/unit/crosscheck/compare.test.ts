// compareRendering and declaredTypes: what a client showed its model against the server's tools/list,
// tool by tool and property by property (types, required markers, constraints, descriptions,
// alternatives, outputSchema, references), and the bounds that keep hostile schemas cheap.
import { describe, expect, it } from "vitest";
import { type Comparison, compareRendering, declaredTypes, MAX_COMPARE_DEPTH, type RenderFinding } from "../../../src/crosscheck/compare.js";
import type { RenderedTool } from "../../../src/crosscheck/types.js";

type Schema = Record<string, unknown>;

/** The mapper an adapter would give: the client shows `mcp__target__<name>`. */
const serverToolName = (rendered: string, names: readonly string[]): string | null => names.find((name) => `mcp__target__${name}` === rendered) ?? null;

function tool(name: string, inputSchema: unknown, extra: Schema = {}): Schema {
  return { name, description: `The ${name} tool.`, inputSchema, ...extra };
}

function shown(name: string, inputSchema: unknown, description: string | null = `The ${name} tool.`): RenderedTool {
  return { name: `mcp__target__${name}`, description, inputSchema };
}

/** One tool `t` declared with `declared` and rendered with `rendered` as its inputSchema. */
function compareSchemas(declared: unknown, rendered: unknown): Comparison {
  return compareRendering([tool("t", declared)], [shown("t", rendered)], serverToolName);
}

/** The identity of a finding, without its detail. */
function brief(finding: RenderFinding): Pick<RenderFinding, "rule" | "severity" | "tool" | "path" | "evidence"> {
  return { rule: finding.rule, severity: finding.severity, tool: finding.tool, path: finding.path, evidence: finding.evidence };
}

function briefs(declared: unknown, rendered: unknown): ReturnType<typeof brief>[] {
  return compareSchemas(declared, rendered).findings.map(brief);
}

function object(properties: Schema, extra: Schema = {}): Schema {
  return { type: "object", properties, ...extra };
}

describe("tools", () => {
  const search = object({ query: { type: "string", description: "What to look for." }, limit: { type: "integer", minimum: 1 } }, { required: ["query"] });
  const ping = object({});

  it("gives no findings for an identical rendering and counts every tool as shown", () => {
    const result = compareRendering([tool("search", search), tool("ping", ping)], [shown("search", search), shown("ping", ping)], serverToolName);
    expect(result).toEqual({ findings: [], shown: 2, limited: [] });
  });

  it("gives exactly one render-tools-absent finding when the client renders none of the server's tools", () => {
    const none = compareRendering([tool("search", search), tool("ping", ping)], [], serverToolName);
    expect(none.findings).toEqual([{ rule: "render-tools-absent", severity: "error", tool: null, path: null, evidence: "none", detail: {} }]);
    expect(none.shown).toBe(0);
    // Only the client's own tools and another server's: still none of this server's.
    const others = compareRendering(
      [tool("search", search), tool("ping", ping)],
      [shown("x", {}), { name: "Read", description: "r", inputSchema: {} }],
      (r, n) => (r === "mcp__target__x" ? null : serverToolName(r, n)),
    );
    expect(others.findings.map((finding) => finding.rule)).toEqual(["render-tools-absent"]);
  });

  it("gives no finding for a server without tools and a client that shows none", () => {
    expect(compareRendering([], [], serverToolName)).toEqual({ findings: [], shown: 0, limited: [] });
  });

  it("reports a tool the client does not render as render-tool-missing", () => {
    const result = compareRendering([tool("search", search), tool("ping", ping)], [shown("search", search)], serverToolName);
    expect(result.findings).toEqual([{ rule: "render-tool-missing", severity: "error", tool: "ping", path: null, evidence: "missing", detail: {} }]);
    expect(result.shown).toBe(1);
  });

  it("ignores rendered tools that map to no server tool", () => {
    const rendered = [
      shown("search", search),
      shown("ping", ping),
      { name: "mcp__other__search", description: "Another server's.", inputSchema: {} },
      { name: "Read", description: "The client's own.", inputSchema: { type: "object" } },
      shown("unknown_tool", { type: "object", properties: { z: { type: "string" } } }),
    ];
    const result = compareRendering([tool("search", search), tool("ping", ping)], rendered, serverToolName);
    expect(result.findings).toEqual([]);
    expect(result.shown).toBe(2);
  });

  it("skips entries that are not tools and compares a repeated name once", () => {
    const result = compareRendering([null, 7, { description: "no name" }, tool("ping", ping), tool("ping", search)], [shown("ping", ping)], serverToolName);
    expect(result).toEqual({ findings: [], shown: 1, limited: [] });
  });

  it("maps names through the given function, for another prefixing scheme", () => {
    const gemini = (rendered: string, names: readonly string[]) => names.find((name) => `${name}__target` === rendered) ?? null;
    const result = compareRendering([tool("ping", ping)], [{ name: "ping__target", description: "The ping tool.", inputSchema: ping }], gemini);
    expect(result).toEqual({ findings: [], shown: 1, limited: [] });
  });
});

describe("parameters", () => {
  it("reports a missing top-level parameter with its pointer and name", () => {
    const result = compareSchemas(object({ query: { type: "string" }, limit: { type: "integer" } }), object({ query: { type: "string" } }));
    expect(result.findings).toEqual([
      { rule: "render-param-missing", severity: "error", tool: "t", path: "/inputSchema/properties/limit", evidence: "missing", detail: { name: "limit" } },
    ]);
  });

  it("reports a missing nested parameter at its full JSON Pointer", () => {
    const declared = object({ filter: object({ author: object({ name: { type: "string" }, email: { type: "string" } }) }) });
    const rendered = object({ filter: object({ author: object({ email: { type: "string" } }) }) });
    expect(briefs(declared, rendered)).toEqual([
      {
        rule: "render-param-missing",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/filter/properties/author/properties/name",
        evidence: "missing",
      },
    ]);
  });

  it("escapes / and ~ in property names in the pointer", () => {
    const findings = briefs(object({ "a/b~c": { type: "string" } }), object({}));
    expect(findings.map((finding) => finding.path)).toEqual(["/inputSchema/properties/a~1b~0c"]);
  });

  it("reports a nested object whose properties are all gone once, as render-nested-dropped with evidence properties", () => {
    const declared = object({ filter: object({ author: { type: "string" }, since: { type: "string" } }) });
    const result = compareSchemas(declared, object({ filter: { type: "object" } }));
    expect(result.findings).toEqual([
      {
        rule: "render-nested-dropped",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/filter",
        evidence: "properties",
        detail: { name: "filter" },
      },
    ]);
  });

  it("reports dropped array items as render-nested-dropped with evidence items", () => {
    const declared = object({ tags: { type: "array", items: { type: "string" } } });
    for (const rendered of [{ type: "array" }, { type: "array", items: {} }, { type: "array", items: true }]) {
      expect(briefs(declared, object({ tags: rendered }))).toEqual([
        { rule: "render-nested-dropped", severity: "error", tool: "t", path: "/inputSchema/properties/tags", evidence: "items" },
      ]);
    }
  });

  it("compares array items, naming them name[] at path .../items", () => {
    const declared = object({ ids: { type: "array", items: { type: "integer" } } });
    const result = compareSchemas(declared, object({ ids: { type: "array", items: { type: "number" } } }));
    expect(result.findings).toEqual([
      {
        rule: "render-type-changed",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/ids/items",
        evidence: "integer->number",
        detail: { name: "ids[]", declared: ["integer"], rendered: ["number"] },
      },
    ]);
  });

  it("compares objects inside array items", () => {
    const declared = object({ rows: { type: "array", items: object({ id: { type: "string" }, note: { type: "string" } }) } });
    const rendered = object({ rows: { type: "array", items: object({ id: { type: "string" } }) } });
    expect(briefs(declared, rendered).map((finding) => finding.path)).toEqual(["/inputSchema/properties/rows/items/properties/note"]);
  });

  it("reports a required parameter rendered as optional, top-level and nested", () => {
    const declared = object(
      { query: { type: "string" }, page: object({ size: { type: "integer" } }, { required: ["size"] }) },
      { required: ["query", "page"] },
    );
    const rendered = object({ query: { type: "string" }, page: object({ size: { type: "integer" } }) }, { required: ["page"] });
    expect(briefs(declared, rendered)).toEqual([
      { rule: "render-required-lost", severity: "error", tool: "t", path: "/inputSchema/properties/query", evidence: "optional" },
      { rule: "render-required-lost", severity: "error", tool: "t", path: "/inputSchema/properties/page/properties/size", evidence: "optional" },
    ]);
  });

  it("reports the required marker of a property required through an allOf member", () => {
    const declared = { type: "object", properties: { id: { type: "string" } }, allOf: [{ required: ["id"] }] };
    const result = compareSchemas(declared, object({ id: { type: "string" } }));
    expect(result.findings.map(brief)).toEqual([
      { rule: "render-required-lost", severity: "error", tool: "t", path: "/inputSchema/properties/id", evidence: "optional" },
    ]);
    expect(result.findings[0]?.detail).toEqual({ name: "id" });
    // A client that keeps the marker in its own allOf member loses nothing.
    expect(briefs(declared, { type: "object", properties: { id: { type: "string" } }, allOf: [{ required: ["id"] }] })).toEqual([]);
    expect(briefs(declared, object({ id: { type: "string" } }, { required: ["id"] }))).toEqual([]);
  });

  it("does not count required of one alternative as required on every value", () => {
    const declared = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, anyOf: [{ required: ["a"] }, { required: ["b"] }] };
    const rendered = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, anyOf: [{}, {}] };
    expect(briefs(declared, rendered)).toEqual([]);
  });

  it("reports a missing parameter only as missing, not also as optional", () => {
    expect(briefs(object({ q: { type: "string" } }, { required: ["q"] }), object({}, { required: ["q"] })).map((finding) => finding.rule)).toEqual([
      "render-param-missing",
    ]);
  });

  it("reports a lost type as integer->none", () => {
    const result = compareSchemas(object({ limit: { type: "integer", description: "How many." } }), object({ limit: { description: "How many." } }));
    expect(result.findings).toEqual([
      {
        rule: "render-type-changed",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/limit",
        evidence: "integer->none",
        detail: { name: "limit", declared: ["integer"], rendered: [] },
      },
    ]);
  });

  it("reports a changed type as integer->number", () => {
    expect(briefs(object({ limit: { type: "integer" } }), object({ limit: { type: "number" } }))).toEqual([
      { rule: "render-type-changed", severity: "error", tool: "t", path: "/inputSchema/properties/limit", evidence: "integer->number" },
    ]);
  });

  it("compares types case-insensitively (Gemini's STRING is string)", () => {
    const declared = object({ q: { type: "string" }, page: object({ n: { type: "integer" } }) });
    const rendered = { type: "OBJECT", properties: { q: { type: "STRING" }, page: { type: "OBJECT", properties: { n: { type: "INTEGER" } } } } };
    expect(briefs(declared, rendered)).toEqual([]);
    expect(briefs(object({ q: { type: "string" } }), { type: "OBJECT", properties: { q: { type: "NUMBER" } } })[0]?.evidence).toBe("string->number");
  });

  it("treats OpenAPI nullable: true as the type with null, both ways", () => {
    const nullableString = object({ s: { type: ["string", "null"] } });
    expect(briefs(nullableString, object({ s: { type: "string", nullable: true } }))).toEqual([]);
    expect(briefs(object({ s: { type: "string", nullable: true } }), nullableString)).toEqual([]);
    expect(briefs(object({ s: { type: ["null", "string"] } }), nullableString)).toEqual([]);
    expect(briefs(nullableString, object({ s: { type: "string" } }))[0]?.evidence).toBe("null|string->string");
  });

  it("counts a type spelled as anyOf or oneOf branches of single types as the same type", () => {
    const declared = object({ s: { type: ["string", "null"] } });
    expect(briefs(declared, object({ s: { anyOf: [{ type: "string" }, { type: "null" }] } }))).toEqual([]);
    expect(briefs(declared, object({ s: { oneOf: [{ type: "null" }, { type: "STRING" }] } }))).toEqual([]);
    expect(briefs(object({ n: { type: "integer" } }), object({ n: { anyOf: [{ type: "integer" }] } }))).toEqual([]);
    // Branches of other types are not the same choice.
    expect(briefs(declared, object({ s: { anyOf: [{ type: "string" }] } }))[0]?.evidence).toBe("null|string->none");
    expect(briefs(declared, object({ s: { anyOf: [{ type: "string" }, { type: "integer" }] } }))[0]?.evidence).toBe("null|string->none");
  });

  it("gives no finding for boolean property schemas", () => {
    const declared = object({ anything: true, never: false, empty: {} });
    expect(briefs(declared, object({ anything: true, never: false, empty: {} }))).toEqual([]);
    expect(briefs(declared, object({ anything: {}, never: {}, empty: true }))).toEqual([]);
  });

  it("reports a type pinned on a true or {} schema as any-><type>", () => {
    const result = compareSchemas(object({ anything: true, empty: {} }), object({ anything: { type: "string" }, empty: { type: ["object", "null"] } }));
    expect(result.findings).toEqual([
      {
        rule: "render-type-changed",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/anything",
        evidence: "any->string",
        detail: { name: "anything", declared: ["any"], rendered: ["string"] },
      },
      {
        rule: "render-type-changed",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/empty",
        evidence: "any->null|object",
        detail: { name: "empty", declared: ["any"], rendered: ["null", "object"] },
      },
    ]);
  });

  // Regression (found in review, fixed): only `true` and a key-less `{}` count as "any value"; a schema with a description and
  // no type accepts any value just as well, yet a client that pins a type on it gives no finding.
  it("reports a type pinned on a typeless schema that only has a description", () => {
    expect(briefs(object({ any: { description: "Anything." } }), object({ any: { type: "string", description: "Anything." } }))).toEqual([
      { rule: "render-type-changed", severity: "error", tool: "t", path: "/inputSchema/properties/any", evidence: "any->string" },
    ]);
  });
});

describe("constraints", () => {
  const dropped: [string, unknown][] = [
    ["enum", ["a", "b"]],
    ["const", "x"],
    ["minimum", 1],
    ["maximum", 10],
    ["exclusiveMinimum", 0],
    ["exclusiveMaximum", 100],
    ["multipleOf", 5],
    ["minLength", 1],
    ["maxLength", 64],
    ["pattern", "^[a-z]+$"],
    ["format", "date-time"],
    ["minItems", 1],
    ["maxItems", 3],
    ["uniqueItems", true],
    ["minProperties", 1],
    ["maxProperties", 2],
  ];

  it.each(dropped)("reports a dropped %s as info with the keyword as evidence", (keyword, value) => {
    const result = compareSchemas(object({ p: { [keyword]: value } }), object({ p: {} }));
    expect(result.findings).toEqual([
      { rule: "render-constraint-dropped", severity: "info", tool: "t", path: "/inputSchema/properties/p", evidence: keyword, detail: { name: "p", keyword } },
    ]);
  });

  it("gives no finding for a constraint kept as declared", () => {
    const p = { type: "string", enum: ["a", "b"], pattern: "^a", minLength: 1, format: "uri" };
    expect(briefs(object({ p }), object({ p: { ...p, enum: ["a", "b"] } }))).toEqual([]);
  });

  it("reports a changed value as <keyword>:changed with both values as JSON", () => {
    const result = compareSchemas(object({ n: { type: "integer", maximum: 100 } }), object({ n: { type: "integer", maximum: 50 } }));
    expect(result.findings).toEqual([
      {
        rule: "render-constraint-dropped",
        severity: "info",
        tool: "t",
        path: "/inputSchema/properties/n",
        evidence: "maximum:changed",
        detail: { name: "n", keyword: "maximum", declaredValue: "100", renderedValue: "50" },
      },
    ]);
    const enums = compareSchemas(object({ e: { enum: ["a", "b"] } }), object({ e: { enum: ["a"] } })).findings[0];
    expect(enums?.evidence).toBe("enum:changed");
    expect(enums?.detail).toMatchObject({ declaredValue: '["a","b"]', renderedValue: '["a"]' });
  });

  it("does not report const rendered as a one-item enum, nor a one-item enum rendered as const", () => {
    expect(briefs(object({ kind: { type: "string", const: "note" } }), object({ kind: { type: "string", enum: ["note"] } }))).toEqual([]);
    expect(briefs(object({ kind: { type: "string", enum: ["note"] } }), object({ kind: { type: "string", const: "note" } }))).toEqual([]);
    // An enum of more values, or of another one, is a loss.
    expect(briefs(object({ kind: { const: "note" } }), object({ kind: { enum: ["note", "task"] } })).map((finding) => finding.evidence)).toEqual(["const"]);
    expect(briefs(object({ kind: { const: "note" } }), object({ kind: { enum: ["task"] } })).map((finding) => finding.evidence)).toEqual(["const"]);
  });

  it("does not report an exclusive bound rendered in OpenAPI 3.0's boolean spelling", () => {
    expect(briefs(object({ n: { type: "number", exclusiveMinimum: 0 } }), object({ n: { type: "number", minimum: 0, exclusiveMinimum: true } }))).toEqual([]);
    expect(briefs(object({ n: { type: "number", exclusiveMaximum: 10 } }), object({ n: { type: "number", maximum: 10, exclusiveMaximum: true } }))).toEqual([]);
    // An inclusive bound in its place is a change, and another bound too.
    expect(briefs(object({ n: { exclusiveMinimum: 0 } }), object({ n: { minimum: 0 } })).map((finding) => finding.evidence)).toEqual(["exclusiveMinimum"]);
    expect(briefs(object({ n: { exclusiveMinimum: 0 } }), object({ n: { minimum: 1, exclusiveMinimum: true } })).map((finding) => finding.evidence)).toEqual([
      "exclusiveMinimum:changed",
    ]);
  });
});

describe("descriptions", () => {
  const input = object({});

  function toolDescription(declared: string, rendered: string | null): RenderFinding[] {
    return compareRendering([{ name: "t", description: declared, inputSchema: input }], [shown("t", input, rendered)], serverToolName).findings;
  }

  function paramDescription(declared: string, rendered: string | undefined): RenderFinding[] {
    const renderedParam = rendered === undefined ? { type: "string" } : { type: "string", description: rendered };
    return compareSchemas(object({ q: { type: "string", description: declared } }), object({ q: renderedParam })).findings;
  }

  it("reports a missing tool description as an error", () => {
    for (const rendered of [null, "", "   \n"]) {
      expect(toolDescription("Search the notes.", rendered)).toEqual([
        { rule: "render-description-missing", severity: "error", tool: "t", path: "/description", evidence: "missing", detail: {} },
      ]);
    }
  });

  it("has nothing to compare when the server declares no description", () => {
    expect(compareRendering([{ name: "t", inputSchema: input }], [shown("t", input, "Added by the client.")], serverToolName).findings).toEqual([]);
    expect(toolDescription("   ", null)).toEqual([]);
    expect(compareRendering([{ name: "t", description: 42, inputSchema: input }], [shown("t", input, null)], serverToolName).findings).toEqual([]);
  });

  it("reports a missing parameter description as info", () => {
    expect(paramDescription("What to look for.", undefined)).toEqual([
      { rule: "render-description-missing", severity: "info", tool: "t", path: "/inputSchema/properties/q", evidence: "missing", detail: { name: "q" } },
    ]);
    expect(paramDescription("What to look for.", " ").map((finding) => finding.rule)).toEqual(["render-description-missing"]);
  });

  it("reports a prefix, with or without an ellipsis, as truncated with the lengths as evidence", () => {
    const declared = "Search the notes by title and body. Returns at most fifty notes.";
    const cases: [string, number][] = [
      ["Search the notes by title", 25],
      ["Search the notes by title...", 28],
      ["Search the notes by title\u2026", 26],
      ["Search the notes by title …", 27],
      ["Search the notes by title [truncated]", 37],
    ];
    for (const [rendered, length] of cases) {
      expect(rendered.length).toBe(length);
      expect(toolDescription(declared, rendered)).toEqual([
        {
          rule: "render-description-truncated",
          severity: "info",
          tool: "t",
          path: "/description",
          evidence: `${declared.length}->${length}`,
          detail: { declaredLength: declared.length, renderedLength: length },
        },
      ]);
    }
  });

  it("reports a truncated parameter description at the parameter", () => {
    const findings = paramDescription("How many notes to return, at most.", "How many notes...");
    expect(findings.map(brief)).toEqual([
      { rule: "render-description-truncated", severity: "info", tool: "t", path: "/inputSchema/properties/q", evidence: "34->17" },
    ]);
    expect(findings[0]?.detail.name).toBe("q");
  });

  it("reports the whole original with text added as rewritten with evidence added:<hash>", () => {
    const declared = "Search the notes.";
    const after = toolDescription(declared, `${declared}\n\nThis tool accepts one of several shapes.`);
    expect(after).toHaveLength(1);
    expect(after[0]?.rule).toBe("render-description-rewritten");
    expect(after[0]?.severity).toBe("info");
    expect(after[0]?.evidence).toMatch(/^added:[0-9a-f]{16}$/);
    expect(after[0]?.detail).toEqual({
      declaredLength: declared.length,
      renderedLength: `${declared}\n\nThis tool accepts one of several shapes.`.length,
      renderedText: "This tool accepts one of several shapes.",
      added: true,
    });
    const around = toolDescription(declared, `[server target] ${declared} (read-only)`);
    expect(around[0]?.evidence).toMatch(/^added:[0-9a-f]{16}$/);
    expect(around[0]?.detail.renderedText).toBe("[server target] (read-only)");
    // The evidence follows the added text, not where it was put.
    expect(toolDescription(declared, `${declared} Note.`)[0]?.evidence).toBe(toolDescription(declared, `Note. ${declared}`)[0]?.evidence);
    expect(toolDescription(declared, `${declared} Note.`)[0]?.evidence).not.toBe(toolDescription(declared, `${declared} Other.`)[0]?.evidence);
  });

  it("reports other text as rewritten with a stable 16-hex hash of it", () => {
    const first = toolDescription("Search the notes.", "Looks through notes.");
    const second = toolDescription("Search the notes.", "Looks through notes.");
    expect(first).toHaveLength(1);
    expect(first[0]?.rule).toBe("render-description-rewritten");
    expect(first[0]?.severity).toBe("info");
    expect(first[0]?.evidence).toMatch(/^[0-9a-f]{16}$/);
    expect(second[0]?.evidence).toBe(first[0]?.evidence);
    expect(first[0]?.detail).toEqual({ declaredLength: 17, renderedLength: 20, renderedText: "Looks through notes." });
    expect(toolDescription("Search the notes.", "Looks through tasks.")[0]?.evidence).not.toBe(first[0]?.evidence);
    // Escaped markup is another text too.
    expect(toolDescription("Use <b>bold</b>.", "Use &lt;b&gt;bold&lt;/b&gt;.")[0]?.rule).toBe("render-description-rewritten");
  });

  it("ignores whitespace differences at the ends", () => {
    expect(toolDescription("  Search the notes.\n", "Search the notes.")).toEqual([]);
    expect(toolDescription("Search the notes.", "\tSearch the notes.  \n")).toEqual([]);
    expect(paramDescription("What to look for.", " What to look for.\n")).toEqual([]);
  });
});

describe("alternatives", () => {
  const a = { type: "string", description: "A." };
  const b = { type: "integer", description: "B." };

  it("reports root oneOf or anyOf the client dropped as render-branches-ignored (info)", () => {
    const declared = { type: "object", oneOf: [{ properties: { a } }, { properties: { b } }] };
    expect(briefs(declared, object({ a, b }))).toEqual([
      { rule: "render-branches-ignored", severity: "info", tool: "t", path: "/inputSchema", evidence: "oneOf" },
    ]);
    const both = { type: "object", properties: { a, b }, anyOf: [{ required: ["a"] }], oneOf: [{ required: ["b"] }] };
    expect(briefs(both, object({ a, b }))).toEqual([
      { rule: "render-branches-ignored", severity: "info", tool: "t", path: "/inputSchema", evidence: "anyOf+oneOf" },
    ]);
  });

  it("gives no branches finding when the client keeps any root alternatives", () => {
    const declared = { type: "object", oneOf: [{ properties: { a } }, { properties: { b } }] };
    expect(briefs(declared, { type: "object", anyOf: [{ properties: { a } }, { properties: { b } }] })).toEqual([]);
  });

  it("compares properties declared only inside oneOf branches: flattened ones are no loss, a dropped one is at its branch", () => {
    const declared = { type: "object", oneOf: [{ properties: { a } }, { properties: { b } }] };
    expect(briefs(declared, object({ a, b })).map((finding) => finding.rule)).toEqual(["render-branches-ignored"]);
    expect(briefs(declared, object({ a })).map((finding) => [finding.rule, finding.path])).toEqual([
      ["render-branches-ignored", "/inputSchema"],
      ["render-param-missing", "/inputSchema/oneOf/1/properties/b"],
    ]);
  });

  it("compares properties of allOf members, flattened or kept", () => {
    const declared = { type: "object", allOf: [{ properties: { a } }, { properties: { b } }] };
    expect(briefs(declared, object({ a, b }))).toEqual([]);
    expect(briefs(declared, declared)).toEqual([]);
    expect(briefs(declared, object({ b }))).toEqual([
      { rule: "render-param-missing", severity: "error", tool: "t", path: "/inputSchema/allOf/0/properties/a", evidence: "missing" },
    ]);
    expect(briefs(declared, object({ a: { type: "number", description: "A." }, b }))).toEqual([
      { rule: "render-type-changed", severity: "error", tool: "t", path: "/inputSchema/allOf/0/properties/a", evidence: "string->number" },
    ]);
  });
});

describe("outputSchema", () => {
  const input = object({});
  const output = object({ temperature: { type: "number" }, unit: { type: "string", enum: ["C", "F"] } }, { required: ["temperature"] });

  function withOutput(rendered: Partial<Pick<RenderedTool, "outputSchema">>, declaredOutput: unknown = output): Comparison {
    return compareRendering([tool("t", input, { outputSchema: declaredOutput })], [{ ...shown("t", input), ...rendered }], serverToolName);
  }

  it("gives one not-shown finding (info) when the client shows no outputSchema", () => {
    const expected = [{ rule: "render-output-lost", severity: "info", tool: "t", path: "/outputSchema", evidence: "not-shown", detail: {} }];
    expect(withOutput({}).findings).toEqual(expected);
    expect(withOutput({ outputSchema: undefined }).findings).toEqual(expected);
    expect(withOutput({ outputSchema: null }).findings).toEqual(expected);
  });

  it("has nothing to compare when the server declares no outputSchema", () => {
    expect(compareRendering([tool("t", input)], [shown("t", input)], serverToolName).findings).toEqual([]);
  });

  it("gives no finding for an outputSchema shown as declared", () => {
    expect(withOutput({ outputSchema: output }).findings).toEqual([]);
  });

  it("reports every loss inside a shown outputSchema as render-output-lost info, never error", () => {
    const rendered = object({ unit: { type: "integer" } });
    const findings = withOutput({ outputSchema: rendered }).findings;
    expect(findings.map(brief)).toEqual([
      { rule: "render-output-lost", severity: "info", tool: "t", path: "/outputSchema/properties/temperature", evidence: "render-param-missing:missing" },
      { rule: "render-output-lost", severity: "info", tool: "t", path: "/outputSchema/properties/unit", evidence: "render-type-changed:string->integer" },
      { rule: "render-output-lost", severity: "info", tool: "t", path: "/outputSchema/properties/unit", evidence: "render-constraint-dropped:enum" },
    ]);
    const required = withOutput({ outputSchema: object({ temperature: { type: "number" }, unit: { type: "string", enum: ["C", "F"] } }) }).findings;
    expect(required.map(brief)).toEqual([
      { rule: "render-output-lost", severity: "info", tool: "t", path: "/outputSchema/properties/temperature", evidence: "render-required-lost:optional" },
    ]);
  });
});

describe("references", () => {
  const filter = object({ author: { type: "string" }, since: { type: "string", format: "date" } });

  it("follows local $defs references on the declared side", () => {
    const declared = { type: "object", properties: { filter: { $ref: "#/$defs/Filter" } }, $defs: { Filter: filter } };
    expect(briefs(declared, object({ filter }))).toEqual([]);
    expect(briefs(declared, object({ filter: object({ author: { type: "string" } }) }))).toEqual([
      { rule: "render-param-missing", severity: "error", tool: "t", path: "/inputSchema/properties/filter/properties/since", evidence: "missing" },
    ]);
  });

  it("follows local references on the rendered side, and on both", () => {
    const viaRef = { type: "object", properties: { filter: { $ref: "#/$defs/Filter" } }, $defs: { Filter: filter } };
    expect(briefs(object({ filter }), viaRef)).toEqual([]);
    expect(briefs(viaRef, viaRef)).toEqual([]);
    const definitions = { type: "object", properties: { filter: { $ref: "#/definitions/F" } }, definitions: { F: filter } };
    expect(briefs(viaRef, definitions)).toEqual([]);
    const lossy = { type: "object", properties: { filter: { $ref: "#/$defs/F" } }, $defs: { F: object({ author: { type: "integer" } }) } };
    expect(briefs(viaRef, lossy).map((finding) => [finding.path, finding.evidence])).toEqual([
      ["/inputSchema/properties/filter/properties/author", "string->integer"],
      ["/inputSchema/properties/filter/properties/since", "missing"],
    ]);
  });

  it("follows a root $ref", () => {
    const declared = { $ref: "#/$defs/Args", $defs: { Args: object({ q: { type: "string" } }, { required: ["q"] }) } };
    expect(briefs(declared, object({ q: { type: "string" } }, { required: ["q"] }))).toEqual([]);
    expect(briefs(declared, object({})).map((finding) => finding.path)).toEqual(["/inputSchema/properties/q"]);
  });

  it("terminates on a self-referencing schema and still compares its first level", () => {
    const children = { type: "array", items: { $ref: "#" } };
    const tree = object({ name: { type: "string" }, children });
    expect(compareSchemas(tree, tree)).toEqual({ findings: [], shown: 1, limited: [] });
    const node = { $ref: "#/$defs/Node", $defs: { Node: object({ value: { type: "integer" }, next: { $ref: "#/$defs/Node" } }) } };
    expect(compareSchemas(node, node).findings).toEqual([]);
    expect(briefs(node, object({ next: object({}) })).map((finding) => finding.path)).toEqual([
      "/inputSchema/properties/value",
      "/inputSchema/properties/next",
    ]);
    // Where the loop starts below the root, the first repetition is compared.
    expect(briefs(tree, object({ name: { type: "string" }, children: { type: "array", items: object({ children }) } }))).toEqual([
      { rule: "render-param-missing", severity: "error", tool: "t", path: "/inputSchema/properties/children/items/properties/name", evidence: "missing" },
    ]);
    // A rendered side that loops on itself terminates too.
    const loopy = compareSchemas(object({ value: { type: "integer" }, next: object({ value: { type: "string" } }) }), node);
    expect(loopy.findings.map(brief)).toEqual([
      { rule: "render-type-changed", severity: "error", tool: "t", path: "/inputSchema/properties/next/properties/value", evidence: "string->integer" },
    ]);
  });

  // Regression (found in review, fixed): a root `$ref` puts its target in the cycle set before any property is compared, so a
  // property that refers back to it is never compared, even once: a client that shows `next` as a bare
  // object (its fields gone) gives no finding, while the same loss under `"$ref": "#"` is reported.
  it("reports nested fields dropped at a property that refers back to the root's $ref target", () => {
    const node = { $ref: "#/$defs/Node", $defs: { Node: object({ value: { type: "integer" }, next: { $ref: "#/$defs/Node" } }) } };
    expect(briefs(node, object({ value: { type: "integer" }, next: { type: "object" } }))).toEqual([
      { rule: "render-nested-dropped", severity: "error", tool: "t", path: "/inputSchema/properties/next", evidence: "properties" },
    ]);
  });

  it("terminates on two definitions that refer to each other", () => {
    const mutual = {
      type: "object",
      properties: { a: { $ref: "#/$defs/A" } },
      $defs: { A: object({ b: { $ref: "#/$defs/B" } }), B: object({ a: { $ref: "#/$defs/A" } }) },
    };
    expect(compareSchemas(mutual, mutual).findings).toEqual([]);
  });
});

describe("bounds and hostile shapes", () => {
  function nested(levels: number, leaf: Schema): Schema {
    let schema = leaf;
    for (let level = 0; level < levels; level++) schema = object({ n: schema });
    return schema;
  }

  it("terminates on a 200-level schema and records where it stopped", () => {
    const deep = nested(200, { type: "string" });
    const result = compareSchemas(deep, deep);
    expect(result.findings).toEqual([]);
    expect(result.limited.length).toBeGreaterThan(0);
    const stop = result.limited[0];
    expect(stop?.tool).toBe("t");
    expect(stop?.path).toBe(`/inputSchema${"/properties/n".repeat(MAX_COMPARE_DEPTH + 1)}`);
  });

  it("still reports losses above the depth bound of a deep schema", () => {
    const deep = nested(200, { type: "string" });
    const rendered = object({ n: object({ n: { type: "object" } }) });
    expect(briefs(deep, rendered)).toEqual([
      { rule: "render-nested-dropped", severity: "error", tool: "t", path: "/inputSchema/properties/n/properties/n", evidence: "properties" },
    ]);
  });

  it("terminates quickly on a schema of 30,000 properties and records that it stopped", () => {
    const properties: Schema = {};
    for (let index = 0; index < 30_000; index++) properties[`p${index}`] = { type: "string", description: `Field ${index}.` };
    const declared = object(properties);
    const started = performance.now();
    const same = compareSchemas(declared, object({ ...properties }));
    const ms = performance.now() - started;
    expect(ms).toBeLessThan(15_000);
    expect(same.findings).toEqual([]);
    expect(same.limited.length).toBeGreaterThan(0);
    expect(same.limited.length).toBeLessThanOrEqual(100);
    expect(same.limited.every((place) => place.tool === "t" && place.path.startsWith("/inputSchema/properties/p"))).toBe(true);
    // A loss before the bound is still found.
    const { p0: _p0, ...withoutFirst } = properties;
    expect(briefs(declared, object(withoutFirst))).toEqual([
      { rule: "render-param-missing", severity: "error", tool: "t", path: "/inputSchema/properties/p0", evidence: "missing" },
    ]);
  });

  it("handles __proto__ as a property name like any other, without polluting prototypes", () => {
    const declared = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","polluted":"yes","description":"Proto."},"ok":{"type":"string"}},"required":["__proto__"]}',
    ) as Schema;
    const keep = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","polluted":"yes","description":"Proto."},"ok":{"type":"string"}},"required":["__proto__"]}',
    ) as Schema;
    const drop = JSON.parse('{"type":"object","properties":{"ok":{"type":"string"}}}') as Schema;
    const change = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"integer","description":"Proto."},"ok":{"type":"string"}}}') as Schema;
    expect(briefs(declared, keep)).toEqual([]);
    expect(compareSchemas(declared, drop).findings).toEqual([
      {
        rule: "render-param-missing",
        severity: "error",
        tool: "t",
        path: "/inputSchema/properties/__proto__",
        evidence: "missing",
        detail: { name: "__proto__" },
      },
    ]);
    expect(briefs(declared, change)).toEqual([
      { rule: "render-required-lost", severity: "error", tool: "t", path: "/inputSchema/properties/__proto__", evidence: "optional" },
      { rule: "render-type-changed", severity: "error", tool: "t", path: "/inputSchema/properties/__proto__", evidence: "string->integer" },
    ]);
    const viaRef = JSON.parse(
      '{"type":"object","properties":{"x":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"object","properties":{"__proto__":{"type":"string"}}}}}',
    ) as Schema;
    expect(briefs(viaRef, JSON.parse('{"type":"object","properties":{"x":{"type":"object","properties":{}}}}'))).toEqual([
      { rule: "render-nested-dropped", severity: "error", tool: "t", path: "/inputSchema/properties/x", evidence: "properties" },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("type");
  });

  it("handles a tool named __proto__", () => {
    const tools = JSON.parse('[{"name":"__proto__","description":"d","inputSchema":{"type":"object"}},{"name":"constructor","inputSchema":{}}]') as unknown[];
    const result = compareRendering(tools, [shown("__proto__", { type: "object" }, "d")], serverToolName);
    expect(result.findings.map(brief)).toEqual([{ rule: "render-tool-missing", severity: "error", tool: "constructor", path: null, evidence: "missing" }]);
    expect(result.shown).toBe(1);
  });

  it("compares a tool whose inputSchema is not an object without throwing", () => {
    expect(briefs(undefined, object({}))).toEqual([]);
    expect(briefs(object({ q: { type: "string" } }), "not a schema").map((finding) => finding.rule)).toEqual(["render-param-missing"]);
  });
});

describe("declaredTypes", () => {
  it("gives the declared types lower case and sorted, with null for nullable", () => {
    expect(declaredTypes({ type: "STRING" })).toEqual(["string"]);
    expect(declaredTypes({ type: ["string", "integer", "null"] })).toEqual(["integer", "null", "string"]);
    expect(declaredTypes({ type: "string", nullable: true })).toEqual(["null", "string"]);
    expect(declaredTypes({ type: ["String", "string"] })).toEqual(["string"]);
  });

  it("is empty when no type is declared, nullable alone included", () => {
    expect(declaredTypes({})).toEqual([]);
    expect(declaredTypes({ nullable: true })).toEqual([]);
    expect(declaredTypes({ type: [1, null] })).toEqual([]);
    expect(declaredTypes(true)).toEqual([]);
    expect(declaredTypes(null)).toEqual([]);
    expect(declaredTypes(["string"])).toEqual([]);
  });
});

describe("capability-gated tools", () => {
  it("a tool the server lists only to a capable client is info when missing, and compared like any other when shown", () => {
    const tools = [
      { name: "ping", description: "Ping.", inputSchema: { type: "object" } },
      { name: "list_roots", description: "List the roots.", inputSchema: { type: "object", properties: { depth: { type: "integer" } } } },
    ];
    const map = (rendered: string, names: readonly string[]) => names.find((name) => `mcp__target__${name}` === rendered) ?? null;
    const shownPing = [{ name: "mcp__target__ping", description: "Ping.", inputSchema: { type: "object" } }];
    const gated = new Set(["list_roots"]);
    expect(compareRendering(tools, shownPing, map, gated).findings).toEqual([
      { rule: "render-tool-missing", severity: "info", tool: "list_roots", path: null, evidence: "capability-gated", detail: {} },
    ]);
    // Without the gate the same absence is an error.
    expect(compareRendering(tools, shownPing, map).findings.map((finding) => finding.severity)).toEqual(["error"]);
    const both = [...shownPing, { name: "mcp__target__list_roots", description: "List the roots.", inputSchema: { type: "object", properties: {} } }];
    expect(compareRendering(tools, both, map, gated).findings.map((finding) => [finding.rule, finding.path])).toEqual([
      ["render-param-missing", "/inputSchema/properties/depth"],
    ]);
  });
});
