// Issue 23: S8 on a corpus of poisoned and benign tool definitions (test/fixtures/lint/s8-corpus/).
// main.json is the corpus the rule was built against; holdout.json, holdout2.json and holdout3.json
// were written blind to the rule's wording and are held to looser bounds, so a change that only fits
// main's words shows here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintServer, message } from "../../../src/lint/index.js";
import type { LintFinding } from "../../../src/lint/types.js";

interface CorpusCase {
  id: string;
  style: string;
  parts: string[];
  expect: "error" | "warning" | "info" | "none";
  tool?: unknown;
  instructions?: string;
}

const RANK = { none: 0, info: 1, warning: 2, error: 3 } as const;
const root = join(import.meta.dirname, "../../fixtures/lint/s8-corpus");

function load(name: string): CorpusCase[] {
  return JSON.parse(readFileSync(join(root, name), "utf8")) as CorpusCase[];
}

function s8(item: CorpusCase): LintFinding[] {
  return lintServer({ tools: item.tool === undefined ? [] : [item.tool], instructions: item.instructions ?? null }).findings.filter(
    (finding) => finding.rule === "S8",
  );
}

function top(findings: readonly LintFinding[]): number {
  return findings.reduce((max, finding) => Math.max(max, RANK[finding.severity]), 0);
}

interface Figures {
  poisoned: number;
  flagged: number;
  errorsExpected: number;
  errors: number;
  benign: number;
  benignAboveInfo: number;
  misses: string[];
}

function figures(cases: readonly CorpusCase[]): Figures {
  const out: Figures = { poisoned: 0, flagged: 0, errorsExpected: 0, errors: 0, benign: 0, benignAboveInfo: 0, misses: [] };
  for (const item of cases) {
    const found = s8(item);
    const level = top(found);
    const shown = found.map((finding) => `${finding.severity} ${message(finding)}`).join(" | ") || "nothing";
    if (item.expect === "none" || item.expect === "info") {
      out.benign++;
      if (level > RANK.info) {
        out.benignAboveInfo++;
        out.misses.push(`benign ${item.id}: ${shown}`);
      }
      continue;
    }
    out.poisoned++;
    if (level >= RANK.warning) out.flagged++;
    if (item.expect === "error") {
      out.errorsExpected++;
      if (level === RANK.error) out.errors++;
    }
    if (level < RANK[item.expect]) out.misses.push(`poisoned ${item.id} (${item.expect}): ${shown}`);
  }
  return out;
}

describe("S8 on the poisoning corpus", () => {
  it("main.json: 40+ poisoned and 30+ benign cases, each well formed with a unique id", () => {
    const cases = [...load("main.json"), ...load("holdout.json"), ...load("holdout2.json"), ...load("holdout3.json")];
    expect(new Set(cases.map((item) => item.id)).size).toBe(cases.length);
    const main = load("main.json");
    expect(main.filter((item) => item.parts.length > 0 || item.expect === "warning" || item.expect === "error").length).toBeGreaterThanOrEqual(40);
    expect(main.filter((item) => item.expect === "none" || item.expect === "info").length).toBeGreaterThanOrEqual(30);
  });

  it("main.json: at least 38 of 40 poisoned flagged, 30 combined attacks as errors, at most 1 benign above info", () => {
    const found = figures(load("main.json"));
    // The misses print with what S8 said, so a regression names its case.
    const misses = found.misses.join("\n");
    expect(found.flagged / found.poisoned, misses).toBeGreaterThanOrEqual(38 / 40);
    expect(found.errors, misses).toBeGreaterThanOrEqual(30);
    expect(found.errors / found.errorsExpected, misses).toBeGreaterThanOrEqual(30 / 40);
    expect(found.benignAboveInfo, misses).toBeLessThanOrEqual(1);
  });

  it.each(["holdout.json", "holdout2.json"])("%s (written blind to the rule): most poisoned flagged, no benign above info", (file) => {
    const found = figures(load(file));
    expect(found.flagged / found.poisoned, found.misses.join("\n")).toBeGreaterThanOrEqual(0.8);
    expect(found.errors / found.errorsExpected, found.misses.join("\n")).toBeGreaterThanOrEqual(0.75);
    expect(found.benignAboveInfo, found.misses.join("\n")).toBe(0);
  });

  // Issue 36: 60 poisonings in the shapes of the public benchmarks (argument hijacking, prerequisites,
  // redirection, commands, files, seven languages, encodings) and 60 honest hard negatives, written
  // blind to the rule. First measured before any change for it: 22 flagged, 17 errors, 0 benign.
  it("holdout3.json (written blind to the rule): three in four poisoned flagged, seven in ten as errors, no benign above info", () => {
    const found = figures(load("holdout3.json"));
    expect(found.poisoned).toBe(60);
    expect(found.benign).toBe(60);
    expect(found.flagged / found.poisoned, found.misses.join("\n")).toBeGreaterThanOrEqual(0.75);
    expect(found.errors / found.errorsExpected, found.misses.join("\n")).toBeGreaterThanOrEqual(0.7);
    expect(found.benignAboveInfo, found.misses.join("\n")).toBe(0);
  });

  it("a poisoning error lists its parts and says each safely", () => {
    const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;
    let errors = 0;
    for (const item of [...load("main.json"), ...load("holdout.json"), ...load("holdout2.json")]) {
      for (const finding of s8(item)) {
        expect(message(finding)).not.toMatch(UNSAFE);
        if (finding.args.kind !== "poisoning") continue;
        errors++;
        // A part hidden in a comment, a blob or look-alike letters is secrecy as well.
        const parts = new Set(finding.args.parts?.flatMap((part) => (part.carrier === undefined ? [part.part] : [part.part, "secrecy"])));
        // A source with another part, or a sink with secrecy or precedence: never one part alone.
        expect(parts.size, item.id).toBeGreaterThanOrEqual(parts.has("source") ? 1 : 2);
        expect(message(finding)).toMatch(/^(?:Contains|A key name contains|The server instructions contain) tool poisoning: /);
      }
    }
    expect(errors).toBeGreaterThan(40);
  });
});
