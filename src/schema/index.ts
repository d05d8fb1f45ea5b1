/** The JSON Schema change analyzer: compares two tool schemas, sorting each change into widened, text or structural. */

import { finding, type SchemaFinding, hasWidening, sameValidation, showValue } from "./finding.js";
import { deepEqual, escapePointer, isObject, mentionsAny, own } from "./json.js";
import { keywordsWithRole } from "./keywords.js";
import { type DocIndex, indexDocument, resolveRef, valueAt } from "./resolve.js";
import { createEngine } from "./walk.js";
import { pushAll } from "../arrays.js";

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
    return foldRetargetedReferences(foldParameterRequired(reportRemovedParameters(findings)), docs.before, docs.after);
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

/**
 * A `$ref` that now names another schema is one change: the old target's properties are not "removed" and
 * the new one's "added" one by one. Every validation finding under a retargeted reference folds into one
 * `reference_retargeted` (widened when any of them was, with how many there were); text findings stay, as
 * the model reads the new target's words. Only the outermost reference on a path is read from the
 * documents; anything the walk reached through it is part of it.
 */
function foldRetargetedReferences(findings: SchemaFinding[], before: DocIndex, after: DocIndex): SchemaFinding[] {
  const retargeted = new Map<string, SchemaFinding[]>();
  const rest: SchemaFinding[] = [];
  for (const f of findings) {
    // A reference that no longer resolves keeps its own finding, which says so.
    const at = f.kind === "text" || f.reason === "reference_unresolved" ? -1 : f.path.indexOf("/$ref");
    const end = at + "/$ref".length;
    if (at < 0 || (f.path.length > end && f.path[end] !== "/")) {
      rest.push(f);
      continue;
    }
    const refPath = f.path.slice(0, end);
    const group = retargeted.get(refPath);
    if (group !== undefined) group.push(f);
    else if (isRetargeted(before, after, refPath)) retargeted.set(refPath, [f]);
    else rest.push(f);
  }
  for (const [refPath, group] of retargeted) {
    // A parameter the new target no longer lists is a warning of its own, as it is without a reference; with
    // nothing wider in the group, the removals are the clearest account of the move and stay as they are.
    if (!hasWidening(group) && group.some((f) => REMOVED.has(f.reason))) {
      pushAll(rest, group);
      continue;
    }
    const args = {
      before: showValue(valueAt(before.root, refPath)),
      after: showValue(valueAt(after.root, refPath)),
      changes: group.length,
    };
    rest.push(finding(hasWidening(group) ? "reference_retargeted" : "reference_retargeted_structural", refPath, args));
  }
  return rest;
}

/** True when both documents hold a `$ref` at this pointer that resolve, to different places. */
function isRetargeted(before: DocIndex, after: DocIndex, refPath: string): boolean {
  const target = (doc: DocIndex) => {
    const holder = valueAt(doc.root, refPath.slice(0, -"/$ref".length));
    const ref = isObject(holder) ? own(holder, "$ref") : undefined;
    const base = isObject(holder) ? doc.locations.get(holder)?.base : undefined;
    return typeof ref === "string" && base !== undefined ? resolveRef(doc, base, ref) : undefined;
  };
  const was = target(before);
  const now = target(after);
  return was !== undefined && now !== undefined && was.pointer !== now.pointer;
}
