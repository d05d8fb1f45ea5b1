// The safety gate, case by case: which probes are called, and why the others are held back.
import { describe, expect, it } from "vitest";
import { expectLinear } from "../../growth.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { checkArguments } from "../../../src/probe/arguments.js";
import { planProbes, regateProbe } from "../../../src/probe/gate.js";
import type { FixturesFile, PlannedProbe, ProbeFixture } from "../../../src/probe/types.js";

const schema = { type: "object", properties: { path: { type: "string" }, depth: { type: "integer" } }, required: ["path"] };
const tool = (name: string, annotations?: unknown, inputSchema: unknown = schema): JsonObject => {
  const definition: JsonObject = { name, description: "A tool.", inputSchema };
  if (annotations !== undefined) definition.annotations = annotations;
  return definition;
};
const probe = (fields: Partial<ProbeFixture> & { tool: string }): ProbeFixture => ({
  index: 0,
  label: null,
  args: { path: "/a" },
  expectError: false,
  allowDestructive: false,
  skip: false,
  ...fields,
});
const plan = (tools: JsonObject[], probes: ProbeFixture[], errorProbes = false, env: Record<string, string> = {}) => {
  const fixtures: FixturesFile = { probes, dir: "/fixtures" };
  return planProbes({ fixtures, tools, env, errorProbes });
};
const verdict = (tools: JsonObject[], item: ProbeFixture) => {
  const [planned] = plan(tools, [item]);
  return planned?.action === "call" ? "call" : planned?.action === "skipped" ? "skipped" : (planned?.blocked?.code ?? "?");
};

describe("the read-only rule", () => {
  it.each([
    ["readOnlyHint: true", { readOnlyHint: true }, "call"],
    ["no annotations", undefined, "not_read_only"],
    ["empty annotations", {}, "not_read_only"],
    ["readOnlyHint: false", { readOnlyHint: false }, "not_read_only"],
    ["destructiveHint: false (it only adds)", { destructiveHint: false }, "not_read_only"],
    ['readOnlyHint: "true" (a string)', { readOnlyHint: "true" }, "not_read_only"],
    ["readOnlyHint: 1", { readOnlyHint: 1 }, "not_read_only"],
    ["annotations that are not an object", "readOnly", "not_read_only"],
  ])("%s", (_name, annotations, expected) => {
    expect(verdict([tool("t", annotations)], probe({ tool: "t" }))).toBe(expected);
  });

  it("runs any tool with allow_destructive", () => {
    expect(verdict([tool("t", { destructiveHint: true })], probe({ tool: "t", allowDestructive: true }))).toBe("call");
  });

  it("needs every copy of a duplicated name to be read-only", () => {
    expect(verdict([tool("t", { readOnlyHint: true }), tool("t")], probe({ tool: "t" }))).toBe("not_read_only");
  });

  it("never skips the safety check for expect_error", () => {
    expect(verdict([tool("t")], probe({ tool: "t", expectError: true, args: {} }))).toBe("not_read_only");
  });
});

describe("the argument check", () => {
  const ro = { readOnlyHint: true };
  it.each([
    ["valid arguments", { path: "/a", depth: 2 }, "call"],
    ["a missing required argument", { depth: 2 }, "invalid_arguments"],
    ["a wrong type", { path: 3 }, "invalid_arguments"],
    ["a wrong type deeper in", { path: "/a", depth: "2" }, "invalid_arguments"],
  ])("%s", (_name, args, expected) => {
    expect(verdict([tool("t", ro)], probe({ tool: "t", args: args as JsonObject }))).toBe(expected);
  });

  it("is skipped for expect_error", () => {
    expect(verdict([tool("t", ro)], probe({ tool: "t", args: { path: 3 }, expectError: true }))).toBe("call");
  });

  it("checks every copy of a duplicated name", () => {
    const strict = tool("t", ro, { type: "object", properties: { path: { type: "string" } }, additionalProperties: false });
    expect(verdict([tool("t", ro), strict], probe({ tool: "t", args: { path: "/a", depth: 1 } }))).toBe("invalid_arguments");
  });

  it("holds back a probe whose schema cannot check anything", () => {
    expect(verdict([tool("t", ro, { type: "object", properties: { a: { $ref: "https://example.com/a.json" } } })], probe({ tool: "t" }))).toBe(
      "schema_unusable",
    );
    expect(verdict([tool("t", ro, "not a schema")], probe({ tool: "t" }))).toBe("schema_unusable");
  });

  it("says what is wrong", () => {
    const [planned] = plan([tool("t", ro)], [probe({ tool: "t", args: { depth: "x", extra: 1 } })]);
    expect(planned?.blocked).toEqual({
      code: "invalid_arguments",
      problems: [
        { keyword: "required", at: "", property: "path", text: "must have required property 'path'", expected: null },
        { keyword: "type", at: "/depth", property: null, text: "must be integer", expected: "integer" },
      ],
    });
  });
});

describe("names, variables and skips", () => {
  it("holds back an unknown tool and a probe with an unset variable, and skips a skipped one", () => {
    const tools = [tool("t", { readOnlyHint: true })];
    const planned = plan(tools, [probe({ tool: "nope" }), probe({ tool: "t", args: { path: "${UNSET_FOR_GATE}" } }), probe({ tool: "t", skip: true })]);
    expect(planned.map((item) => [item.action, item.blocked])).toEqual([
      ["blocked", { code: "unknown_tool" }],
      ["blocked", { code: "missing_variable", name: "UNSET_FOR_GATE" }],
      ["skipped", null],
    ]);
  });

  it("sends arguments expanded, and keeps their string values for P4", () => {
    const [planned] = plan([tool("t", { readOnlyHint: true })], [probe({ tool: "t", args: { path: "${FIXTURES_DIR}/${FILE}" } })], false, { FILE: "a.txt" });
    expect(planned).toMatchObject({ action: "call", args: { path: "/fixtures/a.txt" }, argValues: ["/fixtures/a.txt"], argNames: ["path"] });
  });

  it("checks expanded values, not placeholders", () => {
    const numeric = tool("t", { readOnlyHint: true }, { type: "object", properties: { path: { type: "string", pattern: "^/fixtures/" } } });
    expect(verdict([numeric], probe({ tool: "t", args: { path: "${FIXTURES_DIR}/x" } }))).toBe("call");
  });
});

describe("generated error probes", () => {
  it("are made for read-only tools only, after the fixtures", () => {
    const tools = [tool("ro", { readOnlyHint: true }), tool("rw"), tool("adds", { destructiveHint: false })];
    const planned = plan(tools, [probe({ tool: "ro" })], true);
    expect(planned.map((item) => [item.tool, item.origin, item.variant])).toEqual([
      ["ro", "fixture", null],
      ["ro", "error_probe", "missing_required"],
      ["ro", "error_probe", "wrong_type"],
      ["ro", "error_probe", "unknown_value"],
    ]);
    expect(planned.every((item) => item.action === "call")).toBe(true);
  });
});

describe("checkArguments", () => {
  it("reads draft-07 and 2020-12 schemas, and never asserts format", () => {
    expect(
      checkArguments(
        { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string", format: "uri" } } },
        { a: "not a uri" },
      ),
    ).toEqual({ ok: true });
    expect(checkArguments({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", prefixItems: [] }, {})).toEqual({ ok: true });
  });

  it("runs patterns on RE2, so a catastrophic pattern stays fast", () => {
    const check = (length: number) =>
      checkArguments({ type: "object", properties: { a: { type: "string", pattern: "^(a+)+$" } } }, { a: `${"a".repeat(length)}!` });
    // Backtracking would double its work with every letter; RE2 is linear in the text.
    expect(expectLinear("(a+)+", check, 500).ok).toBe(false);
  });

  it("holds back a value a pattern cannot be checked against", () => {
    const result = checkArguments({ type: "object", properties: { a: { type: "string", pattern: "^(?=x)x$" } } }, { a: "x" });
    expect(result).toMatchObject({
      ok: false,
      problems: [{ keyword: "pattern" }, { keyword: "pattern", text: "a pattern could not be checked on a linear-time engine" }],
    });
  });
});

describe("checkArguments, regressions", () => {
  it("keeps two patterns apart (ajv caches patterns by their text; a tester without toString shared one entry)", () => {
    expect(checkArguments({ type: "object", properties: { a: { type: "string", pattern: "^a+$" } } }, { a: "aaa" })).toEqual({ ok: true });
    expect(checkArguments({ type: "object", properties: { b: { type: "string", pattern: "^b+$" } } }, { b: "bbb" })).toEqual({ ok: true });
    expect(checkArguments({ type: "object", properties: { b: { type: "string", pattern: "^b+$" } } }, { b: "aaa" }).ok).toBe(false);
  });
});

describe("Mcp-Param headers (2026-07-28 over HTTP)", () => {
  const readOnly = { readOnlyHint: true };
  const headed = (properties: Record<string, unknown>) => ({ type: "object", properties });
  const search = tool("search", readOnly, headed({ query: { type: "string" }, region: { type: "string", "x-mcp-header": "Region" } }));
  const noSecrets = { knownSecret: () => false };
  const planOver = (tools: JsonObject[], probes: ProbeFixture[], paramHeaders: { knownSecret: (text: string) => boolean } | null, errorProbes = false) =>
    planProbes({ fixtures: { probes, dir: "/fixtures" }, tools, env: {}, errorProbes, paramHeaders });

  it("builds each call's headers from its arguments, and none without the policy (stdio, or the 2025 era)", () => {
    const item = probe({ tool: "search", args: { query: "maps", region: "eu west" } });
    expect(planOver([search], [item], noSecrets)[0]).toMatchObject({ action: "call", headers: { "Mcp-Param-Region": "eu west" } });
    expect(planOver([search], [item], null)[0]).toMatchObject({ action: "call", headers: {} });
    // An argument left out sends no header.
    expect(planOver([search], [probe({ tool: "search", args: { query: "maps" } })], noSecrets)[0]).toMatchObject({ action: "call", headers: {} });
  });

  it.each([
    ["not a token", { words: { type: "string", "x-mcp-header": "a b" } }, "not_token", "a b"],
    ["empty", { words: { type: "string", "x-mcp-header": "" } }, "not_token", ""],
    ["twice in different case", { a: { type: "string", "x-mcp-header": "Zone" }, b: { type: "string", "x-mcp-header": "zone" } }, "duplicate", "zone"],
    ["under items", { tags: { type: "array", items: { type: "string", "x-mcp-header": "Tag" } } }, "unreachable", "Tag"],
    ["on an object", { filter: { type: "object", "x-mcp-header": "Filter" } }, "not_primitive", "Filter"],
  ])("holds back a tool whose declaration is %s, even with allow_destructive and expect_error", (_name, properties, why, header) => {
    const bad = tool("bad", readOnly, headed(properties));
    for (const item of [probe({ tool: "bad", args: {} }), probe({ tool: "bad", args: {}, allowDestructive: true, expectError: true })]) {
      const [planned] = planOver([bad], [item], noSecrets);
      expect(planned).toMatchObject({ action: "blocked", args: null, blocked: { code: "invalid_param_headers", why, header } });
    }
    // Without the policy the revision's rule does not apply: the same tool is called.
    expect(planOver([bad], [probe({ tool: "bad", args: {} })], null)[0]?.action).toBe("call");
  });

  it("holds back a tool when any copy of its name declares headers wrongly", () => {
    const bad = tool("search", readOnly, headed({ query: { type: "string", "x-mcp-header": "a b" } }));
    expect(planOver([search, bad], [probe({ tool: "search", args: { query: "maps" } })], noSecrets)[0]?.blocked?.code).toBe("invalid_param_headers");
  });

  it("blocks a call whose header value has a credential's form or is a secret the run holds, naming the header and not keeping the value", () => {
    const token = "ghp_0123456789abcdefghijKLMNOPQRSTuvwx";
    const known = { knownSecret: (text: string) => text === "hunter2-secret" };
    for (const region of [token, "hunter2-secret"]) {
      const [planned] = planOver([search], [probe({ tool: "search", args: { query: "maps", region } })], known);
      expect(planned).toMatchObject({ action: "blocked", args: null, headers: {}, blocked: { code: "credential_in_header", header: "Mcp-Param-Region" } });
      expect(JSON.stringify(planned)).not.toContain(region);
    }
    // The same value outside a header parameter is sent.
    expect(planOver([search], [probe({ tool: "search", args: { query: token } })], known)[0]?.action).toBe("call");
  });

  it("holds back the error probes of a read-only tool whose declarations are invalid", () => {
    const bad = tool("bad", readOnly, {
      ...headed({ q: { type: "string", "x-mcp-header": "Q" }, r: { type: "string", "x-mcp-header": "q" } }),
      required: ["q"],
    });
    const planned = planOver([bad, search], [], noSecrets, true);
    const ofBad = planned.filter((item) => item.tool === "bad");
    expect(ofBad.length).toBeGreaterThan(0);
    expect(ofBad.every((item) => item.action === "blocked" && item.blocked?.code === "invalid_param_headers")).toBe(true);
    expect(planned.filter((item) => item.tool === "search").every((item) => item.action === "call")).toBe(true);
  });

  it("judges an error probe again against a new list whose tool now declares headers wrongly", () => {
    const input = { fixtures: null, env: {}, errorProbes: true, paramHeaders: noSecrets };
    const [first] = planProbes({ ...input, tools: [search] });
    expect(first?.action).toBe("call");
    const changed = tool("search", readOnly, headed({ query: { type: "string", "x-mcp-header": "a b" } }));
    expect(regateProbe(first as PlannedProbe, { ...input, tools: [changed] }).blocked?.code).toBe("invalid_param_headers");
  });
});
