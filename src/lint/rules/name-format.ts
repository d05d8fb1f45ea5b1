/** name-format: a tool name must be 1-128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`. */

import { own } from "../json.js";
import type { Rule } from "./rule.js";

/** Longest tool name the MCP specification allows. */
export const MAX_NAME_LENGTH = 128;

function allowed(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d || code === 0x2e;
}

/** A name made only of allowed characters; no quantifier backtracks, so any length is safe. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]*$/;

/** name-format rule. */
export const nameFormat: Rule = {
  id: "name-format",
  check(context, report) {
    for (const view of context.tools) {
      const name = own(view.definition, "name");
      if (typeof name !== "string") {
        report.tool(view, "error", "/name", { reason: "not_string" });
      } else if (name === "") {
        report.tool(view, "error", "/name", { reason: "empty" });
      } else if (PLAIN_NAME.test(name)) {
        // Every character allowed (the usual case): only the length can be wrong.
        if (name.length > MAX_NAME_LENGTH) report.tool(view, "error", "/name", { reason: "too_long", count: name.length });
      } else {
        // Collect the distinct characters that are not allowed, a few of them, for the message.
        const bad = new Set<string>();
        for (const char of name) {
          if (!allowed(char.codePointAt(0) as number) && bad.size < 8) bad.add(char);
        }
        if (bad.size > 0) report.tool(view, "error", "/name", { reason: "characters", value: [...bad].join("") });
        else if (name.length > MAX_NAME_LENGTH) report.tool(view, "error", "/name", { reason: "too_long", count: name.length });
      }
    }
  },
};
