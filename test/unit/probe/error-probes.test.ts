// --error-probes: one bad argument at a time on otherwise valid arguments, built from the tool's own schema.
import { describe, expect, it } from "vitest";
import { errorProbesFor, UNKNOWN_ID, UNKNOWN_PATH, UNKNOWN_URL, UNKNOWN_UUID } from "../../../src/probe/error-probes.js";

const tool = (inputSchema: unknown) => ({ name: "t", inputSchema, annotations: { readOnlyHint: true } });

describe("errorProbesFor", () => {
  it("varies one parameter of valid arguments for each variant", () => {
    const probes = errorProbesFor(
      tool({
        type: "object",
        properties: { path: { type: "string" }, mode: { type: "string", enum: ["a", "b"] }, limit: { type: "integer", minimum: 5 } },
        required: ["path", "limit"],
      }),
    );
    expect(probes).toEqual([
      { variant: "missing_required", param: "path", args: { limit: 5 } },
      { variant: "wrong_type", param: "path", args: { path: 12345, limit: 5 } },
      { variant: "invalid_enum", param: "mode", args: { path: "<path>", limit: 5, mode: "mcp-lint-invalid-choice" } },
      { variant: "unknown_value", param: "path", args: { path: UNKNOWN_PATH, limit: 5 } },
    ]);
  });

  it.each([
    ["a URL", { url: { type: "string" } }, { url: UNKNOWN_URL }],
    ["a uri format", { target: { type: "string", format: "uri" } }, { target: UNKNOWN_URL }],
    ["a UUID", { item: { type: "string", format: "uuid" } }, { item: UNKNOWN_UUID }],
    ["an id", { user_id: { type: "string" } }, { user_id: UNKNOWN_ID }],
    ["a list of names", { names: { type: "array", items: { type: "string" }, minItems: 1 } }, { names: [UNKNOWN_ID] }],
  ])("picks an unknown value for %s", (_name, properties, args) => {
    const probe = errorProbesFor(tool({ type: "object", properties })).find((item) => item.variant === "unknown_value");
    expect(probe?.args).toEqual(args);
  });

  it("sends no unknown value that the schema would reject, and nothing for a parameter it cannot point with", () => {
    expect(errorProbesFor(tool({ type: "object", properties: { path: { type: "string", pattern: "^C:" } } })).map((item) => item.variant)).toEqual([
      "wrong_type",
    ]);
    expect(errorProbesFor(tool({ type: "object", properties: { query: { type: "string" } } })).map((item) => item.variant)).toEqual(["wrong_type"]);
  });

  it("sends nothing when no valid arguments can be built to vary, or there is no schema", () => {
    expect(errorProbesFor(tool({ type: "object", properties: { code: { type: "string", pattern: "^[0-9]{6}$" } }, required: ["code"] }))).toEqual([]);
    expect(errorProbesFor(tool(undefined))).toEqual([]);
    expect(errorProbesFor(tool({ type: "object" }))).toEqual([]);
  });
});
