/** Runs every case file under test/fixtures/schema/<keyword>/<case>.json through compareSchemas. */

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { compareSchemas, SCHEMA_REASONS } from "../../../src/schema/index.js";

const ROOT = fileURLToPath(new URL("../../fixtures/schema/", import.meta.url));

interface Expected {
  kind: string;
  reason: string;
  path: string;
  info?: boolean;
  unreferenced?: boolean;
}

interface Case {
  name: string;
  before: unknown;
  after: unknown;
  expect: Expected[];
}

function isExpected(value: unknown): value is Expected {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return typeof e.kind === "string" && typeof e.reason === "string" && typeof e.path === "string";
}

function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const entry of readdirSync(ROOT, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".json")) continue;
    const file = join(ROOT, entry);
    // JSON.parse keeps "__proto__" as an own key, exactly as the lock module hands schemas over.
    const data = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const expected = data.expect;
    if (!Object.hasOwn(data, "before") || !Object.hasOwn(data, "after") || !Array.isArray(expected)) {
      throw new Error(`${entry}: needs before, after and an expect array`);
    }
    if (!expected.every(isExpected)) throw new Error(`${entry}: each expect entry needs kind, reason and path`);
    cases.push({ name: relative(ROOT, file), before: data.before, after: data.after, expect: expected });
  }
  return cases.sort((a, b) => a.name.localeCompare(b.name));
}

/** A finding as a comparable line, with the flags the lock layer reads; order of findings never matters. */
const line = (f: Expected): string =>
  `${f.kind} ${f.reason} ${JSON.stringify(f.path)}${f.info === true ? " info" : ""}${f.unreferenced === true ? " unreferenced" : ""}`;

const CASES = loadCases();

describe("schema change cases", () => {
  test("the fixture folder holds a case for every keyword family", () => {
    const folders = new Set(CASES.map((c) => c.name.split(/[\\/]/)[0]));
    expect(CASES.length).toBeGreaterThan(300);
    expect(folders.size).toBeGreaterThan(40);
  });

  test("every expected reason exists and carries its table kind", () => {
    for (const c of CASES) {
      for (const e of c.expect) {
        expect(Object.hasOwn(SCHEMA_REASONS, e.reason), `${c.name}: unknown reason ${e.reason}`).toBe(true);
        expect(SCHEMA_REASONS[e.reason as keyof typeof SCHEMA_REASONS].kind, c.name).toBe(e.kind);
      }
    }
  });

  test.each(CASES)("$name", (c) => {
    const actual = compareSchemas(c.before, c.after).map(line).sort();
    expect(actual).toEqual(c.expect.map(line).sort());
  });
});
