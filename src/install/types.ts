/** Shared shapes between the launcher parsers and the I1 driver: what a launcher found out about a command. */

import type { Ecosystem, InstallKind, InstallReason } from "./kinds.js";

/** Verdict on one fetched package before the known-bad check; `pinned` and `local` produce no finding. */
export type Verdict = "pinned" | "local" | Exclude<InstallKind, "known_bad" | "unreadable_entry">;

/** Which releases a package spec may resolve to, for the known-bad check. */
export type Resolution = { type: "exact"; version: string } | { type: "range"; range: string } | { type: "any" } | { type: "none" };

/** One package a launcher fetches, classified. */
export interface PackageRef {
  ecosystem: Ecosystem;
  /** Registry name, or null for URL and git sources without one. */
  name: string | null;
  /** The spec as written, made safe to show. */
  display: string;
  verdict: Verdict;
  /** Why, when the verdict is not pinned or local. */
  reason: InstallReason | null;
  /** Version, range, tag or ref as written, when the message should quote it. */
  spec?: string;
  resolves: Resolution;
  role: "main" | "extra";
  /** Launcher that fetches it, when it differs from the handler's id (`podman run`). */
  launcher?: string;
  /** The spec exactly as written, for a registry package (npm): what a resolver is handed. Never shown. */
  request?: string;
}

/** Something a launcher could not understand; becomes an `unparsed` finding. */
export interface Problem {
  reason: InstallReason;
  /** The package or token involved, already safe to show. */
  display?: string;
  /** A flag name, without its value. */
  flag?: string;
}

/** A command found inside another (a wrapper's payload): an argv, or a script to split first. */
export type Nested = { argv: string[] } | { script: string; dialect: ShellDialect };

/** Quoting rules of the shell a script is written for. */
export type ShellDialect = "posix" | "powershell" | "cmd";

/** What one handler reports about one command. */
export interface LaunchParse {
  packages: PackageRef[];
  problems: Problem[];
  nested: Nested[];
  /** The command runs code I1 cannot read (inline code such as `node -e`), so it may fetch anything. */
  opaque: boolean;
  /** What a package runner executes from the package it fetched: a named bin (null: the package's default) and its arguments. */
  runs?: { bin: string | null; args: string[] };
}

/** One launcher or wrapper: the command names it handles and its parser. Pure: argv in, data out. */
export interface CommandHandler {
  /** Name used in messages (`npx`, `uv tool run`, `docker run`). */
  id: string;
  /** Command names (see `commandName`) it is dispatched on. */
  commands: readonly string[];
  /** Parse a full argv whose first token is one of `commands`. */
  parse(argv: readonly string[]): LaunchParse;
}

/** An empty result, to build on. */
export function emptyParse(): LaunchParse {
  return { packages: [], problems: [], nested: [], opaque: false };
}

/** A result holding only one problem. */
export function problemParse(reason: InstallReason, extra: Omit<Problem, "reason"> = {}): LaunchParse {
  return { packages: [], problems: [{ reason, ...extra }], nested: [], opaque: false };
}
