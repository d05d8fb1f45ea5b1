/** Shared set-up for the generated-pair property tests: seeds, ajv validators and a fast-check runner. */

import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import {
  addUp,
  type CaseResult,
  createValidators,
  type Example,
  loadSeeds,
  runCase,
  type Totals,
} from "../../../bench/schema-gen.mjs";
import { compareSchemas } from "../../../src/schema/index.js";

/** The realistic seed schemas the generator mutates. */
export const SEEDS = loadSeeds(fileURLToPath(new URL("../../fixtures/schema-seeds/", import.meta.url)));

// `code.optimize: false` halves compile time; validators are cached by schema text.
const OPTIONS = { strict: false, validateFormats: false, allErrors: false, code: { optimize: false } } as const;

/** ajv 2020-12 (`ajv/dist/2020.js`) or draft-07 (`ajv`), strict about the schema unless lenient. */
export const validator = createValidators((dialect, lenient) => {
  const options = { ...OPTIONS, validateSchema: !lenient };
  return dialect === "draft-07" ? new Ajv(options) : new Ajv2020(options);
});

/** The first example of a list as readable text for a failure message. */
export function show(examples: readonly Example[]): string {
  return JSON.stringify(examples[0], null, 1).slice(0, 4000);
}

/**
 * Runs `numRuns` generated cases of one kind under a fixed fast-check seed; each run draws the case seed.
 * A failing case stops the run (no shrinking: a different case seed is a different case, not a smaller one).
 */
export function runGenerated(
  kind: "mutation" | "equivalence",
  seed: number,
  numRuns: number,
  check: (r: CaseResult) => void,
): Totals {
  let totals: Totals | undefined;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (caseSeed) => {
      const result = runCase({ seed: caseSeed, seeds: SEEDS, compareSchemas, validator, kind });
      totals = addUp(totals, result);
      check(result);
    }),
    { seed, numRuns, endOnFailure: true },
  );
  if (totals === undefined) throw new Error("no cases ran");
  return totals;
}
