/** The lockfile format: building it from a snapshot, its canonical text, and strict validation. Pure. */

import { LockFormatError } from "../errors.js";
import { createHash } from "node:crypto";
import { canonicalSha256, stringifyLockText } from "../json/canonical.js";
import { jsonEqual } from "../json/equal.js";
import { maxDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { type Instructions, type JsonObject, type ServerSnapshot, isJsonObject, ownField } from "./snapshot.js";

/** Format version this mcp-lint writes and reads. */
export const LOCKFILE_VERSION = 1;

/** One locked definition (a tool now; prompts and resources later) and the RFC 8785 hash of it. */
export interface LockedEntry {
  sha256: string;
  definition: JsonObject;
}

/** A lockfile's content. Entries are keyed by name in Maps, so a `__proto__` name stays data. */
export interface Lockfile {
  version: typeof LOCKFILE_VERSION;
  server: { name: string | null; version: string | null; commandSha256: string | null };
  instructions: Instructions;
  tools: Map<string, LockedEntry>;
  /** Reserved sections with the same entry shape; kept as read, not yet compared. */
  prompts: Map<string, LockedEntry> | null;
  resources: Map<string, LockedEntry> | null;
}

const TOP_KEYS = ["instructions", "lockfile_version", "prompts", "resources", "server", "tools"];
const REQUIRED_TOP_KEYS = ["instructions", "lockfile_version", "server", "tools"];
const SERVER_KEYS = ["command_sha256", "name", "version"];
const ENTRY_KEYS = ["definition", "sha256"];
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Hash of one definition: SHA-256 over its RFC 8785 canonical form. */
export function definitionSha256(definition: JsonObject): string {
  return canonicalSha256(definition);
}

/**
 * Build the lock for a snapshot. When refreshing, what this run does not know (instructions from
 * a file without them, server name, version or command from a file) is kept from the previous lock.
 * Callers must have rejected duplicate tool names first.
 */
export function buildLockfile(snapshot: ServerSnapshot, previous: Lockfile | null): Lockfile {
  const tools = new Map<string, LockedEntry>();
  for (const definition of snapshot.tools) {
    const name = definition.name as string;
    // An unchanged tool keeps its verified hash; only new or changed definitions are hashed.
    const locked = previous?.tools.get(name);
    const sha256 = locked && jsonEqual(locked.definition, definition) ? locked.sha256 : definitionSha256(definition);
    tools.set(name, { sha256, definition });
  }
  const old = previous?.server;
  return {
    version: LOCKFILE_VERSION,
    server: {
      name: snapshot.name ?? old?.name ?? null,
      version: snapshot.version ?? old?.version ?? null,
      commandSha256: snapshot.commandSha256 ?? old?.commandSha256 ?? null,
    },
    instructions: snapshot.instructions.known ? snapshot.instructions : (previous?.instructions ?? { known: false }),
    tools,
    prompts: previous?.prompts ?? null,
    resources: previous?.resources ?? null,
  };
}

/** The lockfile's exact bytes: sorted keys, 2-space indent, ASCII only, trailing newline. */
export function serializeLockfile(lock: Lockfile): string {
  const document: JsonObject = Object.create(null) as JsonObject;
  document.lockfile_version = lock.version;
  document.server = {
    command_sha256: lock.server.commandSha256,
    name: lock.server.name,
    version: lock.server.version,
  };
  document.instructions = lock.instructions.known
    ? { known: true, text: lock.instructions.text }
    : { known: false, text: null };
  document.tools = entriesToObject(lock.tools);
  if (lock.prompts) document.prompts = entriesToObject(lock.prompts);
  if (lock.resources) document.resources = entriesToObject(lock.resources);
  return stringifyLockText(document);
}

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function entriesToObject(entries: Map<string, LockedEntry>): JsonObject {
  const object = Object.create(null) as JsonObject;
  for (const [name, entry] of entries) {
    object[name] = { definition: entry.definition, sha256: entry.sha256 };
  }
  return object;
}

/**
 * Whether a stored hash matches a definition read from a lock. Locks are written with sorted keys,
 * so the native JSON.stringify text usually is the RFC 8785 form already; if its hash matches, the
 * definition is the hashed one. Otherwise (a reformatted lock) the full canonical form decides.
 */
function hashMatches(definition: JsonObject, sha256: string): boolean {
  return sha256Hex(JSON.stringify(definition)) === sha256 || definitionSha256(definition) === sha256;
}

/** How `parseLockfile` treats a stored hash that does not match its definition. */
export interface ParseLockOptions {
  /**
   * "refuse" (the default) makes it an error. "repair" accepts the definition as stored, records
   * its name in `repaired`, and rehashes it, so `lock --accept` can rewrite a hand-edited lock.
   */
  hashMismatch?: "refuse" | "repair";
  repaired?: string[];
}

/** Validate a parsed lockfile strictly: exact keys, known version, hashes that match. */
export function parseLockfile(parsed: unknown, source: string, options: ParseLockOptions = {}): Lockfile {
  const fail = (what: string): never => {
    throw new LockFormatError(`${source}: ${what}; run "mcp-lint lock" to write a fresh lock`);
  };
  if (!isJsonObject(parsed)) return fail("not an mcp-lint lockfile (expected a JSON object)");
  const version = ownField(parsed, "lockfile_version");
  if (version === undefined) return fail('not an mcp-lint lockfile (no "lockfile_version")');
  if (version !== LOCKFILE_VERSION) {
    throw new LockFormatError(
      `${source}: lockfile format version ${JSON.stringify(version)} is not supported (this mcp-lint reads version ${LOCKFILE_VERSION}); upgrade mcp-lint or re-create the lock`,
    );
  }
  checkKeys(parsed, TOP_KEYS, REQUIRED_TOP_KEYS, "the lockfile", fail);

  const server = ownField(parsed, "server");
  if (!isJsonObject(server)) return fail('"server" must be an object');
  checkKeys(server, SERVER_KEYS, SERVER_KEYS, '"server"', fail);
  const name = nullableString(ownField(server, "name"), '"server.name"', fail);
  const serverVersion = nullableString(ownField(server, "version"), '"server.version"', fail);
  const commandSha256 = nullableString(ownField(server, "command_sha256"), '"server.command_sha256"', fail);
  if (commandSha256 !== null && !SHA256_HEX.test(commandSha256)) {
    return fail('"server.command_sha256" must be 64 lowercase hex digits');
  }

  const instructionsValue = ownField(parsed, "instructions");
  if (!isJsonObject(instructionsValue)) return fail('"instructions" must be an object');
  checkKeys(instructionsValue, ["known", "text"], ["known", "text"], '"instructions"', fail);
  const known = ownField(instructionsValue, "known");
  const text = nullableString(ownField(instructionsValue, "text"), '"instructions.text"', fail);
  if (typeof known !== "boolean") return fail('"instructions.known" must be true or false');
  if (!known && text !== null) return fail('"instructions.text" must be null when "known" is false');

  return {
    version: LOCKFILE_VERSION,
    server: { name, version: serverVersion, commandSha256 },
    instructions: known ? { known: true, text: text === "" ? null : text } : { known: false },
    tools: parseEntries(ownField(parsed, "tools"), "tools", fail, source, options),
    prompts: Object.hasOwn(parsed, "prompts") ? parseEntries(parsed.prompts, "prompts", fail, source, options) : null,
    resources: Object.hasOwn(parsed, "resources") ? parseEntries(parsed.resources, "resources", fail, source, options) : null,
  };
}

function parseEntries(
  value: unknown,
  section: string,
  fail: (what: string) => never,
  source: string,
  options: ParseLockOptions,
): Map<string, LockedEntry> {
  if (!isJsonObject(value)) return fail(`"${section}" must be an object keyed by name`);
  const entries = new Map<string, LockedEntry>();
  for (const name of Object.keys(value)) {
    const where = `${section} entry ${JSON.stringify(name)}`;
    const entry = value[name];
    if (!isJsonObject(entry)) return fail(`${where} must be an object`);
    checkKeys(entry, ENTRY_KEYS, ENTRY_KEYS, where, fail);
    const definition = ownField(entry, "definition");
    const sha256 = ownField(entry, "sha256");
    if (!isJsonObject(definition)) return fail(`${where}: "definition" must be an object`);
    if (ownField(definition, "name") !== name) return fail(`${where}: the definition's "name" differs from its key`);
    if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) {
      return fail(`${where}: "sha256" must be 64 lowercase hex digits`);
    }
    if (maxDepth(definition, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
      return fail(`${where} is nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
    }
    // The hash only catches corruption or a naive hand edit; review of the diff is the real control.
    if (!hashMatches(definition, sha256)) {
      if (options.hashMismatch === "repair") {
        options.repaired?.push(name);
        entries.set(name, { sha256: definitionSha256(definition), definition });
        continue;
      }
      throw new LockFormatError(
        `${source}: ${where}: "sha256" does not match the definition (edited by hand?); review the lock's diff, then run "mcp-lint lock --accept" to compare with the server and rewrite it`,
      );
    }
    entries.set(name, { sha256, definition });
  }
  return entries;
}

function checkKeys(
  object: JsonObject,
  allowed: readonly string[],
  required: readonly string[],
  where: string,
  fail: (what: string) => never,
): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) fail(`unknown key ${JSON.stringify(key)} in ${where}`);
  }
  for (const key of required) {
    if (!Object.hasOwn(object, key)) fail(`missing key ${JSON.stringify(key)} in ${where}`);
  }
}

function nullableString(value: unknown, where: string, fail: (what: string) => never): string | null {
  if (value === null || typeof value === "string") return value;
  return fail(`${where} must be a string or null`);
}
