/** The library API of mcp-lint: re-exports only, pinned by a test. */

export {
  ConnectionError,
  InputFileError,
  JsonInputError,
  LockFormatError,
  McpLintError,
  ToolListError,
  UsageError,
} from "./errors.js";
export { canonicalize, canonicalSha256 } from "./json/canonical.js";
export { parseJsonStrict } from "./json/parse.js";
export { compareDefinitions } from "./lock/compare.js";
export { checkExitCode, compareSnapshot, countBySeverity, type FailOn, planLockWrite } from "./lock/engine.js";
export {
  buildLockfile,
  definitionSha256,
  LOCKFILE_VERSION,
  type LockedEntry,
  type Lockfile,
  parseLockfile,
  serializeLockfile,
} from "./lock/format.js";
export { type Change, CHANGE_KINDS, type ChangeKind, type Severity } from "./lock/kinds.js";
export { type ServerSnapshot, snapshotFromFile } from "./lock/snapshot.js";
export { buildJsonReport } from "./report/json.js";
export { changeMessage } from "./report/messages.js";
export { renderTerminal } from "./report/terminal.js";
export { compareSchemas, type SchemaFinding } from "./schema/index.js";
export {
  BUILTIN_KNOWN_BAD,
  INSTALL_KINDS,
  type InstallFinding,
  installMessage,
  knownBadLaunch,
  lintLaunch,
  lintShellString,
  loadKnownBad,
} from "./install/index.js";
export { readConfigText } from "./config/readers/index.js";
export {
  DEFAULT_FORMAT_ALLOWLIST,
  DEFAULT_LINT_OPTIONS,
  fix as lintFix,
  isRuleId,
  type LintFinding,
  type LintOptions,
  type LintResult,
  lintServer,
  message as lintMessage,
  type RuleId,
  RULES,
  scanInstructionsHiddenText,
  scanToolHiddenText,
} from "./lint/index.js";
export { buildLintJsonReport } from "./report/lint-json.js";
export { buildLintReport, type LintReport, lintExitCode } from "./report/lint-report.js";
export { renderLintTerminal } from "./report/lint-terminal.js";
export { installSarif, lintSarif, lockSarif, type SarifLog } from "./report/sarif.js";
export { parseFixtures } from "./probe/fixtures.js";
export { planProbes } from "./probe/gate.js";
export { starterProbes } from "./probe/init.js";
export { judgeProbes, withProbes } from "./probe/judge.js";
export { type ProbeLink, runProbes } from "./probe/runner.js";
