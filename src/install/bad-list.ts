/** The known-bad list: its file shape, strict validation, and merging a `--known-bad FILE` into the built-in data. */

import { UsageError } from "../errors.js";
import { parseJsonStrict } from "../json/parse.js";
import { BUILTIN_KNOWN_BAD } from "./known-bad.js";
import { type BadEcosystem, comparable, normalizeName } from "./versions.js";
import { pushAll } from "../arrays.js";

/** A bad interval of releases, as OSV writes it: from `introduced` up to (not including) `fixed`. */
export interface KnownBadRange {
  introduced: string;
  fixed?: string;
}

/** One advisory as written in the data file. */
export interface KnownBadFileEntry {
  ecosystem: BadEcosystem;
  name: string;
  versions?: string[];
  ranges?: KnownBadRange[];
  id?: string;
  date: string;
  source: string;
  summary?: string;
}

/** The data file: the built-in list and `--known-bad FILE` share it. */
export interface KnownBadFile {
  version: 1;
  entries: KnownBadFileEntry[];
}

/** One advisory, validated, with its names and versions normalised for matching. */
export interface KnownBadEntry {
  ecosystem: BadEcosystem;
  name: string;
  /** `normalizeName(name)`. */
  key: string;
  /** Bad versions, as written (each a valid version of the registry). */
  versions: readonly string[];
  /** Bad intervals, bounds as written. */
  ranges: readonly { introduced: string; fixed: string | null }[];
  id: string | null;
  date: string;
  source: string;
  summary: string | null;
}

/** The list the matcher uses. */
export interface KnownBadList {
  readonly entries: readonly KnownBadEntry[];
}

const FILE_KEYS = new Set(["version", "entries"]);
const ENTRY_KEYS = new Set(["ecosystem", "name", "versions", "ranges", "id", "date", "source", "summary"]);
const RANGE_KEYS = new Set(["introduced", "fixed"]);

/** The built-in list, optionally merged with the text of a `--known-bad FILE` (validated strictly). */
export function loadKnownBad(extraJsonText?: string, source = "--known-bad file"): KnownBadList {
  const entries = validateKnownBad(BUILTIN_KNOWN_BAD, "built-in known-bad list");
  if (extraJsonText !== undefined) {
    pushAll(entries, validateKnownBad(parseJsonStrict(extraJsonText, source), source));
  }
  return { entries };
}

/** Check a parsed known-bad file: exact keys, known ecosystems, real versions and dates. Throws UsageError. */
export function validateKnownBad(value: unknown, source: string): KnownBadEntry[] {
  const fail = (where: string, problem: string): never => {
    throw new UsageError(`${source}: ${where}${where === "" ? "" : ": "}${problem}`);
  };
  const file = objectOf(value, () => fail("", 'expected an object like {"version": 1, "entries": [...]}'));
  checkKeys(file, FILE_KEYS, "", fail);
  if (file.version !== 1) fail("version", "must be 1");
  if (!Array.isArray(file.entries)) fail("entries", "must be an array");
  return (file.entries as unknown[]).map((raw, index) => {
    const at = `entries[${index}]`;
    const entry = objectOf(raw, () => fail(at, "must be an object"));
    checkKeys(entry, ENTRY_KEYS, at, fail);
    const ecosystem = entry.ecosystem;
    if (ecosystem !== "npm" && ecosystem !== "PyPI") fail(`${at}.ecosystem`, 'must be "npm" or "PyPI"');
    const eco = ecosystem as BadEcosystem;
    const name = text(entry.name, `${at}.name`, fail);
    if (normalizeName(name) === "" || /\s/.test(name)) fail(`${at}.name`, "is not a package name");
    const version = (raw: unknown, where: string): string => {
      const written = text(raw, where, fail);
      if (comparable(eco, written) === null) return fail(where, `${JSON.stringify(written)} is not ${eco === "npm" ? "an npm" : "a PyPI"} version`);
      return written;
    };
    const versions = optionalArray(entry.versions, `${at}.versions`, fail).map((item, i) => version(item, `${at}.versions[${i}]`));
    const ranges = optionalArray(entry.ranges, `${at}.ranges`, fail).map((item, i) => {
      const where = `${at}.ranges[${i}]`;
      const range = objectOf(item, () => fail(where, 'must be an object like {"introduced": "1.0.0"}'));
      checkKeys(range, RANGE_KEYS, where, fail);
      const introduced = version(range.introduced, `${where}.introduced`);
      const fixed = range.fixed === undefined ? null : version(range.fixed, `${where}.fixed`);
      return { introduced, fixed };
    });
    if (versions.length === 0 && ranges.length === 0) fail(at, "needs at least one of versions or ranges");
    const date = text(entry.date, `${at}.date`, fail);
    if (!validDate(date)) fail(`${at}.date`, "must be a date like 2025-09-17 (or 2026-10)");
    return {
      ecosystem: eco,
      name,
      key: normalizeName(name),
      versions,
      ranges,
      id: entry.id === undefined ? null : text(entry.id, `${at}.id`, fail),
      date,
      source: text(entry.source, `${at}.source`, fail),
      summary: entry.summary === undefined ? null : text(entry.summary, `${at}.summary`, fail),
    };
  });
}

function objectOf(value: unknown, onError: () => never): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return onError();
  return value as Record<string, unknown>;
}

function checkKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>, where: string, fail: (where: string, problem: string) => never): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) fail(where, `unknown key ${JSON.stringify(key)} (allowed: ${[...allowed].join(", ")})`);
  }
}

function text(value: unknown, where: string, fail: (where: string, problem: string) => never): string {
  if (typeof value !== "string" || value.trim() === "") return fail(where, "must be a non-empty string");
  return value;
}

function optionalArray(value: unknown, where: string, fail: (where: string, problem: string) => never): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(where, "must be an array");
  return value as unknown[];
}

function validDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(value);
  if (match === null) return false;
  const month = Number(match[2]);
  if (month < 1 || month > 12) return false;
  if (match[3] === undefined) return true;
  const day = Number(match[3]);
  const date = new Date(Date.UTC(Number(match[1]), month - 1, day));
  return date.getUTCDate() === day;
}
