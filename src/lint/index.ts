/** The linter's public surface: lint a served tool list, run S8 alone, and turn findings into words. */

export { DEFAULT_LINT_OPTIONS, type LintResult, lintServer, ruleEnabled } from "./lint.js";
export { fix, message } from "./messages.js";
export { hiddenTextScanner, scanInstructionsHiddenText, scanToolHiddenText } from "./rules/s8-hidden-text.js";
export {
  definitionOverhead,
  findingWaste,
  type Grade,
  grade,
  type LintScore,
  scoreServer,
  staticCosts,
  type ToolCost,
  type ToolScore,
  type WasteItem,
} from "./score.js";
export { isRuleId, RULES } from "./table.js";
export {
  type HiddenKind,
  type LintArgs,
  type LintFinding,
  type LintInput,
  type LintOptions,
  RULE_IDS,
  type RuleFamily,
  type RuleId,
  type RuleInfo,
} from "./types.js";
export { DEFAULT_FORMAT_ALLOWLIST } from "./rules/schema-format-portability.js";
