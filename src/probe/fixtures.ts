/** The fixtures file (`{"version": 1, "probes": [...]}`): strict shape checks and `${...}` placeholder expansion. Pure. */

import { UsageError } from "../errors.js";
import { maxDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { isJsonObject, type JsonObject } from "../lock/snapshot.js";
import type { FixturesFile, ProbeFixture } from "./types.js";

/** The only fixtures format version. */
export const FIXTURES_VERSION = 1;
/** Most probes one file may list: a run calls each, so a runaway generator is refused rather than run. */
export const MAX_PROBES = 1000;
/** The placeholder for the fixtures file's folder. */
export const FIXTURES_DIR_NAME = "FIXTURES_DIR";

const FILE_KEYS = new Set(["version", "probes"]);
const PROBE_KEYS = new Set(["tool", "label", "args", "expect_error", "allow_destructive", "skip"]);
/** `${NAME}` with a shell-style variable name; anything else is left as written. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A fixtures file that cannot be used: what is wrong and where, as one line. */
export class FixturesError extends UsageError {
  override name = "FixturesError";
}

/** Check a parsed fixtures file; `source` names it in errors and `dir` is its folder (absolute). */
export function parseFixtures(value: unknown, source: string, dir: string): FixturesFile {
  const fail = (what: string) => new FixturesError(`fixtures file ${source}: ${what}`);
  if (!isJsonObject(value)) throw fail('expected an object {"version": 1, "probes": [...]}');
  // Arguments are walked recursively below; the same bound as a tool definition keeps that safe.
  if (maxDepth(value, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) throw fail(`nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
  for (const key of Object.keys(value)) {
    if (!FILE_KEYS.has(key)) throw fail(`unknown key ${JSON.stringify(key)} (allowed: version, probes)`);
  }
  if (value.version !== FIXTURES_VERSION) throw fail(`"version" must be ${FIXTURES_VERSION}`);
  const probes = value.probes;
  if (!Array.isArray(probes)) throw fail('"probes" must be an array');
  if (probes.length > MAX_PROBES) throw fail(`${probes.length} probes; at most ${MAX_PROBES} are allowed`);
  return { dir, probes: probes.map((entry: unknown, index) => parseProbe(entry, index, fail)) };
}

function parseProbe(entry: unknown, index: number, fail: (what: string) => Error): ProbeFixture {
  const where = `probes[${index}]`;
  if (!isJsonObject(entry)) throw fail(`${where} must be an object`);
  for (const key of Object.keys(entry)) {
    if (!PROBE_KEYS.has(key)) throw fail(`${where}: unknown key ${JSON.stringify(key)} (allowed: ${[...PROBE_KEYS].join(", ")})`);
  }
  const tool = entry.tool;
  if (typeof tool !== "string" || tool === "") throw fail(`${where}: "tool" must be a non-empty string`);
  const label = entry.label;
  if (label !== undefined && typeof label !== "string") throw fail(`${where}: "label" must be a string`);
  const args = entry.args ?? {};
  if (!isJsonObject(args)) throw fail(`${where}: "args" must be an object of argument names to values`);
  const flag = (key: string): boolean => {
    const flagValue = entry[key];
    if (flagValue === undefined) return false;
    if (typeof flagValue !== "boolean") throw fail(`${where}: "${key}" must be true or false`);
    return flagValue;
  };
  return {
    index,
    tool,
    label: label === undefined || label === "" ? null : label,
    args,
    expectError: flag("expect_error"),
    allowDestructive: flag("allow_destructive"),
    skip: flag("skip"),
  };
}

/** Every `${NAME}` the file's arguments use, besides FIXTURES_DIR (so their values can be redacted before anything runs). */
export function referencedVariables(file: FixturesFile): string[] {
  const names = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (typeof value === "string") {
      for (const match of value.matchAll(PLACEHOLDER)) if (match[1] !== FIXTURES_DIR_NAME) names.add(match[1] as string);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (isJsonObject(value)) {
      for (const key of Object.keys(value)) visit(value[key], depth + 1);
    }
  };
  for (const probe of file.probes) if (!probe.skip) visit(probe.args, 0);
  return [...names].sort();
}

/** The outcome of expanding one probe's arguments. */
export type Expanded = { ok: true; args: JsonObject; strings: string[] } | { ok: false; missing: string };

/**
 * Expand `${FIXTURES_DIR}` and `${NAME}` in every string value (keys stay as written). The first
 * variable that is not set stops the expansion: the probe is blocked rather than sent with a hole.
 */
export function expandArguments(args: JsonObject, dir: string, env: Readonly<Record<string, string | undefined>>): Expanded {
  let missing: string | null = null;
  const strings: string[] = [];
  const expandText = (text: string): string =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      if (name === FIXTURES_DIR_NAME) return dir;
      const value = env[name];
      if (value === undefined) {
        missing ??= name;
        return whole;
      }
      return value;
    });
  const visit = (value: unknown): unknown => {
    if (typeof value === "string") {
      const text = expandText(value);
      strings.push(text);
      return text;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (isJsonObject(value)) {
      const out: JsonObject = {};
      for (const key of Object.keys(value)) out[key] = visit(value[key]);
      return out;
    }
    return value;
  };
  const args2 = visit(args) as JsonObject;
  if (missing !== null) return { ok: false, missing };
  return { ok: true, args: args2, strings };
}
