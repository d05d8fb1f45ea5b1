/** client-sdk1-rejects: a definition MCP SDK 1.x clients reject, which makes them reject the whole tools/list result. */

import { childPointer, isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

// An error: crosscheck shows Gemini CLI asking its model with none of the server's tools for every
// case below, and Claude Code too for all but a boolean property schema and a bad outputSchema
// (docs/rules/client-sdk1-rejects.md), so the tool cannot be called on the clients most use.
// The SDK 1.x Tool schema requires both schema roots to be objects with `type: "object"`, each
// top-level property schema to be an object (not `true`/`false`), `required` to be strings and a
// string `title`. Non-boolean annotation hints and a non-string description are rejected too, but
// annotation-type and S1 already report those.

/** client-sdk1-rejects rule. */
export const clientSdk1Rejects: Rule = {
  id: "client-sdk1-rejects",
  check(context, report) {
    for (const view of context.tools) {
      for (const schema of ["inputSchema", "outputSchema"] as const) {
        const root = own(view.definition, schema);
        const base = `/${schema}`;
        if (root === undefined) {
          if (schema === "inputSchema") report.tool(view, "error", base, { schema, reason: "missing" });
          continue;
        }
        if (!isObject(root)) {
          report.tool(view, "error", base, { schema, reason: "not_object" });
          continue;
        }
        const type = own(root, "type");
        if (type !== "object")
          report.tool(view, "error", type === undefined ? base : `${base}/type`, { schema, reason: "type", value: JSON.stringify(type ?? null).slice(0, 60) });
        const properties = own(root, "properties");
        if (properties !== undefined && !isObject(properties)) {
          report.tool(view, "error", `${base}/properties`, { schema, reason: "properties" });
        } else if (isObject(properties)) {
          for (const name of Object.keys(properties)) {
            const property = properties[name];
            if (!isObject(property))
              report.tool(view, "error", childPointer(`${base}/properties`, name), {
                schema,
                reason: "property",
                name,
                value: JSON.stringify(property ?? null).slice(0, 60),
              });
          }
        }
        const required = own(root, "required");
        if (required !== undefined && (!Array.isArray(required) || (required as unknown[]).some((item) => typeof item !== "string"))) {
          report.tool(view, "error", `${base}/required`, { schema, reason: "required" });
        }
      }
      const title = own(view.definition, "title");
      if (title !== undefined && typeof title !== "string") report.tool(view, "error", "/title", { reason: "title" });
    }
  },
};
