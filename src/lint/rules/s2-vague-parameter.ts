/** S2: a top-level parameter with a vague name (`id`, `data`, `q`) and no description. */

import type { ToolView } from "../context.js";
import { childPointer, isObject, own } from "../json.js";
import { hasDescription, isVagueName } from "../params.js";
import type { Rule } from "./rule.js";

const vagueByView = new WeakMap<ToolView, ReadonlyMap<string, string>>();

/**
 * Pointers of the top-level parameters S2 flags in a tool; S3 reads it so one missing description is
 * reported once. Computed once per tool view and shared (read only) by both rules.
 */
export function vagueParameterPaths(view: ToolView): ReadonlyMap<string, string> {
  let paths = vagueByView.get(view);
  if (paths === undefined) {
    paths = computeVagueParameterPaths(view);
    vagueByView.set(view, paths);
  }
  return paths;
}

function computeVagueParameterPaths(view: ToolView): Map<string, string> {
  const out = new Map<string, string>();
  const root = view.inputSchema;
  if (!isObject(root)) return out;
  const visit = (schema: unknown, base: string) => {
    const properties = isObject(schema) ? own(schema, "properties") : undefined;
    if (!isObject(properties)) return;
    for (const name of Object.keys(properties)) {
      const property = properties[name];
      if (!isObject(property) || !isVagueName(name) || hasDescription(property, root)) continue;
      out.set(childPointer(`${base}/properties`, name), name);
    }
  };
  visit(root, "/inputSchema");
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = own(root, keyword);
    if (Array.isArray(branches)) {
      for (const [index, branch] of (branches as unknown[]).entries()) visit(branch, `/inputSchema/${keyword}/${index}`);
    }
  }
  return out;
}

/** S2 rule. */
export const s2VagueParameter: Rule = {
  id: "S2",
  check(context, report) {
    for (const view of context.tools) {
      for (const [path, name] of vagueParameterPaths(view)) report.tool(view, "warning", path, { name });
    }
  },
};
