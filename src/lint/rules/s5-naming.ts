/** S5: a tool missing the service prefix most tools share (warning); no shared prefix, or mixed naming styles (info, server). */

import { isVerb, namingStyle } from "../text.js";
import type { NamingStyle } from "../types.js";
import type { Rule } from "./rule.js";

/** Share of tools that must carry a first segment for it to count as the server's service prefix. */
export const SHARED_PREFIX_SHARE = 0.7;

/** S5 rule. */
export const s5Naming: Rule = {
  id: "S5",
  check(context, report) {
    const tools = context.tools.filter((view) => view.segments.length > 0);
    if (tools.length < 2) return;

    // The prefix is the first name segment: the one most tools use, if at least 70% do and it is not
    // an action verb (`get_*` on most tools is a habit, not a service name). A segment only half the
    // tools share names a family of tools (`kubectl_*` beside `helm_*`), not the service.
    const counts = new Map<string, number>();
    for (const view of tools) {
      const first = view.segments[0] as string;
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    let prefix = "";
    let best = 0;
    for (const [segment, count] of counts) {
      if (count > best) {
        prefix = segment;
        best = count;
      }
    }
    const shared = best >= SHARED_PREFIX_SHARE * tools.length && best >= 2 && !isVerb(prefix) && tools.some((view) => view.segments.length > 1);
    if (shared) {
      for (const view of tools) {
        if (view.segments[0] !== prefix) report.tool(view, "warning", "/name", { prefix, count: best, total: tools.length });
      }
    } else {
      report.server("info", { reason: "no_prefix", total: tools.length });
    }

    const styles = new Map<NamingStyle, { count: number; example: string }>();
    for (const view of tools) {
      const style = namingStyle(view.name);
      if (style === null) continue;
      const entry = styles.get(style);
      if (entry === undefined) styles.set(style, { count: 1, example: view.name });
      else entry.count++;
    }
    if (styles.size > 1) {
      const list = [...styles].map(([style, entry]) => ({ style, count: entry.count, example: entry.example }));
      list.sort((x, y) => y.count - x.count);
      report.server("info", { reason: "mixed_styles", styles: list });
    }
  },
};
