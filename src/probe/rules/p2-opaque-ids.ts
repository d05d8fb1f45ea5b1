/** P2: opaque IDs over 10% (info) / 25% (warning) of a response, in records that mostly carry no readable label. */

import type { IdStats } from "../detect/ids.js";
import { P2_INFO_SHARE, P2_MIN_IDS, P2_WARNING_SHARE } from "../thresholds.js";
import { idStatsOf, type ProbeRule } from "./rule.js";

/** True when IDs crowd a response without labels: enough of them, over the info share, and at most half their records labelled. */
export function unlabelledIds(stats: IdStats): boolean {
  if (stats.ids < P2_MIN_IDS || stats.totalChars === 0) return false;
  // "Most records holding an ID also hold readable words" passes.
  return stats.idChars / stats.totalChars > P2_INFO_SHARE && stats.labelled * 2 <= stats.records;
}

/** P2. */
export const p2OpaqueIds: ProbeRule = {
  id: "P2",
  check(context, report) {
    for (const record of context.records) {
      const stats = idStatsOf(record);
      if (stats === null || !unlabelledIds(stats)) continue;
      const share = stats.idChars / stats.totalChars;
      report(record, share > P2_WARNING_SHARE ? "warning" : "info", { reason: "unlabelled", share: Math.round(share * 100), count: stats.ids });
    }
  },
};
