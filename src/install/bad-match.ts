/** Known-bad matching: an exact version, a range or tag that would resolve to a bad release, and bad releases named anywhere in text. */

import type { KnownBadEntry, KnownBadList } from "./bad-list.js";
import type { AdvisoryFacts } from "./kinds.js";
import type { Resolution } from "./types.js";
import { type BadEcosystem, comparable, nextReleases, normalizeName, rangeAdmits, rangeMeets, versionGte, versionKey } from "./versions.js";

/** A match: the advisory and the bad version the launch gets. */
export interface BadHit {
  entry: KnownBadEntry;
  /** The bad version (comparable form); for an open-ended advisory matched by a range, its first bad version. */
  version: string;
  openEnded: boolean;
  how: "exact" | "range" | "any";
}

/** The facts a finding cites. */
export function advisoryFacts(hit: BadHit): AdvisoryFacts {
  const { entry } = hit;
  return {
    ecosystem: entry.ecosystem,
    name: entry.name,
    versions: [...entry.versions],
    ranges: entry.ranges.map((range) => ({ ...range })),
    id: entry.id,
    date: entry.date,
    source: entry.source,
    summary: entry.summary,
  };
}

function entriesFor(list: KnownBadList, ecosystem: BadEcosystem, name: string): KnownBadEntry[] {
  const key = normalizeName(name);
  return list.entries.filter((entry) => entry.ecosystem === ecosystem && entry.key === key);
}

/** The advisory a single version falls under, or null. */
export function matchVersion(list: KnownBadList, ecosystem: BadEcosystem, name: string, version: string): BadHit | null {
  const usable = comparable(ecosystem, version);
  if (usable === null) return null;
  const key = versionKey(ecosystem, usable);
  for (const entry of entriesFor(list, ecosystem, name)) {
    if (entry.versions.some((bad) => versionKey(ecosystem, bad) === key)) {
      return { entry, version: usable, openEnded: false, how: "exact" };
    }
    for (const written of entry.ranges) {
      const range = comparableRange(ecosystem, written);
      if (range === null) continue;
      if (versionGte(ecosystem, usable, range.introduced) && (range.fixed === null || !versionGte(ecosystem, usable, range.fixed))) {
        return { entry, version: usable, openEnded: range.fixed === null, how: "exact" };
      }
    }
  }
  return null;
}

/**
 * The advisory a spec would resolve into, or null. A range is bad when it admits a bad version and
 * none of the next patch, minor or major release (a resolver takes the newest match). An advisory
 * with no fixed version makes any range or tag that admits one of its releases bad, since every
 * newer release is bad too.
 */
export function matchResolution(list: KnownBadList, ecosystem: BadEcosystem, name: string, resolution: Resolution): BadHit | null {
  if (resolution.type === "none") return null;
  if (resolution.type === "exact") return matchVersion(list, ecosystem, name, resolution.version);
  const spec = resolutionRange(resolution);
  const how = resolution.type === "range" ? "range" : "any";
  for (const entry of entriesFor(list, ecosystem, name)) {
    const admits = (version: string): boolean => {
      try {
        return rangeAdmits(ecosystem, spec, version);
      } catch {
        return false;
      }
    };
    for (const written of entry.ranges) {
      const range = comparableRange(ecosystem, written);
      if (range === null) continue;
      if (range.fixed === null) {
        if (rangeMeets(ecosystem, spec, range.introduced, null)) {
          return { entry, version: range.introduced, openEnded: true, how };
        }
      } else if (
        rangeMeets(ecosystem, spec, range.introduced, range.fixed) &&
        ![range.fixed, ...nextReleases(ecosystem, range.fixed).slice(1)].some(admits)
      ) {
        return { entry, version: range.introduced, openEnded: false, how };
      }
    }
    for (const written of entry.versions) {
      const bad = comparable(ecosystem, written);
      if (bad !== null && admits(bad) && !nextReleases(ecosystem, bad).some(admits)) {
        return { entry, version: bad, openEnded: false, how };
      }
    }
  }
  return null;
}

function comparableRange(
  ecosystem: BadEcosystem,
  range: { introduced: string; fixed: string | null },
): { introduced: string; fixed: string | null } | null {
  const introduced = comparable(ecosystem, range.introduced);
  const fixed = range.fixed === null ? null : comparable(ecosystem, range.fixed);
  if (introduced === null || (range.fixed !== null && fixed === null)) return null;
  return { introduced, fixed };
}

function resolutionRange(resolution: Resolution): string | null {
  return resolution.type === "range" ? resolution.range : null;
}

/** A bad release named inside some text (`litellm-1.82.8-py3-none-any.whl`, `postmark-mcp@1.0.16`). */
export interface TextHit {
  hit: BadHit;
  /** The matched text, as written. */
  text: string;
}

const patternCache = new WeakMap<KnownBadEntry, RegExp>();

/** `name`, allowing any of `-`, `_`, `.` between its letters, then an optional [extra], a separator and a version. */
function entryPattern(entry: KnownBadEntry): RegExp {
  const cached = patternCache.get(entry);
  if (cached !== undefined) return cached;
  const letters = [...entry.key].map((char) => char.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  const name = letters.join("[-_.]*");
  const version = String.raw`(?:\d+!)?[vV]?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post)[-_.]?\d+)?`;
  const pattern = new RegExp(String.raw`(?<![A-Za-z0-9._-])(${name})(?:\[[^\]]*\])?(?:\s*={2,3}\s*|@|-|_)(${version})`, "gi");
  patternCache.set(entry, pattern);
  return pattern;
}

/** Every known-bad release named anywhere in `text`. */
export function scanText(list: KnownBadList, text: string): TextHit[] {
  const hits: TextHit[] = [];
  for (const entry of list.entries) {
    const pattern = entryPattern(entry);
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const hit = matchVersion({ entries: [entry] }, entry.ecosystem, entry.name, match[2] as string);
      if (hit !== null) hits.push({ hit, text: match[0] });
    }
  }
  return hits;
}
