/** What `mcp-lint eval` found: figures per server and arm, as terminal text, Markdown and an SVG chart. Pure. */

import { thousands } from "../numbers.js";
import { displayWidth, PLAIN_STYLE, paint, type TerminalStyle } from "../report/style.js";
import { capDisplay, neutralize } from "../text/neutralize.js";
import { runKey } from "./results.js";
import type { EvalArm, EvalResult, EvalTask } from "./types.js";

/** The figures of the runs of one arm (of one server, or of all). */
export interface ArmFigures {
  runs: number;
  successes: number;
  /** successes / runs, 0 to 1; null with no runs. */
  rate: number | null;
  /** Means over the runs that reported the figure; null when none did. */
  tokens: number | null;
  turns: number | null;
  toolCalls: number | null;
  /** Mean wall time of a run in seconds; null with no runs. */
  seconds: number | null;
}

/** One server's figures, per arm. */
export interface ServerFigures {
  server: string;
  direct: ArmFigures;
  proxy: ArmFigures;
}

/** Runs and successes of one task in one arm. */
export interface TaskCounts {
  runs: number;
  successes: number;
}

/** One task's counts, per arm. */
export interface TaskFigures {
  task: string;
  server: string;
  direct: TaskCounts;
  proxy: TaskCounts;
}

/** Runs that failed for the agent's own reasons, by why: not counted anywhere else. */
export interface NotCounted {
  runs: number;
  /** Each distinct error with its number of runs, most runs first (then first seen). */
  reasons: { reason: string; runs: number }[];
}

/** The results of one agent and model; results of different agents or models are never added up. */
export interface SummaryGroup {
  agent: string;
  model: string;
  /** Runs counted: those with a task result (the last one of each run). */
  runs: number;
  /** Runs with no task result, only the agent's own failures (the last one of each run counts). */
  notCounted: NotCounted;
  servers: ServerFigures[];
  /** Every server together. */
  all: { direct: ArmFigures; proxy: ArmFigures };
  tasks: TaskFigures[];
}

/** What summarize found: one group per agent and model, ordered by agent then model. */
export interface Summary {
  groups: SummaryGroup[];
}

/**
 * Figures of a results file. When several lines are for the same run (task, arm, run, agent,
 * model) the last task result counts; a run with only infrastructure lines (the agent's own
 * failures) is not counted in any figure but listed apart, by its last line. With `tasks` (the
 * task set), servers and tasks come in its order and those without runs are listed too; otherwise,
 * and for those the task set lacks, in code-unit order of their ids.
 */
export function summarize(results: readonly EvalResult[], tasks: readonly EvalTask[] = []): Summary {
  const latest = new Map<string, EvalResult>();
  for (const result of results) {
    const key = runKey(result.task, result.arm, result.run, result.agent, result.model);
    // The agent's own failure never replaces a task result: that run is done.
    if (result.infrastructure && latest.get(key)?.infrastructure === false) continue;
    latest.delete(key);
    latest.set(key, result);
  }
  const byGroup = bucket([...latest.values()], (result) => JSON.stringify([result.agent, result.model]));
  const groups = [...byGroup.values()].map((list) => groupOf(list, tasks));
  groups.sort((a, b) => compare(a.agent, b.agent) || compare(a.model, b.model));
  return { groups };
}

function groupOf(lines: readonly EvalResult[], tasks: readonly EvalTask[]): SummaryGroup {
  const first = lines[0] as EvalResult;
  const results = lines.filter((result) => !result.infrastructure);
  const serverOfTask = new Map<string, string>();
  for (const task of tasks) if (!serverOfTask.has(task.id)) serverOfTask.set(task.id, task.server);
  const known = new Set(serverOfTask.keys());
  for (const result of results) if (!known.has(result.task)) serverOfTask.set(result.task, result.server);

  const byServer = bucket(results, (result) => result.server);
  const byTask = bucket(results, (result) => result.task);
  const servers = ordered(
    tasks.map((task) => task.server),
    [...byServer.keys()],
  );
  const taskIds = ordered(
    tasks.map((task) => task.id),
    [...byTask.keys()],
  );
  const arm = (list: readonly EvalResult[], which: EvalArm) => list.filter((result) => result.arm === which);
  return {
    agent: first.agent,
    model: first.model,
    runs: results.length,
    notCounted: notCounted(lines.filter((result) => result.infrastructure)),
    servers: servers.map((server) => {
      const runs = byServer.get(server) ?? [];
      return { server, direct: figures(arm(runs, "direct")), proxy: figures(arm(runs, "proxy")) };
    }),
    all: { direct: figures(arm(results, "direct")), proxy: figures(arm(results, "proxy")) },
    tasks: taskIds.map((task) => {
      const runs = byTask.get(task) ?? [];
      return { task, server: serverOfTask.get(task) as string, direct: counts(arm(runs, "direct")), proxy: counts(arm(runs, "proxy")) };
    }),
  };
}

function notCounted(failures: readonly EvalResult[]): NotCounted {
  const byReason = bucket(failures, (result) => result.error ?? "");
  const reasons = [...byReason].map(([reason, list]) => ({ reason, runs: list.length }));
  // Most runs first; a stable sort keeps the first seen first among equals.
  reasons.sort((a, b) => b.runs - a.runs);
  return { runs: failures.length, reasons };
}

function bucket(results: readonly EvalResult[], keyOf: (result: EvalResult) => string): Map<string, EvalResult[]> {
  const buckets = new Map<string, EvalResult[]>();
  for (const result of results) {
    const key = keyOf(result);
    const list = buckets.get(key);
    if (list === undefined) buckets.set(key, [result]);
    else list.push(result);
  }
  return buckets;
}

/** The ids of `known` in their order, then the others of `seen` in code-unit order, each once. */
function ordered(known: readonly string[], seen: readonly string[]): string[] {
  const out = [...new Set(known)];
  const listed = new Set(out);
  out.push(...[...new Set(seen)].filter((id) => !listed.has(id)).sort(compare));
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function counts(results: readonly EvalResult[]): TaskCounts {
  return { runs: results.length, successes: results.filter((result) => result.success).length };
}

function figures(results: readonly EvalResult[]): ArmFigures {
  const { runs, successes } = counts(results);
  const seconds = mean(results.map((result) => result.ms));
  return {
    runs,
    successes,
    rate: runs === 0 ? null : successes / runs,
    tokens: mean(results.map((result) => result.tokens)),
    turns: mean(results.map((result) => result.turns)),
    toolCalls: mean(results.map((result) => result.toolCalls)),
    seconds: seconds === null ? null : seconds / 1000,
  };
}

function mean(values: ReadonlyArray<number | null>): number | null {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    count++;
  }
  return count === 0 ? null : sum / count;
}

/** Whether a task's arms came out differently (successes, or runs when one arm is incomplete). */
function armsDiffer(task: TaskFigures): boolean {
  return task.direct.successes !== task.proxy.successes || task.direct.runs !== task.proxy.runs;
}

// ---------------------------------------------------------------- shown figures

/** Longest server id, task id, agent or model shown; longer ones are cut (capDisplay). */
const MAX_ID_SHOWN = 60;
/** Longest reason of a run not counted shown. */
const MAX_REASON_SHOWN = 160;
/** Most distinct reasons listed for the runs not counted; the others are added up. */
const MAX_REASONS_SHOWN = 5;
const ARMS: readonly EvalArm[] = ["direct", "proxy"];
const HEADERS = ["server", "arm", "success", "tokens", "turns", "tool calls", "time"] as const;

/** A file's string made inert (neutralize) and cut to a shown length, never inside a surrogate pair. */
function shown(text: string, lineStart = false, cap = MAX_ID_SHOWN): string {
  const safe = neutralize(text, { lineStart });
  let max = cap;
  const code = safe.charCodeAt(max - 1);
  if (safe.length > max && code >= 0xd800 && code <= 0xdbff) max--;
  return capDisplay(safe, max);
}

function percent(rate: number | null): string {
  return rate === null ? "-" : `${Math.round(rate * 100)}%`;
}

function successCell(figures: TaskCounts & { rate: number | null }): string {
  return `${figures.successes}/${figures.runs} (${percent(figures.rate)})`;
}

function oneDecimal(value: number | null, unit = ""): string {
  return value === null ? "-" : `${value.toFixed(1)}${unit}`;
}

/** The shown cells of one table row after the server: arm, success, tokens, turns, tool calls, time. */
function figureCells(arm: EvalArm, figures: ArmFigures): string[] {
  return [
    arm,
    successCell(figures),
    figures.tokens === null ? "-" : thousands(figures.tokens),
    oneDecimal(figures.turns),
    oneDecimal(figures.toolCalls),
    oneDecimal(figures.seconds, "s"),
  ];
}

function groupTitle(group: SummaryGroup, show: (text: string) => string): string {
  const name = (text: string) => (text === "" ? "(none)" : show(text));
  return `agent ${name(group.agent)}, model ${name(group.model)}`;
}

function runsText(group: SummaryGroup): string {
  const counted = `${thousands(group.runs)} ${group.runs === 1 ? "run" : "runs"}`;
  return group.notCounted.runs === 0 ? counted : `${counted}, ${thousands(group.notCounted.runs)} not counted`;
}

/** The line above the list of runs not counted. */
function notCountedTitle(group: SummaryGroup): string {
  const runs = group.notCounted.runs;
  return `${thousands(runs)} ${runs === 1 ? "run" : "runs"} not counted: ${runs === 1 ? "it" : "they"} failed for the agent's own reasons, not the task's; the next eval --run runs ${runs === 1 ? "it" : "them"} again`;
}

/** The reasons of the runs not counted as [runs, reason] pairs, the reason made inert; past MAX_REASONS_SHOWN the rest as one pair. */
function notCountedRows(group: SummaryGroup, show: (text: string) => string): [runs: string, reason: string][] {
  const listed = group.notCounted.reasons.slice(0, MAX_REASONS_SHOWN);
  const rows: [string, string][] = listed.map(({ reason, runs }) => [thousands(runs), reason === "" ? "(no reason given)" : show(reason)]);
  const rest = group.notCounted.reasons.slice(MAX_REASONS_SHOWN).reduce((sum, { runs }) => sum + runs, 0);
  if (rest > 0) rows.push([thousands(rest), "other reasons"]);
  return rows;
}

// ---------------------------------------------------------------- terminal text

/**
 * The summary as terminal text: per agent and model, a fixed-width table of server by arm
 * (success `x/y (z%)`, mean tokens, turns, tool calls, seconds), then the tasks whose arms differ.
 */
export function reportText(summary: Summary, style: TerminalStyle = PLAIN_STYLE): string {
  if (summary.groups.length === 0) return "no eval results\n";
  const blocks = summary.groups.map((group) => {
    const lines = [paint(style, "bold", `${groupTitle(group, (text) => shown(text))}: ${runsText(group)}`), ""];
    if (group.runs === 0) lines.push("no task result to count");
    else {
      const rows: string[][] = [[...HEADERS]];
      const addRows = (label: string, figures: { direct: ArmFigures; proxy: ArmFigures }) => {
        for (const arm of ARMS) rows.push([arm === "direct" ? label : "", ...figureCells(arm, figures[arm])]);
      };
      for (const server of group.servers) addRows(shown(server.server, true), server);
      addRows("all", group.all);
      lines.push(...table(rows));
      const differ = group.tasks.filter(armsDiffer);
      lines.push("", differ.length === 0 ? "no task came out differently in the two arms" : "tasks that came out differently in the two arms:");
      for (const task of differ) {
        lines.push(
          `  ${shown(task.task)} (${shown(task.server)}): direct ${task.direct.successes}/${task.direct.runs}, proxy ${task.proxy.successes}/${task.proxy.runs}`,
        );
      }
    }
    if (group.notCounted.runs > 0) {
      lines.push("", `${notCountedTitle(group)}:`);
      for (const [runs, reason] of notCountedRows(group, (text) => shown(text, false, MAX_REASON_SHOWN))) lines.push(`  ${runs}x ${reason}`);
    }
    return lines.join("\n");
  });
  return `${blocks.join("\n\n")}\n`;
}

/** Rows as aligned columns: the first two left-aligned, the figures right-aligned; no trailing spaces. */
function table(rows: readonly string[][]): string[] {
  const widths = (rows[0] as string[]).map((_, column) => Math.max(...rows.map((row) => displayWidth(row[column] ?? ""))));
  return rows.map((row) =>
    row
      .map((cell, column) => {
        const pad = " ".repeat((widths[column] as number) - displayWidth(cell));
        return column < 2 ? cell + pad : pad + cell;
      })
      .join("  ")
      .replace(/ +$/, ""),
  );
}

// ---------------------------------------------------------------- Markdown

/** A file's string as inert Markdown text: neutralized, cut, and every ASCII punctuation but `-` backslash-escaped (no markup, link, HTML, entity or cell break). */
function markdownText(text: string, cap = MAX_ID_SHOWN): string {
  return shown(text, false, cap).replace(/[!-,./:-@[-`{-~]/g, "\\$&");
}

/** The summary as Markdown: a heading and two tables (servers by arm; tasks whose arms differ) per agent and model. */
export function reportMarkdown(summary: Summary): string {
  const lines = ["# mcp-lint eval", ""];
  if (summary.groups.length === 0) lines.push("No eval results.", "");
  for (const group of summary.groups) {
    lines.push(`## ${groupTitle(group, (text) => markdownText(text))}`, "", `${runsText(group)}.`, "");
    if (group.runs === 0) lines.push("No task result to count.", "");
    else {
      lines.push(`| ${HEADERS.join(" | ")} |`, "| --- | --- | ---: | ---: | ---: | ---: | ---: |");
      for (const server of group.servers) for (const arm of ARMS) lines.push(markdownRow([markdownText(server.server), ...figureCells(arm, server[arm])]));
      for (const arm of ARMS) lines.push(markdownRow(["**all**", ...figureCells(arm, group.all[arm])]));
      lines.push("");
      const differ = group.tasks.filter(armsDiffer);
      if (differ.length === 0) lines.push("No task came out differently in the two arms.", "");
      else {
        lines.push("Tasks that came out differently in the two arms:", "", "| task | server | direct | proxy |", "| --- | --- | ---: | ---: |");
        for (const task of differ) {
          lines.push(
            markdownRow([
              markdownText(task.task),
              markdownText(task.server),
              `${task.direct.successes}/${task.direct.runs}`,
              `${task.proxy.successes}/${task.proxy.runs}`,
            ]),
          );
        }
        lines.push("");
      }
    }
    if (group.notCounted.runs > 0) {
      const title = notCountedTitle(group);
      lines.push(`${title.charAt(0).toUpperCase()}${title.slice(1)}:`, "", "| runs | why |", "| ---: | --- |");
      for (const [runs, reason] of notCountedRows(group, (text) => markdownText(text, MAX_REASON_SHOWN))) lines.push(markdownRow([runs, reason]));
      lines.push("");
    }
  }
  return lines.join("\n");
}

function markdownRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

// ---------------------------------------------------------------- SVG chart

const WIDTH = 720;
const HEIGHT = 360;
const PLOT = { left: 56, right: WIDTH - 16, top: 72, bottom: HEIGHT - 56 };
const COLOURS: Record<EvalArm, string> = { direct: "#9aa0a6", proxy: "#1a73e8" };
const LEGEND: Record<EvalArm, string> = { direct: "direct (before)", proxy: "proxy (after)" };

/** Text for an SVG text node or attribute: neutralized, the five XML specials escaped, and U+FFFE/U+FFFF (not XML characters) made visible. */
function xmlText(text: string): string {
  return text
    .replace(/[\uFFFE\uFFFF]/g, (char) => `\\u{${(char.codePointAt(0) as number).toString(16).toUpperCase()}}`)
    .replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] as string);
}

/** A coordinate, rounded to one decimal, without trailing zeros. */
function coordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** An inert file string cut to `max` characters with an ellipsis, never inside a `\u{...}` escape or a surrogate pair. */
function label(text: string, max: number): string {
  const safe = neutralize(text);
  if (Array.from(safe).length <= max) return safe;
  // Whole escapes and whole code points: the pieces a cut may fall between.
  const pieces = safe.match(/\\u\{[0-9A-F]+\}|[\s\S]/gu) ?? [];
  let out = "";
  let used = 0;
  for (const piece of pieces) {
    const size = Array.from(piece).length;
    if (used + size > max - 1) break;
    out += piece;
    used += size;
  }
  return `${out}\u2026`;
}

function rateLabel(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

/**
 * The success rate per server, direct (before) beside proxy (after), and for all servers, as a
 * grouped bar chart in a self-contained SVG: 720x360, an axis from 0 to 100%, value labels, a
 * legend and a title, generic fonts. The same summary gives the same bytes. Draws group `group` of
 * the summary (the first by default).
 */
export function successChartSvg(summary: Summary, group = 0): string {
  const shownGroup = summary.groups[group];
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" role="img" aria-labelledby="chart-title">`,
    `<title id="chart-title">mcp-lint eval: task success, direct vs proxy</title>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="16" font-weight="bold" fill="#202124">Task success: direct vs through the mcp-lint proxy</text>`,
  ];
  if (shownGroup !== undefined) {
    out.push(
      `<text x="16" y="48" font-size="12" fill="#5f6368">${xmlText(
        label(
          groupTitle(shownGroup, (text) => text),
          52,
        ),
      )}; ${runsText(shownGroup)}</text>`,
    );
  }
  let legendX = 470;
  for (const arm of ARMS) {
    out.push(`<rect x="${legendX}" y="38" width="12" height="12" fill="${COLOURS[arm]}"/>`);
    out.push(`<text x="${legendX + 18}" y="48" font-size="12" fill="#202124">${LEGEND[arm]}</text>`);
    legendX += 130;
  }
  const plotHeight = PLOT.bottom - PLOT.top;
  const y = (rate: number) => PLOT.bottom - plotHeight * rate;
  for (const tick of [0, 25, 50, 75, 100]) {
    const at = coordinate(y(tick / 100));
    out.push(`<line x1="${PLOT.left}" y1="${at}" x2="${PLOT.right}" y2="${at}" stroke="${tick === 0 ? "#5f6368" : "#e0e0e0"}" stroke-width="1"/>`);
    out.push(`<text x="${PLOT.left - 6}" y="${coordinate(y(tick / 100) + 4)}" font-size="11" text-anchor="end" fill="#5f6368">${tick}%</text>`);
  }
  if (shownGroup === undefined || shownGroup.runs === 0) {
    out.push(`<text x="${WIDTH / 2}" y="${coordinate(PLOT.top + plotHeight / 2)}" font-size="14" text-anchor="middle" fill="#5f6368">no results</text>`);
  } else {
    const categories = [
      ...shownGroup.servers.map((server) => ({ name: server.server, all: false, arms: server })),
      { name: "all", all: true, arms: shownGroup.all },
    ];
    const slot = (PLOT.right - PLOT.left) / categories.length;
    const barWidth = Math.min(48, slot * 0.36);
    const maxChars = Math.max(3, Math.floor(slot / 7));
    categories.forEach((category, index) => {
      const centre = PLOT.left + slot * (index + 0.5);
      const name = category.all ? "all" : label(category.name, maxChars);
      ARMS.forEach((arm, side) => {
        const figures = category.arms[arm];
        const x = side === 0 ? centre - barWidth - 1 : centre + 1;
        const middle = coordinate(x + barWidth / 2);
        const what = `${category.all ? "all servers" : label(category.name, MAX_ID_SHOWN)}, ${arm}: ${figures.successes}/${figures.runs}`;
        if (figures.rate === null) {
          out.push(`<text x="${middle}" y="${coordinate(PLOT.bottom - 4)}" font-size="10" text-anchor="middle" fill="#5f6368">n/a</text>`);
          return;
        }
        const top = y(figures.rate);
        out.push(
          `<rect x="${coordinate(x)}" y="${coordinate(top)}" width="${coordinate(barWidth)}" height="${coordinate(PLOT.bottom - top)}" fill="${COLOURS[arm]}"><title>${xmlText(`${what} (${rateLabel(figures.rate)})`)}</title></rect>`,
        );
        out.push(`<text x="${middle}" y="${coordinate(top - 4)}" font-size="10" text-anchor="middle" fill="#202124">${rateLabel(figures.rate)}</text>`);
      });
      out.push(
        `<text x="${coordinate(centre)}" y="${PLOT.bottom + 18}" font-size="12" text-anchor="middle" fill="#202124"${category.all ? ' font-weight="bold"' : ""}>${xmlText(name)}</text>`,
      );
    });
  }
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
