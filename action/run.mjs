// The Action's check step: turn inputs into `mcp-lint lock --check` flags, run this action's own
// build of mcp-lint, then write the job summary, one annotation per error or warning, and the exit code.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "shell-quote";

const env = process.env;
const input = (name) => (env[`INPUT_${name}`] ?? "").trim();
const actionPath = env.MCP_LINT_ACTION_PATH ?? join(import.meta.dirname, "..");
const cli = join(actionPath, "dist", "cli.js");

function fail(message) {
  console.log(`::error title=mcp-lint::${escapeData(message)}`);
  summary(`## mcp-lint lock --check\n\nExit code: **2** (configuration error)\n\n${message}\n`);
  output("exit-code", "2");
  process.exit(2);
}

function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text) {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function summary(markdown) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown);
}

function output(name, value) {
  if (env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

const command = input("COMMAND");
const url = input("URL");
const failOn = input("FAIL_ON") || "warning";
if (command !== "" && url !== "") fail("Set either the `command` input or the `url` input, not both.");
if (command === "" && url === "") fail("Set the `command` input (a stdio server) or the `url` input (a Streamable HTTP server).");
if (!["info", "warning", "error", "never"].includes(failOn)) fail(`fail-on must be info, warning, error or never, not "${failOn}".`);

const args = ["lock", "--check", "--lock", input("LOCK") || "mcp-lint.lock", "--fail-on", failOn];
const headerEnv = input("HEADER_ENV").split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
const passEnv = input("PASS_ENV").split(/[\s,]+/).filter(Boolean);
if (command !== "" && headerEnv.length > 0) fail("`header-env` applies to `url` only; a stdio server takes `pass-env`.");
if (url !== "" && passEnv.length > 0) fail("`pass-env` applies to `command` only; a remote server takes `header-env`.");
for (const pair of headerEnv) args.push("--header-env", pair);
for (const name of passEnv) args.push("--pass-env", name);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-action-"));
const report = join(work, "report.json");
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
    fail("The `command` input must be a plain command with arguments: no pipes, redirections, globs or variables (use pass-env for secrets).");
  }
  args.push("--", ...words);
}

const run = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
process.stdout.write(run.stdout ?? "");
process.stderr.write(run.stderr ?? "");
const code = run.status ?? 2;

let changes = [];
try {
  changes = JSON.parse(readFileSync(report, "utf8")).changes ?? [];
} catch {
  // No report: mcp-lint stopped on an error, which stderr explains.
}
if (input("JSON") !== "") {
  try {
    appendFileSync(input("JSON"), readFileSync(report, "utf8"), { flag: "w" });
  } catch {
    // Nothing to copy when mcp-lint wrote no report.
  }
}
rmSync(work, { recursive: true, force: true });

for (const change of changes) {
  if (change.severity !== "error" && change.severity !== "warning") continue;
  const title = `mcp-lint ${change.kind}${change.tool === null ? "" : ` (${change.tool})`}`;
  console.log(`::${change.severity} title=${escapeProperty(title)}::${escapeData(change.message)}`);
}
if (code === 2) {
  const line = (run.stderr ?? "").trim().split("\n").pop() ?? "mcp-lint failed";
  console.log(`::error title=mcp-lint::${escapeData(line)}`);
}

const verdict = code === 0 ? "passed" : code === 1 ? `failed: changes at or above \`${failOn}\`` : "error";
const rows = changes.map(
  (change) =>
    `| ${change.severity} | \`${change.kind}\` | ${change.tool === null ? "(server)" : `\`${change.tool}\``} | ${change.message.replace(/\|/g, "\\|")} |`,
);
const table = rows.length > 0 ? `| Severity | Kind | Tool | Message |\n|---|---|---|---|\n${rows.join("\n")}\n\n` : "No changes.\n\n";
const fence = "````";
summary(
  `## mcp-lint lock --check\n\nExit code: **${code}** (${verdict})\n\n${table}<details><summary>Full report</summary>\n\n${fence}\n${run.stdout ?? ""}${run.stderr ?? ""}${fence}\n\n</details>\n`,
);
output("exit-code", String(code));
process.exit(code);
