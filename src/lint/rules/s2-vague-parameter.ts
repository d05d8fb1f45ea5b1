/** S2: a top-level parameter with a vague name (`id`, `data`, `q`) and no description, once per parameter. */

import type { ToolView } from "../context.js";
import { isObject } from "../json.js";
import { declaringSites, toolParameters } from "../parameters.js";
import { hasDescription, isVagueName, pairedValue, selfExplanatory } from "../params.js";
import type { Rule } from "./rule.js";

/** A parameter S2 flags: where it is first declared, its name, and whether its type and constraints make up for the name. */
export interface VagueParameter {
  path: string;
  name: string;
  selfExplanatory: boolean;
}

const vagueByView = new WeakMap<ToolView, ReadonlyMap<string, VagueParameter>>();

/**
 * The top-level parameters S2 flags in a tool, by place; S3 reads it so one missing description is
 * reported once. Computed once per tool view and shared (read only) by both rules.
 */
export function vagueParameters(view: ToolView): ReadonlyMap<string, VagueParameter> {
  let found = vagueByView.get(view);
  if (found === undefined) {
    found = computeVagueParameters(view);
    vagueByView.set(view, found);
  }
  return found;
}

function computeVagueParameters(view: ToolView): Map<string, VagueParameter> {
  const out = new Map<string, VagueParameter>();
  const root = view.inputSchema;
  if (!isObject(root)) return out;
  for (const parameter of toolParameters(view)) {
    if (parameter.level !== 1 || !isVagueName(parameter.name)) continue;
    const sites = declaringSites(parameter);
    const [firstSite] = sites;
    // A description on any declaration (one branch of several) tells the model what the value is.
    if (firstSite === undefined || sites.some((site) => hasDescription(site.node, root))) continue;
    out.set(parameter.place, {
      path: firstSite.path,
      name: parameter.name,
      selfExplanatory: sites.every((site) => selfExplanatory(parameter.name, site.node, root) || pairedValue(parameter.name, view.params, site.node, root)),
    });
  }
  return out;
}

/** S2 rule. */
export const s2VagueParameter: Rule = {
  id: "S2",
  check(context, report) {
    for (const view of context.tools) {
      for (const [place, found] of vagueParameters(view)) {
        // `value` with an enum of `on`/`off`, or a string `value` beside a `key`, says what it takes despite its name: noted, not charged.
        if (found.selfExplanatory) report.tool(view, "info", found.path, { reason: "self_explanatory", name: found.name, place });
        else report.tool(view, "warning", found.path, { name: found.name, place });
      }
    }
  },
};
