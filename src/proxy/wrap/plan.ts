/** What `wrap` and `unwrap` do to one config file: which entries change, how, and the new text, checked by reading it back. Pure. */

import { artifactSource } from "../../artifact/source.js";
import { couldBeSecret } from "../../text/redact.js";
import { readConfigText } from "../../config/readers/index.js";
import { parseConfigText } from "../../config/readers/syntax.js";
import { MAX_WRAP_SERVERS } from "../../limits.js";
import type { ConfigDocument, ConfigServer } from "../../config/types.js";
import {
  HEADER_VARIABLE_PREFIX,
  type Launcher,
  launcherCommand,
  ORIGINAL_ENTRY_VARIABLE,
  remoteArgs,
  unwrapArgv,
  type WrapSpec,
  wrappedArgv,
  wrapPrefix,
} from "./argv.js";
import { applyEdits, EntryEditError, entryText, replaceEntryEdit, type Syntax, type TextEdit, unwrapEdits, wrapEdits } from "./edit.js";
import { pushAll } from "../../arrays.js";

/** Why an entry is left as it is (`known_bad` and `lock_refused` are decided when it is locked). */
export type SkipReason =
  | "already_wrapped"
  | "remote"
  | "not_launched"
  | "shell_command"
  | "unreadable"
  | "variables"
  | "known_bad"
  | "lock_refused"
  | "not_editable";

/** A stdio entry `wrap` will wrap, once its lock exists. */
export interface WrapCandidate {
  server: ConfigServer;
  /** The original launch: command and args. */
  argv: string[];
  /** Environment variable names the entry sets (passed on to the server with --pass-env). */
  passEnv: string[];
  /** Names in `env` that are not valid variable names, left out of --pass-env. */
  badEnvNames: string[];
  /** The entry loads variables from a file the proxy cannot name (VS Code's envFile). */
  envFile: boolean;
}

/** A remote entry `--include-remote` will rewrite into a proxy with `--url`. */
export interface RemoteCandidate {
  server: ConfigServer;
  url: string;
  /** Header names and values as the entry sets them (the values move to the new entry's env). */
  headers: [name: string, value: string][];
  /** The entry names its transport in `type` (the new entry then says `"type": "stdio"`). */
  typed: boolean;
}

/** An entry left alone, and why. */
export interface Skipped {
  server: ConfigServer;
  reason: SkipReason;
  detail?: string;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Sort the entries of a read config into candidates and skipped ones. */
export function wrapCandidates(
  text: string,
  path: string,
  document: ConfigDocument,
  includeRemote: boolean,
): { candidates: WrapCandidate[]; remotes: RemoteCandidate[]; skipped: Skipped[] } {
  const parsed = parseConfigText(text, path).value;
  const candidates: WrapCandidate[] = [];
  const remotes: RemoteCandidate[] = [];
  const skipped: Skipped[] = [];
  for (const server of document.servers) {
    if (server.problem !== null) {
      skipped.push({ server, reason: "unreadable", detail: server.problem.reason });
      continue;
    }
    if (server.launch === null) {
      const remote = server.transport === "http" || server.transport === "sse";
      if (!remote)
        skipped.push({
          server,
          reason: server.transport === "ws" ? "remote" : "not_launched",
          ...(server.transport === "ws" ? { detail: "a WebSocket server, which the proxy does not speak" } : {}),
        });
      else if (!includeRemote) skipped.push({ server, reason: "remote" });
      else {
        const found = remoteCandidate(server, valueAt(parsed, server.at), document.syntax);
        if ("reason" in found) skipped.push(found);
        else remotes.push(found);
      }
      continue;
    }
    if ("shell" in server.launch) {
      skipped.push({ server, reason: "shell_command" });
      continue;
    }
    const argv = server.launch.argv;
    if (unwrapArgv(argv) !== null) {
      skipped.push({ server, reason: "already_wrapped" });
      continue;
    }
    const entry = valueAt(parsed, server.at);
    const env = envNames(entry);
    candidates.push({
      server,
      argv,
      passEnv: env.filter((name) => ENV_NAME.test(name)),
      badEnvNames: env.filter((name) => !ENV_NAME.test(name)),
      envFile: field(entry, "envFile") !== undefined,
    });
  }
  return { candidates, remotes, skipped };
}

function remoteCandidate(server: ConfigServer, entry: unknown, syntax: ConfigDocument["syntax"]): RemoteCandidate | Skipped {
  if (syntax !== "json") return { server, reason: "remote", detail: "remote servers are wrapped in JSON config files only" };
  const url = ["url", "serverUrl", "httpUrl", "uri"].map((key) => field(entry, key)).find((value) => value !== undefined);
  if (typeof url !== "string") return { server, reason: "unreadable", detail: "url_type" };
  const headerMap = field(entry, "headers");
  const headers: [string, string][] = [];
  if (headerMap !== undefined) {
    if (!isObject(headerMap)) return { server, reason: "unreadable", detail: "headers_type" };
    for (const name of Object.keys(headerMap)) {
      const value = headerMap[name];
      if (typeof value !== "string") return { server, reason: "unreadable", detail: "headers_type" };
      headers.push([name, value]);
    }
  }
  return { server, url, headers, typed: field(entry, "type") !== undefined };
}

/** One entry to wrap: where its lock is. */
export interface WrapChoice {
  candidate: WrapCandidate;
  lock: string;
}

/** One remote entry to wrap: where its lock is. */
export interface RemoteChoice {
  candidate: RemoteCandidate;
  lock: string;
}

/** The whole new text of a wrapped remote entry: the proxy, the header values and the original entry in its env. */
function remoteEntryText(choice: RemoteChoice, original: string, launcher: Launcher, args: readonly string[]): string {
  const { candidate } = choice;
  const env: Record<string, string> = {};
  candidate.headers.forEach(([, value], index) => {
    env[`${HEADER_VARIABLE_PREFIX}${index + 1}`] = value;
  });
  env[ORIGINAL_ENTRY_VARIABLE] = original;
  const entry: Record<string, unknown> = candidate.typed ? { type: "stdio" } : {};
  entry.command = launcherCommand(launcher);
  entry.args = [...args];
  entry.env = env;
  return JSON.stringify(entry);
}

/**
 * Wrap the chosen entries. Each entry's edits are made on the original text and applied together;
 * the result is then read back: every wrapped entry must launch exactly the wrapped argv, every
 * other entry exactly what it launched before, and unwrapping must give back the original bytes.
 * An entry that cannot be edited is reported and left alone.
 */
export function wrapText(
  text: string,
  path: string,
  syntax: Syntax,
  choices: readonly WrapChoice[],
  version: string,
  launcher: Launcher,
  remoteChoices: readonly RemoteChoice[] = [],
  pin = false,
): { text: string; wrapped: WrapChoice[]; wrappedRemote: RemoteChoice[]; skipped: Skipped[] } {
  const edits: TextEdit[] = [];
  const wrapped: WrapChoice[] = [];
  const skipped: Skipped[] = [];
  const expected = new Map<string, string[]>();
  for (const choice of remoteChoices) {
    const at = choice.candidate.server.at;
    const args = remoteArgs({
      version,
      launcher,
      lock: choice.lock,
      url: choice.candidate.url,
      headerNames: choice.candidate.headers.map(([name]) => name),
      source: { config: path, entry: choice.candidate.server.name },
    });
    edits.push(replaceEntryEdit(text, at, remoteEntryText(choice, entryText(text, at), launcher, args)));
    expected.set(atKey(choice.candidate.server), [launcherCommand(launcher), ...args]);
  }
  // Parsed once: whether each entry has `args` decides the form of its --lock flag.
  const parsed = parseConfigText(text, path).value;
  for (const choice of choices) {
    const spec: WrapSpec = {
      version,
      launcher,
      lock: choice.lock,
      passEnv: choice.candidate.passEnv,
      argsAbsent: !hasArgs(parsed, choice.candidate.server),
      source: { config: path, entry: choice.candidate.server.name },
      // Only a package runner called directly can be replaced by the locked tree; other launches stay as they are.
      pinned: pin && pinnable(choice.candidate.argv),
    };
    try {
      pushAll(edits, wrapEdits(text, syntax, choice.candidate.server.at, launcherCommand(launcher), wrapPrefix(spec)));
      wrapped.push(choice);
      expected.set(atKey(choice.candidate.server), wrappedArgv(spec, choice.candidate.argv));
    } catch (error) {
      if (!(error instanceof EntryEditError)) throw error;
      skipped.push({ server: choice.candidate.server, reason: "not_editable", detail: error.message });
    }
  }
  const result = applyEdits(text, edits);
  checkReadBack(text, result, path, expected);
  if (unwrapText(result, path, new Set(expected.keys())).text !== text)
    throw new EntryEditError("unwrapping the result would not give back the original bytes");
  return { text: result, wrapped, wrappedRemote: [...remoteChoices], skipped };
}

/** An entry unwrap restored. */
export interface UnwrappedEntry {
  server: ConfigServer;
  lock: string | null;
}

/**
 * Unwrap every wrapped entry of a config file (or only those at the `only` keys, as
 * `JSON.stringify(at)`); entries that cannot be restored as text are reported and left alone.
 */
export function unwrapText(text: string, path: string, only?: ReadonlySet<string>): { text: string; unwrapped: UnwrappedEntry[]; skipped: Skipped[] } {
  const document = readConfigText(text, path);
  const edits: TextEdit[] = [];
  const unwrapped: UnwrappedEntry[] = [];
  const skipped: Skipped[] = [];
  const expected = new Map<string, string[]>();
  let parsed: unknown;
  for (const server of document.servers) {
    if (server.launch === null || !("argv" in server.launch)) continue;
    if (only !== undefined && !only.has(atKey(server))) continue;
    const parts = unwrapArgv(server.launch.argv);
    if (parts === null) continue;
    if (unwrapped.length + skipped.length >= MAX_WRAP_SERVERS) {
      throw new EntryEditError(`it holds more than ${MAX_WRAP_SERVERS} wrapped servers, more than unwrap edits in one file`);
    }
    try {
      if (parts.remote) {
        // A remote entry was rewritten whole; its original text is kept in its env.
        parsed ??= parseConfigText(text, path).value;
        const original = field(field(valueAt(parsed, server.at), "env"), ORIGINAL_ENTRY_VARIABLE);
        if (document.syntax !== "json" || typeof original !== "string")
          throw new EntryEditError(`it runs the proxy with --url but its env has no ${ORIGINAL_ENTRY_VARIABLE} to restore`);
        edits.push(replaceEntryEdit(text, server.at, original));
        unwrapped.push({ server, lock: parts.lock });
        expected.set(atKey(server), []);
        continue;
      }
      pushAll(edits, unwrapEdits(text, document.syntax, server.at, parts.prefixLength, parts.argsAbsent));
      unwrapped.push({ server, lock: parts.lock });
      expected.set(atKey(server), parts.original);
    } catch (error) {
      if (!(error instanceof EntryEditError)) throw error;
      skipped.push({ server, reason: "not_editable", detail: error.message });
    }
  }
  const result = applyEdits(text, edits);
  checkReadBack(text, result, path, expected);
  return { text: result, unwrapped, skipped };
}

/**
 * Read the edited text back: the changed entries launch what was intended (an empty argv: a
 * restored remote entry, which launches nothing), every other entry reads exactly as before.
 */
function checkReadBack(before: string, after: string, path: string, changed: ReadonlyMap<string, string[]>): void {
  const old = readConfigText(before, path);
  const now = readConfigText(after, path);
  const shape = (server: ConfigServer) => JSON.stringify([server.launch, server.transport, server.remote, server.disabled, server.problem]);
  const byKey = (document: ConfigDocument) => new Map(document.servers.map((server) => [atKey(server), server]));
  const oldServers = byKey(old);
  const newServers = byKey(now);
  if (oldServers.size !== newServers.size) throw new EntryEditError("the edited file reads as a different set of servers");
  for (const [key, server] of oldServers) {
    const want = changed.get(key);
    const got = newServers.get(key);
    const ok =
      got !== undefined &&
      (want === undefined ? shape(got) === shape(server) : JSON.stringify(got.launch) === JSON.stringify(want.length === 0 ? null : { argv: want }));
    if (!ok) throw new EntryEditError(`the edited file does not read back as intended at ${key}`);
  }
}

function atKey(server: ConfigServer): string {
  return JSON.stringify(server.at);
}

function hasArgs(parsed: unknown, server: ConfigServer): boolean {
  const entry = valueAt(parsed, server.at);
  const command = field(entry, "command");
  const holder = isObject(command) && typeof field(command, "path") === "string" ? command : entry;
  const args = field(holder, "args");
  return args !== undefined;
}

function valueAt(root: unknown, at: readonly (string | number)[]): unknown {
  let value = root;
  for (const key of at) value = Array.isArray(value) && typeof key === "number" ? value[key] : field(value, String(key));
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function field(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/**
 * The secrets written in a config's header and env fields, of every entry (wrapped or not): what a
 * dry run must never print. A value that is only a placeholder (`${TOKEN}`) holds no secret itself,
 * and an env value that cannot be a secret (a log level, a boolean, a path) is a setting.
 */
export function configSecretValues(text: string, path: string, servers: readonly ConfigServer[]): string[] {
  const parsed = parseConfigText(text, path).value;
  const values: string[] = [];
  for (const server of servers) {
    const entry = valueAt(parsed, server.at);
    const command = field(entry, "command");
    const strings = (map: unknown) =>
      isObject(map) ? Object.values(map).filter((value): value is string => typeof value === "string" && !value.includes("${")) : [];
    // Header values are secrets whatever their shape; an env value only where it can be one (not `info`, `true`, a path).
    for (const key of ["headers", "http_headers"]) values.push(...strings(field(entry, key)));
    for (const map of [field(entry, "env"), field(entry, "envs"), isObject(command) ? field(command, "env") : undefined])
      values.push(...strings(map).filter(couldBeSecret));
  }
  return values;
}

/** Names of the variables an entry sets: `env` (Goose: `envs`; old Zed: `command.env`) and Codex's `env_vars`. */
function envNames(entry: unknown): string[] {
  const names = new Set<string>();
  const command = field(entry, "command");
  for (const map of [field(entry, "env"), field(entry, "envs"), isObject(command) ? field(command, "env") : undefined]) {
    if (isObject(map)) for (const name of Object.keys(map)) names.add(name);
  }
  const listed = field(entry, "env_vars");
  if (Array.isArray(listed)) for (const name of listed) if (typeof name === "string") names.add(name);
  return [...names];
}

/** Whether `proxy --pinned` can run this launch from a locked tree: an npm package runner called directly. */
export function pinnable(argv: readonly string[]): boolean {
  const source = artifactSource(argv);
  return source.type === "npm" && source.runs !== null;
}
