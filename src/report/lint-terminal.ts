/** The terminal report of `run` and `check`: header, findings per tool with fix hints, the count line and the score block. Pure. */

import type { Severity } from "../lock/kinds.js";
import type { ToolScore, WasteItem } from "../lint/score.js";
import { RESPONSE_BUDGET_TOKENS } from "../lint/score-constants.js";
import { type LintReport, type LintReportItem, atLeast } from "./lint-report.js";
import { probeTableLines } from "./lint-probes.js";
import { capDisplay, capPath, neutralize, showNameCapped } from "../text/neutralize.js";
import { PLAIN_STYLE, paint, type TerminalStyle, wrapLine } from "./style.js";
import { pushAll } from "../arrays.js";
import { plural, thousands } from "../numbers.js";

/** How the report is shown. */
export interface LintTerminalOptions {
  /** Items below this severity are not printed; the count line says how many were left out. */
  minSeverity: Severity;
  /** The `--fail-under` threshold, to say when the score is under it. */
  failUnder: number | null;
}

/** Longest tool name, server name or label shown. */
const MAX_NAME = 128;
/** Tools listed in the score block; the rest are counted. */
export const SCORE_TOOLS_SHOWN = 10;
/**
 * Findings of one rule shown per tool; the rest are counted on one line. A 100,000-property schema
 * would otherwise print 100,000 S3 lines nobody reads (the JSON report keeps every finding).
 */
export const ITEMS_PER_RULE_SHOWN = 50;
/** Waste sources listed per tool in the score block; the rest are counted. */
const WASTE_ITEMS_SHOWN = 4;

/** Markers before each finding: `x` error, `!` warning, `i` info (the README's legend). */
export const SEVERITY_MARKER: Readonly<Record<Severity, string>> = { error: "x", warning: "!", info: "i" };
const SEVERITY_COLOUR = { error: "red", warning: "yellow", info: "cyan" } as const;

/** A server-chosen name, inert and capped. */
function shown(name: string): string {
  return showNameCapped(name, MAX_NAME);
}

function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * A parameter's name path from a JSON Pointer into the input or output schema (`a.b`, `rows[].id`),
 * or null when the pointer names no property. Raw server text.
 */
export function parameterLabel(path: string | null): string | null {
  if (path === null || !(path.startsWith("/inputSchema/") || path.startsWith("/outputSchema/"))) return null;
  // Escapes are rare: only a pointer holding `~` needs its tokens unescaped.
  const split = path.split("/");
  const tokens = path.includes("~") ? split.slice(2).map(unescapeToken) : split.slice(2);
  let label = "";
  let named = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as string;
    if (token === "properties" && index + 1 < tokens.length) {
      label += `${label === "" ? "" : "."}${tokens[index + 1]}`;
      named = true;
      index++;
    } else if (token === "items" && named) {
      label += "[]";
    }
  }
  return named ? label : null;
}

// Paths the message already names, so a label would only repeat it.
const SELF_EVIDENT = new Set(["/description", "/name", "/inputSchema"]);

/** The bracketed place shown before a message: the parameter (`a.b`) where there is one, else the JSON Pointer. */
function placeLabel(item: LintReportItem): string {
  if (item.kind !== null) return `[${item.kind}] `;
  if (item.path === null || SELF_EVIDENT.has(item.path)) return "";
  // S8 points at the exact string (a key, a description, an enum value); other rules name the
  // parameter, S2 and S3 by its place in the data (one finding for every branch that repeats it).
  const parameter = item.rule === "S8" ? null : (item.finding?.args.place ?? parameterLabel(item.path));
  return `[${capPath(neutralize(parameter ?? item.path), 80)}] `;
}

/** Longest parameter place shown in the score block; a longer one keeps its end, which names the parameter. */
const PLACE_SHOWN = 40;
/** More parameters than this with the same problem on one tool are one entry with a count. */
const PARAMS_NAMED = 2;

/** A parameter's place for the score block: its start and its end, inert. */
function shownPlace(place: string): string {
  return capPath(neutralize(place), PLACE_SHOWN);
}

/** Words for one source of waste in the score block; `named: false` leaves the parameter out, so alike ones merge. */
function wasteLabel(item: WasteItem, definitionTokens: number, named = true): string {
  const parameter = named ? (item.place ?? parameterLabel(item.path)) : null;
  const param = parameter === null ? (named ? "" : "s") : ` [${shownPlace(parameter)}]`;
  switch (`${item.cause}:${item.reason ?? ""}`) {
    case "definition:":
      return `${thousands(definitionTokens)}-token definition`;
    case "S1:missing":
      return "S1 no description";
    case "S1:empty":
      return "S1 empty description";
    case "S1:not_string":
      return "S1 description not a string";
    case "S1:short":
      return "S1 short description";
    case "S3:untyped":
      return `S3 untyped param${param}`;
    case "S3:undescribed":
      return `S3 undescribed param${param}`;
    case "P1:over_budget":
      return `${thousands(item.tokens + RESPONSE_BUDGET_TOKENS)}-token response`;
    case "P2:unlabelled_ids":
      return "P2 unlabelled IDs";
    case "P3:no_params":
      return "P3 no paging hint";
    case "P4:stack_trace":
      return "P4 leaked stack trace";
    case "P4:empty":
      return "P4 empty error";
    case "P4:opaque":
      return "P4 opaque error";
    case "P4:no_guidance":
      return "P4 error with no guidance";
    case "P4:as_success":
      return "P4 error as success";
    case "P4:accepted":
      return "P4 accepted bad input";
    case "P5:no_concise_mode":
      return "P5 no concise mode";
    default:
      if (item.cause === "S2") return `S2 vague param${param}`;
      if (item.cause === "S4") return "S4 overlaps another tool";
      if (item.cause === "S7") return "S7 unbounded list";
      if (item.cause === "client-sdk1-rejects") return "rejected by SDK 1.x clients";
      return `${item.cause}${item.reason === null ? "" : ` ${item.reason}`}`;
  }
}

/** `name, description and inputSchema`. */
function fieldList(fields: readonly string[]): string {
  return fields.length < 2 ? fields.join("") : `${fields.slice(0, -1).join(", ")} and ${fields[fields.length - 1]}`;
}

/** The header: who was checked, how many tools, and their estimated size. */
function headerLines(report: LintReport): string[] {
  const { snapshot, result } = report;
  const who = snapshot.name === null ? "(no name)" : `${shown(snapshot.name)}${snapshot.version === null ? "" : ` ${shown(snapshot.version)}`}`;
  const how = snapshot.transport === "file" ? `from ${capDisplay(neutralize(report.source ?? "file"), MAX_NAME)}` : `over ${snapshot.transport}`;
  return [
    `mcp-lint ${report.toolVersion}  server: ${who} (${how})`,
    `${plural(result.tools, "tool")} checked, definitions ~${thousands(result.tokens.total)} tokens (estimated; ${fieldList(result.tokens.fields)}, as clients send them)`,
  ];
}

/** The count line: every item counted, shown or not, then how many `--min-severity` left out. */
export function countLine(report: LintReport, hidden: number, minSeverity: Severity): string {
  const { counts, result } = report;
  const clean = `${thousands(result.counts.cleanTools)}/${thousands(result.tools)} tools clean`;
  // Clean tools can still cost: then the one thing that does (their size) is named beside "clean".
  const cost =
    result.tools > 0 && result.counts.cleanTools === result.tools && result.score.definitionOverhead > 0
      ? `, but their definitions cost ~${thousands(result.score.definitionOverhead)} tokens per session`
      : "";
  const line = `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${thousands(counts.info)} info; ${clean}${cost}`;
  return hidden === 0 ? line : `${line} (${plural(hidden, "finding")} below ${minSeverity} not shown)`;
}

/** What the score line adds when a list SDK 1.x clients reject caps the score, whatever the waste. */
function scoreCause(report: LintReport): string {
  const { rejectedTools } = report.result.score;
  return rejectedTools === 0 ? "" : `; F at most: SDK 1.x clients reject the whole list for ${plural(rejectedTools, "tool")} (client-sdk1-rejects)`;
}

/** The score block: the server's score, then the tools that waste most, worst first. */
function scoreLines(report: LintReport, failUnder: number | null, style: TerminalStyle): string[] {
  const { score, tokens } = report.result;
  const basis = score.static_only ? "static checks only" : "static checks + probes";
  const lines = [
    `Score: ${score.server}/100 (${score.grade})  ~${thousands(score.wasted)} tokens wasted per session (estimated; ${basis})${scoreCause(report)}`,
  ];
  const wasteful = score.tools.filter((tool) => tool.wasted > 0);
  wasteful.sort((x, y) => x.score - y.score || y.wasted - x.wasted || x.toolIndex - y.toolIndex);
  const names = wasteful.slice(0, SCORE_TOOLS_SHOWN).map((tool) => shown(tool.tool));
  const width = Math.min(32, Math.max(0, ...names.map((name) => name.length)) + 2);
  wasteful.slice(0, SCORE_TOOLS_SHOWN).forEach((tool: ToolScore, index) => {
    // Sources with the same words (three S4 overlaps) are one entry with a count and their sum.
    const merged = new Map<string, { count: number; tokens: number }>();
    // Many parameters with one problem (88 undescribed) read as one entry with their count and sum.
    const alike = new Map<string, number>();
    for (const item of tool.waste)
      if (item.place !== undefined) alike.set(`${item.cause}:${item.reason}`, (alike.get(`${item.cause}:${item.reason}`) ?? 0) + 1);
    for (const item of tool.waste) {
      const named = item.place === undefined || (alike.get(`${item.cause}:${item.reason}`) ?? 0) <= PARAMS_NAMED;
      const label = wasteLabel(item, tokens.perTool[tool.toolIndex] ?? 0, named);
      const entry = merged.get(label);
      if (entry === undefined) merged.set(label, { count: 1, tokens: item.tokens });
      else {
        entry.count++;
        entry.tokens += item.tokens;
      }
    }
    const entries = [...merged].sort((x, y) => y[1].tokens - x[1].tokens);
    const sources = entries
      .slice(0, WASTE_ITEMS_SHOWN)
      .map(([label, entry]) => `${label}${entry.count > 1 ? ` x${entry.count}` : ""}: ~${thousands(entry.tokens)}`);
    if (entries.length > WASTE_ITEMS_SHOWN) sources.push(`${thousands(entries.length - WASTE_ITEMS_SHOWN)} more`);
    const name = names[index] as string;
    const grade = paint(style, tool.grade === "A" || tool.grade === "B" ? "green" : tool.grade === "C" ? "yellow" : "red", tool.grade);
    lines.push(`  ${String(tool.score).padStart(3)} ${grade}  ${name}${" ".repeat(Math.max(1, width - name.length))}${sources.join(", ")}`);
  });
  if (wasteful.length > SCORE_TOOLS_SHOWN) lines.push(`  ... ${plural(wasteful.length - SCORE_TOOLS_SHOWN, "more tool")} with estimated waste`);
  if (wasteful.length === 0 && report.result.tools > 0) lines.push("  No tool wastes tokens by these estimates.");
  if (failUnder !== null && score.server < failUnder) lines.push(`Score ${score.server} is under --fail-under ${failUnder}.`);
  return lines;
}

/** One finding: marker, rule, place and message, then the fix hint under it. */
function itemLines(item: LintReportItem, style: TerminalStyle): string[] {
  const marker = paint(style, SEVERITY_COLOUR[item.severity], SEVERITY_MARKER[item.severity]);
  return [`  ${marker} ${item.rule} ${placeLabel(item)}${item.message}`, `      ${paint(style, "dim", `-> ${item.fix}`)}`];
}

/** Render the report. Server text is neutralized; colour and wrapping follow `style`. */
export function renderLintTerminal(
  report: LintReport,
  style: TerminalStyle = PLAIN_STYLE,
  options: LintTerminalOptions = { minSeverity: "info", failUnder: null },
): string {
  const lines = [...headerLines(report), ""];
  // The probe table comes first: the findings under each tool refer to its rows.
  if (report.probes !== null) {
    pushAll(lines, probeTableLines(report.probes));
    lines.push("");
  }
  const visible = (item: LintReportItem) => atLeast(item.severity, options.minSeverity);
  let hidden = 0;

  const serverItems = report.items.filter((item) => item.toolIndex === null);
  const serverShown = serverItems.filter(visible);
  hidden += serverItems.length - serverShown.length;
  if (serverShown.length > 0) {
    lines.push("(server)");
    for (const item of serverShown) pushAll(lines, itemLines(item, style));
    lines.push("");
  }

  // Tools in list order; a name served more than once is told apart by its position.
  const byTool = new Map<number, LintReportItem[]>();
  for (const item of report.items) {
    if (item.toolIndex === null) continue;
    if (!visible(item)) {
      hidden++;
      continue;
    }
    const group = byTool.get(item.toolIndex);
    if (group === undefined) byTool.set(item.toolIndex, [item]);
    else group.push(item);
  }
  const nameCounts = new Map<string, number>();
  for (const tool of report.result.score.tools) nameCounts.set(tool.tool, (nameCounts.get(tool.tool) ?? 0) + 1);
  for (const [index, items] of [...byTool].sort((x, y) => x[0] - y[0])) {
    const name = (items[0] as LintReportItem).tool ?? `#${index + 1}`;
    const suffix = (nameCounts.get(name) ?? 0) > 1 ? ` (tool #${index + 1})` : "";
    lines.push(paint(style, "bold", `${neutralize(showNameCapped(name, MAX_NAME), { lineStart: true })}${suffix}`));
    const perRule = new Map<string, number>();
    for (const item of items) {
      const count = (perRule.get(item.rule) ?? 0) + 1;
      perRule.set(item.rule, count);
      if (count <= ITEMS_PER_RULE_SHOWN) pushAll(lines, itemLines(item, style));
    }
    for (const [rule, count] of perRule) {
      if (count > ITEMS_PER_RULE_SHOWN)
        lines.push(`  ... ${plural(count - ITEMS_PER_RULE_SHOWN, `more ${rule} finding`)} on this tool (every one is in --json)`);
    }
    lines.push("");
  }
  if (report.items.length === 0) lines.push("No findings.", "");

  lines.push(countLine(report, hidden, options.minSeverity), "");
  pushAll(lines, scoreLines(report, options.failUnder, style));
  // Without a width wrapLine returns every line as it is; skip building a list per line then.
  const width = style.width;
  return `${(width === null ? lines : lines.flatMap((line) => wrapLine(line, width))).join("\n")}\n`;
}
