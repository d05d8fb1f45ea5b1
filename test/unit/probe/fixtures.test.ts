// The fixtures file: strict shape checks with one clear line per mistake, and ${...} expansion.
import { describe, expect, it } from "vitest";
import { expandArguments, parseFixtures, referencedVariables } from "../../../src/probe/fixtures.js";

const parse = (value: unknown) => parseFixtures(value, "f.json", "/dir");

describe("parseFixtures", () => {
  it("reads every field, with defaults for the ones left out", () => {
    const file = parse({
      version: 1,
      probes: [
        { tool: "read", label: "big", args: { path: "${FIXTURES_DIR}/big.txt" }, expect_error: true, allow_destructive: true, skip: false },
        { tool: "list" },
      ],
    });
    expect(file.dir).toBe("/dir");
    expect(file.probes).toEqual([
      { index: 0, tool: "read", label: "big", args: { path: "${FIXTURES_DIR}/big.txt" }, expectError: true, allowDestructive: true, skip: false },
      { index: 1, tool: "list", label: null, args: {}, expectError: false, allowDestructive: false, skip: false },
    ]);
  });

  it.each([
    ["not an object", [], 'expected an object {"version": 1, "probes": [...]}'],
    ["an unknown top-level key", { version: 1, probes: [], extra: 1 }, 'unknown key "extra"'],
    ["another version", { version: 2, probes: [] }, '"version" must be 1'],
    ["probes not a list", { version: 1, probes: {} }, '"probes" must be an array'],
    ["a probe without a tool", { version: 1, probes: [{ args: {} }] }, 'probes[0]: "tool" must be a non-empty string'],
    ["an unknown probe key", { version: 1, probes: [{ tool: "x", allow_destructve: true }] }, 'probes[0]: unknown key "allow_destructve"'],
    ["args not an object", { version: 1, probes: [{ tool: "x", args: ["a"] }] }, 'probes[0]: "args" must be an object'],
    ["a flag that is not a boolean", { version: 1, probes: [{ tool: "x", skip: "yes" }] }, 'probes[0]: "skip" must be true or false'],
    ["a label that is not a string", { version: 1, probes: [{ tool: "x", label: 3 }] }, 'probes[0]: "label" must be a string'],
  ])("refuses %s", (_name, value, message) => {
    expect(() => parse(value)).toThrow(message);
  });

  it("refuses more than 1,000 probes and arguments nested past 64 levels", () => {
    expect(() => parse({ version: 1, probes: Array.from({ length: 1001 }, () => ({ tool: "x" })) })).toThrow("at most 1000");
    let deep: unknown = "leaf";
    for (let level = 0; level < 70; level++) deep = { a: deep };
    expect(() => parse({ version: 1, probes: [{ tool: "x", args: { deep } }] })).toThrow("nested deeper than 64 levels");
  });
});

describe("placeholders", () => {
  it("expands ${FIXTURES_DIR} and ${NAME} in string values at any depth, never in keys", () => {
    const result = expandArguments({ path: "${FIXTURES_DIR}/a.txt", nested: { list: ["${TOKEN}", 3] }, "${TOKEN}": "$TOKEN ${not-a-name}" }, "/fix", {
      TOKEN: "t0k",
    });
    expect(result).toEqual({
      ok: true,
      args: { path: "/fix/a.txt", nested: { list: ["t0k", 3] }, "${TOKEN}": "$TOKEN ${not-a-name}" },
      strings: ["/fix/a.txt", "t0k", "$TOKEN ${not-a-name}"],
    });
  });

  it("stops at the first variable that is not set", () => {
    expect(expandArguments({ a: "${SET}", b: "${MISSING_ONE}", c: "${MISSING_TWO}" }, "/d", { SET: "x" })).toEqual({ ok: false, missing: "MISSING_ONE" });
  });

  it("lists the variables the run will expand, so their values can be redacted before it starts", () => {
    const file = parse({
      version: 1,
      probes: [
        { tool: "a", args: { key: "${API_KEY}", dir: "${FIXTURES_DIR}" } },
        { tool: "b", args: { other: "${SKIPPED}" }, skip: true },
        { tool: "c", args: { list: ["${B_TOKEN}", "${API_KEY}"] } },
      ],
    });
    expect(referencedVariables(file)).toEqual(["API_KEY", "B_TOKEN"]);
  });
});
