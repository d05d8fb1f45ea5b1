/** What `wrap` says: one line per server (wrapped, or left as it is and why) and one closing line per file. Pure. */

import type { ConfigServer } from "../../config/types.js";
import { neutralize, showNameCapped } from "../../text/neutralize.js";
import type { Skipped } from "./plan.js";

/** Where a wrapped server's lock stands. */
export type LockState =
  /** Recorded now, before the entry was wrapped. */
  | "written"
  /** A dry run: it would be recorded first. */
  | "to_write"
  /** It existed and was kept as it was: wrap does not start the server to compare, the proxy does at each start. */
  | "kept"
  /** None, and the server is disabled, so it was not started to record one. */
  | "disabled";

/** A server wrap wrapped (or would wrap, in a dry run). */
export interface WrappedServer {
  server: ConfigServer;
  remote: boolean;
  lock: string;
  state: LockState;
  /** Warnings of the lock recorded now (I1 on the launch, S8, SDK notes), which only `--verbose` lists. */
  warnings: number;
  /** Things about the entry the user should know (an envFile not passed on, env names dropped). */
  notes: string[];
  /** How a lock that existed stands against the server now (`its lock still matches`); absent when not checked. */
  check?: string;
}

/** What a refused first lock's JSON report says, in the facts one line can hold. */
export interface LockFacts {
  /** Definitions S8 found an error in (tool, prompt or resource names), in report order, each once. */
  s8Errors: string[];
  /** Whether every S8 error is tool poisoning, none is, or some are. */
  poisoning: "all" | "none" | "some";
  /** Warnings the listing holds: S8 and SDK notes. */
  warnings: number;
}

/** Names a line shows before "and N more": the line stays one line however many a server has. */
const NAMES_SHOWN = 3;
/** A server-chosen name in a wrap line is cut past this, with a digest so two names never look alike. */
const NAME_SHOWN = 64;

/** Read the facts out of `lock --json`'s report (single-server shape); anything unexpected counts as nothing. */
export function lockFacts(report: unknown): LockFacts {
  const record = isRecord(report) ? report : {};
  const hidden = Array.isArray(record.hidden_text) ? record.hidden_text.filter(isRecord) : [];
  const notes = Array.isArray(record.notes) ? record.notes.filter(isRecord) : [];
  const errors = hidden.filter((finding) => finding.severity === "error");
  const names = [...new Set(errors.map((finding) => (typeof finding.tool === "string" ? finding.tool : "")))];
  const poisoned = errors.filter((finding) => finding.kind === "poisoning").length;
  return {
    s8Errors: names,
    poisoning: poisoned === 0 ? "none" : poisoned === errors.length ? "all" : "some",
    warnings: [...hidden, ...notes].filter((finding) => finding.severity === "warning").length,
  };
}

/** Why `lock` refused a first lock, and where to read the findings: they are never dropped unsaid. */
export function refusalText(facts: LockFacts, verbose: boolean): string {
  const where = verbose ? "its findings are listed above" : "wrap --verbose lists the findings";
  if (facts.s8Errors.length === 0) return `lock refused to record it; ${where}`;
  const what = facts.poisoning === "all" ? "tool poisoning" : facts.poisoning === "none" ? "hidden text" : "tool poisoning and hidden text";
  const shown = facts.s8Errors.slice(0, NAMES_SHOWN).map((name) => (name === "" ? "the server instructions" : `"${showNameCapped(name, NAME_SHOWN)}"`));
  const more = facts.s8Errors.length > NAMES_SHOWN ? ` and ${facts.s8Errors.length - NAMES_SHOWN} more` : "";
  return `lock refused to record it: S8 found ${what} (error) in ${shown.join(", ")}${more}; ${where}`;
}

/** The line for a wrapped server. */
export function wrappedLine(entry: WrappedServer, dryRun: boolean, verbose: boolean): string {
  const verb = dryRun ? "would wrap" : "wrapped";
  const state = {
    written: ", written now",
    to_write: ", to be written first",
    kept: ", kept as it was",
    disabled: ", not written: the server is disabled, so it was not started; lock it before enabling it, or the proxy will refuse to start it",
  }[entry.state];
  const warnings =
    entry.warnings === 0
      ? ""
      : `; ${entry.warnings} warning${entry.warnings === 1 ? "" : "s"} in its first lock (${verbose ? "listed above" : "wrap --verbose lists them"})`;
  const notes = entry.notes.map((note) => `; note: ${note}`).join("");
  const check = entry.check === undefined ? "" : `; ${entry.check}`;
  return `${verb} ${entry.remote ? "remote " : ""}${describeServer(entry.server)} (lock ${neutralize(entry.lock)}${state})${check}${warnings}${notes}`;
}

/** The line for a server left as it is. */
export function leftLine(entry: Skipped): string {
  return `left ${describeServer(entry.server)} as it is: ${skipText(entry)}`;
}

/** What happened to one file, after its servers' lines. */
export interface FileOutcome {
  /** The config file, as shown (neutralized). */
  shown: string;
  /** The backup's file name, when the file was written. */
  backup: string | null;
  wrapped: number;
  total: number;
  dryRun: boolean;
}

/** The file's closing line: how many of its servers are wrapped, and where the bytes it had are kept. */
export function closingLine(file: FileOutcome): string {
  const count = `${file.wrapped} of ${file.total} server${file.total === 1 ? "" : "s"}`;
  if (file.dryRun) return `${file.shown}: ${count} would be wrapped; nothing was written (--dry-run)`;
  if (file.backup === null) return `${file.shown}: ${count} wrapped now; the file is unchanged`;
  return `${file.shown}: ${count} wrapped now; the file as it was is in ${neutralize(file.backup)}`;
}

/** The server as a line names it: `server "NAME"`, with its scope in a file that has several. */
export function describeServer(server: ConfigServer): string {
  const scope = server.scope === null ? "" : ` (${neutralize(server.scope)})`;
  return `server ${JSON.stringify(neutralize(server.name))}${scope}`;
}

/** Why an entry is left as it is. */
export function skipText(entry: Skipped): string {
  switch (entry.reason) {
    case "already_wrapped":
      // The detail is how its lock stands now (wrap checks it), when it was checked.
      return entry.detail === undefined ? "already wrapped" : `already wrapped; ${entry.detail}`;
    case "remote":
      return entry.detail ?? "a remote server (add --include-remote to wrap it)";
    case "not_launched":
      return "the client does not launch it (built in or an extension)";
    case "shell_command":
      return "its command is one string with spaces; split it into command and args first";
    case "unreadable":
      return `its entry could not be read (${entry.detail ?? "unknown"})`;
    case "known_bad":
      return `${entry.detail ?? "it launches a known-bad release"}; remove it from the config`;
    case "variables":
      return entry.detail ?? "its launch uses client variables";
    case "lock_refused":
    case "not_editable":
      return entry.detail ?? "it could not be edited";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
