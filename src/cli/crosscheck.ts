/** The `crosscheck` command: read the server's tools/list, run each selected client against the same server, compare what each showed its model, report. */

import { isAbsolute, resolve } from "node:path";
import { findCommand } from "../connect/containment.js";
import type { Target } from "../connect/target.js";
import { captureClient } from "../crosscheck/capture.js";
import { type BaselineEntry, baselineText, parseBaseline, updatedEntries } from "../crosscheck/baseline.js";
import { CLIENT_ADAPTERS } from "../crosscheck/clients/index.js";
import { compareRendering, type RenderFinding } from "../crosscheck/compare.js";
import { buildCrosscheckReport, type ClientResult, crosscheckExitCode, crosscheckJson, renderCrosscheckTerminal } from "../crosscheck/report.js";
import { CROSSCHECK_RULE_IDS, CROSSCHECK_RULES, crosscheckRuleDocs, type CrosscheckRuleId } from "../crosscheck/rules.js";
import type { ClientAdapter, ServerLaunch } from "../crosscheck/types.js";
import { UsageError } from "../errors.js";
import { lintServer } from "../lint/lint.js";
import { RULES } from "../lint/table.js";
import type { FailOn } from "../lock/engine.js";
import { checkOutputPath, readJsonFile, readTextIfExists, writeFileSafely } from "../lock/io.js";
import type { Severity } from "../lock/kinds.js";
import { jsonReportText } from "../report/json-text.js";
import { lintItem } from "../report/lint-report.js";
import { PLAIN_STYLE } from "../report/style.js";
import { lintOwnLaunch, loadVerdictModules, openSession, type Output, redactorFor, resolveSource, type SourceFlags } from "./source.js";

/** Flags of `mcp-lint crosscheck`. */
export interface CrosscheckFlags extends SourceFlags {
  /** Client ids as given (`--clients claude-code,codex`); empty for all. */
  clients: string[];
  /** `--client-bin NAME=PATH` pairs as given. */
  clientBins: string[];
  baseline: string | null;
  updateBaseline: boolean;
  json: string | null;
  sarif: string | null;
  failOn: FailOn;
  minSeverity: Severity;
}

/** The name the server is configured under in every client: tool names come back as `mcp__target__...`. */
export const SERVER_NAME = "target";

/** The selected adapters, in the order given (all, in registry order, when none is). */
export function selectClients(ids: readonly string[]): ClientAdapter[] {
  if (ids.length === 0) return [...CLIENT_ADAPTERS];
  const known = CLIENT_ADAPTERS.map((adapter) => adapter.id);
  const chosen: ClientAdapter[] = [];
  for (const id of ids) {
    const adapter = CLIENT_ADAPTERS.find((candidate) => candidate.id === id);
    if (adapter === undefined) throw new UsageError(`--clients: unknown client ${JSON.stringify(id)}; the clients are ${known.join(", ")}`);
    if (chosen.includes(adapter)) throw new UsageError(`--clients: ${id} is named twice`);
    chosen.push(adapter);
  }
  return chosen;
}

/** `--client-bin NAME=PATH` as a map from client id to an absolute path. */
export function clientBinPaths(pairs: readonly string[], cwd: string): Map<string, string> {
  const known = new Set(CLIENT_ADAPTERS.map((adapter) => adapter.id));
  const out = new Map<string, string>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const id = at < 0 ? "" : pair.slice(0, at);
    const path = at < 0 ? "" : pair.slice(at + 1);
    if (!known.has(id) || path === "")
      throw new UsageError(`--client-bin takes NAME=PATH with NAME one of ${[...known].join(", ")}, not ${JSON.stringify(pair)}`);
    if (out.has(id)) throw new UsageError(`--client-bin ${id} is given twice`);
    out.set(id, isAbsolute(path) ? path : resolve(cwd, path));
  }
  return out;
}

/**
 * Starts a command in a given folder with the same stdio, passing its exit on: each client starts
 * the server from its own scratch folder, and a server's relative paths mean this folder.
 */
const IN_FOLDER = [
  "const [dir, command, ...args] = process.argv.slice(1);",
  "process.chdir(dir);",
  'const child = require("node:child_process").spawn(command, args, { stdio: "inherit" });',
  'for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));',
  'child.on("error", (error) => { process.stderr.write(`cannot start ${command}: ${error.message}\\n`); process.exit(127); });',
  'child.on("exit", (code, signal) => { if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); } else process.exit(code ?? 1); });',
].join("\n");

/** The server as the clients' configs name it; a command runs in `cwd` whichever folder the client starts it from. */
export function serverLaunchFor(target: Target, cwd: string): ServerLaunch {
  if (target.kind === "http") return { kind: "http", url: target.url.href, headers: target.headers.map(([name, value]) => [name, value]) };
  return { kind: "stdio", command: process.execPath, args: ["-e", IN_FOLDER, cwd, target.command, ...target.args], env: { ...target.env } };
}

function ruleInfo(id: string) {
  const info = CROSSCHECK_RULES[id as CrosscheckRuleId];
  return {
    title: info.title,
    meaning: info.meaning,
    fix: info.fix,
    severity: info.severities[0] as Severity,
    docs: crosscheckRuleDocs(id as CrosscheckRuleId),
  };
}

/** Run `crosscheck`; returns the exit code (expected failures are thrown as McpLintError). */
export async function runCrosscheck(flags: CrosscheckFlags, output: Output): Promise<number> {
  const adapters = selectClients(flags.clients);
  const bins = clientBinPaths(flags.clientBins, process.cwd());
  if (flags.updateBaseline && flags.baseline === null) throw new UsageError("--update-baseline needs --baseline FILE");
  const target = resolveSource({ ...flags, from: null }, "mcp-lint crosscheck", { fromAllowed: false });
  if (target === null) throw new UsageError("crosscheck needs a live server: a command after -- or --url URL");
  const jsonToStdout = flags.json === "-";
  if (flags.json !== null && !jsonToStdout) await checkOutputPath(flags.json);
  if (flags.sarif !== null) {
    if (flags.sarif === flags.json) throw new UsageError("--json and --sarif name the same file; give each its own path");
    await checkOutputPath(flags.sarif);
  }
  let baseline: BaselineEntry[] = [];
  if (flags.baseline !== null) {
    const text = await readTextIfExists(flags.baseline);
    if (text === null && !flags.updateBaseline) throw new UsageError(`--baseline ${flags.baseline}: no such file; create it with --update-baseline`);
    if (text !== null) baseline = parseBaseline(await readJsonFile(flags.baseline, "--baseline file"), flags.baseline);
  }
  const modules = await loadVerdictModules(target.kind === "stdio");
  // A known-bad launch is refused before the server, or any client that would start it, runs.
  if (target.kind === "stdio") await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output, { print: false });

  const redactor = redactorFor(target, output);
  const redact = (text: string) => redactor.text(text);
  // Ground truth: every page of tools/list, read as lock reads it, kept raw for the comparison.
  // Read again, at the same time, as a client that declares roots, sampling and elicitation: some servers
  // list a tool only to such a client. Those tools are compared where a client shows them, and their absence is info.
  const capabilities = { roots: { listChanged: true }, sampling: {}, elicitation: {} };
  const readPlain = () => openSession(flags, target, redactor, output.err);
  const readCapable = () => openSession(flags, target, redactor, output.err, { clientCapabilities: capabilities, progress: false });
  // A server that may ask for a login is read one after the other, so the user logs in once.
  const oneByOne = target.kind === "http" && target.oauth != null;
  const settle = <T>(promise: Promise<T>) => Promise.allSettled([promise]).then(([result]) => result as PromiseSettledResult<T>);
  // Array elements are evaluated in order: one by one, the second read starts once the first is done.
  const [plain, second] = oneByOne ? [await settle(readPlain()), await settle(readCapable())] : await Promise.all([settle(readPlain()), settle(readCapable())]);
  await Promise.all([plain, second].map((read) => (read.status === "fulfilled" ? read.value.close() : undefined)));
  if (plain.status === "rejected") throw plain.reason;
  if (second.status === "rejected") throw second.reason;
  const snapshot = plain.value.snapshot;
  const capableTools = second.value.snapshot.tools;
  const listed = new Set(snapshot.tools.map((tool) => tool.name));
  const gatedTools = capableTools.filter((tool) => typeof tool.name === "string" && !listed.has(tool.name));
  const tools = [...snapshot.tools, ...gatedTools];
  const gated = new Set(gatedTools.map((tool) => tool.name as string));
  const linted = lintServer({ tools, instructions: null }, { disable: new Set(), portability: "default", formatAllowlist: [] });
  const groundTruth = linted.findings.filter((finding) => RULES[finding.rule].family === "client").map(lintItem);

  const server = serverLaunchFor(target, process.cwd());
  const results: (Omit<ClientResult, "items"> & { findings: RenderFinding[] })[] = [];
  const limited: { client: string; tool: string; path: string }[] = [];
  for (const adapter of adapters) {
    const base = { id: adapter.id, label: adapter.label, testedVersion: adapter.testedVersion, npmPackage: adapter.npmPackage, total: tools.length };
    const bin = bins.get(adapter.id) ?? findOnPath(adapter.bin);
    if (bin === null) {
      const reason = `${adapter.bin} is not on PATH (npm i -g ${adapter.npmPackage}@${adapter.testedVersion}, or --client-bin ${adapter.id}=PATH)`;
      results.push({ ...base, version: null, status: "skipped", reason, shown: 0, ms: 0, refused: 0, findings: [] });
      continue;
    }
    output.err(`mcp-lint: crosscheck: running ${adapter.label}...\n`);
    const capture = await captureClient(adapter, bin, server, SERVER_NAME, {
      timeoutMs: flags.startupTimeoutMs,
      pidNamespace: target.kind !== "stdio" || target.pidNamespace !== false,
      redact,
      warn: output.err,
      learnSecret: (secret) => redactor.learn([secret]),
    });
    if (capture.status === "failed") {
      const reason = redact(capture.reason);
      const failure: RenderFinding = { rule: "render-client-failed", severity: "error", tool: null, path: null, evidence: "failed", detail: { reason } };
      results.push({ ...base, version: capture.version, status: "failed", reason, shown: 0, ms: capture.ms, refused: capture.refused, findings: [failure] });
      continue;
    }
    const comparison = compareRendering(tools, capture.tools, (rendered, names) => adapter.serverToolName(rendered, SERVER_NAME, names), gated);
    for (const place of comparison.limited) limited.push({ client: adapter.id, ...place });
    results.push({
      ...base,
      version: capture.version,
      status: "compared",
      reason: null,
      shown: comparison.shown,
      ms: capture.ms,
      refused: capture.refused,
      findings: comparison.findings,
    });
  }

  const reportInput = {
    toolVersion: flags.version,
    server: { name: snapshot.name, version: snapshot.version },
    tools: tools.length,
    groundTruth,
    clients: results,
    limited,
  };
  let report = buildCrosscheckReport({ ...reportInput, baseline });
  if (flags.updateBaseline && flags.baseline !== null) {
    const failed = results.filter((client) => client.status === "failed").map((client) => client.label);
    if (failed.length > 0) {
      output.err(`mcp-lint: warning: --update-baseline: left ${flags.baseline} as it was, because ${failed.join(" and ")} did not run to the end\n`);
    } else {
      const compared = new Map(results.filter((client) => client.status === "compared").map((client) => [client.id, client.findings]));
      const entries = updatedEntries(baseline, compared);
      await writeFileSafely(flags.baseline, redact(baselineText(entries)));
      baseline = entries;
      // The update is judged against the file just written, so accepted drift does not fail this run.
      report = buildCrosscheckReport({ ...reportInput, baseline });
    }
  }

  const channel = jsonToStdout ? output.err : output.out;
  const style = (jsonToStdout ? output.styles?.err : output.styles?.out) ?? PLAIN_STYLE;
  channel(redact(renderCrosscheckTerminal(report, style, flags.minSeverity)));
  if (flags.json !== null) {
    const text = jsonReportText(crosscheckJson(report), redact);
    if (jsonToStdout) output.out(text);
    else await writeFileSafely(flags.json, text);
  }
  if (flags.sarif !== null) {
    const { crosscheckSarif } = await import("../report/sarif.js");
    await writeFileSafely(flags.sarif, jsonReportText(crosscheckSarif(report, { ids: CROSSCHECK_RULE_IDS, info: ruleInfo }), redact));
  }
  return crosscheckExitCode(report, flags.failOn);
}

function findOnPath(bin: string): string | null {
  const found = findCommand(bin, process.env.PATH);
  return "path" in found ? resolve(found.path) : null;
}
