/** schema-no-defs (strict): `$defs`, `definitions` or `$ref` in the input schema. */

// Info: Claude Code, Codex and Gemini CLI pass references and their definitions on, recursive ones
// too; only the Gemini API's OpenAPI-style `parameters` field cannot resolve them, and Gemini CLI
// sends `parametersJsonSchema` instead.

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
      if (first !== null) report.tool(view, "info", first, { count });
    }
  },
};
