/** Schema regexes run only on RE2: the translation from ECMA-262 matches what JavaScript matches, and hostile patterns stay fast. */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectLinear } from "../../growth.js";
import { compareSchemas } from "../../../src/schema/index.js";
import { patternMatches, translatePattern } from "../../../src/schema/regex.js";

// `^(a|a)?(a|a)?...a...a$`: exponential on a backtracking engine for a name of n a's and one other character.
const groups = (n: number): string => `^${"(a|a)?".repeat(n)}${"a".repeat(n)}$`;

describe("patternMatches", () => {
  test("ReDoS: a 24-group (a|a)? pattern next to a required name is decided soundly, in time that grows slowly with the groups", () => {
    // Backtracking doubles its work with every group: 12 and 24 groups would differ 4,096-fold.
    expectLinear("groups", (count) => patternMatches(groups(count), `${"a".repeat(count)}!`), 12, 2, 40);
    expectLinear("(a+)+", (length) => patternMatches("^(a+)+$", `${"a".repeat(length)}!`), 100, 10);
    const pattern = groups(24);
    const name = `${"a".repeat(24)}!`;
    expect(patternMatches(pattern, name)).toBe(false);
    expect(patternMatches(pattern, "a".repeat(24))).toBe(true);
    expect(patternMatches(pattern, "a".repeat(48))).toBe(true);
    expect(patternMatches("^(a+)+$", `${"a".repeat(1000)}!`)).toBe(false);
    // Through the analyzer: the required name is not covered by the pattern, so it is undeclared.
    const schema = { type: "object", patternProperties: { [pattern]: { type: "string" } } };
    const findings = compareSchemas(schema, { ...schema, required: [name] });
    expect(findings.map((f) => f.reason).sort()).toEqual(["required_added", "required_undeclared"]);
    const covered = compareSchemas(schema, { ...schema, required: ["a".repeat(24)] });
    expect(covered.map((f) => f.reason)).toEqual(["required_added"]);
  });

  test("many patterns with large counted repetitions stay cheap to compile (past a size they are unknown)", () => {
    // A counted repetition is refused by its size, not compiled: ten times the count, no more work.
    expectLinear("counted", (n) => patternMatches(`^.{${n}}.{${n}}$`, "a"), 1_000, 10, 10);
    for (let n = 900; n < 1100; n++) expect(patternMatches(`^.{${n}}.{${n}}$`, "a")).toBeUndefined();
    expect(patternMatches("(?:a|b|c|d){999}", "a")).toBeUndefined();
    expect(patternMatches("^.{1,64}$", "a")).toBe(true);
  });

  test("what RE2 cannot express or validators read differently is unknown", () => {
    for (const pattern of [
      "(a)\\1", // backreference
      "(?<x>a)\\k<x>",
      "a(?=b)", // lookarounds
      "(?<!a)b",
      "\\p{L}", // a property escape with `u`, the letter p without
      "\\u{61}",
      "a{", // a literal `{` without `u`, an error with it
      "a]",
      "[\\d-z]",
      "[]",
      "[^]",
      "\\cA",
      "\\01",
      "😀",
      "(?i)a",
      "a{1001}", // past RE2's repeat limit
      "(",
    ]) {
      expect(translatePattern(pattern) === undefined || patternMatches(pattern, "a") === undefined, pattern).toBe(true);
      expect(patternMatches(pattern, "a"), pattern).toBeUndefined();
    }
    // Astral characters in a name count as one character with `u` and two without.
    expect(patternMatches("^.$", "😀")).toBeUndefined();
  });

  test("ECMA-262 readings RE2 spells differently: ., \\s, $, [[:a], \\b", () => {
    expect(patternMatches("^.$", "\n")).toBe(false);
    expect(patternMatches("^.$", "\u2028")).toBe(false);
    expect(patternMatches("^\\s$", "\u000b")).toBe(true);
    expect(patternMatches("^\\s$", "\u00a0")).toBe(true);
    expect(patternMatches("^\\S$", "\u00a0")).toBe(false);
    expect(patternMatches("a$", "a\n")).toBe(false);
    // `[[:a]` is a class of `[`, `:` and `a` in ECMA-262, a POSIX class to RE2 if passed through.
    expect(patternMatches("^[[:a]$", ":")).toBe(true);
    expect(patternMatches("^[[:a]+$", "b")).toBe(false);
    expect(patternMatches("^[[:alpha:]]$", "b")).toBeUndefined(); // the last `]` is an error with `u`
    expect(patternMatches("\\bé", " é")).toBe(false);
    expect(patternMatches("^\\x41\\u0042[\\b]$", "AB\b")).toBe(true);
  });

  test("on generated patterns and names, every answer RE2 gives is what JavaScript gives with and without `u`", () => {
    const atom = fc.constantFrom(
      "a",
      "b",
      "-",
      "_",
      " ",
      ".",
      "\\d",
      "\\D",
      "\\w",
      "\\W",
      "\\s",
      "\\S",
      "\\.",
      "\\-",
      "\\/",
      "é",
      "[a-c]",
      "[^a]",
      "[\\d_]",
      "[^\\s]",
      "[a-]",
      "[-a]",
      "[\\]]",
      "[.]",
      "\\x61",
      "\\u00e9",
      "\\t",
      "\\n",
    );
    const quantifier = fc.constantFrom("", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "*?", "+?");
    const term = fc.oneof(
      { weight: 5, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
      { weight: 1, arbitrary: fc.constantFrom("^", "$", "\\b", "\\B") },
    );
    const sequence = fc.array(term, { maxLength: 4 }).map((ts) => ts.join(""));
    const pattern = fc.oneof(
      sequence,
      fc.tuple(sequence, sequence).map(([a, b]) => `${a}|${b}`),
      fc.tuple(sequence, sequence, quantifier).map(([a, b, q]) => `(${a})${q}${b}`),
      fc.tuple(sequence, sequence, quantifier).map(([a, b, q]) => `(?:${a}|b)${q}${b}`),
    );
    const name = fc
      .array(fc.constantFrom("a", "b", "c", "-", "_", " ", "1", "\t", "\n", "é", "\u00a0", "\u2028", ".", "/"), {
        maxLength: 6,
      })
      .map((cs) => cs.join(""));
    let answered = 0;
    fc.assert(
      fc.property(pattern, name, (p, n) => {
        const got = patternMatches(p, n);
        if (got === undefined) return;
        answered++;
        expect(got, `${p} on ${JSON.stringify(n)}`).toBe(new RegExp(p, "u").test(n));
        expect(got, `${p} on ${JSON.stringify(n)}`).toBe(new RegExp(p).test(n));
      }),
      { seed: 41, numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(2400);
  });
});
