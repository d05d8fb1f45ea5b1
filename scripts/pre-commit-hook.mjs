#!/usr/bin/env node
// The pre-commit hook's entry (bin `mcp-lint-pre-commit`): run `mcp-lint lock --check <args>`, and
// when the server (or a server of `--config FILE`) no longer matches the lock (exit 1), print the
// exact command that accepts the change. The command repeats only mcp-lint's own flags and the
// server command from the hook's `args`, which the user committed in plain text; other arguments
// are left out, and a URL's user info and query (secrets, which mcp-lint itself never prints)
// become placeholders.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `lock` flags that take a value and mean the same for `lock --accept`. */
const KEPT_WITH_VALUE = new Set([
  "--lock",
  "--from",
  "--config",
  "--server",
  "--jobs",
  "--pass-env",
  "--timeout",
  "--startup-timeout",
  "--deadline",
  "--url",
  "--header",
  "--header-env",
  "--known-bad",
  "--as-client",
]);
/** `--check` flags that do not apply to writing the lock. */
const DROPPED_WITH_VALUE = new Set(["--fail-on", "--json", "--sarif"]);
const DROPPED = new Set(["--check", "--accept"]);

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A URL with its user info and query replaced by placeholders; `hidden` says whether anything was. */
function shownUrl(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return { text: value, hidden: false };
  }
  const hidden = url.username !== "" || url.password !== "" || url.search !== "";
  if (!hidden) return { text: value, hidden };
  const auth = url.username !== "" || url.password !== "" ? "USER:PASSWORD@" : "";
  const query = url.search !== "" ? "?QUERY" : "";
  return { text: `${url.protocol}//${auth}${url.host}${url.pathname}${query}${url.hash}`, hidden };
}

/**
 * The `mcp-lint lock --accept ...` words for the hook's arguments, and what was left out:
 * `omitted` counts arguments that are not mcp-lint flags; `urlHidden` says a URL part became a
 * placeholder; `config` says the servers come from a client config file (`--config`).
 */
export function acceptCommand(args) {
  const words = ["mcp-lint", "lock", "--accept"];
  let omitted = 0;
  let urlHidden = false;
  let config = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") {
      words.push("--", ...args.slice(index + 1));
      break;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") && equals > 2 ? arg.slice(0, equals) : arg;
    const inline = name === arg ? undefined : arg.slice(equals + 1);
    if (KEPT_WITH_VALUE.has(name)) {
      let value = inline ?? args[++index];
      if (value === undefined) break;
      if (name === "--url") {
        const url = shownUrl(value);
        value = url.text;
        urlHidden ||= url.hidden;
      }
      if (name === "--config") config = true;
      words.push(name, value);
    } else if (DROPPED_WITH_VALUE.has(name)) {
      if (inline === undefined) index++;
    } else if (!DROPPED.has(name)) {
      omitted++;
    }
  }
  return { words, omitted, urlHidden, config };
}

/** The lines printed after a failed check. */
export function acceptHint(args) {
  const { words, omitted, urlHidden, config } = acceptCommand(args);
  const what = config ? "a server of the config no longer matches" : "the server no longer matches";
  let text = `\nmcp-lint: ${what} the lock. After reviewing the changes above, update the lock with:\n\n`;
  text += `  ${words.map(shellWord).join(" ")}\n\n`;
  if (urlHidden) text += "Put the URL's user info and query back in from your pre-commit config (mcp-lint never prints them).\n";
  if (omitted > 0) text += `${omitted} argument${omitted === 1 ? " that is not an mcp-lint flag was" : "s that are not mcp-lint flags were"} left out.\n`;
  return text;
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
  const args = process.argv.slice(2);
  const result = spawnSync(process.execPath, [cli, "lock", "--check", ...args], { stdio: "inherit" });
  const code = result.status ?? 2;
  if (code === 1) process.stdout.write(acceptHint(args));
  process.exitCode = code;
}
