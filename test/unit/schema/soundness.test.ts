/**
 * Property test: whenever ajv finds an instance only the new schema accepts, the analyzer reports a widening.
 * One deliberate exception (see removedParametersExplain in bench/schema-gen.mjs): a parameter removed from
 * `properties` is reported as a warning (`parameter_removed`, a `schema_changed`), not a widening, since the model
 * no longer sees it; such witnesses count as excused only when the old schema without exactly those parameters
 * accepts them, so every other widening in the same pair is still a miss.
 */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createRandom, type Json, mutate, pickMutation } from "../../../bench/schema-gen.mjs";
import { compareSchemas } from "../../../src/schema/index.js";
import { ciMinimum, runGenerated, SEEDS, seconds, seedOf, show } from "./generated.js";

// Sized by time as well as by count, so a busy machine finishes: CI always judges 10,000+ pairs.
const BUDGET = { target: 10_400, minimum: ciMinimum(10_000, 2_000), seconds: seconds(60) };

describe("compareSchemas soundness against ajv (generated pairs)", () => {
  test("10,000+ mutation pairs over real seed schemas, both dialects: zero missed widenings", () => {
    const run = runGenerated(
      "mutation",
      seedOf(20260601),
      BUDGET,
      (t) => t.mutationPairs,
      (r) => {
        if (r.missed.length > 0) expect.fail(`missed widening (case seed ${r.seed}):\n${show(r.missed)}`);
      },
    );
    const { totals } = run;
    const { "2020-12": modern, "draft-07": draft07 } = totals.byDialect;
    console.info(
      `soundness: seed ${run.seed}, ${totals.mutationPairs} mutation pairs judged by ajv (2020-12 ${modern}, ` +
        `draft-07 ${draft07}), ${totals.witnesses} with a witness (${totals.excused} only through a removed parameter), ${totals.missed.length} missed, ` +
        `${run.seconds.toFixed(1)} s`,
    );
    expect(totals.missed).toEqual([]);
    expect(totals.mutationPairs).toBeGreaterThanOrEqual(BUDGET.minimum);
    // Both validators get their share: ajv 2020-12 and ajv draft-07.
    expect(totals.byDialect["draft-07"]).toBeGreaterThan(totals.mutationPairs / 5);
    expect(totals.byDialect["2020-12"]).toBeGreaterThan(totals.mutationPairs / 2);
    // The generator must actually find witnesses, or zero misses would prove nothing.
    expect(totals.witnesses).toBeGreaterThan(totals.mutationPairs / 10);
  }, 180_000);

  test("a schema compared with itself, or with its keys reordered, has no findings", () => {
    const reorder = (value: Json): Json => {
      if (Array.isArray(value)) return value.map(reorder);
      if (value === null || typeof value !== "object") return value;
      const out: { [key: string]: Json } = {};
      for (const key of Object.keys(value).reverse()) out[key] = reorder(value[key] as Json);
      return out;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rng = createRandom(seed);
        const start = rng.pick(SEEDS);
        let schema = start.schema;
        for (let i = rng.int(4); i > 0; i--) {
          schema = mutate(rng, schema, start.dialect, pickMutation(rng, start.dialect));
        }
        expect(compareSchemas(schema, JSON.parse(JSON.stringify(schema)))).toEqual([]);
        expect(compareSchemas(schema, reorder(schema))).toEqual([]);
      }),
      { seed: 7, numRuns: 300 },
    );
  }, 60_000);
});
