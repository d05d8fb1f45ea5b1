/** name-unique: two or more tools with the same name, so a client sees only one of them. */

import { own } from "../json.js";
import type { Rule } from "./rule.js";

/** name-unique rule. */
export const nameUnique: Rule = {
  id: "name-unique",
  check(context, report) {
    const copies = new Map<string, number>();
    for (const view of context.tools) {
      const name = own(view.definition, "name");
      if (typeof name === "string") copies.set(name, (copies.get(name) ?? 0) + 1);
    }
    const seen = new Set<string>();
    for (const view of context.tools) {
      const name = own(view.definition, "name");
      if (typeof name !== "string" || (copies.get(name) ?? 0) < 2) continue;
      // The first copy is the one a client is likely to keep; every later copy gets the finding.
      if (seen.has(name)) report.tool(view, "error", "/name", { count: copies.get(name) as number });
      seen.add(name);
    }
  },
};
