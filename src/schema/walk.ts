/** The schema walker: compares two schema values recursively, handing each keyword to the rule owning its role. */

import type { Engine, Rule, SchemaNode } from "./context.js";
import { finding, hasWidening, type SchemaFinding } from "./finding.js";
import { deepEqual, EMPTY_OBJECT, isEmptySchema, isSchema, type JsonObject } from "./json.js";
import { keywordInfo } from "./keywords.js";
import { RULE_BY_ROLE, RULES } from "./rules/index.js";
import { containsText, MAX_SCHEMA_DEPTH, unionKeys } from "./shape.js";

// Matching anyOf/allOf members tries pairs, and trials nest; this caps the total work of one comparison.
// Past it, trials answer "unknown" and callers take the widening answer, so the result stays sound.
const WORK_BUDGET = 200_000;

/** Creates a walker with a fresh work budget for one top-level comparison. */
export function createEngine(annotationsMatter: boolean): Engine {
  let budget = WORK_BUDGET;
  let trials = 0;

  const engine: Engine = {
    annotationsMatter,
    diff(before, after, path, depth) {
      budget--;
      if (trials > 0 && budget < 0) return [];
      return diffValues(before, after, path, depth);
    },
    tryDiff(before, after, path, depth) {
      if (budget <= 0) return undefined;
      trials++;
      try {
        const findings = engine.diff(before, after, path, depth);
        return budget < 0 ? undefined : findings;
      } finally {
        trials--;
      }
    },
  };

  function diffValues(before: unknown, after: unknown, path: string, depth: number): SchemaFinding[] {
    if (depth > MAX_SCHEMA_DEPTH) return deepEqual(before, after) ? [] : [finding("depth_limit", path)];
    const beforeOk = isSchema(before);
    const afterOk = isSchema(after);
    if (!beforeOk || !afterOk) {
      if (deepEqual(before, after)) return [];
      return [finding(beforeOk ? "became_invalid" : "invalid_changed", path)];
    }
    if (before === false) {
      if (after === false) return [];
      return withText([finding("schema_false_lifted", path)], "text_added", path, after);
    }
    if (after === false) return withText([finding("schema_false", path)], "text_removed", path, before);
    const findings = compareObjects(
      before === true ? EMPTY_OBJECT : before,
      after === true ? EMPTY_OBJECT : after,
      path,
      depth,
    );
    // One clear finding instead of one per keyword the old schema had.
    if (isEmptySchema(after) && hasWidening(findings)) {
      return [finding("schema_true", path), ...findings.filter((f) => f.kind !== "widened")];
    }
    return findings;
  }

  function compareObjects(before: JsonObject, after: JsonObject, path: string, depth: number): SchemaFinding[] {
    const node: SchemaNode = { before, after, path, depth, out: [], engine };
    const keysByRule = new Map<Rule, string[]>();
    for (const key of unionKeys(before, after)) {
      const rule = RULE_BY_ROLE.get(keywordInfo(key).role);
      if (rule === undefined) continue;
      const keys = keysByRule.get(rule);
      if (keys === undefined) keysByRule.set(rule, [key]);
      else keys.push(key);
    }
    for (const rule of RULES) {
      const keys = keysByRule.get(rule);
      if (keys !== undefined) rule.run(node, keys);
    }
    return node.out;
  }

  return engine;
}

function withText(
  findings: SchemaFinding[],
  reason: "text_added" | "text_removed",
  path: string,
  schema: unknown,
): SchemaFinding[] {
  if (containsText(schema)) findings.push(finding(reason, path));
  return findings;
}
