/** Checking an instance against a server's JSON Schema with ajv, patterns on a linear-time engine. Pure. */

import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isJsonObject, type JsonObject } from "../json/value.js";
import { patternMatches } from "./regex.js";

/** What a check concluded: valid, invalid (ajv's errors, and a pattern RE2 could not run), or no answer. */
export type InstanceCheck = { ok: true } | { ok: false; errors: ErrorObject[]; unchecked: string | null } | { ok: "unusable"; detail: string };

// Patterns in a schema come from the server under test, and a crafted one can make a backtracking
// engine run for minutes. ajv takes a RegExp engine as an option: this one runs every pattern on
// RE2 (linear time) through the same translation the schema analyzer uses. A pattern RE2 cannot
// express, or a value too long for it, counts as not matching, so the instance is held back rather
// than passed unchecked; `unchecked` lets the caller say so.
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
  // what a "uri" is; a format never blocks an instance.
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

/** Check an instance against a schema; a missing or non-object schema cannot vouch for anything (`what` names it in the detail). */
export function checkInstance(schema: unknown, instance: unknown, what: string): InstanceCheck {
  if (!isJsonObject(schema)) return { ok: "unusable", detail: `the tool has no ${what} object` };
  const validate = compile(schema);
  if (typeof validate === "string") return { ok: "unusable", detail: `its ${what} could not be compiled (${validate})` };
  unchecked = null;
  let valid: boolean;
  try {
    valid = validate(instance) === true;
  } catch (error) {
    return { ok: "unusable", detail: `checking failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  if (valid) return { ok: true };
  return { ok: false, errors: validate.errors ?? [], unchecked };
}
