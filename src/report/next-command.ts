/**
 * The `mcp-lint lock` command that follows a failed `lock --check`: the same lock and the same
 * servers, as a reviewer runs it next. On a terminal that is `lock --review`, which shows each change
 * and asks; without one (CI, a hook with no terminal), `lock --accept-tool NAME` for the tools read in
 * the report. Never the bare `--accept`, which takes everything unread. Built by the pre-commit hook
 * and the GitHub Action from their own `lock --check` arguments. Pure.
 */

import { TOKEN_SHAPE } from "../text/redact.js";

/** `lock` flags that take a value and mean the same when writing the lock. */
const KEPT_WITH_VALUE: ReadonlySet<string> = new Set([
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
  "--oauth-client-id",
  "--oauth-client-secret-env",
  "--oauth-private-key-env",
  "--oauth-jwt-alg",
  "--oauth-client-metadata-url",
  "--oauth-scope",
  "--oauth-issuer",
]);
/** Value-less `lock` flags that mean the same when writing the lock. */
const KEPT: ReadonlySet<string> = new Set(["--no-oauth", "--oauth-client-credentials", "--no-pid-namespace"]);
/** `--check` flags that do not apply to writing the lock, and the ways of accepting (the command picks its own). */
const DROPPED_WITH_VALUE: ReadonlySet<string> = new Set(["--fail-on", "--json", "--sarif", "--accept-tool"]);
const DROPPED: ReadonlySet<string> = new Set(["--check", "--accept", "--review"]);

/** How the command decides: `--review` on a terminal, or these names with `--accept-tool` (none: plain `lock`, nothing to accept). */
export type NextDecision = { review: true } | { acceptTools: readonly string[] };

/** The command's words, and what was left out of the arguments it was built from. */
export interface NextCommand {
  words: string[];
  /** Arguments that are not mcp-lint flags (left out: they could be anything, a secret included). */
  omitted: number;
  /** A credential became a placeholder (SECRET, USER:PASSWORD, QUERY): a URL's user info or query, or one in the server command. */
  secretsHidden: boolean;
  /** The servers come from a client config file (`--config`). */
  config: boolean;
}

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A URL with its user info and query replaced by placeholders; `hidden` says whether anything was. */
function shownUrl(value: string): { text: string; hidden: boolean } {
  let url: URL;
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

/** A flag whose value is a credential by its name (`--api-key`, `--token`, `--password`, ...). */
const SECRET_FLAG = /^-{1,2}[\w-]*(token|key|secret|passw(or)?d|pass|auth|credential|bearer|cookie)[\w-]*$/i;

/**
 * The server command as the next command shows it: a credential given on the command line (the
 * value of a flag named like one, a word shaped like a known token, a URL's user info or query)
 * becomes a placeholder, since the hint may be posted where others read it.
 */
function serverWords(args: readonly string[]): { words: string[]; hidden: boolean } {
  let hidden = false;
  const words: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as string;
    const equals = word.indexOf("=");
    if (word.startsWith("-") && equals > 1 && SECRET_FLAG.test(word.slice(0, equals))) {
      words.push(`${word.slice(0, equals)}=SECRET`);
      hidden = true;
    } else if (SECRET_FLAG.test(word) && index + 1 < args.length) {
      words.push(word, "SECRET");
      index++;
      hidden = true;
    } else if (TOKEN_SHAPE.test(word) || /^(Bearer|Basic|token)\s+\S/i.test(word)) {
      words.push("SECRET");
      hidden = true;
    } else {
      const url = shownUrl(word);
      words.push(url.text);
      hidden ||= url.hidden;
    }
  }
  return { words, hidden };
}

/**
 * The `mcp-lint lock ...` words for a `lock --check` run's arguments (with or without `lock
 * --check` in front): mcp-lint's own flags and the server command after `--` are kept, the check's
 * report flags dropped, anything else left out and counted.
 */
export function nextCommand(checkArgs: readonly string[], decision: NextDecision): NextCommand {
  const words = ["mcp-lint", "lock"];
  if ("review" in decision) words.push("--review");
  else for (const name of decision.acceptTools) words.push("--accept-tool", name);
  let omitted = 0;
  let secretsHidden = false;
  let config = false;
  const args = checkArgs[0] === "lock" ? checkArgs.slice(1) : checkArgs;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      const server = serverWords(args.slice(index + 1));
      words.push("--", ...server.words);
      secretsHidden ||= server.hidden;
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
        secretsHidden ||= url.hidden;
      }
      if (name === "--config") config = true;
      words.push(name, value);
    } else if (KEPT.has(name) && inline === undefined) {
      words.push(name);
    } else if (DROPPED_WITH_VALUE.has(name)) {
      if (inline === undefined) index++;
    } else if (!DROPPED.has(name)) {
      omitted++;
    }
  }
  return { words, omitted, secretsHidden, config };
}

/**
 * The names `--accept-tool` takes for the error-level changes and hidden-text findings of a `lock
 * --check` JSON report (the ones `lock` refuses; warnings and info are written without asking):
 * `SERVER/NAME` in a `--config` run (`config`), each once, in report order. `serverLevel` says the
 * server's own changes (its instructions) refuse too, which no name accepts.
 */
export function refusedNames(report: unknown, config: boolean): { names: string[]; serverLevel: boolean } {
  const names = new Set<string>();
  let serverLevel = false;
  const record = typeof report === "object" && report !== null ? (report as Record<string, unknown>) : {};
  const entries = [...listOf(record.changes), ...listOf(record.hidden_text)];
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) continue;
    const { severity, tool, server } = entry as Record<string, unknown>;
    if (severity !== "error") continue;
    if (typeof tool !== "string") {
      serverLevel = true;
      continue;
    }
    names.add(config && typeof server === "string" ? `${server}/${tool}` : tool);
  }
  return { names: [...names], serverLevel };
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
