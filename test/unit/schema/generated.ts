/** Shared set-up for the generated-pair property tests: seeds, ajv validators and a fast-check runner. */

import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { addUp, type CaseResult, createValidators, type Example, loadSeeds, runCase, type Totals } from "../../../bench/schema-gen.mjs";
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

/** How long a generated test runs: until `target` pairs, or past `seconds` once it has `minimum` pairs. */
export interface Budget {
  /** Pairs to judge when time allows. */
  readonly target: number;
  /** Pairs to judge whatever the time (CI raises it; see ciMinimum). */
  readonly minimum: number;
  /** Wall-clock seconds after which the run stops once `minimum` is reached. */
  readonly seconds: number;
}

/** What a generated run did, for its one printed line and its assertions. */
export interface Run {
  readonly totals: Totals;
  readonly seed: number;
  readonly pairs: number;
  readonly seconds: number;
}

/** Seconds a generated test may spend past its minimum; `SCHEMA_TEST_SECONDS` overrides the default. */
export function seconds(fallback: number): number {
  const value = Number(process.env.SCHEMA_TEST_SECONDS);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** The fixed seed of a generated test; `SCHEMA_TEST_SEED` overrides it to explore other cases. */
export function seedOf(fallback: number): number {
  const value = Number(process.env.SCHEMA_TEST_SEED);
  return Number.isSafeInteger(value) ? value : fallback;
}

/** The pair count CI requires whatever the time budget, or the local floor outside CI. */
export function ciMinimum(ci: number, local: number): number {
  return process.env.CI ? ci : local;
}

// Cases per fast-check run; the budget is checked between runs.
const CHUNK = 50;

/**
 * Runs generated cases of one kind under a fixed seed until the budget says stop; each case draws its own
 * seed. A failing case stops the run (no shrinking: a different case seed is a different case, not a smaller
 * one). `pairsOf` says which pairs count towards the budget.
 */
export function runGenerated(kind: CaseResult["kind"], seed: number, budget: Budget, pairsOf: (totals: Totals) => number, check: (r: CaseResult) => void): Run {
  const started = performance.now();
  let totals: Totals | undefined;
  const pairs = (): number => (totals === undefined ? 0 : pairsOf(totals));
  const elapsed = (): number => (performance.now() - started) / 1000;
  for (let chunk = 0; pairs() < budget.target && (pairs() < budget.minimum || elapsed() < budget.seconds); chunk++) {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (caseSeed) => {
        const result = runCase({ seed: caseSeed, seeds: SEEDS, compareSchemas, validator, kind });
        totals = addUp(totals, result);
        check(result);
      }),
      { seed: seed + chunk, numRuns: CHUNK, endOnFailure: true },
    );
  }
  if (totals === undefined) throw new Error("no cases ran");
  return { totals, seed, pairs: pairs(), seconds: elapsed() };
}
