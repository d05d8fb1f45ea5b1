// Second half of the Action's check step, started with an empty environment (bash `exec -c`) so no
// process above the server holds the job's variables: run this action's own build of
// `mcp-lint lock --check` with the plan's environment, stream its output with workflow commands
// stopped, then write the annotations, the job summary and the exit code from its JSON report.
// A missing or unreadable report is an error (exit 2), never "no changes".
//
//   exec -c node action/run.mjs <private folder>     (the folder holds plan.json from prepare.mjs)
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { capDisplay, neutralize, neutralizeLines } from "../dist/report/neutralize.js";
import { codeBlock, markdownCell, workflowCommand } from "./format.mjs";
import { JsonTargetError, writeJsonTarget } from "./json-output.mjs";
import { failStep, stepFiles } from "./step.mjs";

/** Output kept for the summary; the log has all of it. */
const TAIL_BYTES = 64 * 1024;
/** Annotations and summary rows shown; the JSON report has every change. */
const MAX_ANNOTATIONS = 50;
const MAX_ROWS = 200;
const MAX_NAME = 120;
const MAX_MESSAGE = 2000;

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

/** Run the CLI; both of its streams go to our stdout as they come, in one order (see below). */
function runCli(plan) {
  return new Promise((done) => {
    const tail = new Tail(TAIL_BYTES);
    const errors = new Tail(8 * 1024);
    // One stream for both: the runner reads stdout and stderr separately, so a resume line on
    // stdout could be read before the CLI's last stderr line. Merged, every line the CLI printed
    // comes before the resume line.
    const child = spawn(process.execPath, [plan.cli, ...plan.args], { cwd: plan.cwd, env: plan.env, stdio: ["ignore", "pipe", "pipe"] });
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

/** Why a report is unusable, or null. The report comes from a run a server could disturb: trust nothing in it. */
function reportProblem(report, code) {
  if (report === null || typeof report !== "object" || Array.isArray(report)) return "it is not a JSON object";
  if (!Array.isArray(report.changes)) return "it has no list of changes";
  if (report.exit_code !== code) return `it says exit code ${JSON.stringify(report.exit_code)} but mcp-lint exited ${code}`;
  return null;
}

function text(value) {
  return typeof value === "string" ? value : value === null || value === undefined ? "" : JSON.stringify(value);
}

/** A change's fields, each made inert and cut to a readable length. */
function shownChange(change) {
  const severity = ["error", "warning", "info"].includes(change?.severity) ? change.severity : "error";
  const kind = capDisplay(neutralize(text(change?.kind) || "unknown"), MAX_NAME);
  const tool = typeof change?.tool === "string" ? capDisplay(neutralize(change.tool), MAX_NAME) : null;
  const message = capDisplay(neutralize(text(change?.message)), MAX_MESSAGE);
  return { severity, kind, tool, message };
}

function lastErrorLine(errors) {
  const lines = errors.text().text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const own = lines.filter((line) => line.startsWith("mcp-lint: "));
  return own.at(-1) ?? lines.at(-1) ?? "mcp-lint failed without a message";
}

function summaryMarkdown({ code, verdict, problem, cliError, jsonError, changes, tail, failOn }) {
  let md = `## mcp-lint lock --check\n\nExit code: **${code}** (${verdict})\n\n`;
  if (jsonError !== null) md += `**The JSON report was not written:** ${markdownCell(jsonError)}\n\n`;
  if (problem !== null) {
    md += `**No usable report:** ${markdownCell(problem)}. The check cannot be trusted, so the step fails.\n\n`;
  } else if (changes === null) {
    md += `No report: mcp-lint stopped on an error: ${markdownCell(cliError ?? "")}\n\n`;
  } else if (changes.length === 0) {
    md += "No changes.\n\n";
  } else {
    const rows = changes.slice(0, MAX_ROWS).map((change) => {
      const shown = shownChange(change);
      const tool = shown.tool === null ? "(server)" : markdownCell(shown.tool);
      return `| ${shown.severity} | ${markdownCell(shown.kind)} | ${tool} | ${markdownCell(shown.message)} |`;
    });
    md += `| Severity | Kind | Tool | Message |\n|---|---|---|---|\n${rows.join("\n")}\n\n`;
    if (changes.length > MAX_ROWS) md += `${changes.length - MAX_ROWS} more changes are in the JSON report and the log.\n\n`;
    if (code === 1) md += `Changes at or above \`${failOn}\` fail the check.\n\n`;
  }
  const { text: output, dropped } = tail.text();
  const shown = neutralizeLines(output.replace(/\n$/, "")).join("\n");
  const label = dropped > 0 ? `Output (last ${Math.round(TAIL_BYTES / 1024)} KB; the log has all of it)` : "Output";
  md += `<details><summary>${label}</summary>\n\n${codeBlock(shown)}\n</details>\n`;
  return md;
}

/** Set once the plan is read, so a fault later can still fail the step in the summary. */
let files = stepFiles({});
/** The resume token while workflow commands are stopped. */
let stopped = null;

async function main(dir) {
  const plan = JSON.parse(readFileSync(join(dir, "plan.json"), "utf8"));
  // The plan holds the values of header-env and pass-env variables: gone before any server starts.
  rmSync(join(dir, "plan.json"));
  files = stepFiles(plan);
  const lockPath = resolve(plan.cwd, plan.lock);
  const lockRel = relative(plan.root, lockPath);
  const annotationFile = lockRel === "" || lockRel.startsWith(`..${sep}`) || isAbsolute(lockRel) ? undefined : lockRel.split(sep).join("/");
  const annotate = (level, title, message) => out.line(workflowCommand(level, { file: annotationFile, title }, message));

  // Nothing mcp-lint (or a server through it) prints can be a workflow command: the runner ignores
  // commands until it reads the resume token, which no other process knows.
  stopped = randomBytes(24).toString("hex");
  out.line(`::stop-commands::${stopped}`);
  const run = await runCli(plan);
  out.line(`::${stopped}::`);
  stopped = null;

  let code = run.code;
  let problem = null;
  let changes = null;
  let reportText = null;
  if (run.spawnError !== null) {
    problem = `mcp-lint could not start (${run.spawnError.message})`;
  } else if (code === 0 || code === 1) {
    try {
      reportText = readFileSync(plan.report, "utf8");
      const report = JSON.parse(reportText);
      const why = reportProblem(report, code);
      if (why === null) changes = report.changes;
      else problem = `the JSON report is unusable: ${why}`;
    } catch (error) {
      problem = error?.code === "ENOENT" ? "the JSON report is missing" : "the JSON report is unreadable";
    }
    if (problem !== null) problem = `mcp-lint exited ${code} but ${problem}`;
  } else if (code !== 2) {
    problem = run.signal !== null ? `mcp-lint was ended by ${run.signal}` : `mcp-lint exited with unexpected code ${code}`;
  }
  if (problem !== null) code = 2;

  let jsonError = null;
  if (plan.json !== "" && reportText !== null && problem === null) {
    try {
      writeJsonTarget(plan.json, plan.cwd, plan.root, reportText);
    } catch (error) {
      jsonError = error instanceof JsonTargetError ? error.message : `The json input "${plan.json}" could not be written (${error?.code ?? error?.message}).`;
      code = 2;
    }
  }
  const cliError = code === 2 && problem === null && changes === null ? capDisplay(neutralize(lastErrorLine(run.errors)), MAX_MESSAGE) : null;

  let shownAnnotations = 0;
  for (const change of changes ?? []) {
    const shown = shownChange(change);
    if (shown.severity !== "error" && shown.severity !== "warning") continue;
    if (shownAnnotations++ === MAX_ANNOTATIONS) {
      annotate("warning", "mcp-lint", "More changes than shown here: see the job summary and the JSON report.");
      break;
    }
    annotate(shown.severity, `mcp-lint ${shown.kind}${shown.tool === null ? "" : ` (${shown.tool})`}`, shown.message);
  }
  if (problem !== null) annotate("error", "mcp-lint", `${problem}. The check cannot be trusted, so the step fails.`);
  if (cliError !== null) annotate("error", "mcp-lint", cliError);
  if (jsonError !== null) annotate("error", "mcp-lint", jsonError);

  const verdict = code === 0 ? "passed" : code === 1 ? `failed: changes at or above \`${plan.failOn}\`` : "error";
  files.summary(summaryMarkdown({ code, verdict, problem, cliError, jsonError, changes, tail: run.tail, failOn: plan.failOn }));
  files.output("exit-code", String(code));
  process.exitCode = code;
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
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
}
