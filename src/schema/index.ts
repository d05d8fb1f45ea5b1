/** The JSON Schema change analyzer: compares two tool schemas, sorting each change into widened, text or structural. */

import { finding, type SchemaFinding, sameValidation } from "./finding.js";
import { deepEqual, mentionsAny } from "./json.js";
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
    const findings = createEngine(docs).diff(was, now, "", 0);
    // $dynamicRef/$recursiveRef are resolved statically, which is exact only within a single resource.
    const dynamicScopes = (docs.before.dynamic || docs.after.dynamic) && (docs.before.embedded || docs.after.embedded);
    if (dynamicScopes && !sameValidation(findings)) findings.push(finding("reference_not_followed", ""));
    return findings;
  } catch {
    // Nothing here should throw; if something does, the safe answer is "maybe wider, look at it".
    try {
      return deepEqual(before, after) ? [] : [finding("analysis_failed", "")];
    } catch {
      return [finding("analysis_failed", "")];
    }
  }
}
