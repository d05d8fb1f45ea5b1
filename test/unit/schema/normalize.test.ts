/** Each normalization is an equivalence: ajv agrees on generated instances; the analyzer reports nothing above text. */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { createRandom, type Dialect, instancesFor, type Json } from "../../../bench/schema-gen.mjs";
import { compareSchemas } from "../../../src/schema/index.js";
import { validator } from "./generated.js";

const DIR = fileURLToPath(new URL("../../fixtures/schema/equivalent/", import.meta.url));

interface Equivalence {
  name: string;
  dialect: Dialect;
  before: Json;
  after: Json;
}

function load(): Equivalence[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const data = JSON.parse(readFileSync(join(DIR, f), "utf8")) as { dialect?: Dialect; before: Json; after: Json };
      return { name: f, dialect: data.dialect ?? "2020-12", before: data.before, after: data.after };
    });
}

const CASES = load();
const NAMES: ReadonlySet<string> = new Set(["definition_removed", "definition_changed"]);

describe("normalizations are equivalences", () => {
  test("the folder covers every rewrite the analyzer normalizes", () => {
    const names = CASES.map((c) => c.name).join(" ");
    const required = [
      "anyof-null",
      "enum-single-vs-const",
      "definitions-vs-defs",
      "additional-properties-true",
      "type-array-vs-anyof",
      "all-of-single-member",
      "required-duplicate",
      "description-moved",
      "oneof-consts-vs-enum",
      "anyof-consts-vs-enum",
    ];
    for (const rewrite of required) expect(names, rewrite).toContain(rewrite);
  });

  test.each(CASES)("$name: ajv accepts the same instances on both sides", (c) => {
    // Lenient: the meta-schema forbids duplicate `required` names, which is one of the rewrites.
    const before = validator(c.dialect, c.before, true);
    const after = validator(c.dialect, c.after, true);
    if (before === undefined || after === undefined) throw new Error("ajv could not compile the case");
    let accepted = 0;
    for (let seed = 1; seed <= 20; seed++) {
      for (const instance of instancesFor(createRandom(seed), c.before, c.after, 60)) {
        const verdict = before(instance);
        expect(after(instance), JSON.stringify(instance)).toBe(verdict);
        if (verdict) accepted++;
      }
    }
    // The instances must reach inside the schemas, not only bounce off them.
    expect(accepted).toBeGreaterThan(0);
  });

  test.each(CASES)("$name: no widened or validation-changing finding either way", (c) => {
    for (const [b, a] of [
      [c.before, c.after],
      [c.after, c.before],
    ] as const) {
      const findings = compareSchemas(b, a);
      // Definitions that are no longer (or newly) needed are real edits of the document, not of what validates.
      const above = findings.filter((f) => f.kind === "widened" || (f.kind === "structural" && !NAMES.has(f.reason)));
      expect(above).toEqual([]);
    }
  });
});
