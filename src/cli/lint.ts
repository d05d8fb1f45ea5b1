/** The `run` and `check` commands: read a live server or a saved list, lint it, report (terminal, JSON, SARIF) and decide the exit code. */

import { UsageError } from "../errors.js";
import type { InstallFinding } from "../install/kinds.js";
import type { FailOn } from "../lock/engine.js";
import { refuseSymlink, writeFileSafely } from "../lock/io.js";
import type { Severity } from "../lock/kinds.js";
import { lintServer } from "../lint/lint.js";
import { isRuleId } from "../lint/table.js";
import type { LintOptions } from "../lint/types.js";
import { jsonReportText } from "../report/json.js";
import { buildLintReport, lintExitCode } from "../report/lint-report.js";
import { renderLintTerminal } from "../report/lint-terminal.js";
import { PLAIN_STYLE } from "../report/style.js";
import { lintOwnLaunch, loadVerdictModules, type Output, readSnapshot, redactorFor, resolveSource, type SourceFlags } from "./source.js";

// Everything the verdict and the terminal report need is imported statically above, and the JSON and
// SARIF builders (only when asked for) before the server starts: a same-user server cannot swap
// mcp-lint's files under a running check.

/** Flags of `mcp-lint run` and `mcp-lint check`, already checked for shape by the CLI. */
export interface LintFlags extends SourceFlags {
  /** `run` reads a live server; `check` reads the file in `from`. */
  mode: "run" | "check";
  json: string | null;
  sarif: string | null;
  minSeverity: Severity;
  failOn: FailOn;
  /** Exit 1 when the server score is below this (0-100). */
  failUnder: number | null;
  /** Rule IDs as given (comma lists split); checked here. */
  disable: string[];
  portability: "default" | "strict";
  formatAllowlist: string[];
}

/** Values of a flag that may repeat and may hold a comma-separated list; empty items are a usage error. */
function commaValues(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  const values = Array.isArray(value) ? (value as unknown[]) : [value];
  return values.flatMap((item) => {
    const text = typeof item === "number" ? String(item) : item;
    if (typeof text !== "string" || text.trim() === "") throw new UsageError(`${name} needs a value`);
    const parts = text.split(",").map((part) => part.trim());
    if (parts.some((part) => part === "")) throw new UsageError(`${name} takes a comma-separated list without empty items, not ${JSON.stringify(text)}`);
    return parts;
  });
}

/** The lint-specific flags from cac's raw options: `--fail-under`, `--disable`, `--portability`, `--format-allowlist`. */
export function lintFlagValues(options: Record<string, unknown>): Pick<LintFlags, "failUnder" | "disable" | "portability" | "formatAllowlist"> {
  const once = (value: unknown, name: string): string | null => {
    if (value === undefined) return null;
    if (Array.isArray(value)) throw new UsageError(`${name} was given more than once`);
    const text = typeof value === "number" ? String(value) : value;
    if (typeof text !== "string" || text === "") throw new UsageError(`${name} needs a value`);
    return text;
  };
  const under = once(options.failUnder, "--fail-under");
  let failUnder: number | null = null;
  if (under !== null) {
    failUnder = Number(under);
    if (!/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(under) || failUnder > 100) throw new UsageError(`--fail-under takes a score from 0 to 100, not ${JSON.stringify(under)}`);
  }
  const portability = once(options.portability, "--portability") ?? "default";
  if (portability !== "default" && portability !== "strict") {
    throw new UsageError(`--portability must be default or strict, not ${JSON.stringify(portability)}`);
  }
  return {
    failUnder,
    disable: commaValues(options.disable, "--disable"),
    portability,
    formatAllowlist: commaValues(options.formatAllowlist, "--format-allowlist"),
  };
}

/** The linter's options from the flags; an unknown rule ID in `--disable` is a usage error. */
export function lintOptionsFrom(flags: Pick<LintFlags, "disable" | "portability" | "formatAllowlist">): LintOptions {
  for (const id of flags.disable) {
    if (id !== "I1" && !isRuleId(id)) {
      throw new UsageError(`--disable: unknown rule ${JSON.stringify(id)}; rule IDs are S1-S8, I1 and the names in docs/rules (name-format, schema-format-portability, ...)`);
    }
  }
  return { disable: new Set(flags.disable), portability: flags.portability, formatAllowlist: flags.formatAllowlist };
}

/** Run `run` or `check`; returns the exit code (expected failures are thrown as McpLintError). */
export async function runLint(flags: LintFlags, output: Output): Promise<number> {
  const options = lintOptionsFrom(flags);
  if (flags.failUnder !== null && !(flags.failUnder >= 0 && flags.failUnder <= 100)) {
    throw new UsageError(`--fail-under takes a score from 0 to 100, not ${flags.failUnder}`);
  }
  const example = flags.mode === "run" ? "mcp-lint run" : "mcp-lint check";
  const target = resolveSource(flags, example, { fromAllowed: flags.mode === "check" });
  const jsonToStdout = flags.json === "-";
  // Output paths are checked before anything starts: a refusal after the server ran would waste the run.
  if (flags.json !== null && !jsonToStdout) await refuseSymlink(flags.json);
  if (flags.sarif !== null) {
    if (flags.sarif === flags.json) throw new UsageError("--json and --sarif name the same file; give each its own path");
    await refuseSymlink(flags.sarif);
  }
  const [modules, jsonBuilder, sarifBuilder] = await Promise.all([
    loadVerdictModules(target !== null),
    flags.json === null ? null : import("../report/lint-json.js"),
    flags.sarif === null ? null : import("../report/sarif.js"),
  ]);
  let install: InstallFinding[] = [];
  if (target?.kind === "stdio") {
    // A known-bad launch is refused here, before it starts; the other findings join the report under (server).
    install = await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output, { print: false });
    if (options.disable.has("I1")) install = [];
  }

  const redactor = redactorFor(target, output);
  const snapshot = await readSnapshot(flags, target, redactor, () => {}, output.err);
  const result = lintServer({ tools: snapshot.tools, instructions: snapshot.instructions.known ? snapshot.instructions.text : null }, options);
  const report = buildLintReport({ toolVersion: flags.version, command: flags.mode, source: flags.from, snapshot, result, install });
  const exitCode = lintExitCode(report, flags.failOn, flags.failUnder);

  const channel = jsonToStdout ? output.err : output.out;
  const style = (jsonToStdout ? output.styles?.err : output.styles?.out) ?? PLAIN_STYLE;
  const redact = (text: string) => redactor.text(text);
  channel(redact(renderLintTerminal(report, style, { minSeverity: flags.minSeverity, failUnder: flags.failUnder })));
  if (flags.json !== null && jsonBuilder !== null) {
    const text = jsonReportText(jsonBuilder.buildLintJsonReport(report), redact);
    if (jsonToStdout) output.out(text);
    else await writeFileSafely(flags.json, text);
  }
  if (flags.sarif !== null && sarifBuilder !== null) {
    const uri = flags.mode === "check" && flags.from !== null ? sarifBuilder.artifactUri(flags.from, process.cwd()) : null;
    await writeFileSafely(flags.sarif, jsonReportText(sarifBuilder.lintSarif(report, uri), redact));
  }
  return exitCode;
}
