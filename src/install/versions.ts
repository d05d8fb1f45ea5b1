/** Version and name normalisation for known-bad matching, and comparisons in each registry's own rules. */

import * as pep440 from "@renovatebot/pep440";
import semver from "semver";

/** Registries the known-bad list covers. */
export type BadEcosystem = "npm" | "PyPI";

/** Compare key for a package name: `-`, `_` and `.` removed, case ignored (so `Lite.LLM` is `litellm`). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, "");
}

/**
 * Compare key for a version: a leading `v` or `=`, zero padding, trailing `.0` parts, a `+local` or
 * `+build` suffix and a `0!` epoch do not count. Null when the text is not a version of that registry.
 */
export function versionKey(ecosystem: BadEcosystem, text: string): string | null {
  return ecosystem === "PyPI" ? pypiKey(text) : npmKey(text);
}

function trimRelease(release: readonly number[]): number[] {
  const parts = [...release];
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts;
}

function npmKey(text: string): string | null {
  const match = /^\s*=?\s*[vV]?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?\s*$/.exec(text);
  if (match === null) return null;
  const release = trimRelease((match[1] as string).split(".").map((part) => Number.parseInt(part, 10)));
  if (release.some((part) => !Number.isSafeInteger(part))) return null;
  const pre = match[2] === undefined ? "" : `-${match[2].toLowerCase()}`;
  return `${release.join(".")}${pre}`;
}

function numberPart(value: unknown): number | null {
  if (typeof value === "number") return value;
  if (Array.isArray(value)) {
    const last: unknown = value[value.length - 1];
    return typeof last === "number" ? last : null;
  }
  return null;
}

function pypiKey(text: string): string | null {
  const info = pep440.explain(text.trim());
  if (info === null) return null;
  let key = trimRelease(info.release).join(".");
  if (info.epoch !== 0) key = `${info.epoch}!${key}`;
  const pre = info.pre as unknown;
  if (Array.isArray(pre) && pre.length === 2) key += `${String(pre[0])}${String(pre[1])}`;
  const post = numberPart(info.post);
  if (post !== null) key += `.post${post}`;
  const dev = numberPart(info.dev);
  if (dev !== null) key += `.dev${dev}`;
  return key;
}

/** An npm version key as a full semver string (`1` -> `1.0.0`), or null when it has more than three parts. */
function npmSemver(key: string): string | null {
  const [release = "", ...pre] = key.split("-");
  const parts = release.split(".");
  if (parts.length > 3) return null;
  while (parts.length < 3) parts.push("0");
  const text = `${parts.join(".")}${pre.length > 0 ? `-${pre.join("-")}` : ""}`;
  return semver.valid(text);
}

/** A version in the form the registry's comparison functions take, or null. */
export function comparable(ecosystem: BadEcosystem, text: string): string | null {
  const key = versionKey(ecosystem, text);
  if (key === null) return null;
  return ecosystem === "PyPI" ? key : npmSemver(key);
}

/** a >= b in the registry's order (both already `comparable`). */
export function versionGte(ecosystem: BadEcosystem, a: string, b: string): boolean {
  return ecosystem === "PyPI" ? pep440.gte(a, b) : semver.gte(a, b);
}

/** True when `version` (comparable) is in the range; `null` range means any version (no spec, a tag). */
export function rangeAdmits(ecosystem: BadEcosystem, range: string | null, version: string): boolean {
  if (range === null) return true;
  if (ecosystem === "PyPI") return pep440.satisfies(version, range);
  return semver.satisfies(version, range, { loose: true });
}

/** The next patch, minor and major releases after `version` (comparable). */
export function nextReleases(ecosystem: BadEcosystem, version: string): string[] {
  if (ecosystem === "npm") {
    const base = semver.parse(version);
    if (base === null) return [];
    // For a prerelease, the next "patch" is its own release (1.0.16-beta -> 1.0.16).
    return (["patch", "minor", "major"] as const).map((step) => semver.inc(version, step)).filter((next): next is string => next !== null);
  }
  const info = pep440.explain(version);
  if (info === null) return [];
  const [major = 0, minor = 0, patch = 0] = info.release;
  const epoch = info.epoch === 0 ? "" : `${info.epoch}!`;
  return [`${epoch}${major}.${minor}.${patch + 1}`, `${epoch}${major}.${minor + 1}.0`, `${epoch}${major + 1}.0.0`];
}

/**
 * True when the range admits some version in [from, until) (until null = no upper end). npm asks
 * semver; PEP 440 has no intersection test, so probe the bounds, the range's own versions and
 * their next releases, and a far-future version.
 */
export function rangeMeets(ecosystem: BadEcosystem, range: string | null, from: string, until: string | null): boolean {
  if (range === null) return true;
  if (ecosystem === "npm") {
    const window = until === null ? `>=${from}` : `>=${from} <${until}`;
    try {
      return semver.intersects(range, window, { loose: true });
    } catch {
      return false;
    }
  }
  const probes = new Set<string>([from, ...nextReleases(ecosystem, from), "999999"]);
  for (const clause of range.split(",")) {
    const version = /[\d][^,;\s]*/.exec(clause)?.[0]?.replace(/\.\*$/, "");
    const usable = version === undefined ? null : comparable("PyPI", version);
    if (usable === null) continue;
    probes.add(usable);
    for (const next of nextReleases(ecosystem, usable)) probes.add(next);
  }
  for (const probe of probes) {
    if (!versionGte(ecosystem, probe, from)) continue;
    if (until !== null && versionGte(ecosystem, probe, until)) continue;
    if (rangeAdmits(ecosystem, range, probe)) return true;
  }
  return false;
}
