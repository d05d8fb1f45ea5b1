/** The JSON Schema change analyzer: compares two tool schemas, sorting each change into widened, text or structural. */

import { finding, type SchemaFinding, sameValidation } from "./finding.js";
import { deepEqual, escapePointer, mentionsAny } from "./json.js";
import { keywordsWithRole } from "./keywords.js";
import { indexDocument } from "./resolve.js";
import { createEngine } from "./walk.js";

export type { FindingArgs, SchemaFinding } from "./finding.js";
export { SCHEMA_REASONS, type SchemaFindingKind, type SchemaReason } from "./reasons.js";

const UNEVALUATED: ReadonlySet<string> = new Set(keywordsWithRole("unevaluated"));

/** Compare two JSON Schemas (input or output schema of an MCP tool). Pure; never throws on any JSON input. */
export function compareSchemas(before: unknown, after: unknown): SchemaFinding[] {
  try {
    // A missing schema (an optional outputSchema) accepts anything.
    const was = before === undefined ? true : before;
    const now = after === undefined ? true : after;
    const annotationsMatter = mentionsAny(was, UNEVALUATED) || mentionsAny(now, UNEVALUATED);
    const docs = { before: indexDocument(was), after: indexDocument(now), annotationsMatter };
    const engine = createEngine(docs);
    const findings = withoutFollowedDefinitions(engine.diff(was, now, "", 0), engine.followed());
    // $dynamicRef/$recursiveRef are resolved statically, which is exact only within a single resource.
    const dynamicScopes = (docs.before.dynamic || docs.after.dynamic) && (docs.before.embedded || docs.after.embedded);
    if (dynamicScopes && !sameValidation(findings)) findings.push(finding("reference_not_followed", ""));
    return foldParameterRequired(reportRemovedParameters(findings));
  } catch {
    // Nothing here should throw; if something does, the safe answer is "maybe wider, look at it".
    try {
      return deepEqual(before, after) ? [] : [finding("analysis_failed", "")];
    } catch {
      return [finding("analysis_failed", "")];
    }
  }
}

const REMOVED: ReadonlySet<string> = new Set(["property_removed", "parameter_removed"]);

/**
 * True for a pointer that names a parameter the way a model reads a tool's input: `properties/<name>` steps,
 * possibly through `items`, `prefixItems/<n>`, `anyOf/<n>`, `allOf/<n>` and `$ref`, ending at a property. Not
 * under `not`, `if`/`then`/`else`, `oneOf` or dependent schemas, where removing a property changes which
 * other constraint applies.
 */
export function isParameterPath(path: string): boolean {
  const steps = path.split("/").slice(1);
  if (steps.length < 2 || steps[steps.length - 2] !== "properties") return false;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (step === "properties") i++;
    else if (step === "prefixItems" || step === "anyOf" || step === "allOf") {
      if (!/^\d+$/.test(steps[i + 1] ?? "")) return false;
      i++;
    } else if (step === "items") {
      if (/^\d+$/.test(steps[i + 1] ?? "")) i++;
    } else if (step !== "$ref") return false;
  }
  return true;
}

/**
 * A parameter removed from `properties` while additionalProperties still lets its name through accepts more
 * to a validator, but the model no longer sees the parameter, so nothing new is asked of it: at a parameter
 * path it is reported as a removed parameter (structural, a warning), not a widening. The analyzer's own
 * proofs (trial comparisons under `not`, `if`, restructuring) still see the widening.
 */
function reportRemovedParameters(findings: SchemaFinding[]): SchemaFinding[] {
  return findings.map((f) => (f.reason === "property_removed_open" && isParameterPath(f.path) ? finding("parameter_removed", f.path, f.args) : f));
}
const ADDED: ReadonlySet<string> = new Set(["property_added", "property_added_accepts_more"]);

/**
 * A parameter removed (or added) is one change: its name leaving (or joining) `required` is part of it, and
 * the parameter's finding says so. `/x/properties/ref` removed drops `required_removed` of `ref` at `/x/required`.
 */
function foldParameterRequired(findings: SchemaFinding[]): SchemaFinding[] {
  const key = (path: string, name: unknown) => `${path}\u0000${String(name)}`;
  const removed = new Set<string>();
  const added = new Set<string>();
  for (const f of findings) {
    const name = f.args?.name;
    if (typeof name !== "string") continue;
    const suffix = `/properties/${escapePointer(name)}`;
    if (!f.path.endsWith(suffix)) continue;
    const at = key(`${f.path.slice(0, -suffix.length)}/required`, name);
    if (REMOVED.has(f.reason) && isParameterPath(f.path)) removed.add(at);
    else if (ADDED.has(f.reason)) added.add(at);
  }
  if (removed.size === 0 && added.size === 0) return findings;
  return findings.filter((f) => {
    if (f.reason === "required_removed") return !removed.has(key(f.path, f.args?.name));
    if (f.reason === "required_added") return !added.has(key(f.path, f.args?.name));
    return true;
  });
}

/**
 * A definition that changed where it is reached through a `$ref` is reported at the reference, which the
 * walk followed to compare it (findings under `.../$ref`): saying `definition_changed` at the `$defs` entry
 * too would report one change twice. A definition the walk did not follow in both documents keeps its finding.
 */
function withoutFollowedDefinitions(
  findings: SchemaFinding[],
  followed: { readonly before: ReadonlySet<string>; readonly after: ReadonlySet<string> },
): SchemaFinding[] {
  if (!findings.some((f) => f.path.includes("/$ref"))) return findings;
  return findings.filter((f) => f.reason !== "definition_changed" || f.info === true || !followed.before.has(f.path) || !followed.after.has(f.path));
}
