/** The argument check of the safety gate: a probe's arguments against the tool's own input schema, with ajv. */

import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isJsonObject, type JsonObject } from "../lock/snapshot.js";
import { patternMatches } from "../schema/regex.js";
import type { ArgumentProblem } from "./types.js";

/** What the check concluded. */
export type ArgumentCheck = { ok: true } | { ok: false; problems: ArgumentProblem[] } | { ok: "unusable"; detail: string };

/** Most problems kept per probe: enough to fix the file, never a flood. */
const MAX_PROBLEMS = 5;

// Patterns in a schema come from the server under test, and a crafted one can make a backtracking
// engine run for minutes. ajv takes a RegExp engine as an option: this one runs every pattern on
// RE2 (linear time) through the same translation the schema analyzer uses. A pattern RE2 cannot
// express, or a value too long for it, counts as not matching, so the probe is held back rather
// than sent unchecked; `unchecked` lets the message say so.
let unchecked: string | null = null;
const linearRegExp = Object.assign(
  (pattern: string, flags: string) => ({
    test(text: string): boolean {
      const matched = patternMatches(pattern, text);
      if (matched === undefined) unchecked ??= pattern;
      return matched === true;
    },
    // ajv keys its per-instance cache of compiled patterns by this string: without it every
    // pattern would share the first one's tester.
    toString: () => `/${pattern}/${flags}`,
  }),
  { code: "mcp-lint re2" },
);

const OPTIONS: Options = {
  // Tool schemas carry vendor keywords and draft mixes; unknown keywords are annotations.
  strict: false,
  // 2020-12 makes `format` an annotation unless a vocabulary asserts it, and servers disagree on
  // what a "uri" is; a format never blocks a probe.
  validateFormats: false,
  // Only the instance is checked; a schema that is itself odd is compiled as far as ajv can.
  validateSchema: false,
  allErrors: true,
  // A schema's $id must not be remembered across tools (two servers, one $id).
  addUsedSchema: false,
  // ajv would print warnings about server-written schemas to the console, unneutralized.
  logger: false,
  code: { regExp: linearRegExp },
};

let draft2020: Ajv2020 | null = null;
let draft07: Ajv | null = null;
const compiled = new WeakMap<object, ValidateFunction | string>();

/** Draft-04 to draft-07 schemas compile with ajv's draft-07 class; everything else (2020-12 is MCP's default) with 2020-12. */
function validatorFor(schema: JsonObject): Ajv {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  if (/json-schema\.org\/draft-0[4-7]\/schema/.test(dialect)) {
    draft07 ??= new Ajv(OPTIONS);
    return draft07;
  }
  draft2020 ??= new Ajv2020(OPTIONS);
  return draft2020;
}

function compile(schema: JsonObject): ValidateFunction | string {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  let result: ValidateFunction | string;
  try {
    result = validatorFor(schema).compile(schema);
  } catch (error) {
    // A reference to another document, a malformed keyword: the schema cannot check anything.
    result = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "compile error";
  }
  compiled.set(schema, result);
  return result;
}

/** Check arguments against an input schema; a missing or non-object schema cannot vouch for any argument. */
export function checkArguments(inputSchema: unknown, args: JsonObject): ArgumentCheck {
  if (!isJsonObject(inputSchema)) return { ok: "unusable", detail: "the tool has no input schema object" };
  const validate = compile(inputSchema);
  if (typeof validate === "string") return { ok: "unusable", detail: `its input schema could not be compiled (${validate})` };
  unchecked = null;
  let valid: boolean;
  try {
    valid = validate(args) === true;
  } catch (error) {
    return { ok: "unusable", detail: `checking failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  if (valid) return { ok: true };
  const problems = (validate.errors ?? []).filter(reportable).slice(0, MAX_PROBLEMS).map(problemOf);
  if (unchecked !== null) {
    problems.push({ keyword: "pattern", at: "", property: null, text: "a pattern could not be checked on a linear-time engine", expected: unchecked });
  }
  return { ok: false, problems };
}

/** ajv reports a failed `anyOf`/`if` next to the branch errors that explain it; the branch errors say more. */
function reportable(error: ErrorObject): boolean {
  return !["anyOf", "oneOf", "if", "allOf"].includes(error.keyword);
}

function problemOf(error: ErrorObject): ArgumentProblem {
  const params = error.params as Record<string, unknown>;
  let property: string | null = null;
  if (typeof params.missingProperty === "string") property = params.missingProperty;
  if (typeof params.additionalProperty === "string") property = params.additionalProperty;
  let expected: string | null = null;
  if (error.keyword === "type") expected = Array.isArray(params.type) ? params.type.join(" or ") : String(params.type);
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) expected = JSON.stringify(params.allowedValues).slice(0, 200);
  if (error.keyword === "const") expected = JSON.stringify(params.allowedValue ?? null).slice(0, 200);
  return { keyword: error.keyword, at: error.instancePath, property, text: error.message ?? error.keyword, expected };
}
