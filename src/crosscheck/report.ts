/** The crosscheck report: per client what it showed and how that differs, as data, one-line messages, terminal text and JSON. Pure. */

import { type Severity, SEVERITIES, severityRank } from "../lock/kinds.js";
import type { FailOn } from "../lock/engine.js";
import type { LintReportItem } from "../report/lint-report.js";
import { type TerminalStyle, PLAIN_STYLE, paint } from "../report/style.js";
import { capDisplay, neutralize, showNameCapped } from "../text/neutralize.js";
import { plural } from "../numbers.js";
import { type BaselineEntry, baselineable, entryKey, entryOf } from "./baseline.js";
import type { RenderFinding } from "./compare.js";
import { CROSSCHECK_RULES } from "./rules.js";

/** One finding as reported: the data, whether the baseline acknowledges it, its sentence and fix. */
export interface CrosscheckItem extends RenderFinding {
  client: string;
  acknowledged: boolean;
  message: string;
  fix: string;
}

/** What happened to one selected client. */
export interface ClientResult {
  id: string;
  label: string;
  /** The version it printed; null when it printed none (or was not found). */
  version: string | null;
  testedVersion: string;
  npmPackage: string;
  status: "compared" | "failed" | "skipped";
  /** Why it was skipped or failed (one line, redacted). */
  reason: string | null;
  /** Server tools it showed its model, of `total`. */
  shown: number;
  total: number;
  items: CrosscheckItem[];
  ms: number;
  /** Requests to its model endpoint refused for want of the run's key: another process posted to it. */
  refused: number;
}

/** The whole report. */
export interface CrosscheckReport {
  toolVersion: string;
  server: { name: string | null; version: string | null };
  /** Tools in the server's tools/list (every page). */
  tools: number;
  /** Notes about the served definitions themselves, the same for every client (the linter's client rules). */
  groundTruth: LintReportItem[];
  clients: ClientResult[];
  /** Baseline entries of compared clients that matched no finding: the drift is gone. */
  stale: BaselineEntry[];
  /** Where comparison stopped at a bound. */
  limited: { client: string; tool: string; path: string }[];
  /** Unacknowledged findings per severity (ground-truth notes not counted). */
  counts: Record<Severity, number>;
}

/** Server text as a quoted, neutralized, capped string. */
function quoted(text: string, max = 80): string {
  return `"${capDisplay(neutralize(text.length > max * 2 ? text.slice(0, max * 2) : text), max)}"`;
}

/** The parameter a path names, as `filter.author.name` (or the path itself when it is not a properties path). */
export function parameterOf(path: string | null): string | null {
  if (path === null) return null;
  const match = /^\/(inputSchema|outputSchema)((?:\/properties\/[^/]*|\/items|\/(?:allOf|anyOf|oneOf)\/\d+)*)$/.exec(path);
  if (match === null || match[2] === "") return null;
  const tokens = (match[2] as string).split("/").slice(1);
  const names: string[] = [];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as string;
    if (token === "items") names.push("[]");
    else if (token === "properties") names.push((tokens[++index] as string).replaceAll("~1", "/").replaceAll("~0", "~"));
    // A branch or member index says where the property is declared, not what it is called.
    else index++;
  }
  return names.length === 0 ? null : names.join(".").replaceAll(".[]", "[]");
}

/** One line about a finding; every piece of server text is neutralized. */
export function crosscheckMessage(finding: RenderFinding, clientLabel: string): string {
  const d = finding.detail;
  const param = parameterOf(finding.path);
  const where = param === null ? "" : ` parameter ${quoted(param)}`;
  switch (finding.rule) {
    case "render-client-failed":
      return `${clientLabel} ${capDisplay(neutralize(d.reason ?? "failed"), 400)}.`;
    case "render-tools-absent":
      return `${clientLabel} asked its model without any of the server's tools: it did not connect to the server or rejected its whole list.`;
    case "render-tool-missing":
      return finding.evidence === "capability-gated"
        ? `${clientLabel} does not show this tool, which the server lists only to a client that declares roots, sampling or elicitation.`
        : `${clientLabel} does not show this tool to its model.`;
    case "render-param-missing":
      return `${clientLabel} does not show${where} to its model.`;
    case "render-nested-dropped":
      return finding.evidence === "items"
        ? `${clientLabel} shows${where} without the schema of its items.`
        : `${clientLabel} shows${where} without the fields declared inside it.`;
    case "render-required-lost":
      return `${clientLabel} shows the required${where} as optional.`;
    case "render-type-changed": {
      const types = (list: string[] | undefined) => capDisplay(neutralize((list ?? []).join(" or ")), 80);
      const declared = d.declared?.[0] === "any" ? "to take any value" : types(d.declared);
      const rendered = (d.rendered ?? []).length === 0 ? "no type" : `type ${types(d.rendered)}`;
      return `${clientLabel} shows${where} (declared ${declared}) with ${rendered}.`;
    }
    case "render-description-missing":
      return param === null ? `${clientLabel} shows this tool without its description.` : `${clientLabel} shows${where} without its description.`;
    case "render-constraint-dropped":
      return d.renderedValue === undefined
        ? `${clientLabel} drops ${d.keyword ?? "a constraint"}${param === null ? "" : ` from${where}`}.`
        : `${clientLabel} changes ${d.keyword ?? "a constraint"}${param === null ? "" : ` of${where}`} from ${capDisplay(neutralize(d.declaredValue ?? ""), 60)} to ${capDisplay(neutralize(d.renderedValue), 60)}.`;
    case "render-branches-ignored":
      return `${clientLabel} drops the root ${finding.evidence.replace("+", " and ")} alternatives of the input schema.`;
    case "render-description-truncated":
      return `${clientLabel} cuts the${param === null ? "" : `${where}'s`} description from ${d.declaredLength} to ${d.renderedLength} characters.`;
    case "render-description-rewritten":
      if (d.added === true) return `${clientLabel} adds text to the${param === null ? "" : `${where}'s`} description: ${quoted(d.renderedText ?? "", 160)}.`;
      return `${clientLabel} shows${param === null ? " the tool" : where} with another description: ${quoted(d.renderedText ?? "")}.`;
    case "render-output-lost":
      return finding.evidence === "not-shown"
        ? `${clientLabel} does not show its model this tool's outputSchema.`
        : `${clientLabel} shows the outputSchema with a loss at${where === "" ? " its root" : where} (${capDisplay(neutralize(finding.evidence), 120)}).`;
  }
}

/** Build the report: acknowledge findings from the baseline, list stale entries, count what is left. */
export function buildCrosscheckReport(input: {
  toolVersion: string;
  server: { name: string | null; version: string | null };
  tools: number;
  groundTruth: LintReportItem[];
  clients: (Omit<ClientResult, "items"> & { findings: RenderFinding[] })[];
  limited: { client: string; tool: string; path: string }[];
  baseline: readonly BaselineEntry[];
}): CrosscheckReport {
  const known = new Set(input.baseline.map(entryKey));
  const used = new Set<string>();
  const counts: Record<Severity, number> = { info: 0, warning: 0, error: 0 };
  const clients = input.clients.map(({ findings, ...client }) => {
    const items = findings.map((finding): CrosscheckItem => {
      const key = entryKey(entryOf(client.id, finding));
      const acknowledged = baselineable(finding) && known.has(key);
      if (acknowledged) used.add(key);
      else counts[finding.severity]++;
      return { ...finding, client: client.id, acknowledged, message: crosscheckMessage(finding, client.label), fix: CROSSCHECK_RULES[finding.rule].fix };
    });
    return { ...client, items };
  });
  const compared = new Set(clients.filter((client) => client.status === "compared").map((client) => client.id));
  const stale = input.baseline.filter((entry) => compared.has(entry.client) && !used.has(entryKey(entry)));
  return { ...input, clients, stale, counts };
}

/** Exit code as `run` decides it: 1 when an unacknowledged finding reaches --fail-on. */
export function crosscheckExitCode(report: CrosscheckReport, failOn: FailOn): 0 | 1 {
  if (failOn === "never") return 0;
  const floor = severityRank(failOn);
  return SEVERITIES.some((severity) => severityRank(severity) >= floor && report.counts[severity] > 0) ? 1 : 0;
}

const MARKER: Readonly<Record<Severity, string>> = { error: "x", warning: "!", info: "i" };
const COLOUR = { error: "red", warning: "yellow", info: "cyan" } as const;

function countsText(counts: Record<Severity, number>): string {
  const parts = (["error", "warning", "info"] as const).filter((severity) => counts[severity] > 0).map((severity) => plural(counts[severity], severity));
  return parts.length === 0 ? "no differences" : parts.join(", ");
}

/** A finding as the terminal shows it: once for every tool and client it applies to alike. */
export interface FindingGroup {
  rule: RenderFinding["rule"];
  severity: Severity;
  /** Server tools it applies to, in report order, each once; empty for a finding about a whole client run. */
  tools: string[];
  /** Labels of the clients it applies to, in report order. */
  clients: string[];
  /** The sentence, with the clients as its subject (server text neutralized). */
  message: string;
}

/**
 * The unacknowledged findings at or above `minSeverity`, alike ones as one group: the same rule,
 * severity and evidence, and the same sentence once the client's name is taken out. The most
 * severe come first, then in the order they were found. `hidden` counts the findings below the floor.
 */
export function groupFindings(report: CrosscheckReport, minSeverity: Severity = "info"): { groups: FindingGroup[]; hidden: number } {
  const floor = severityRank(minSeverity);
  const byKey = new Map<string, { group: FindingGroup; sample: CrosscheckItem }>();
  let hidden = 0;
  for (const client of report.clients) {
    for (const item of client.items) {
      if (item.acknowledged) continue;
      if (severityRank(item.severity) < floor) {
        hidden++;
        continue;
      }
      const key = JSON.stringify([item.rule, item.severity, item.evidence, item.tool === null, crosscheckMessage(item, "")]);
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = { group: { rule: item.rule, severity: item.severity, tools: [], clients: [], message: "" }, sample: item };
        byKey.set(key, entry);
      }
      if (item.tool !== null && !entry.group.tools.includes(item.tool)) entry.group.tools.push(item.tool);
      if (!entry.group.clients.includes(client.label)) entry.group.clients.push(client.label);
    }
  }
  const groups = [...byKey.values()].map(({ group, sample }) => ({ ...group, message: crosscheckMessage(sample, clientsSubject(group.clients)) }));
  // A stable sort: equal severities keep the order they were found in.
  groups.sort((left, right) => severityRank(right.severity) - severityRank(left.severity));
  return { groups, hidden };
}

/** `Codex`, or `Each of Claude Code and Codex`: every message is written for one client as its subject. */
function clientsSubject(labels: readonly string[]): string {
  if (labels.length <= 1) return labels[0] ?? "";
  return `Each of ${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}

/** Tool names a grouped line lists before `and N more` (--json has every one). */
const TOOLS_LISTED = 5;
/** Longest tool name shown (a valid MCP name's most); a longer one is shown by its head, tail and a digest. */
const MAX_TOOL_SHOWN = 128;

/** What a group line starts with: `search: `, `14 tools (a, b, c, d, e and 9 more): `, or nothing for a whole client run. */
function toolsPrefix(tools: readonly string[]): string {
  if (tools.length === 0) return "";
  const shown = tools.slice(0, TOOLS_LISTED).map((tool) => showNameCapped(tool, MAX_TOOL_SHOWN));
  if (tools.length === 1) return `${shown[0]}: `;
  const more = tools.length - shown.length;
  return `${plural(tools.length, "tool")} (${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}): `;
}

/**
 * The terminal report: one line per client, then one line per distinct finding naming the tools
 * and clients it applies to (--json keeps one entry per tool and client). Findings below
 * `minSeverity` are counted, not listed.
 */
export function renderCrosscheckTerminal(report: CrosscheckReport, style: TerminalStyle = PLAIN_STYLE, minSeverity: Severity = "info"): string {
  const lines: string[] = [];
  const name = report.server.name === null ? "the server" : neutralize(capDisplay(report.server.name, 80));
  lines.push(
    `crosscheck: ${name}${report.server.version === null ? "" : ` ${neutralize(capDisplay(report.server.version, 40))}`}, ${plural(report.tools, "tool")} in tools/list`,
  );
  if (report.groundTruth.length > 0) {
    lines.push("", `every client: ${plural(report.groundTruth.length, "note")} on the definitions as served`);
    for (const item of report.groundTruth)
      lines.push(
        `  ${paint(style, COLOUR[item.severity], MARKER[item.severity])} ${item.tool === null ? "" : `${neutralize(capDisplay(item.tool, 80))}: `}${item.message} [${item.rule}]`,
      );
  }
  if (report.clients.length > 0) lines.push("");
  for (const client of report.clients) lines.push(clientLine(client, style));
  const { groups, hidden } = groupFindings(report, minSeverity);
  if (groups.length > 0) {
    lines.push("", `${plural(groups.length, "distinct finding")} (--json lists each tool and client on its own):`);
    for (const group of groups)
      lines.push(`  ${paint(style, COLOUR[group.severity], MARKER[group.severity])} ${toolsPrefix(group.tools)}${group.message} [${group.rule}]`);
  }
  if (hidden > 0) {
    if (groups.length === 0) lines.push("");
    lines.push(`${groups.length > 0 ? "  " : ""}(${plural(hidden, "finding")} below ${minSeverity} not shown)`);
  }
  if (report.stale.length > 0) {
    lines.push("", `baseline: ${plural(report.stale.length, "entry", "entries")} no longer found (run --update-baseline to drop them)`);
  }
  const skipped = report.clients.filter((client) => client.status === "skipped").length;
  lines.push(
    "",
    `summary: ${countsText(report.counts)} across ${plural(report.clients.length - skipped, "client")}${skipped > 0 ? `, ${skipped} skipped` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

/** A client's one line: its version, what it showed, its open findings by severity, its time. */
function clientLine(client: ClientResult, style: TerminalStyle): string {
  if (client.status === "skipped") return `${paint(style, "bold", client.label)}: skipped, ${client.reason ?? "not available"}`;
  const version = client.version === null ? "" : ` ${client.version}`;
  const open: Record<Severity, number> = { info: 0, warning: 0, error: 0 };
  let acknowledged = 0;
  for (const item of client.items) {
    if (item.acknowledged) acknowledged++;
    else open[item.severity]++;
  }
  const label = paint(style, "bold", `${client.label}${version}`);
  const head =
    client.status === "failed"
      ? `${label}: did not run to the end`
      : `${label}: ${client.shown} of ${plural(client.total, "tool")} shown, ${countsText(open)}${acknowledged > 0 ? ` (${acknowledged} more in the baseline)` : ""}`;
  const tested = client.version !== null && client.version !== client.testedVersion ? ` [tested with ${client.testedVersion}]` : "";
  const refused = client.refused > 0 ? `; its model endpoint refused ${plural(client.refused, "request")} without the run's key` : "";
  return `${head}${tested}${refused} (${(client.ms / 1000).toFixed(1)} s)`;
}

/** The JSON report (`--json`). */
export function crosscheckJson(report: CrosscheckReport): Record<string, unknown> {
  return {
    reportVersion: 1,
    tool: { name: "mcp-lint", version: report.toolVersion },
    command: "crosscheck",
    server: report.server,
    tools: report.tools,
    groundTruth: {
      findings: report.groundTruth.map((item) => ({ rule: item.rule, severity: item.severity, tool: item.tool, path: item.path, message: item.message })),
    },
    clients: report.clients.map((client) => ({
      id: client.id,
      label: client.label,
      version: client.version,
      testedVersion: client.testedVersion,
      npmPackage: client.npmPackage,
      status: client.status,
      reason: client.reason,
      shown: client.shown,
      total: client.total,
      ms: client.ms,
      // Requests to the client's model endpoint without the run's key: refused, never read.
      refused: client.refused,
      // Where comparison stopped at its depth or size bound, so the rest of that schema was not compared.
      limited: report.limited.filter((place) => place.client === client.id).map(({ tool, path }) => ({ tool, path })),
      findings: client.items.map((item) => ({
        rule: item.rule,
        severity: item.severity,
        tool: item.tool,
        path: item.path,
        evidence: item.evidence,
        acknowledged: item.acknowledged,
        message: item.message,
        fix: item.fix,
      })),
    })),
    baseline: { stale: report.stale },
    counts: report.counts,
  };
}
