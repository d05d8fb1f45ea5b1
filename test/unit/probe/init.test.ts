// init-fixtures: one skipped probe per tool with placeholders from its input schema, as ASCII, one probe per line.
import { describe, expect, it } from "vitest";
import { parseFixtures } from "../../../src/probe/fixtures.js";
import { fixturesText, starterProbes } from "../../../src/probe/init.js";

const tools = [
  {
    name: "read_text_file",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, head: { type: "number" }, encoding: { type: "string", enum: ["utf8", "latin1"] } },
      required: ["path", "encoding"],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: "write_file",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 12 },
        content: { type: "string", default: "hello" },
        mode: { $ref: "#/$defs/mode" },
        options: {
          type: "object",
          properties: { overwrite: { type: "boolean" }, retries: { type: "integer", minimum: 2 } },
          required: ["overwrite", "retries"],
        },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
      },
      required: ["path", "content", "mode", "options", "tags"],
      $defs: { mode: { type: "string", const: "append" } },
    },
    annotations: { destructiveHint: false },
  },
  { name: "write_file", inputSchema: { type: "object" } },
  {
    name: "caf\u00e9",
    inputSchema: { type: "object", properties: { "n\u00e4me": { type: "string" } }, required: ["n\u00e4me"] },
    annotations: { readOnlyHint: true },
  },
  { description: "no name" },
];

describe("starterProbes", () => {
  it("fills required arguments with placeholders of the right type and marks tools that are not read-only", () => {
    expect(starterProbes(tools)).toEqual([
      { tool: "read_text_file", args: { path: "<path>", encoding: "utf8" }, skip: true },
      {
        tool: "write_file",
        args: { path: "<path>xxxxxx", content: "hello", mode: "append", options: { overwrite: false, retries: 2 }, tags: ["<tags>", "<tags>"] },
        allow_destructive: false,
        skip: true,
      },
      { tool: "caf\u00e9", args: { "n\u00e4me": "<n\u00e4me>" }, skip: true },
    ]);
  });
});

describe("fixturesText", () => {
  it("writes a file the probe reader accepts, ASCII only, one probe per line", () => {
    const text = fixturesText(starterProbes(tools));
    expect(text).toMatch(/^[\x0a\x20-\x7e]*$/);
    expect(text.split("\n")[3]).toBe('    {"tool": "read_text_file", "args": {"path": "<path>", "encoding": "utf8"}, "skip": true},');
    expect(text).toContain('{"tool": "caf\\u00e9", "args": {"n\\u00e4me": "<n\\u00e4me>"}, "skip": true}');
    const parsed = parseFixtures(JSON.parse(text), "f.json", "/");
    expect(parsed.probes.map((probe) => [probe.tool, probe.skip])).toEqual([
      ["read_text_file", true],
      ["write_file", true],
      ["caf\u00e9", true],
    ]);
  });

  it("writes an empty list for a server without tools", () => {
    expect(JSON.parse(fixturesText([]))).toEqual({ version: 1, probes: [] });
  });
});
