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
      } else if (rangeMeets(ecosystem, spec, range.introduced, range.fixed) && ![range.fixed, ...nextReleases(ecosystem, range.fixed).slice(1)].some(admits)) {
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

function comparableRange(ecosystem: BadEcosystem, range: { introduced: string; fixed: string | null }): { introduced: string; fixed: string | null } | null {
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

const patternCache = new WeakMap<KnownBadEntry, { release: RegExp; name: RegExp }>();

// Before a name: not inside a longer word, except right after a short-option cluster
// (`-ppostmark-mcp` is `-p postmark-mcp` to npx). Bounded, so each check is constant time.
const NAME_START = String.raw`(?:(?<![\p{L}\p{N}._-])|(?<=(?:^|\s)-[A-Za-z]{1,8}))`;
// After a name: no letter or digit, and no separator then a letter (`postmark-mcp-server` is another package).
const NAME_END = String.raw`(?![\p{L}\p{N}])(?![-_.]\p{L})`;
const VERSION = String.raw`(?:\d+!)?[vV]?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post)[-_.]?\d+)?`;

/** The entry's name, allowing any of `-`, `_`, `.` between its letters, as a release (name and version) and alone. */
function entryPatterns(entry: KnownBadEntry): { release: RegExp; name: RegExp } {
  const cached = patternCache.get(entry);
  if (cached !== undefined) return cached;
  // Keys hold no `-`, `_` or `.` (normalizeName drops them); `\-` would not even compile with the u flag.
  const letters = [...entry.key].map((char) => char.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  const name = letters.join("[-_.]*");
  // `[^\][]*` rather than `[^\]]*`: an extras group stops at the next bracket, so a text of many
  // `litellm[` is scanned once, not once per occurrence.
  const patterns = {
    release: new RegExp(String.raw`${NAME_START}(${name})(?:\[[^\][]*\])?(?:\s*={2,3}\s*|@|-|_)(${VERSION})`, "giu"),
    name: new RegExp(`${NAME_START}(${name})${NAME_END}`, "giu"),
  };
  patternCache.set(entry, patterns);
  return patterns;
}

/** Every known-bad release named anywhere in `text`. */
export function scanText(list: KnownBadList, text: string): TextHit[] {
  const hits: TextHit[] = [];
  for (const entry of list.entries) {
    // A text may name the same version many times; judge each version once.
    const judged = new Map<string, BadHit | null>();
    for (const match of text.matchAll(entryPatterns(entry).release)) {
      const version = match[2] as string;
      let hit = judged.get(version);
      if (hit === undefined) {
        hit = matchVersion({ entries: [entry] }, entry.ecosystem, entry.name, version);
        judged.set(version, hit);
      }
      if (hit !== null) hits.push({ hit, text: match[0] });
    }
  }
  return hits;
}

/** A known-bad package named in some text, with what follows the name read as a spec. */
export interface NameHit {
  entry: KnownBadEntry;
  /** The name and the spec after it, as written. */
  text: string;
  resolves: Resolution;
}

/** Longest spec read after a name. */
const MAX_TAIL = 256;

/**
 * Every occurrence of a known-bad package's name in `text`, in any case and with any separators,
 * with the version, range or tag written right after it (`@1.0.16`, `==1.82.8`, `>=1.82,<1.83`,
 * `-1.0.16.tgz`), or none. Used when the parser could not follow a launch.
 */
export function* scanNames(list: KnownBadList, text: string): Generator<NameHit> {
  for (const entry of list.entries) {
    // matchAll works on a copy of the regex, so a caller that stops early leaves no lastIndex behind.
    for (const match of text.matchAll(entryPatterns(entry).name)) {
      const end = match.index + match[0].length;
      const { spec, resolves } = readTail(entry.ecosystem, text.slice(end, end + MAX_TAIL));
      yield { entry, text: match[0] + spec, resolves };
    }
  }
}

const STOP = /[\s'";|&()<>`]/;
const FILE_VERSION = new RegExp(`^[-_](${VERSION})`);

/** The spec after a name: `[extras]`, then `@version`, a PEP 440 specifier, or `-version` of a file name. */
function readTail(ecosystem: KnownBadEntry["ecosystem"], after: string): { spec: string; resolves: Resolution } {
  let rest = after;
  let spec = "";
  const extras = /^\[[^\][]*\]/.exec(rest);
  if (extras !== null) {
    spec = extras[0];
    rest = rest.slice(spec.length);
  }
  const specifier = /^\s*(?:===?|~=|!=|<=?|>=?)[^'";|&()<>`]*/.exec(rest);
  if (specifier !== null) {
    // A PEP 440 specifier may hold spaces and commas (`>= 1.82, < 1.83`); it ends at the next word.
    const text = (/^\s*(?:(?:===?|~=|!=|<=?|>=?)\s*[^\s,'";|&()<>`]*\s*,?\s*)+/.exec(rest)?.[0] ?? "").trim().replace(/,$/, "");
    const exact = /^===?\s*([^\s,*]+)$/.exec(text);
    return { spec: spec + text, resolves: exact !== null ? { type: "exact", version: exact[1] as string } : { type: "range", range: text } };
  }
  if (rest.startsWith("@")) {
    let written = "";
    for (const char of rest.slice(1)) {
      if (STOP.test(char)) break;
      written += char;
    }
    return { spec: `${spec}@${written}`, resolves: atSpec(ecosystem, written) };
  }
  const fileVersion = FILE_VERSION.exec(rest);
  if (fileVersion !== null) return { spec: spec + fileVersion[0], resolves: { type: "exact", version: fileVersion[1] as string } };
  return { spec, resolves: { type: "any" } };
}

/** What `name@written` resolves to: an exact version, an npm range, or anything (a tag, nothing). */
function atSpec(ecosystem: KnownBadEntry["ecosystem"], written: string): Resolution {
  const bare = written.trim();
  if (bare === "") return { type: "any" };
  if (comparable(ecosystem, bare) !== null) return { type: "exact", version: bare };
  if (ecosystem === "npm" && /^[\d<>=~^*xX| .-]/.test(bare)) return { type: "range", range: bare };
  return { type: "any" };
}
