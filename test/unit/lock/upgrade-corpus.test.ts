// Keeps every hand-reviewed verdict of the real-upgrade corpus (test/fixtures/upgrades: 53 consecutive
// release pairs of 13 npm servers captured over stdio): each change the engine reports on a pair must
// have a verdict, none may be noise, and every tool a reviewer found really changed must still be
// reported. A new report needs a new hand verdict (see test/fixtures/upgrades/review.mjs).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareSnapshot } from "../../../src/lock/engine.js";
import { buildLockfile } from "../../../src/lock/format.js";
import { snapshotFromFile } from "../../../src/lock/snapshot.js";
// @ts-expect-error: a plain ESM script next to the fixtures, without type declarations.
import { corpusPairs, score } from "../../fixtures/upgrades/review.mjs";

interface Pair {
  key: string;
  slug: string;
  from: string;
  to: string;
}
interface Verdict {
  tool: string | null;
  verdict: "real" | "noise";
}

const dir = join(import.meta.dirname, "../../fixtures/upgrades");
const read = (slug: string, version: string) => snapshotFromFile(JSON.parse(readFileSync(join(dir, slug, `${version}.json`), "utf8")), `${slug}/${version}`);

describe("real-upgrade corpus", () => {
  const pairs = corpusPairs() as Pair[];
  const results = pairs.map((pair) => {
    const changes = compareSnapshot(read(pair.slug, pair.to), buildLockfile(read(pair.slug, pair.from), null));
    return {
      pair: pair.key,
      changes: changes.map((change) => ({
        kind: change.kind,
        severity: change.severity,
        tool: change.tool,
        path: change.path ?? null,
        reason: change.args.reason ?? null,
      })),
    };
  });
  const verdicts = JSON.parse(readFileSync(join(dir, "verdicts.json"), "utf8")) as Record<string, Verdict[]>;

  it("holds at least 30 pairs of at least 8 servers", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(30);
    expect(new Set(pairs.map((pair) => pair.slug)).size).toBeGreaterThanOrEqual(8);
  });

  it("every reported change has a hand verdict, and none is noise", () => {
    const result = score(results, verdicts) as { reported: number; noise: number; unreviewed: unknown[] };
    expect(result.unreviewed).toEqual([]);
    expect(result.noise).toBe(0);
    expect(result.reported).toBeGreaterThan(500);
  });

  it("every tool a reviewer found really changed is still reported", () => {
    const silent: string[] = [];
    for (const { pair, changes } of results) {
      const reported = new Set(changes.map((change) => change.tool));
      for (const verdict of verdicts[pair] ?? []) {
        if (verdict.verdict === "real" && !reported.has(verdict.tool)) silent.push(`${pair} ${verdict.tool ?? "(server)"}`);
      }
    }
    expect([...new Set(silent)]).toEqual([]);
  });
});
