/** S3: a parameter, at any depth of `properties`, with no type (warning) or no description (info). */

import { isObject, type JsonObject, own } from "../json.js";
import { hasDescription, hasType, pinsOneValue } from "../params.js";
import { vagueParameterPaths } from "./s2-vague-parameter.js";
import { inputSchemaNodes } from "../context.js";
import type { Rule } from "./rule.js";

/** True when a schema declares a property of this name in its own `properties`. */
function declares(schema: JsonObject, name: string): boolean {
  const properties = own(schema, "properties");
  return isObject(properties) && Object.hasOwn(properties, name);
}

const NONE: ReadonlyMap<string, string> = new Map();

/** S3 rule. */
export const s3ParameterSchema: Rule = {
  id: "S3",
  check(context, report) {
    const s2Runs = !context.options.disable.has("S2");
    for (const view of context.tools) {
      const root = view.inputSchema;
      // A parameter S2 already flags for a vague name without a description is not reported twice.
      const vague: ReadonlyMap<string, string> = s2Runs ? vagueParameterPaths(view) : NONE;
      const branchOwner = new Map<object, JsonObject>();
      for (const { node, path, slot, owner, inCondition } of inputSchemaNodes(view)) {
        if (slot.kind === "branch" && typeof node === "object" && owner !== null) branchOwner.set(node, owner);
        // Boolean property schemas carry nothing to add; properties under `if`/`not` are conditions, not parameters.
        if (slot.kind !== "property" || typeof node === "boolean" || inCondition) continue;
        // A branch that restates a parameter its parent declares (`oneOf: [{properties: {mode: {const: "a"}}}]`) only narrows it.
        const outer = branchOwner.get(slot.parent);
        if (outer !== undefined && declares(outer, slot.name)) continue;
        if (!hasType(node)) report.tool(view, "warning", path, { reason: "untyped", name: slot.name });
        // A parameter with one allowed value (a discriminator) has nothing to describe.
        if (!hasDescription(node, root) && !vague.has(path) && !pinsOneValue(node)) report.tool(view, "info", path, { reason: "undescribed", name: slot.name });
      }
    }
  },
};
