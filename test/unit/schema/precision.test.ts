/** Property test: rewrites that keep the accepted set (checked with ajv) are never reported as widened. */

import { describe, expect, test } from "vitest";
import { runGenerated, show } from "./generated.js";

describe("compareSchemas precision on equivalent rewrites (generated pairs)", () => {
  test("3,000+ equivalence pairs: ajv agrees on every instance, and zero widened findings", () => {
    const totals = runGenerated("equivalence", 20260602, 2700, (r) => {
      if (r.notEquivalent.length > 0) expect.fail(`generator bug, rewrite not equivalent:\n${show(r.notEquivalent)}`);
      if (r.falseWidened.length > 0) expect.fail(`false widening:\n${show(r.falseWidened)}`);
    });
    console.info(`precision: ${totals.equivalencePairs} equivalence pairs, ${totals.falseWidened.length} flagged widened`);
    expect(totals.notEquivalent).toEqual([]);
    expect(totals.falseWidened).toEqual([]);
    expect(totals.equivalencePairs).toBeGreaterThanOrEqual(3_000);
  });
});
