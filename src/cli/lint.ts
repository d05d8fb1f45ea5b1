/** The `run` and `check` commands: read a live server or a saved list, lint it, report (terminal, JSON, SARIF) and decide the exit code. */

import { dirname, resolve } from "node:path";
import { couldBeSecret, makeRedactor, type Redactor } from "../text/redact.js";
import { UsageError } from "../errors.js";
import type { InstallFinding } from "../install/kinds.js";
import type { FailOn } from "../lock/engine.js";
import { readJsonFile, readTextIfExists, checkOutputPath, writeFileSafely } from "../lock/io.js";
import type { Severity } from "../lock/kinds.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { lintServer } from "../lint/lint.js";
import { isRuleId } from "../lint/table.js";
import type { LintOptions } from "../lint/types.js";
import { jsonReportText } from "../report/json-text.js";
import { buildLintReport, lintExitCode } from "../report/lint-report.js";
import { renderLintTerminal } from "../report/lint-terminal.js";
import type { CheckedFile, SarifBase } from "../report/sarif.js";
import { PLAIN_STYLE } from "../report/style.js";
import type { FixturesFile, ProbeRecord } from "../probe/types.js";
import { sarifBase as findSarifBase } from "./sarif-base.js";
import { lintOwnLaunch, loadVerdictModules, openSession, type Output, readSnapshot, redactorFor, resolveSource, type SourceFlags } from "./source.js";

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
  /** `run` only: the probe flags; absent or all off when the run does not call tools. */
  probeFlags?: ProbeFlags;
}

/** The probe flags of `run`: `--probe`, `--error-probes`, `--probe-timeout`, `--include-responses`. */
export interface ProbeFlags {
  /** The fixtures file, or null. */
  probe: string | null;
  errorProbes: boolean;
  /** Bound on each probe call, in ms (default 30 s). */
  probeTimeoutMs: number;
  includeResponses: boolean;
}

/** Seconds a probe call may take before it is cancelled, when --probe-timeout is not given. */
export const DEFAULT_PROBE_TIMEOUT_SECONDS = 30;

/** The probe flags from cac's raw options; a flag that needs probes without them is a usage error. */
export function probeFlagValues(options: Record<string, unknown>): ProbeFlags {
  const once = (value: unknown, name: string): unknown => {
    if (Array.isArray(value)) throw new UsageError(`${name} was given more than once`);
    return value;
  };
  const file = once(options.probe, "--probe");
  if (file !== undefined && (typeof file !== "string" || file === "")) throw new UsageError("--probe needs a fixtures file");
  const bool = (value: unknown, name: string): boolean => {
    const given = once(value, name);
    if (given === undefined || given === false) return false;
    if (given === true) return true;
    throw new UsageError(`${name} takes no value`);
  };
  const errorProbes = bool(options.errorProbes, "--error-probes");
  const includeResponses = bool(options.includeResponses, "--include-responses");
  const timeout = once(options.probeTimeout, "--probe-timeout");
  const probing = typeof file === "string" || errorProbes;
  if (!probing && (timeout !== undefined || includeResponses)) {
    throw new UsageError(`${timeout !== undefined ? "--probe-timeout" : "--include-responses"} needs --probe FIXTURES or --error-probes`);
  }
  let seconds = DEFAULT_PROBE_TIMEOUT_SECONDS;
  if (timeout !== undefined) {
    const text = typeof timeout === "number" ? String(timeout) : timeout;
    seconds = typeof text === "string" && text.trim() !== "" ? Number(text) : Number.NaN;
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
      throw new UsageError(`--probe-timeout takes seconds between 0 and 86400, not ${JSON.stringify(String(text))}`);
    }
  }
  return { probe: typeof file === "string" ? file : null, errorProbes, probeTimeoutMs: Math.round(seconds * 1000), includeResponses };
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
    if (!/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(under) || failUnder > 100)
      throw new UsageError(`--fail-under takes a score from 0 to 100, not ${JSON.stringify(under)}`);
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
      throw new UsageError(
        `--disable: unknown rule ${JSON.stringify(id)}; rule IDs are S1-S8, P1-P5, I1 and the names in docs/rules (name-format, format-parity, ...)`,
      );
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
  if (flags.json !== null && !jsonToStdout) await checkOutputPath(flags.json);
  if (flags.sarif !== null) {
    if (flags.sarif === flags.json) throw new UsageError("--json and --sarif name the same file; give each its own path");
    await checkOutputPath(flags.sarif);
  }
  // Where the SARIF log's URIs start, settled before any server runs.
  const sarifBase = flags.sarif === null ? null : findSarifBase();
  const [modules, jsonBuilder, sarifBuilder] = await Promise.all([
    loadVerdictModules(target?.kind === "stdio"),
    flags.json === null ? null : import("../report/lint-json.js"),
    flags.sarif === null ? null : import("../report/sarif.js"),
  ]);
  const probeFlags = flags.probeFlags ?? { probe: null, errorProbes: false, probeTimeoutMs: DEFAULT_PROBE_TIMEOUT_SECONDS * 1000, includeResponses: false };
  const probing = probeFlags.probe !== null || probeFlags.errorProbes;
  if (probing && (flags.mode !== "run" || target === null))
    throw new UsageError("--probe and --error-probes call tools, so they need a live server: use mcp-lint run");
  // The fixtures file and the probe modules are read before the server starts, like everything else the verdict needs.
  const [fixtures, probeModules] = probing
    ? await Promise.all([probeFlags.probe === null ? null : readFixtures(probeFlags.probe), loadProbeModules()])
    : [null, null];
  let install: InstallFinding[] = [];
  if (target?.kind === "stdio") {
    // A known-bad launch is refused here, before it starts; the other findings join the report under (server).
    install = await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output, { print: false });
    if (options.disable.has("I1")) install = [];
  }

  let redactor: Redactor;
  let snapshot: ServerSnapshot;
  let result: ReturnType<typeof lintServer>;
  let probes: ProbeRecord[] | null = null;
  if (probing && target !== null && probeModules !== null) {
    // Values that ${NAME} placeholders expand to are secrets too: a server may echo them back.
    const expanded =
      fixtures === null
        ? []
        : probeModules.fixtures
            .referencedVariables(fixtures)
            .flatMap((name) => process.env[name] ?? [])
            .filter(couldBeSecret);
    redactor = makeRedactor([...target.secrets, ...expanded]);
    output.redact = (text) => redactor.text(text);
    const session = await openSession(flags, target, redactor, output.err);
    let raw: ServerSnapshot;
    try {
      raw = session.snapshot;
      snapshot = target.secrets.length === 0 && expanded.length === 0 && !redactor.active ? raw : probeModules.redact.redactSnapshot(raw, redactor);
      // The gate reads the definitions exactly as served; the report shows the redacted copy. A server
      // that changes its list mid-run has its remaining probes judged again against the new one.
      // On 2026-07-28 over HTTP a call mirrors its x-mcp-header arguments into Mcp-Param-* headers, as the proxy's do.
      const paramHeaders = session.client.getProtocolEra() === "modern" && raw.transport !== "stdio" ? probeModules.paramHeaders.headerPolicy(redactor) : null;
      const gate = { fixtures, env: process.env, errorProbes: probeFlags.errorProbes, paramHeaders };
      const plan = probeModules.gate.planProbes({ ...gate, tools: raw.tools });
      probes = await probeModules.runner.runProbes(plan, probeModules.runner.sdkProbeLink(session), {
        timeoutMs: probeFlags.probeTimeoutMs,
        redactor,
        regate: (probe, tools) => probeModules.gate.regateProbe(probe, { ...gate, tools }),
      });
    } finally {
      await session.close();
    }
    const linted = lintServer({ tools: snapshot.tools, instructions: snapshot.instructions.known ? snapshot.instructions.text : null }, options);
    result = probeModules.judge.withProbes(linted, probeModules.judge.judgeProbes(probes, raw.tools, options.disable));
  } else {
    redactor = redactorFor(target, output);
    snapshot = await readSnapshot(flags, target, redactor, () => {}, output.err);
    result = lintServer({ tools: snapshot.tools, instructions: snapshot.instructions.known ? snapshot.instructions.text : null }, options);
  }
  const report = buildLintReport({
    toolVersion: flags.version,
    command: flags.mode,
    source: flags.from,
    snapshot,
    result,
    install,
    probes,
    includeResponses: probeFlags.includeResponses,
  });
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
    const file = flags.mode === "check" && flags.from !== null ? await checkedFile(flags.from, sarifBase, sarifBuilder.artifactUri) : null;
    await writeFileSafely(flags.sarif, jsonReportText(sarifBuilder.lintSarif(report, file, sarifBase), redact));
  }
  return exitCode;
}

/**
 * The file `check` read, for SARIF: its URI from the base, and the line of each tool object. The
 * file is read again (no server runs in a check, so nothing but the user changes it meanwhile);
 * if it cannot be, results keep the file without lines.
 */
async function checkedFile(path: string, base: SarifBase | null, uriOf: (path: string, cwd: string, base: string) => string): Promise<CheckedFile> {
  const uri = uriOf(path, process.cwd(), base?.dir ?? process.cwd());
  try {
    const text = await readTextIfExists(path);
    const { toolObjectLines } = await import("../report/sarif-places.js");
    return { uri, toolLines: text === null ? [] : toolObjectLines(text) };
  } catch {
    return { uri, toolLines: [] };
  }
}

/** Read and check a fixtures file; `${FIXTURES_DIR}` is its folder, absolute. */
async function readFixtures(path: string): Promise<FixturesFile> {
  const { parseFixtures } = await import("../probe/fixtures.js");
  return parseFixtures(await readJsonFile(path, "--probe fixtures file"), path, dirname(resolve(path)));
}

/** The probe modules, loaded before the server starts (ajv included) so a same-user server cannot swap them. */
async function loadProbeModules() {
  const [fixtures, gate, runner, judge, redact, paramHeaders] = await Promise.all([
    import("../probe/fixtures.js"),
    import("../probe/gate.js"),
    import("../probe/runner.js"),
    import("../probe/judge.js"),
    import("../connect/redact.js"),
    import("../connect/param-headers.js"),
    import("../probe/arguments.js"),
    import("../connect/stdio.js"),
    import("../connect/launch.js"),
  ]);
  return { fixtures, gate, runner, judge, redact, paramHeaders };
}

/**
 * Launch or connect as readSnapshot does, but keep the session open for the probes. The caller
 * closes it (for a launched server that ends its whole process group).
 */
