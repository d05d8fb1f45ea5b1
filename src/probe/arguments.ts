/** The argument check of the safety gate: a probe's arguments against the tool's own input schema, with ajv. */

import type { ErrorObject } from "ajv";
import type { JsonObject } from "../lock/snapshot.js";
import { checkInstance } from "../schema/validate.js";
import type { ArgumentProblem } from "./types.js";

/** What the check concluded. */
export type ArgumentCheck = { ok: true } | { ok: false; problems: ArgumentProblem[] } | { ok: "unusable"; detail: string };

/** Most problems kept per probe: enough to fix the file, never a flood. */
const MAX_PROBLEMS = 5;

/** Check arguments against an input schema; a missing or non-object schema cannot vouch for any argument. */
export function checkArguments(inputSchema: unknown, args: JsonObject): ArgumentCheck {
  const check = checkInstance(inputSchema, args, "input schema");
  if (check.ok !== false) return check;
  const problems = check.errors.filter(reportable).slice(0, MAX_PROBLEMS).map(problemOf);
  // A pattern RE2 could not run counted as not matching: the probe is held back rather than sent unchecked.
  if (check.unchecked !== null) {
    problems.push({ keyword: "pattern", at: "", property: null, text: "a pattern could not be checked on a linear-time engine", expected: check.unchecked });
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
