/** The shape of one lint rule: an ID and a check over the whole server, which reports findings. */

import type { LintContext, Reporter } from "../context.js";
import type { RuleId } from "../types.js";

/** One rule; `check` sees every tool at once so cross-tool rules (S4, S5, name-unique) need no second pass. */
export interface Rule {
  readonly id: RuleId;
  check(context: LintContext, report: Reporter): void;
}
