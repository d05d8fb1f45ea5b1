// First half of the Action's check step, run with the job's whole environment: read and check the
// inputs, and write a private plan (the flags of the lock check and of the optional lint run, the
// few environment variables mcp-lint may see, where the runner's files are) for run.mjs, which the
// step starts with an empty environment. Every input error is refused here, before anything starts.
//
//   node action/prepare.mjs <private folder>     exit 0: <folder>/plan.json written; 2: input error
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "shell-quote";
import { cliEnvironment } from "./env.mjs";
import { checkOutputTarget, OutputTargetError } from "./json-output.mjs";
import { lockKey } from "./pr-comment.mjs";
import { failStep, keepingSummary, leaveCommentReport, stepFiles } from "./step.mjs";

const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? "").trim();
const dir = process.argv[2] ?? "";
const actionPath = env.MCP_LINT_ACTION_PATH ?? join(import.meta.dirname, "..");
// With `comment`, the comment step finds the report in this folder (see leaveCommentReport).
const comment = input("COMMENT") === "true";
const kept = { markdown: "" };
const files = keepingSummary(stepFiles({ summaryPath: env.GITHUB_STEP_SUMMARY ?? "", outputPath: env.GITHUB_OUTPUT ?? "" }), kept);
if (comment && dir !== "") files.output("report-dir", dir);

class InputError extends Error {}

const LEVELS = ["info", "warning", "error", "never"];
const list = (names) => (names.length === 2 ? `\`${names[0]}\` and \`${names[1]}\` are both set` : "all three are set");

/** The flags that say which server to read: the same for the lock check and the lint run. */
function sourceArgs({ command, url, config, servers, headerEnv, passEnv, oauth }) {
  if (config !== "") return [`--config=${config}`, "--no-oauth", ...servers.map((name) => `--server=${name}`)];
  const args = [];
  for (const pair of headerEnv) args.push("--header-env", pair);
  for (const name of passEnv) args.push("--pass-env", name);
  if (url !== "") return [...args, ...oauthArgs(oauth), "--url", url];
  let variables = 0;
  // A variable would silently expand to nothing; a command with one is refused instead.
  const words = parse(command, (name) => {
    variables++;
    return `$${name}`;
  });
  if (variables > 0 || words.length === 0 || words.some((word) => typeof word !== "string")) {
    throw new InputError("The `command` input must be a plain command with arguments: no pipes, redirections, globs or variables (use pass-env for secrets).");
  }
  return [...args, "--", ...words];
}

/**
 * A job has no browser: without a client ID, a server that asks for a login fails at once
 * (--no-oauth) instead of waiting for one; with it, the client-credentials grant logs in.
 */
function oauthArgs(oauth) {
  if (oauth.clientId === "") return ["--no-oauth"];
  const args = ["--oauth-client-credentials", "--oauth-client-id", oauth.clientId];
  if (oauth.secretEnv !== "") args.push("--oauth-client-secret-env", oauth.secretEnv);
  if (oauth.keyEnv !== "") args.push("--oauth-private-key-env", oauth.keyEnv);
  if (oauth.jwtAlg !== "") args.push("--oauth-jwt-alg", oauth.jwtAlg);
  if (oauth.issuer !== "") args.push("--oauth-issuer", oauth.issuer);
  return args;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function oauthInputs(url) {
  const oauth = {
    clientId: input("OAUTH_CLIENT_ID"),
    secretEnv: input("OAUTH_CLIENT_SECRET_ENV"),
    keyEnv: input("OAUTH_PRIVATE_KEY_ENV"),
    jwtAlg: input("OAUTH_JWT_ALG"),
    issuer: input("OAUTH_ISSUER"),
  };
  const given = Object.entries(oauth).filter(([, value]) => value !== "");
  if (given.length > 0 && url === "") throw new InputError("The oauth-* inputs apply to `url` only.");
  if (given.length > 0 && oauth.clientId === "") throw new InputError("The oauth-* inputs need `oauth-client-id` (the client-credentials grant).");
  if (oauth.clientId !== "" && oauth.secretEnv === "" && oauth.keyEnv === "") {
    throw new InputError(
      "`oauth-client-id` needs `oauth-client-secret-env` or `oauth-private-key-env`: the name of the job's variable that holds the secret or key.",
    );
  }
  for (const name of ["secretEnv", "keyEnv"]) {
    if (oauth[name] !== "" && !ENV_NAME.test(oauth[name]))
      throw new InputError(`The oauth-*-env inputs take a variable name such as MCP_CLIENT_SECRET, not "${oauth[name]}".`);
  }
  return oauth;
}

function plan() {
  const command = input("COMMAND");
  const url = input("URL");
  const config = input("CONFIG");
  const given = [
    ["command", command],
    ["url", url],
    ["config", config],
  ].filter(([, value]) => value !== "");
  if (given.length > 1) throw new InputError(`Set one of the \`command\`, \`url\` and \`config\` inputs: ${list(given.map(([name]) => name))}.`);
  if (given.length === 0) {
    throw new InputError(
      "Set the `command` input (a stdio server), the `url` input (a Streamable HTTP server) or the `config` input (an MCP client config file).",
    );
  }
  // Server names may hold spaces (they are config keys), so only commas and line breaks separate them.
  const servers = input("SERVER")
    .split(/[\r\n,]+/)
    .map((name) => name.trim())
    .filter(Boolean);
  if (servers.length > 0 && config === "") throw new InputError("The `server` input applies to `config` only: it picks servers of the config file.");

  const failOn = input("FAIL_ON") || "warning";
  if (!LEVELS.includes(failOn)) throw new InputError(`fail-on must be info, warning, error or never, not "${failOn}".`);
  const lint = input("LINT") || "false";
  if (lint !== "true" && lint !== "false") throw new InputError(`lint must be true or false, not "${lint}".`);
  const lintFailOn = input("LINT_FAIL_ON") || "error";
  if (!LEVELS.includes(lintFailOn)) throw new InputError(`lint-fail-on must be info, warning, error or never, not "${lintFailOn}".`);
  const failUnder = input("FAIL_UNDER");
  if (failUnder !== "" && !(/^[0-9]{1,3}(\.[0-9]+)?$/.test(failUnder) && Number(failUnder) <= 100)) {
    throw new InputError(`fail-under must be a score from 0 to 100, not "${failUnder}".`);
  }
  const commentInput = input("COMMENT") || "false";
  if (commentInput !== "true" && commentInput !== "false") throw new InputError(`comment must be true or false, not "${commentInput}".`);
  if (failUnder !== "" && lint !== "true") throw new InputError("fail-under applies to the lint run: set lint to true, or drop fail-under.");
  if (lint === "true" && config !== "") {
    throw new InputError(
      "lint does not run with `config`: mcp-lint run lints one server. Lint each server in its own step with `command` or `url`, or set lint to false.",
    );
  }

  const headerEnv = input("HEADER_ENV")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const passEnv = input("PASS_ENV")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (command !== "" && headerEnv.length > 0) throw new InputError("`header-env` applies to `url` only; a stdio server takes `pass-env`.");
  if (config !== "" && headerEnv.length > 0) {
    throw new InputError(
      "`header-env` applies to `url` only; with `config`, headers come from the config file: name the variables its placeholders read in `pass-env`.",
    );
  }
  if (url !== "" && passEnv.length > 0) throw new InputError("`pass-env` applies to `command` and `config` only; a remote server takes `header-env`.");
  // With `config`, pass-env only puts the variables in mcp-lint's environment: the config's
  // placeholders and env entries decide what each server gets (the CLI takes no --pass-env there).
  const oauth = oauthInputs(url);
  const source = sourceArgs({ command, url, config, servers, headerEnv: config === "" ? headerEnv : [], passEnv: config === "" ? passEnv : [], oauth });

  const cwd = process.cwd();
  // process.cwd() is a real path, so the workspace is compared as one too.
  const root = realpathSync(env.GITHUB_WORKSPACE || cwd);
  const json = input("JSON");
  const sarif = input("SARIF");
  const jsonTarget = json === "" ? null : checkOutputTarget("json", json, cwd, root);
  const sarifTarget = sarif === "" ? null : checkOutputTarget("sarif", sarif, cwd, root);
  if (jsonTarget !== null && jsonTarget === sarifTarget) throw new InputError("The json and sarif inputs name the same file; give each its own path.");

  const lock = input("LOCK") || "mcp-lint.lock";
  const checkReport = join(dir, "report.json");
  const checkSarif = join(dir, "report.sarif");
  const checkArgs = ["lock", "--check", `--lock=${lock}`, "--fail-on", failOn, "--json", checkReport];
  if (sarif !== "") checkArgs.push("--sarif", checkSarif);
  const lintReport = join(dir, "lint.json");
  const lintArgs = ["run", "--fail-on", lintFailOn, ...(failUnder === "" ? [] : ["--fail-under", failUnder]), "--json", lintReport];

  return {
    cli: join(actionPath, "dist", "cli.js"),
    env: cliEnvironment(env, { headerEnv, passEnv: [...passEnv, ...[oauth.secretEnv, oauth.keyEnv].filter(Boolean)], remote: url !== "" }),
    cwd,
    root,
    lock,
    config,
    json,
    sarif,
    failOn,
    comment,
    check: { args: [...checkArgs, ...source], report: checkReport, sarif: sarif === "" ? null : checkSarif },
    lint:
      lint === "true"
        ? { args: [...lintArgs, ...source], report: lintReport, failOn: lintFailOn, failUnder: failUnder === "" ? null : Number(failUnder) }
        : null,
    summaryPath: env.GITHUB_STEP_SUMMARY ?? "",
    outputPath: env.GITHUB_OUTPUT ?? "",
  };
}

try {
  if (dir === "") throw new Error("usage: prepare.mjs <private folder>");
  // 0600 in the step's private folder; run.mjs deletes it before mcp-lint starts.
  writeFileSync(join(dir, "plan.json"), JSON.stringify(plan()), { flag: "wx", mode: 0o600 });
} catch (error) {
  const known = error instanceof InputError || error instanceof OutputTargetError;
  failStep(files, known ? error.message : `The Action could not start: ${error instanceof Error ? error.message : String(error)}`);
  // With `comment`, the comment says the check did not run, as the summary does.
  const report = {
    key: lockKey(env.GITHUB_WORKSPACE || process.cwd(), process.cwd(), input("LOCK") || "mcp-lint.lock"),
    markdown: kept.markdown,
    quiet: false,
  };
  try {
    if (dir !== "" && comment) leaveCommentReport(dir, report);
    else if (dir !== "") rmSync(dir, { recursive: true, force: true });
  } catch {
    // the comment step then says there is no report
    rmSync(dir, { recursive: true, force: true });
  }
}
