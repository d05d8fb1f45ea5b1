/** Property tests: rewrites that keep the accepted set, and restructurings that narrow it, are never reported as widened. */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Json } from "../../../bench/schema-gen.mjs";
import { compareSchemas } from "../../../src/schema/index.js";
import { ciMinimum, runGenerated, SEEDS, seconds, seedOf, show } from "./generated.js";

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

  // Issue 22 item 6a: a parameter written as a single-branch anyOf (the zod/pydantic wrapper) that gains a
  // branch keeps every word it had; only a description on the new branch is new text.
  test("every seed parameter as a single-branch anyOf gaining a branch: no text finding unless the new branch brings words", () => {
    const parameters: Array<{ root: { [key: string]: Json }; name: string }> = [];
    for (const seed of SEEDS) {
      const root = seed.schema as { [key: string]: Json };
      const properties = root.properties;
      if (properties === null || typeof properties !== "object" || Array.isArray(properties)) continue;
      for (const name of Object.keys(properties)) {
        const value = properties[name];
        if (value !== null && typeof value === "object" && !Array.isArray(value)) parameters.push({ root, name });
      }
    }
    expect(parameters.length).toBeGreaterThan(30);
    const branches: Json[] = [{ type: "null" }, { type: "integer" }, { type: "string", maxLength: 3 }, { type: "array", items: { type: "string" } }];
    fc.assert(
      fc.property(fc.nat(parameters.length - 1), fc.nat(branches.length - 1), fc.boolean(), (index, pick, described) => {
        const { root, name } = parameters[index] as { root: { [key: string]: Json }; name: string };
        const schema = (root.properties as { [key: string]: Json })[name] as Json;
        const added = described ? { ...(branches[pick] as { [key: string]: Json }), description: "A new branch." } : (branches[pick] as Json);
        const withParameter = (value: Json) => ({ ...root, properties: { ...(root.properties as { [key: string]: Json }), [name]: value } });
        const before = withParameter({ anyOf: [schema] });
        const after = withParameter({ anyOf: [schema, added] });
        const text = compareSchemas(before, after).filter((f) => f.kind === "text");
        if (!described) expect(text, `${name}: ${JSON.stringify(text)}`).toEqual([]);
        // The new branch's words are new: reported as added (at the branch or the anyOf holding it), never removed or changed.
        else
          expect(text.length > 0 && text.every((f) => f.reason === "text_added" && f.path.includes("/anyOf")), `${name}: ${JSON.stringify(text)}`).toBe(true);
      }),
      { seed: 22, numRuns: 400 },
    );
  });
});
