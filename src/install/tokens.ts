/** Token helpers for I1: command names, variables, safe display, and splitting shell scripts with shell-quote. */

import { type ParseEntry, parse as shellParse } from "shell-quote";
import { capDisplay, neutralize } from "../text/neutralize.js";
import type { InstallReason } from "./kinds.js";
import type { ShellDialect } from "./types.js";

/** Longest package text shown in a message. */
const MAX_DISPLAY = 160;

/** Longest token read as a package spec; no registry allows a name near this long. */
export const MAX_SPEC = 2048;

/** Longest script split into commands (a config `command` string, `sh -c`, `-Command`). */
export const MAX_SCRIPT = 65_536;

/**
 * The command a token names, as dispatch compares it: the last path segment (either slash),
 * lower-cased, without a Windows shim suffix, with version suffixes folded (`python3.12` -> `python`).
 */
export function commandName(token: string): string {
  const base = (token.split(/[\\/]/).pop() ?? token).toLowerCase().replace(/\.(exe|cmd|bat|ps1|com)$/, "");
  if (/^python(\d+(\.\d+)*)?$/.test(base)) return "python";
  if (/^pip(\d+(\.\d+)*)?$/.test(base)) return "pip";
  return base;
}

/** A token that can name a command: one word, no spaces, not a flag or an assignment. */
export function isCommandWord(token: string): boolean {
  return /^[^\s=-][^\s=]*$/.test(token);
}

// $VAR and %VAR%; ${...} is found by hand, since /\$\{[^}]*\}/ rescans the rest of the text at every `${`.
const SIMPLE_VARIABLE = /\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%/;

/** True when the text holds an unexpanded variable (${VAR}, ${env:X}, ${input:x}, ${{ secrets.X }}, $VAR, %VAR%). */
export function hasVariable(text: string): boolean {
  const open = text.indexOf("${");
  if (open >= 0 && text.indexOf("}", open + 2) >= 0) return true;
  return SIMPLE_VARIABLE.test(text);
}

/** True for a shell-style assignment `NAME=value` (dropped before a command). */
export function isAssignment(token: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(token);
}

/**
 * Text from a command made safe to show: URL credentials and query strings removed, control,
 * invisible and look-alike characters escaped (`neutralize`), capped. Linear in the text.
 */
export function safeDisplay(text: string): string {
  const redacted = redactUrls(text);
  // Only the start is shown: neutralize a generous prefix, not megabytes, then cap what it gives.
  const head = redacted.length > MAX_DISPLAY * 4 ? redacted.slice(0, MAX_DISPLAY * 4) : redacted;
  const shown = capDisplay(neutralize(head, { lineStart: true }), MAX_DISPLAY);
  const unread = redacted.length - head.length;
  if (unread === 0) return shown;
  // The head is longer than the cap, so capDisplay said how much of it was cut: add what was never read.
  return shown.replace(/\.\.\.\((\d+) more characters\)$/, (_, count: string) => `...(${Number(count) + unread} more characters)`);
}

/**
 * `scheme://user:pass@host/path?query#frag` -> `scheme://***@host/path#frag`, for every URL in the
 * text. Two hand scans that do what the two regexes before them did (a scheme, then user info up
 * to `@`; a path, then `?query` up to a space or `#`): those retried from every position and took
 * quadratic time on a long argument; each scan here reads a character a bounded number of times.
 */
export function redactUrls(text: string): string {
  if (!text.includes("://")) return text;
  return dropQueries(dropUserInfo(text));
}

function dropUserInfo(text: string): string {
  let out = "";
  let done = 0;
  for (let at = text.indexOf("://"); at >= 0; ) {
    if (schemeBefore(text, at)) {
      let end = at + 3;
      while (end < text.length && text[end] !== "/" && text[end] !== "@" && !/\s/.test(text[end] as string)) end++;
      if (text[end] === "@") {
        out += `${text.slice(done, at + 3)}***@`;
        done = end + 1;
        at = text.indexOf("://", done);
        continue;
      }
    }
    at = text.indexOf("://", at + 1);
  }
  return out + text.slice(done);
}

function dropQueries(text: string): string {
  let out = "";
  let done = 0;
  for (let at = text.indexOf("://"); at >= 0; ) {
    let end = at + 3;
    while (end < text.length && text[end] !== "?" && text[end] !== "#" && !/\s/.test(text[end] as string)) end++;
    if (text[end] === "?") {
      let queryEnd = end + 1;
      while (queryEnd < text.length && text[queryEnd] !== "#" && !/\s/.test(text[queryEnd] as string)) queryEnd++;
      out += text.slice(done, end);
      done = queryEnd;
      end = queryEnd;
    }
    // Any `://` inside the span just read would stop where this one did: go on after it.
    at = text.indexOf("://", end);
  }
  return out + text.slice(done);
}

/** True when the characters right before `at` hold a URL scheme: a run of letters, digits, `+`, `.`, `-` with a letter in it. */
function schemeBefore(text: string, at: number): boolean {
  let letter = false;
  for (let i = at - 1; i >= 0 && /[A-Za-z0-9+.-]/.test(text[i] as string); i--) if (/[A-Za-z]/.test(text[i] as string)) letter = true;
  return letter;
}

/** True for a full git commit id (SHA-1 or SHA-256, lower-case hex). */
export function isFullCommit(ref: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(ref);
}

/** True when a spec names a local path rather than something fetched. */
export function isLocalPath(text: string): boolean {
  return /^(?:\.{1,2}(?:[\\/]|$)|[\\/]|~[\\/]|[A-Za-z]:[\\/]|file:)/.test(text);
}

/** A script split into simple commands, and why parts could not be checked. */
export interface SplitScript {
  commands: string[][];
  problems: InstallReason[];
}

const CONTROL_WORDS = new Set([
  "for",
  "while",
  "until",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "select",
  "function",
  "{",
  "}",
  "foreach",
  "switch",
]);

const HASH = "\uE000";

const SEQUENCE_OPS = new Set(["&&", "||", ";", "&"]);
const PIPE_OPS = new Set(["|", "|&"]);
const REDIRECT_OPS = new Set([">", ">>", ">&", "<"]);

/**
 * Split a script (`bash -c`, `pwsh -Command`, a `command` string with spaces) into simple commands.
 * Sequences (`&&`, `;`) are split; pipelines, substitutions, loops and unbalanced quotes are
 * problems, and a script with a substitution or loop yields no commands at all, since what runs
 * depends on it.
 */
export function splitScript(script: string, dialect: ShellDialect): SplitScript {
  if (script.length > MAX_SCRIPT) return { commands: [], problems: ["too_long"] };
  if (!quotesBalanced(script, dialect)) return { commands: [], problems: ["unsplittable"] };
  if (hasSubstitution(script, dialect)) return { commands: [], problems: ["substitution"] };
  // shell-quote starts a comment at any `#`, but a shell only at the start of a word
  // (`github:u/r#sha`): hide mid-word ones behind a private-use character and restore them after.
  const hidden = script.includes(HASH) ? script : script.replace(/(?<=\S)#/g, HASH);
  // Keep variables in the text as ${NAME} so later checks see them; shell-quote would drop them.
  let parsed: ParseEntry[];
  try {
    parsed = shellParse(hidden, (name: string) => `\${${name}}`, dialect === "cmd" ? { escape: "^" } : dialect === "powershell" ? { escape: "`" } : {});
  } catch {
    // shell-quote throws on `${` without its `}` ("Bad substitution"): a shell would refuse it too.
    return { commands: [], problems: ["unsplittable"] };
  }
  const entries = parsed.map((entry) =>
    typeof entry === "string" ? entry.replaceAll(HASH, "#") : "pattern" in entry ? { ...entry, pattern: entry.pattern.replaceAll(HASH, "#") } : entry,
  );
  const commands: string[][] = [];
  const problems = new Set<InstallReason>();
  let current: string[] = [];
  let skipNext = false;
  const finish = () => {
    if (current.length > 0) commands.push(current);
    current = [];
  };
  for (const entry of entries) {
    if (typeof entry === "string") {
      if (skipNext) {
        skipNext = false;
        continue;
      }
      current.push(entry);
      continue;
    }
    skipNext = false;
    if ("comment" in entry) break;
    if (entry.op === "glob") {
      current.push(entry.pattern);
    } else if (SEQUENCE_OPS.has(entry.op)) {
      finish();
    } else if (PIPE_OPS.has(entry.op)) {
      problems.add("pipeline");
      finish();
    } else if (REDIRECT_OPS.has(entry.op)) {
      // `2>&1` arrives as "2", ">&", "1": the file descriptor is not an argument.
      const last = current[current.length - 1];
      if (last !== undefined && /^\d$/.test(last)) current.pop();
      skipNext = true;
    } else {
      // ( ) ;; <( and the like: subshells and process substitution.
      return { commands: [], problems: ["control_flow"] };
    }
  }
  finish();
  for (const command of commands) {
    if (CONTROL_WORDS.has((command[0] ?? "").toLowerCase())) return { commands: [], problems: ["control_flow"] };
  }
  return { commands, problems: [...problems] };
}

/** Quotes close before the end (shell-quote silently accepts an unterminated quote). */
function quotesBalanced(script: string, dialect: ShellDialect): boolean {
  const escapeCharacter = dialect === "cmd" ? "^" : dialect === "powershell" ? "`" : "\\";
  let quote: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === escapeCharacter && dialect !== "cmd") {
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    }
  }
  return quote === null;
}

function hasSubstitution(script: string, dialect: ShellDialect): boolean {
  if (/\$\(|<\(|>\(/.test(script)) return true;
  return dialect === "posix" && script.includes("`");
}

/** Characters that make a `cmd /c` line mean more than one plain command. */
export function hasCmdMetachar(line: string): boolean {
  return /[\^&|%<>]/.test(line);
}
