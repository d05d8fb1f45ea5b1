#!/usr/bin/env node
// The pre-commit hook's entry (bin `mcp-lint-pre-commit`): run `mcp-lint lock --check <args>`, and
// when the server (or a server of `--config FILE`) no longer matches the lock (exit 1), print the
// command that comes next. Where the hook's output is a terminal, that is `mcp-lint lock --review`,
// which shows each change and asks; elsewhere (pre-commit keeps a hook's output, an editor's git
// has no terminal) it is `mcp-lint lock --accept-tool NAME` for each tool the check refused, read
// from the check's JSON report. Never the bare `--accept`. The command repeats only mcp-lint's own
// flags and the server command from the hook's `args`, which the user committed in plain text;
// other arguments are left out, and a URL's user info and query (secrets, which mcp-lint itself
// never prints) become placeholders.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nextCommand, refusedNames, shellWord } from "../dist/report/next-command.js";
import { neutralize } from "../dist/text/neutralize.js";

export { shellWord };

/** The `--json` path among the hook's arguments (before `--`), or undefined. */
export function jsonPath(args) {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") break;
    if (arg === "--json") return args[index + 1];
    if (arg.startsWith("--json=")) return arg.slice("--json=".length);
  }
  return undefined;
}

/**
 * The lines printed after a failed check. `decision` is `{ review: true }` on a terminal, else the
 * check's refused names (`{ names, serverLevel }` from its JSON report, `names` null when it could
 * not be read).
 */
export function nextStepHint(args, decision) {
  const review = decision.review === true;
  const names = review ? [] : (decision.names ?? ["NAME"]);
  const { words, omitted, secretsHidden, config } = nextCommand(args, review ? { review: true } : { acceptTools: names });
  const what = config ? "a server of the config no longer matches" : "the server no longer matches";
  const how = review
    ? "Review the changes on a terminal (each one is shown, and you accept it or keep it locked), then commit the lock:"
    : names.length === 0
      ? "Read the changes above; none needs accepting (warnings and info are written as they are). Update the lock with this, then commit it:"
      : `Read the changes above, then accept ${decision.names === null ? "each tool you have read (its name for NAME)" : "them one tool at a time"} and commit the lock:`;
  // Names are the server's: quoted for the shell, and made inert for the terminal.
  let text = `\nmcp-lint: ${what} the lock. ${how}\n\n  ${words.map((word) => neutralize(shellWord(word))).join(" ")}\n\n`;
  if (!review && decision.serverLevel === true) text += "The server's own changes (its instructions) are accepted only by --accept, once read.\n";
  if (secretsHidden) text += "Put back what shows as SECRET, USER:PASSWORD or QUERY from your pre-commit config (mcp-lint never prints them).\n";
  if (omitted > 0) text += `${omitted} argument${omitted === 1 ? " that is not an mcp-lint flag was" : "s that are not mcp-lint flags were"} left out.\n`;
  return text;
}

/** The refused names in a `lock --check` JSON report file, or null when it cannot be read. */
function namesFrom(path, config) {
  try {
    return refusedNames(JSON.parse(readFileSync(path, "utf8")), config);
  } catch {
    return { names: null, serverLevel: false };
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
  const args = process.argv.slice(2);
  // Someone reads this output on a terminal: they can run --review there.
  const terminal = process.stdout.isTTY === true || process.stderr.isTTY === true;
  const given = jsonPath(args);
  // Without a terminal, the names to accept come from the check's JSON report: the user's, or one of our own.
  const folder = !terminal && given === undefined ? mkdtempSync(join(tmpdir(), "mcp-lint-hook-")) : null;
  const report = folder === null ? given : join(folder, "report.json");
  try {
    const extra = folder === null ? [] : ["--json", report];
    const result = spawnSync(process.execPath, [cli, "lock", "--check", ...extra, ...args], { stdio: "inherit" });
    const code = result.status ?? 2;
    if (code === 1) {
      const config = nextCommand(args, { review: true }).config;
      const names = report === undefined || report === "-" ? { names: null, serverLevel: false } : namesFrom(report, config);
      process.stdout.write(nextStepHint(args, terminal ? { review: true } : names));
    }
    process.exitCode = code;
  } finally {
    if (folder !== null) rmSync(folder, { recursive: true, force: true });
  }
}
