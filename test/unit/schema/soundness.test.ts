/** Property test: whenever ajv finds an instance only the new schema accepts, the analyzer reports a widening. */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createRandom, type Json, mutate, pickMutation } from "../../../bench/schema-gen.mjs";
import { compareSchemas } from "../../../src/schema/index.js";
import { runGenerated, SEEDS, show } from "./generated.js";

describe("compareSchemas soundness against ajv (generated pairs)", () => {
  test("10,000+ mutation pairs over real seed schemas, both dialects: zero missed widenings", () => {
    const totals = runGenerated("mutation", 20260601, 2900, (r) => {
      if (r.missed.length > 0) expect.fail(`missed widening:\n${show(r.missed)}`);
    });
    const { "2020-12": modern, "draft-07": draft07 } = totals.byDialect;
    console.info(
      `soundness: ${totals.mutationPairs} mutation pairs judged by ajv (2020-12 ${modern}, draft-07 ${draft07}), ` +
        `${totals.witnesses} with a witness`,
    );
    expect(totals.missed).toEqual([]);
    expect(totals.mutationPairs).toBeGreaterThanOrEqual(10_000);
    // Both validators get their share: ajv 2020-12 and ajv draft-07.
    expect(totals.byDialect["draft-07"]).toBeGreaterThan(2_000);
    expect(totals.byDialect["2020-12"]).toBeGreaterThan(5_000);
    // The generator must actually find witnesses, or zero misses would prove nothing.
    expect(totals.witnesses).toBeGreaterThan(totals.mutationPairs / 10);
  });

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
  });
});
