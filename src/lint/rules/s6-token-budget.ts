/** S6: all tool definitions together over ~10k (warning) or ~25k (error) estimated tokens. */

import type { Rule } from "./rule.js";

/** Estimated tokens of all definitions above which a server costs noticeably on every request. */
export const TOKEN_BUDGET_WARNING = 10_000;
/** Estimated tokens above which the definitions crowd out the conversation. */
export const TOKEN_BUDGET_ERROR = 25_000;

/** S6 rule. */
export const s6TokenBudget: Rule = {
  id: "S6",
  check(context, report) {
    const tokens = context.tools.reduce((sum, view) => sum + view.tokens, 0);
    if (tokens > TOKEN_BUDGET_ERROR) report.server("error", { tokens, limit: TOKEN_BUDGET_ERROR, total: context.tools.length });
    else if (tokens > TOKEN_BUDGET_WARNING) report.server("warning", { tokens, limit: TOKEN_BUDGET_WARNING, total: context.tools.length });
  },
};
