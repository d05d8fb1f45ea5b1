/** schema-no-discriminator-keyword: the OpenAPI `discriminator` keyword in the input schema. */

// Info: every client lists the tool; Codex drops the keyword, the others pass it on unread.

import { childPointer, own } from "../json.js";
import { inputSchemaNodes } from "../context.js";
import type { Rule } from "./rule.js";

/** schema-no-discriminator-keyword rule. */
export const schemaNoDiscriminatorKeyword: Rule = {
  id: "schema-no-discriminator-keyword",
  check(context, report) {
    for (const view of context.tools) {
      for (const { node, path } of inputSchemaNodes(view)) {
        if (typeof node === "object" && own(node, "discriminator") !== undefined) report.tool(view, "info", childPointer(path, "discriminator"), {});
      }
    }
  },
};
