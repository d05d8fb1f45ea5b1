// Second half of the Action's check step, started with an empty environment (bash `exec -c`) so no
// process above the server holds the job's variables: run this action's own build of
// `mcp-lint lock --check` (and, with `lint: true`, `mcp-lint run`) with the plan's environment,
// stream each run's output with workflow commands stopped, then write the annotations, the job
// summary and the exit code from their JSON reports. A missing or unreadable report is an error
// (exit 2), never "no changes" or "no findings".
//
//   exec -c node action/run.mjs <private folder>     (the folder holds plan.json from prepare.mjs)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { changeFromJson, changeLines } from "../dist/report/change-lines.js";
import { nextCommand, shellWord } from "../dist/report/next-command.js";
import { splitRepeated } from "../dist/report/repeated.js";
import { preloadWordDiff } from "../dist/report/text-diff.js";
import { capDisplay, neutralize, neutralizeLines } from "../dist/text/neutralize.js";
import { cliLaunch } from "./contain.mjs";
import { codeBlock, markdownCell, workflowCommand } from "./format.mjs";
import { OutputTargetError, writeOutputTarget } from "./json-output.mjs";
import { lockKey } from "./pr-comment.mjs";
import { asciiJson, folderUri, rebaseSarif, sarifProblem } from "./sarif.mjs";
import { failStep, keepingSummary, leaveCommentReport, stepFiles } from "./step.mjs";

/** Output kept for the summary; the log has all of it. */
const TAIL_BYTES = 64 * 1024;
/** Annotations and summary rows shown; the JSON report has every change. */
const MAX_ANNOTATIONS = 50;
const MAX_ROWS = 200;
const MAX_NAME = 120;
// A change's message carries every inserted character of the text it reports (a payload can sit at
// the end of a long description), so it is cut only far past any real description; GitHub itself
// keeps annotation messages up to 64 KB.
const MAX_MESSAGE = 16_000;
/** Bytes of change rows in the summary, within GitHub's 1 MiB for a step summary. */
const TABLE_BUDGET = 600 * 1024;

/** The last `limit` bytes written to it. */
class Tail {
  constructor(limit) {
    this.limit = limit;
    this.chunks = [];
    this.size = 0;
    this.dropped = 0;
  }
  push(chunk) {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - this.chunks[0].length >= this.limit) {
      const first = this.chunks.shift();
      this.size -= first.length;
      this.dropped += first.length;
    }
  }
  /** The kept text, starting at a line boundary when bytes were dropped. */
  text() {
    let buffer = Buffer.concat(this.chunks);
    let dropped = this.dropped;
    if (buffer.length > this.limit) {
      dropped += buffer.length - this.limit;
      buffer = buffer.subarray(buffer.length - this.limit);
    }
    let text = buffer.toString("utf8");
    if (dropped > 0) {
      const newline = text.indexOf("\n");
      text = newline === -1 ? text : text.slice(newline + 1);
    }
    return { text, dropped };
  }
}

/** Write to stdout, remembering whether the last byte ended a line. */
const out = {
  atLineStart: true,
  write(chunk) {
    if (chunk.length === 0) return;
    process.stdout.write(chunk);
    this.atLineStart = chunk[chunk.length - 1] === 0x0a || chunk[chunk.length - 1] === "\n";
  },
  line(text) {
    if (!this.atLineStart) this.write("\n");
    this.write(`${text}\n`);
  },
};

/** Run the CLI with `args`; both of its streams go to our stdout as they come, in one order (see below). */
function runCli(plan, args, launch) {
  return new Promise((done) => {
    const tail = new Tail(TAIL_BYTES);
    const errors = new Tail(8 * 1024);
    // One stream for both: the runner reads stdout and stderr separately, so a resume line on
    // stdout could be read before the CLI's last stderr line. Merged, every line the CLI printed
    // comes before the resume line.
    const [command, ...rest] = launch.argv;
    const cliArgs = [...args.slice(0, 1), ...launch.extraArgs, ...args.slice(1)];
    const child = spawn(command, [...rest, ...cliArgs], { cwd: plan.cwd, env: plan.env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => {
      out.write(chunk);
      tail.push(chunk);
    });
    child.stderr.on("data", (chunk) => {
      out.write(chunk);
      tail.push(chunk);
      errors.push(chunk);
    });
    child.on("error", (error) => done({ code: null, signal: null, spawnError: error, tail, errors }));
    child.on("close", (code, signal) => done({ code, signal, spawnError: null, tail, errors }));
  });
}

/** The resume token while workflow commands are stopped. */
let stopped = null;

/**
 * Run the CLI with workflow commands stopped: nothing mcp-lint (or a server through it) prints can
 * be a workflow command, since the runner ignores commands until it reads the resume token, which
 * no other process knows. Each run gets its own token.
 */
async function runStopped(plan, args, launch) {
  stopped = randomBytes(24).toString("hex");
  out.line(`::stop-commands::${stopped}`);
  const run = await runCli(plan, args, launch);
  out.line(`::${stopped}::`);
  stopped = null;
  return run;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const SEVERITIES = ["info", "warning", "error"];

function lastErrorLine(errors) {
  const lines = errors
    .text()
    .text.split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  const own = lines.filter((line) => line.startsWith("mcp-lint: "));
  return own.at(-1) ?? lines.at(-1) ?? "mcp-lint failed without a message";
}

/**
 * One run's outcome: its exit code (2 when the run cannot be trusted), the report when it is
 * usable, `problem` when it is not (a run that exits 0 or 1 must leave a report `reportProblem`
 * accepts), and `cliError`, mcp-lint's own one-line error, when it exited 2.
 */
function outcomeOf(run, reportPath, reportProblem) {
  let code = run.code;
  let problem = null;
  let report = null;
  let reportText = null;
  if (run.spawnError !== null) {
    problem = `mcp-lint could not start (${run.spawnError.message})`;
  } else if (code === 0 || code === 1) {
    try {
      reportText = readFileSync(reportPath, "utf8");
      const parsed = JSON.parse(reportText);
      const why = reportProblem(parsed, code);
      if (why === null) report = parsed;
      else problem = `the JSON report is unusable: ${why}`;
    } catch (error) {
      problem = error?.code === "ENOENT" ? "the JSON report is missing" : "the JSON report is unreadable";
    }
    if (problem !== null) problem = `mcp-lint exited ${code} but ${problem}`;
  } else if (code !== 2) {
    problem = run.signal !== null ? `mcp-lint was ended by ${run.signal}` : `mcp-lint exited with unexpected code ${code}`;
  }
  if (problem !== null) code = 2;
  const cliError = code === 2 && problem === null ? capDisplay(neutralize(lastErrorLine(run.errors)), MAX_MESSAGE) : null;
  return { code, problem, report: problem === null ? report : null, reportText, cliError, tail: run.tail };
}

/** Why a lock report is unusable, or null. The report comes from a run a server could disturb: trust nothing in it. */
function checkReportProblem(report, code, config) {
  if (!isObject(report)) return "it is not a JSON object";
  if (!Array.isArray(report.changes)) return "it has no list of changes";
  if (report.hidden_text !== undefined && !Array.isArray(report.hidden_text)) return "its hidden_text is not a list";
  if (config && !Array.isArray(report.servers)) return "it has no list of servers";
  if (report.exit_code !== code) return `it says exit code ${JSON.stringify(report.exit_code)} but mcp-lint exited ${code}`;
  return null;
}

/** The exit code a lint report means under `failOn` and `failUnder` (mcp-lint's own rule: a finding at or above the level, or a score under the bar). */
function lintExitCode(report, failOn, failUnder) {
  const bar = SEVERITIES.indexOf(failOn);
  const items = [...report.findings, ...report.server_findings];
  if (failOn !== "never" && items.some((item) => SEVERITIES.indexOf(item?.severity) >= bar)) return 1;
  if (failUnder !== null && report.score.server < failUnder) return 1;
  return 0;
}

/** Why a lint report is unusable, or null. It has no exit code of its own, so the one it implies must match. */
function lintReportProblem(report, code, lint) {
  if (!isObject(report)) return "it is not a JSON object";
  if (!Array.isArray(report.findings) || !Array.isArray(report.server_findings)) return "it has no lists of findings";
  if (!isObject(report.score) || typeof report.score.server !== "number" || !Number.isFinite(report.score.server)) return "it has no server score";
  const implied = lintExitCode(report, lint.failOn, lint.failUnder);
  if (implied !== code) return `its findings and score mean exit code ${implied} but mcp-lint exited ${code}`;
  return null;
}

function text(value) {
  return typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value);
}

const severityOf = (item) => (SEVERITIES.includes(item?.severity) ? item.severity : "error");
const nameOf = (value) => (typeof value === "string" ? capDisplay(neutralize(value), MAX_NAME) : null);
const messageOf = (value) => capDisplay(neutralize(text(value)), MAX_MESSAGE);
/** A finding's message with its place and fix, as one line. */
const withPlace = (item) => {
  const path = typeof item?.path === "string" && item.path !== "" ? ` (at ${item.path})` : "";
  const fix = typeof item?.fix === "string" && item.fix !== "" ? ` Fix: ${item.fix}` : "";
  return `${text(item?.message)}${path}${fix}`;
};

/** Names listed for a change repeated in many tools; the JSON report has every one. */
const MAX_NAMES_LISTED = 30;

/** What a row is about: one name (`prompt summarize` for what is not a tool), `9 tools: a, b, ...`, or null for the server itself. */
function subjectLabel(change, names) {
  const subject = change.subject ?? "tool";
  if (names.length === 0) return null;
  if (names.length === 1) return `${subject === "tool" ? "" : `${subject} `}${nameOf(names[0])}`;
  const shown = names.slice(0, MAX_NAMES_LISTED).map((name) => nameOf(name));
  const more = names.length - shown.length;
  return `${names.length} ${subject}s: ${shown.join(", ")}${more > 0 ? ` and ${more} more (every one is in the JSON report)` : ""}`;
}

/**
 * A change's headline and the lines under it (text the model reads, edit by edit, each line inert);
 * the report's message when it has no lines.
 */
function shownChange(change, entry) {
  try {
    const shown = changeLines(change);
    if (shown.lines.length > 0) return { headline: messageOf(shown.headline), lines: shown.lines };
  } catch {
    // a report a server disturbed: its message is shown as it is
  }
  return { headline: messageOf(entry?.message), lines: [] };
}

/**
 * The rows of the lock check: each change, the same change made to several tools once (grouped as
 * the terminal report groups them), then each hidden-text (S8) finding, every field made inert and
 * cut to a readable length. `server` is the config entry's name with `config`, else null; `tool`
 * names what the row is about; `shown()` gives the headline and the lines of text for the summary
 * (worked out only for the rows it shows).
 */
function checkRows(report, config) {
  const server = (item) => (config ? (nameOf(item?.server) ?? "?") : null);
  const entries = new Map();
  const parsed = report.changes.map((entry) => {
    const change = changeFromJson(entry);
    entries.set(change, entry);
    return change;
  });
  const { repeated, rest } = splitRepeated(parsed);
  const groups = [...repeated, ...rest.map((change) => ({ change, names: change.tool === null ? [] : [change.tool] }))];
  const changes = groups.map(({ change, names }) => {
    const entry = entries.get(change);
    return {
      severity: change.severity,
      kind: capDisplay(neutralize(change.kind), MAX_NAME),
      server: server(entry),
      tool: subjectLabel(change, names),
      message: messageOf(entry?.message),
      shown: () => shownChange(change, entry),
    };
  });
  const hidden = (report.hidden_text ?? []).map((finding) => ({
    severity: severityOf(finding),
    kind: `${capDisplay(neutralize(text(finding?.rule) || "S8"), MAX_NAME)} hidden_text`,
    server: server(finding),
    tool: nameOf(finding?.tool),
    message: messageOf(withPlace(finding)),
    shown: () => ({ headline: messageOf(withPlace(finding)), lines: [] }),
  }));
  return [...changes, ...hidden];
}

/** Every change and hidden-text finding once per tool, as the terminal's count line counts them: [server, severity] pairs. */
function countedItems(report, config) {
  return [...report.changes, ...(report.hidden_text ?? [])].map((item) => ({
    server: config ? (nameOf(item?.server) ?? "?") : null,
    severity: severityOf(item),
  }));
}

/**
 * A row's change as one table cell: the headline, then each line of its text under it (`<br>`, the
 * only HTML in it, which the Action writes itself). Each line is escaped on its own, its indent kept
 * as no-break spaces; the lines stop at MAX_MESSAGE characters, saying how many more the JSON report has.
 */
function changeCell(row) {
  const { headline, lines } = row.shown();
  const cells = [markdownCell(headline)];
  let budget = MAX_MESSAGE;
  for (const [index, line] of lines.entries()) {
    if (budget <= 0) {
      cells.push(markdownCell(`...(${lines.length - index} more lines; the JSON report has all of them)`));
      break;
    }
    const shown = capDisplay(line, budget);
    budget -= shown.length;
    const indent = /^ */.exec(shown)[0].length;
    cells.push(`${"&nbsp;".repeat(indent)}${markdownCell(shown.slice(indent))}`);
  }
  return cells.join("<br>");
}

/** The rows of the lint run: findings on tools, then findings on the server as a whole. */
function lintRows(report) {
  const row = (item, tool) => ({
    severity: severityOf(item),
    rule: capDisplay(neutralize(text(item?.rule) || "unknown"), MAX_NAME),
    tool,
    message: messageOf(withPlace(item)),
  });
  return [...report.findings.map((item) => row(item, nameOf(item?.tool))), ...report.server_findings.map((item) => row(item, null))];
}

function outputBlock(tail) {
  const { text: output, dropped } = tail.text();
  const shown = neutralizeLines(output.replace(/\n$/, "")).join("\n");
  const label = dropped > 0 ? `Output (last ${Math.round(TAIL_BYTES / 1024)} KB; the log has all of it)` : "Output";
  // The blank line after </details> ends the HTML block, so a section after it is Markdown again.
  return `<details><summary>${label}</summary>\n\n${codeBlock(shown)}\n</details>\n\n`;
}

function failureLines({ problem, cliError }, noReport) {
  if (problem !== null) return `**No usable report:** ${markdownCell(problem)}. The check cannot be trusted, so the step fails.\n\n`;
  if (cliError !== null) return `${noReport}${markdownCell(cliError)}\n\n`;
  return "";
}

function checkSummary(plan, outcome, verdict, fileErrors, rows) {
  let md = `## mcp-lint lock --check\n\nExit code: **${outcome.code}** (${verdict})\n\n`;
  for (const [what, error] of fileErrors) if (error !== null) md += `**The ${what} was not written:** ${markdownCell(error)}\n\n`;
  md += failureLines(outcome, "No report: mcp-lint stopped on an error: ");
  const { report } = outcome;
  if (report === null) return md + outputBlock(outcome.tail);
  const config = plan.config !== "";
  // Counted like the terminal's count line: changes and hidden-text findings alike, each tool's once.
  const items = countedItems(report, config);
  if (config) {
    const servers = report.servers.slice(0, MAX_ROWS).map((entry) => {
      const name = nameOf(entry?.name) ?? "?";
      const count = (level) => items.filter((item) => item.server === name && item.severity === level).length;
      return `| ${markdownCell(name)} | ${count("error")} | ${count("warning")} | ${count("info")} |`;
    });
    md += `Servers of ${markdownCell(plan.config)}: ${report.servers.length}\n\n| Server | Errors | Warnings | Info |\n|---|---|---|---|\n${servers.join("\n")}\n\n`;
  }
  if (rows.length === 0) {
    md += "No changes.\n\n";
  } else {
    // GitHub keeps a step summary up to 1 MiB: rows stop at MAX_ROWS or at the table budget, whole.
    const cells = [];
    let size = 0;
    for (const row of rows.slice(0, MAX_ROWS)) {
      const tool = row.tool === null ? "(server)" : markdownCell(row.tool);
      const server = config ? ` ${markdownCell(row.server)} |` : "";
      const cell = `| ${row.severity} | ${markdownCell(row.kind)} |${server} ${tool} | ${changeCell(row)} |`;
      if (cells.length > 0 && size + cell.length > TABLE_BUDGET) break;
      cells.push(cell);
      size += cell.length + 1;
    }
    const head = config ? "| Severity | Kind | Server | Tool | Message |\n|---|---|---|---|---|" : "| Severity | Kind | Tool | Message |\n|---|---|---|---|";
    md += `${head}\n${cells.join("\n")}\n\n`;
    if (rows.length > cells.length) md += `${rows.length - cells.length} more rows are in the JSON report and the log.\n\n`;
    // A change repeated in 9 tools is one row and 9 changes.
    const count = (level) => items.filter((item) => item.severity === level).length;
    md += `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${count("info")} info.\n\n`;
    if (outcome.code === 1) md += `Changes at or above \`${plan.failOn}\` fail the check.\n\n`;
  }
  if (Array.isArray(report.ignored) && report.ignored.length > 0) {
    md += `${report.ignored.length} change${report.ignored.length === 1 ? " is" : "s are"} silenced by ignore rules in the lock (listed in the JSON report).\n\n`;
  }
  if (report.changes.length > 0) md += reviewStep(plan);
  return md + outputBlock(outcome.tail);
}

/**
 * The next step after a change: the command that reviews it on a terminal (`lock --review`, which
 * shows each change and asks), with this job's lock and server arguments, then commit the lock. It
 * holds no secret: environment variables by name only, a URL's user info and query as placeholders,
 * and not the CI-only --no-oauth. Fenced, so it is copied as it is and nothing in it is Markdown.
 */
function reviewStep(plan) {
  const args = plan.check.args;
  const end = args.includes("--") ? args.indexOf("--") : args.length;
  const flags = args.slice(0, end).filter((arg) => arg !== "--no-oauth");
  const { words, secretsHidden } = nextCommand([...flags, ...args.slice(end)], { review: true });
  const folder = relative(plan.root, plan.cwd).split(sep).join("/");
  const cd = folder === "" || folder === ".." || folder.startsWith("../") || isAbsolute(folder) ? "" : `cd ${shellWord(folder)} && `;
  const command = `${cd}${words.map((word) => neutralize(shellWord(word))).join(" ")}`;
  const url = secretsHidden ? " Put back what shows as SECRET, USER:PASSWORD or QUERY first: it is left out here, as it may be a secret." : "";
  return `**Next:** review the changes on your machine with this command (it shows each change and asks whether to accept it), then commit the lock.${url}\n\n${codeBlock(command)}\n`;
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

function lintSummary(lint, outcome, verdict) {
  let md = `## mcp-lint run\n\nExit code: **${outcome.code}** (${verdict})\n\n`;
  md += failureLines(outcome, "No report: mcp-lint stopped on an error: ");
  const { report } = outcome;
  if (report === null) return md + outputBlock(outcome.tail);
  const grade = nameOf(report.score.grade) ?? "?";
  const tools = Number.isSafeInteger(report.tools) ? `, ${plural(report.tools, "tool")} checked` : "";
  const tokens = Number.isSafeInteger(report.tokens_estimated) ? `, definitions ~${report.tokens_estimated} tokens` : "";
  const bar = lint.failUnder === null ? "" : ` (fail-under ${lint.failUnder})`;
  md += `Score: ${report.score.server}/100 (${markdownCell(grade)})${bar}${tools}${tokens} (estimated; static checks only)\n\n`;
  const rows = lintRows(report);
  if (rows.length === 0) {
    md += "No findings.\n\n";
  } else {
    const cells = rows
      .slice(0, MAX_ROWS)
      .map(
        (row) => `| ${row.severity} | ${markdownCell(row.rule)} | ${row.tool === null ? "(server)" : markdownCell(row.tool)} | ${markdownCell(row.message)} |`,
      );
    md += `| Severity | Rule | Tool | Message |\n|---|---|---|---|\n${cells.join("\n")}\n\n`;
    if (rows.length > MAX_ROWS) md += `${rows.length - MAX_ROWS} more findings are in the log.\n\n`;
    const count = (level) => rows.filter((row) => row.severity === level).length;
    md += `${plural(count("error"), "error")}, ${plural(count("warning"), "warning")}, ${count("info")} info.\n\n`;
  }
  const scores = isObject(report.score.tools)
    ? Object.entries(report.score.tools).filter(([, entry]) => typeof entry?.score === "number" && entry.score < 100)
    : [];
  if (scores.length > 0) {
    scores.sort((a, b) => a[1].score - b[1].score);
    const shown = scores
      .slice(0, 10)
      .map(([tool, entry]) => `| ${markdownCell(nameOf(tool) ?? "")} | ${entry.score} | ${markdownCell(nameOf(entry.grade) ?? "?")} |`);
    md += `Lowest tool scores:\n\n| Tool | Score | Grade |\n|---|---|---|\n${shown.join("\n")}\n\n`;
  }
  return md + outputBlock(outcome.tail);
}

/** Why the lint run exited 1, from its report. */
function lintVerdict(lint, outcome) {
  if (outcome.code === 0) return "passed";
  if (outcome.code !== 1) return "error";
  const reasons = [];
  const bar = SEVERITIES.indexOf(lint.failOn);
  const report = outcome.report;
  if (lint.failOn !== "never" && [...report.findings, ...report.server_findings].some((item) => SEVERITIES.indexOf(item?.severity) >= bar)) {
    reasons.push(`findings at or above \`${lint.failOn}\``);
  }
  if (lint.failUnder !== null && report.score.server < lint.failUnder) reasons.push(`score ${report.score.server} is under fail-under ${lint.failUnder}`);
  return `failed: ${reasons.join("; ")}`;
}

/**
 * Copy the CLI's SARIF log to the `sarif` input's path: check its shape, make its file locations
 * relative to the workspace root, and write it without following symlinks. Returns an error or null.
 */
function writeSarif(plan) {
  let raw;
  try {
    raw = readFileSync(plan.check.sarif, "utf8");
  } catch (error) {
    return error?.code === "ENOENT" ? "mcp-lint did not write the SARIF log." : "the SARIF log mcp-lint wrote is unreadable.";
  }
  let log;
  try {
    log = JSON.parse(raw);
  } catch {
    return "the SARIF log mcp-lint wrote is not JSON.";
  }
  const why = sarifProblem(log);
  if (why !== null) return `the SARIF log mcp-lint wrote is unusable: ${why}.`;
  // mcp-lint writes the lock's URI relative to where it ran; upload-sarif reads it from the workspace root.
  const prefix = folderUri(relative(plan.root, plan.cwd).split(sep).join("/"));
  try {
    writeOutputTarget("sarif", plan.sarif, plan.cwd, plan.root, prefix === "" ? raw : asciiJson(rebaseSarif(log, prefix)));
  } catch (error) {
    return error instanceof OutputTargetError ? error.message : `The sarif input "${plan.sarif}" could not be written (${error?.code ?? error?.message}).`;
  }
  return null;
}

/** Set once the plan is read, so a fault later can still fail the step in the summary. */
let files = stepFiles({});
/** With `comment`: the summary's Markdown as written, and what the comment step needs besides. */
const kept = { markdown: "" };
let commentReport = null;

async function main(dir) {
  // The summary's word diffs need the diff library: loaded now, before a server (which runs as this
  // user and could rewrite node_modules) starts.
  await preloadWordDiff();
  const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"));
  // The plan holds the values of header-env and pass-env variables: gone before any server starts.
  rmSync(join(dir, "plan.json"));
  files = plan.comment === true ? keepingSummary(stepFiles(plan), kept) : stepFiles(plan);
  // The lock's path from the workspace root names the annotations' file (none for a lock outside it) and the comment.
  const lockFromRoot = lockKey(plan.root, plan.cwd, plan.lock);
  const annotationFile = isAbsolute(lockFromRoot) ? undefined : lockFromRoot;
  if (plan.comment === true) commentReport = { key: lockFromRoot, quiet: false };
  // The lock check's annotations sit on the lockfile; a live lint run has no file to point at.
  const annotate = (level, title, message) => out.line(workflowCommand(level, { file: annotationFile, title }, message));
  const annotateLint = (level, title, message) => out.line(workflowCommand(level, { title }, message));
  const config = plan.config !== "";
  const launch = await cliLaunch(plan);

  // The lock check.
  const check = outcomeOf(await runStopped(plan, plan.check.args, launch), plan.check.report, (report, code) => checkReportProblem(report, code, config));
  const ran = check.report !== null;
  let jsonError = null;
  if (plan.json !== "" && ran) {
    try {
      writeOutputTarget("json", plan.json, plan.cwd, plan.root, check.reportText);
    } catch (error) {
      jsonError = error instanceof OutputTargetError ? error.message : `The json input "${plan.json}" could not be written (${error?.code ?? error?.message}).`;
    }
  }
  const sarifError = plan.sarif !== "" && ran ? writeSarif(plan) : null;
  let checkCode = check.code;
  if (jsonError !== null || sarifError !== null) checkCode = 2;

  const rows = ran ? checkRows(check.report, config) : [];
  let shown = 0;
  for (const row of rows) {
    if (row.severity !== "error" && row.severity !== "warning") continue;
    if (shown++ === MAX_ANNOTATIONS) {
      annotate("warning", "mcp-lint", "More changes than shown here: see the job summary and the JSON report.");
      break;
    }
    annotate(row.severity, `mcp-lint ${row.server === null ? "" : `${row.server}: `}${row.kind}${row.tool === null ? "" : ` (${row.tool})`}`, row.message);
  }
  if (check.problem !== null) annotate("error", "mcp-lint", `${check.problem}. The check cannot be trusted, so the step fails.`);
  if (check.cliError !== null) annotate("error", "mcp-lint", check.cliError);
  if (jsonError !== null) annotate("error", "mcp-lint", jsonError);
  if (sarifError !== null) annotate("error", "mcp-lint", `The sarif input "${plan.sarif}": ${sarifError}`);
  const checkVerdict = checkCode === 0 ? "passed" : checkCode === 1 ? `failed: changes at or above \`${plan.failOn}\`` : "error";
  files.summary(
    checkSummary(
      plan,
      { ...check, code: checkCode },
      checkVerdict,
      [
        ["JSON report", jsonError],
        ["SARIF log", sarifError === null ? null : `The sarif input "${plan.sarif}": ${sarifError}`],
      ],
      rows,
    ),
  );

  // The lint run, unless the lock check could not read the server (it would fail the same way, twice as slowly).
  let code = checkCode;
  // No change and no finding: the comment (if there is one) says so in a line.
  let quiet = checkCode === 0 && ran && rows.length === 0;
  if (plan.lint !== null) {
    if (check.code === 2) {
      files.summary("## mcp-lint run\n\nSkipped: the lock check ended in an error, so the server was not linted.\n\n");
    } else {
      const lint = outcomeOf(await runStopped(plan, plan.lint.args, launch), plan.lint.report, (report, runCode) =>
        lintReportProblem(report, runCode, plan.lint),
      );
      let shownFindings = 0;
      for (const row of lint.report === null ? [] : lintRows(lint.report)) {
        if (row.severity !== "error" && row.severity !== "warning") continue;
        if (shownFindings++ === MAX_ANNOTATIONS) {
          annotateLint("warning", "mcp-lint run", "More findings than shown here: see the job summary and the log.");
          break;
        }
        annotateLint(row.severity, `mcp-lint run ${row.rule}${row.tool === null ? "" : ` (${row.tool})`}`, row.message);
      }
      if (lint.problem !== null) annotateLint("error", "mcp-lint run", `${lint.problem}. The lint run cannot be trusted, so the step fails.`);
      if (lint.cliError !== null) annotateLint("error", "mcp-lint run", lint.cliError);
      files.summary(lintSummary(plan.lint, lint, lintVerdict(plan.lint, lint)));
      files.output("lint-exit-code", String(lint.code));
      quiet &&= lint.code === 0 && lint.report !== null && lintRows(lint.report).length === 0;
      code = Math.max(checkCode, lint.code);
      files.summary(`Step exit code: ${code}, the worst of the lock check (${checkCode}) and the lint run (${lint.code}).\n`);
    }
  }
  files.output("exit-code", String(code));
  process.exitCode = code;
  if (commentReport !== null) commentReport.quiet = quiet && code === 0;
}

const dir = process.argv[2] ?? "";
try {
  await main(dir);
} catch (error) {
  // A fault here must fail the step as an error, never pass it or read as "changes found" (1).
  if (stopped !== null) out.line(`::${stopped}::`);
  if (!out.atLineStart) out.write("\n");
  failStep(files, `The Action failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  // With `comment`, the folder keeps only comment.json for the comment step, which removes it.
  if (dir !== "") {
    try {
      if (commentReport === null) rmSync(dir, { recursive: true, force: true });
      else leaveCommentReport(dir, { ...commentReport, markdown: kept.markdown });
    } catch {
      // The comment step then says the check left no report; the check's result stands.
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
