/** Property tests: rewrites that keep the accepted set, and restructurings that narrow it, are never reported as widened. */

import { describe, expect, test } from "vitest";
import { ciMinimum, runGenerated, seconds, seedOf, show } from "./generated.js";

describe("compareSchemas precision (generated pairs, judged by ajv)", () => {
  test("3,000+ equivalence pairs: ajv agrees on every instance, zero widened findings and zero text findings", () => {
    const budget = { target: 3_300, minimum: ciMinimum(3_000, 600), seconds: seconds(30) };
    const run = runGenerated(
      "equivalence",
      seedOf(20260602),
      budget,
      (t) => t.equivalencePairs,
      (r) => {
        if (r.notEquivalent.length > 0) expect.fail(`generator bug, rewrite not equivalent:\n${show(r.notEquivalent)}`);
        if (r.falseWidened.length > 0) expect.fail(`false widening (case seed ${r.seed}):\n${show(r.falseWidened)}`);
        if (r.falseText.length > 0) expect.fail(`false text alarm (case seed ${r.seed}):\n${show(r.falseText)}`);
      },
    );
    const { totals } = run;
    console.info(
      `precision: seed ${run.seed}, ${totals.equivalencePairs} equivalence pairs, ` +
        `${totals.falseWidened.length} flagged widened, ${totals.falseText.length} with text findings, ${run.seconds.toFixed(1)} s`,
    );
    expect(totals.notEquivalent).toEqual([]);
    expect(totals.falseWidened).toEqual([]);
    expect(totals.falseText).toEqual([]);
    expect(totals.equivalencePairs).toBeGreaterThanOrEqual(budget.minimum);
  }, 180_000);

  // inline to $ref and back, oneOf of constants to enum (and a discriminated union hoisted into one object),
  // keywords spread over allOf members (some behind references), a type narrowed away from object, branches
  // moved behind references in another order, an object split into a reference to an anyOf of stricter copies.
  test("2,000+ restructured pairs where ajv finds nothing new accepted: zero widened findings", () => {
    const budget = { target: 2_200, minimum: ciMinimum(2_000, 400), seconds: seconds(30) };
    const run = runGenerated(
      "restructure",
      seedOf(20260603),
      budget,
      (t) => t.restructurePairs,
      (r) => {
        if (r.notNarrowing.length > 0) expect.fail(`generator bug, ajv found a new instance:\n${show(r.notNarrowing)}`);
        if (r.falseWidened.length > 0) expect.fail(`false widening (case seed ${r.seed}):\n${show(r.falseWidened)}`);
      },
    );
    const { totals } = run;
    console.info(
      `restructure precision: seed ${run.seed}, ${totals.restructurePairs} restructured pairs judged by ajv, ` +
        `${totals.falseWidened.length} flagged widened, ${run.seconds.toFixed(1)} s`,
    );
    expect(totals.falseWidened).toEqual([]);
    expect(totals.notNarrowing).toEqual([]);
    expect(totals.restructurePairs).toBeGreaterThanOrEqual(budget.minimum);
  }, 180_000);
});
