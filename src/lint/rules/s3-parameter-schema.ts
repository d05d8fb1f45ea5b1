/**
 * S3: a parameter, at any depth of `properties`, with no type (warning) or no description (info),
 * judged once per place in the data: the same property in every `anyOf` branch is one parameter.
 */

import { declaringSites, toolParameters } from "../parameters.js";
import { hasDescription, hasType, pinsOneValue, selfExplanatory } from "../params.js";
import { type VagueParameter, vagueParameters } from "./s2-vague-parameter.js";
import type { Rule } from "./rule.js";

const NONE: ReadonlyMap<string, VagueParameter> = new Map();

/** S3 rule. */
export const s3ParameterSchema: Rule = {
  id: "S3",
  check(context, report) {
    const s2Runs = !context.options.disable.has("S2");
    for (const view of context.tools) {
      const root = view.inputSchema;
      // A parameter S2 already flags for a vague name without a description is not reported twice.
      const vague = s2Runs ? vagueParameters(view) : NONE;
      for (const parameter of toolParameters(view)) {
        const sites = declaringSites(parameter);
        const firstSite = sites[0];
        if (firstSite === undefined) continue;
        const { name, place } = parameter;
        // One declaration without a type leaves the model guessing in that branch.
        const untyped = sites.find((site) => !hasType(site.node));
        if (untyped !== undefined) report.tool(view, "warning", untyped.path, { reason: "untyped", name, place });
        if (vague.has(place) || sites.some((site) => hasDescription(site.node, root))) continue;
        // A parameter with one allowed value (a discriminator) has nothing to describe.
        if (sites.every((site) => pinsOneValue(site.node))) continue;
        const plain = sites.every((site) => pinsOneValue(site.node) || selfExplanatory(name, site.node, root));
        report.tool(view, "info", firstSite.path, { reason: plain ? "self_explanatory" : "undescribed", name, place });
      }
    }
  },
};
