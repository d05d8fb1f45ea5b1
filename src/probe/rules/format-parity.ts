/** format-parity: a tool that declares an outputSchema answered with structuredContent whose fields the content text does not show. */

import { isJsonObject, ownField } from "../../lock/snapshot.js";
import { parityMisses } from "../detect/parity.js";
import { fixtureAnswer, type ProbeRule } from "./rule.js";

/** format-parity. */
export const formatParity: ProbeRule = {
  id: "format-parity",
  check(context, report) {
    for (const record of context.records) {
      const response = fixtureAnswer(record, { ok: true });
      if (response === null || !isJsonObject(response.structured)) continue;
      const declares = context.tools.copies(record.probe.tool).some((tool) => isJsonObject(ownField(tool, "outputSchema")));
      if (!declares) continue;
      // With an empty content array a client that forwards content shows nothing at all.
      const text = response.contentEmpty ? "" : response.text;
      for (const miss of parityMisses(response.structured, text)) {
        report(record, "warning", { reason: "missing_field", field: miss.field, count: miss.missing, total: miss.total });
      }
    }
  },
};
