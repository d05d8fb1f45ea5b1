/** schema-no-defs (strict): `$defs`, `definitions` or `$ref` in the input schema, which Gemini rejects. */

import { childPointer, own } from "../json.js";
import { inputSchemaNodes } from "../context.js";
import type { Rule } from "./rule.js";

const KEYS = ["$defs", "definitions", "$ref"];

/** schema-no-defs rule: one finding per tool, at the first use, with the number of uses. */
export const schemaNoDefs: Rule = {
  id: "schema-no-defs",
  check(context, report) {
    for (const view of context.tools) {
      let first: string | null = null;
      let count = 0;
      for (const { node, path } of inputSchemaNodes(view)) {
        if (typeof node !== "object") continue;
        for (const key of KEYS) {
          if (own(node, key) === undefined) continue;
          first ??= childPointer(path, key);
          count++;
        }
      }
      if (first !== null) report.tool(view, "warning", first, { count });
    }
  },
};
