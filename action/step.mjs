// The step's outputs to the runner: the job summary file, the `exit-code` output and the way a
// step fails on an error (one annotation, a summary that says why, exit code 2).
import { appendFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { markdownCell, workflowCommand } from "./format.mjs";

/** Writers for the files the runner reads after the step (paths may be empty outside Actions). */
export function stepFiles({ summaryPath = "", outputPath = "" }) {
  return {
    /** Append Markdown to the job summary. */
    summary(markdown) {
      if (summaryPath !== "") appendFileSync(summaryPath, markdown);
    },
    /** Set a step output (the values here are single-line: exit codes). */
    output(name, value) {
      if (outputPath !== "") appendFileSync(outputPath, `${name}=${value}\n`);
    },
  };
}

/** Step files whose summary Markdown is also kept in `kept.markdown`, for the pull-request comment. */
export function keepingSummary(files, kept) {
  return {
    ...files,
    summary(markdown) {
      files.summary(markdown);
      kept.markdown += markdown;
    },
  };
}

/**
 * Empty the step's private folder but for `comment.json` ({ key, markdown, quiet }), which the
 * comment step reads and then removes with the folder.
 */
export function leaveCommentReport(dir, report) {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
  writeFileSync(join(dir, "comment.json"), JSON.stringify(report), { flag: "wx", mode: 0o600 });
}

/**
 * Fail the step before or without a report: one error annotation, a summary naming the error, the
 * `exit-code` output 2, and exit code 2. `message` is the Action's own text (inputs at most).
 */
export function failStep(files, message, properties = {}) {
  process.stdout.write(`${workflowCommand("error", { title: "mcp-lint", ...properties }, message)}\n`);
  files.summary(`## mcp-lint lock --check\n\nExit code: **2** (error)\n\n${markdownCell(message)}\n`);
  files.output("exit-code", "2");
  process.exitCode = 2;
}
