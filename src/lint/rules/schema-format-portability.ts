/** schema-format-portability: a `format` in the input schema outside the allowlist (OpenAI's strict-mode nine by default). */

import { childPointer, own } from "../json.js";
import { inputSchemaNodes } from "../context.js";
import type { Rule } from "./rule.js";

/** The formats OpenAI's strict function calling (Structured Outputs) accepts: the strictest common target. */
export const DEFAULT_FORMAT_ALLOWLIST: readonly string[] = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

// Only the input schema is checked: it is what a client forwards to the model vendor as the
// function's parameters. The output schema stays with the client.
// Info: every client crosscheck runs lists such a tool; Codex drops `format` (any format) and sends
// its tools with strict: false, so OpenAI's strict validator never sees them (docs/rules page).

/** schema-format-portability rule. */
export const schemaFormatPortability: Rule = {
  id: "schema-format-portability",
  check(context, report) {
    const allowed = new Set([...DEFAULT_FORMAT_ALLOWLIST, ...context.options.formatAllowlist]);
    for (const view of context.tools) {
      // A sub-schema reached again through a recursive `$ref` is the same declaration: one finding.
      const seen = new Set<object>();
      for (const { node, path } of inputSchemaNodes(view)) {
        if (typeof node !== "object" || seen.has(node)) continue;
        seen.add(node);
        const format = own(node, "format");
        if (typeof format === "string" && !allowed.has(format)) {
          report.tool(view, "info", childPointer(path, "format"), { value: format.length > 80 ? format.slice(0, 80) : format });
        }
      }
    }
  },
};
