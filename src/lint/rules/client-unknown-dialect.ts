/** client-unknown-dialect: a root `$schema` the MCP TypeScript SDK v2 client does not recognize. */

import { isObject, own } from "../json.js";
import type { Rule } from "./rule.js";

// Dialects the SDK v2 client validates with; compared without a trailing `#` and with either scheme,
// so equivalent spellings of a known dialect are never reported.
const KNOWN = new Set([
  "json-schema.org/draft/2020-12/schema",
  "json-schema.org/draft/2019-09/schema",
  "json-schema.org/draft-07/schema",
  "json-schema.org/draft-06/schema",
]);

function known(dialect: string): boolean {
  const bare = dialect
    .trim()
    .replace(/#$/, "")
    .replace(/^https?:\/\//, "");
  return KNOWN.has(bare);
}

/** client-unknown-dialect rule. */
export const clientUnknownDialect: Rule = {
  id: "client-unknown-dialect",
  check(context, report) {
    for (const view of context.tools) {
      for (const schema of ["inputSchema", "outputSchema"] as const) {
        const root = own(view.definition, schema);
        if (!isObject(root)) continue;
        const dialect = own(root, "$schema");
        if (dialect === undefined || (typeof dialect === "string" && known(dialect))) continue;
        const value = typeof dialect === "string" ? (dialect.length > 120 ? dialect.slice(0, 120) : dialect) : JSON.stringify(dialect).slice(0, 120);
        report.tool(view, "info", `/${schema}/$schema`, { schema, value });
      }
    }
  },
};
