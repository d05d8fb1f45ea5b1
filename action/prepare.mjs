// First half of the Action's check step, run with the job's whole environment: read and check the
// inputs, and write a private plan (flags, the few environment variables mcp-lint may see, where
// the runner's files are) for run.mjs, which the step starts with an empty environment.
//
//   node action/prepare.mjs <private folder>     exit 0: <folder>/plan.json written; 2: input error
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "shell-quote";
import { cliEnvironment } from "./env.mjs";
import { checkJsonTarget, JsonTargetError } from "./json-output.mjs";
import { failStep, stepFiles } from "./step.mjs";

const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? "").trim();
const dir = process.argv[2] ?? "";
const actionPath = env.MCP_LINT_ACTION_PATH ?? join(import.meta.dirname, "..");
const files = stepFiles({ summaryPath: env.GITHUB_STEP_SUMMARY ?? "", outputPath: env.GITHUB_OUTPUT ?? "" });

class InputError extends Error {}

function plan() {
  const command = input("COMMAND");
  const url = input("URL");
  const failOn = input("FAIL_ON") || "warning";
  if (command !== "" && url !== "") throw new InputError("Set either the `command` input or the `url` input, not both.");
  if (command === "" && url === "") throw new InputError("Set the `command` input (a stdio server) or the `url` input (a Streamable HTTP server).");
  if (!["info", "warning", "error", "never"].includes(failOn)) throw new InputError(`fail-on must be info, warning, error or never, not "${failOn}".`);

  const lock = input("LOCK") || "mcp-lint.lock";
  const args = ["lock", "--check", "--lock", lock, "--fail-on", failOn];
  const headerEnv = input("HEADER_ENV").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const passEnv = input("PASS_ENV").split(/[\s,]+/).filter(Boolean);
  if (command !== "" && headerEnv.length > 0) throw new InputError("`header-env` applies to `url` only; a stdio server takes `pass-env`.");
  if (url !== "" && passEnv.length > 0) throw new InputError("`pass-env` applies to `command` only; a remote server takes `header-env`.");
  for (const pair of headerEnv) args.push("--header-env", pair);
  for (const name of passEnv) args.push("--pass-env", name);
  const report = join(dir, "report.json");
  args.push("--json", report);
  if (url !== "") {
    args.push("--url", url);
  } else {
    let variables = 0;
    // A variable would silently expand to nothing; a command with one is refused instead.
    const words = parse(command, (name) => {
      variables++;
      return `$${name}`;
    });
    if (variables > 0 || words.length === 0 || words.some((word) => typeof word !== "string")) {
      throw new InputError("The `command` input must be a plain command with arguments: no pipes, redirections, globs or variables (use pass-env for secrets).");
    }
    args.push("--", ...words);
  }

  const cwd = process.cwd();
  // process.cwd() is a real path, so the workspace is compared as one too.
  const root = realpathSync(env.GITHUB_WORKSPACE || cwd);
  const json = input("JSON");
  if (json !== "") checkJsonTarget(json, cwd, root);

  return {
    cli: join(actionPath, "dist", "cli.js"),
    args,
    env: cliEnvironment(env, { headerEnv, passEnv, remote: url !== "" }),
    report,
    cwd,
    root,
    lock,
    json,
    failOn,
    summaryPath: env.GITHUB_STEP_SUMMARY ?? "",
    outputPath: env.GITHUB_OUTPUT ?? "",
  };
}

try {
  if (dir === "") throw new Error("usage: prepare.mjs <private folder>");
  // 0600 in the step's private folder; run.mjs deletes it before mcp-lint starts.
  writeFileSync(join(dir, "plan.json"), JSON.stringify(plan()), { flag: "wx", mode: 0o600 });
} catch (error) {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
  const known = error instanceof InputError || error instanceof JsonTargetError;
  failStep(files, known ? error.message : `The Action could not start: ${error instanceof Error ? error.message : String(error)}`);
}
