/** The lockfile format (v1: one server; v2: servers by name): building it from snapshots, its canonical text, and strict validation. Pure. */

import { hash } from "node:crypto";
import { LockFormatError } from "../errors.js";
import { canonicalSha256, stringifyLockText } from "../json/canonical.js";
import { jsonEqual } from "../json/equal.js";
import { maxDepth, parsedWithinDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH, MAX_TOOLS } from "../limits.js";
import { type EntrySection, type Instructions, type JsonObject, type ServerSnapshot, isJsonObject, ownField } from "./snapshot.js";
import { thousands } from "../numbers.js";
import { artifactJson, parseArtifact } from "../artifact/lock-section.js";
import type { ArtifactRecord } from "../artifact/types.js";

/** Format version of a single-server lock (tools and instructions). */
export const LOCKFILE_VERSION = 1;
/** Format version of a lock holding several servers by name, each with prompts, resources and templates too. */
export const LOCKFILE_VERSION_SERVERS = 2;

/** One locked definition (a tool, prompt, resource or template) and the RFC 8785 hash of it. */
export interface LockedEntry {
  sha256: string;
  definition: JsonObject;
}

/**
 * An ignore rule (`lock --ignore`): a change of `kind` at `path` of `tool` is silenced while the
 * served value there still hashes to `valueSha256`; any other value fires again.
 */
export interface IgnoreRule {
  tool: string;
  path: string;
  kind: string;
  valueSha256: string;
  reason: string;
}

/** What a lock holds for one server. Entries are keyed in Maps, so a `__proto__` name stays data. */
export interface Lockfile {
  /** The format of the file this came from (or will be written as). */
  version: typeof LOCKFILE_VERSION | typeof LOCKFILE_VERSION_SERVERS;
  /**
   * `icons` is serverInfo.icons as last read (null: none). `toolOrderSha256` hashes the tool names
   * in the order the server listed them (null: not known, as in a lock written before it was kept).
   */
  server: { name: string | null; version: string | null; commandSha256: string | null; icons?: unknown; toolOrderSha256?: string | null };
  instructions: Instructions;
  tools: Map<string, LockedEntry>;
  /** Prompts, resources and templates; null when not pinned (a v1 lock keeps but never compares them). */
  prompts: Map<string, LockedEntry> | null;
  resources: Map<string, LockedEntry> | null;
  resourceTemplates: Map<string, LockedEntry> | null;
  /** Ignore rules (v2 only). */
  ignores: IgnoreRule[];
  /** The client identity the server was read as (v2 only), when not mcp-lint's own. */
  readAs: { name: string; version: string } | null;
  /** What the launch runs (package, exact version, tree, provenance), when it could be pinned. */
  artifact: ArtifactRecord | null;
}

/** A whole lockfile: one server (v1), or servers by name (v2). */
export type LockDocument = { version: typeof LOCKFILE_VERSION; lock: Lockfile } | { version: typeof LOCKFILE_VERSION_SERVERS; servers: Map<string, Lockfile> };

const V1_TOP_KEYS = ["artifact", "instructions", "lockfile_version", "prompts", "resources", "server", "tools"];
const V1_REQUIRED_TOP_KEYS = ["instructions", "lockfile_version", "server", "tools"];
const V2_TOP_KEYS = ["lockfile_version", "servers"];
const V2_SERVER_KEYS = ["artifact", "ignores", "instructions", "prompts", "read_as", "resource_templates", "resources", "server", "tools"];
const V2_REQUIRED_SERVER_KEYS = ["instructions", "server", "tools"];
const SERVER_KEYS = ["command_sha256", "icons", "name", "tool_order_sha256", "version"];
const REQUIRED_SERVER_KEYS = ["command_sha256", "name", "version"];
const ENTRY_KEYS = ["definition", "sha256"];
const IGNORE_KEYS = ["kind", "path", "reason", "tool", "value_sha256"];
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Where each section lives in a v2 server entry, and the definition field that must equal its key. */
const SECTION_FIELDS: Record<EntrySection | "tools", { json: string; key: string }> = {
  tools: { json: "tools", key: "name" },
  prompts: { json: "prompts", key: "name" },
  resources: { json: "resources", key: "uri" },
  resourceTemplates: { json: "resource_templates", key: "uriTemplate" },
};

/**
 * Hash of the order a server listed its tools in: SHA-256 over the canonical form of the names in
 * that order. The lock keys tools by name, so this is all it keeps of the order.
 */
export function toolOrderSha256(tools: readonly JsonObject[]): string {
  return canonicalSha256(tools.map((tool) => tool.name));
}

/** Whether a list holds exactly the locked tools' names, in any order. */
export function sameNames(locked: ReadonlyMap<string, LockedEntry>, tools: readonly JsonObject[]): boolean {
  return tools.length === locked.size && tools.every((tool) => typeof tool.name === "string" && locked.has(tool.name));
}

/** Hash of one definition: SHA-256 over its RFC 8785 canonical form. */
export function definitionSha256(definition: JsonObject): string {
  return canonicalSha256(definition);
}

/** Entries keyed by `key`; an unchanged definition keeps its verified hash, new or changed ones are hashed. */
function entriesFor(definitions: readonly JsonObject[], key: string, previous: Map<string, LockedEntry> | null | undefined): Map<string, LockedEntry> {
  const entries = new Map<string, LockedEntry>();
  for (const definition of definitions) {
    const name = definition[key] as string;
    const locked = previous?.get(name);
    const sha256 = locked && jsonEqual(locked.definition, definition) ? locked.sha256 : definitionSha256(definition);
    entries.set(name, { sha256, definition });
  }
  return entries;
}

/**
 * Build the lock for a snapshot. When refreshing, what this run does not know (instructions from
 * a file without them, server name, version or command from a file, prompts of a file that has
 * none) is kept from the previous lock. Callers must have rejected duplicate tool names first.
 * `version` 1 pins tools and instructions; 2 also pins prompts, resources and templates.
 */
export function buildLockfile(
  snapshot: ServerSnapshot,
  previous: Lockfile | null,
  version: Lockfile["version"] = previous?.version ?? LOCKFILE_VERSION,
): Lockfile {
  const old = previous?.server;
  const servers = version === LOCKFILE_VERSION_SERVERS;
  const section = (name: EntrySection): Map<string, LockedEntry> | null => {
    const served = snapshot[name];
    const kept = previous?.[name] ?? null;
    // v1 never writes these; it keeps what an older file holds.
    if (!servers || served === undefined) return kept;
    return entriesFor(served, SECTION_FIELDS[name].key, kept);
  };
  return {
    version,
    server: {
      name: snapshot.name ?? old?.name ?? null,
      version: snapshot.version ?? old?.version ?? null,
      commandSha256: snapshot.commandSha256 ?? old?.commandSha256 ?? null,
      icons: snapshot.icons === undefined ? (old?.icons ?? null) : snapshot.icons,
      // The same tools in another order keep the locked order: a server that shuffles its list must
      // not rewrite the lock on every refresh (the order is a note, never a change).
      toolOrderSha256:
        previous?.server.toolOrderSha256 != null && sameNames(previous.tools, snapshot.tools)
          ? previous.server.toolOrderSha256
          : toolOrderSha256(snapshot.tools),
    },
    instructions: snapshot.instructions.known ? snapshot.instructions : (previous?.instructions ?? { known: false }),
    tools: entriesFor(snapshot.tools, "name", previous?.tools),
    prompts: section("prompts"),
    resources: section("resources"),
    resourceTemplates: servers ? section("resourceTemplates") : null,
    ignores: servers ? (previous?.ignores ?? []) : [],
    readAs: servers ? (snapshot.readAs ?? null) : null,
    // A run that did not read the artifact (a --from file) keeps the locked one.
    artifact: snapshot.artifact === undefined ? (previous?.artifact ?? null) : snapshot.artifact,
  };
}

/** The exact bytes of a single-server (v1) lock: sorted keys, 2-space indent, ASCII only, trailing newline. */
export function serializeLockfile(lock: Lockfile): string {
  if (lock.version === LOCKFILE_VERSION_SERVERS) {
    throw new LockFormatError("a v2 lock entry is written as part of its document (serializeLockDocument)");
  }
  const document: JsonObject = Object.create(null) as JsonObject;
  document.lockfile_version = LOCKFILE_VERSION;
  document.server = serverObject(lock);
  document.instructions = instructionsObject(lock);
  document.tools = entriesToObject(lock.tools);
  if (lock.prompts) document.prompts = entriesToObject(lock.prompts);
  if (lock.resources) document.resources = entriesToObject(lock.resources);
  if (lock.artifact) document.artifact = artifactJson(lock.artifact);
  return stringifyLockText(document);
}

/** The exact bytes of a lock document, v1 or v2, with the same guarantees as serializeLockfile. */
export function serializeLockDocument(document: LockDocument): string {
  if (document.version === LOCKFILE_VERSION) return serializeLockfile(document.lock);
  const servers = Object.create(null) as JsonObject;
  for (const [name, lock] of document.servers) {
    const entry = Object.create(null) as JsonObject;
    entry.server = serverObject(lock);
    entry.instructions = instructionsObject(lock);
    entry.tools = entriesToObject(lock.tools);
    if (lock.prompts) entry.prompts = entriesToObject(lock.prompts);
    if (lock.resources) entry.resources = entriesToObject(lock.resources);
    if (lock.resourceTemplates) entry.resource_templates = entriesToObject(lock.resourceTemplates);
    if (lock.readAs) entry.read_as = { name: lock.readAs.name, version: lock.readAs.version };
    if (lock.artifact) entry.artifact = artifactJson(lock.artifact);
    if (lock.ignores.length > 0) {
      entry.ignores = [...lock.ignores]
        .sort((a, b) => compareText(a.tool, b.tool) || compareText(a.path, b.path) || compareText(a.valueSha256, b.valueSha256))
        .map((rule) => ({ kind: rule.kind, path: rule.path, reason: rule.reason, tool: rule.tool, value_sha256: rule.valueSha256 }));
    }
    servers[name] = entry;
  }
  const top = Object.create(null) as JsonObject;
  top.lockfile_version = LOCKFILE_VERSION_SERVERS;
  top.servers = servers;
  return stringifyLockText(top);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function serverObject(lock: Lockfile): JsonObject {
  const object: JsonObject = { command_sha256: lock.server.commandSha256, name: lock.server.name, version: lock.server.version };
  if (lock.server.icons !== undefined && lock.server.icons !== null) object.icons = lock.server.icons as JsonObject[string];
  if (typeof lock.server.toolOrderSha256 === "string") object.tool_order_sha256 = lock.server.toolOrderSha256;
  return object;
}

function instructionsObject(lock: Lockfile): JsonObject {
  return lock.instructions.known ? { known: true, text: lock.instructions.text } : { known: false, text: null };
}

function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
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

/**
 * Where a lock read entry by entry (lock/deferred.ts) takes the tools entries it cut out of the
 * text: `claim` is told each numeric stand-in found where a tools entry belongs, and must refuse
 * (throw) any number that is not its own.
 */
export interface DeferredEntries {
  claim(entries: Map<string, LockedEntry>, index: number, name: string, section: string): void;
}

/** ParseLockOptions as passed down inside, with whether the whole document is known to be no deeper than a definition may be. */
type EntryOptions = ParseLockOptions & { depthChecked: boolean; deferred?: DeferredEntries };

type Fail = (what: string) => never;

function failFor(source: string): Fail {
  return (what: string): never => {
    throw new LockFormatError(`${source}: ${what}; run "mcp-lint lock" to write a fresh lock`);
  };
}

/** Validate a parsed single-server (v1) lockfile strictly: exact keys, known version, hashes that match. */
export function parseLockfile(parsed: unknown, source: string, options: ParseLockOptions = {}): Lockfile {
  const document = parseLockDocument(parsed, source, options);
  if (document.version === LOCKFILE_VERSION) return document.lock;
  if (document.servers.size === 1) return [...document.servers.values()][0] as Lockfile;
  throw new LockFormatError(`${source} holds ${document.servers.size} servers; name the one to use (--server NAME)`);
}

/** Validate a parsed lockfile of either version strictly. */
export function parseLockDocument(parsed: unknown, source: string, options: ParseLockOptions = {}): LockDocument {
  return parseDocument(parsed, source, { ...options, depthChecked: parsedWithinDepth(parsed, MAX_DEFINITION_DEPTH) });
}

/** parseLockDocument for a lock whose tools entries were cut out of the text and stand as numbers (lock/deferred.ts). */
export function parseLockSkeleton(parsed: unknown, source: string, deferred: DeferredEntries): LockDocument {
  return parseDocument(parsed, source, { depthChecked: parsedWithinDepth(parsed, MAX_DEFINITION_DEPTH), deferred });
}

function parseDocument(parsed: unknown, source: string, entryOptions: EntryOptions): LockDocument {
  const fail = failFor(source);
  if (!isJsonObject(parsed)) return fail("not an mcp-lint lockfile (expected a JSON object)");
  const version = ownField(parsed, "lockfile_version");
  if (version === undefined) return fail('not an mcp-lint lockfile (no "lockfile_version")');
  if (version === LOCKFILE_VERSION) {
    checkKeys(parsed, V1_TOP_KEYS, V1_REQUIRED_TOP_KEYS, "the lockfile", fail);
    const lock = parseServerEntry(parsed, LOCKFILE_VERSION, "", source, entryOptions, fail);
    return { version: LOCKFILE_VERSION, lock };
  }
  if (version === LOCKFILE_VERSION_SERVERS) {
    checkKeys(parsed, V2_TOP_KEYS, V2_TOP_KEYS, "the lockfile", fail);
    const serversValue = ownField(parsed, "servers");
    if (!isJsonObject(serversValue)) return fail('"servers" must be an object keyed by server name');
    const servers = new Map<string, Lockfile>();
    for (const name of Object.keys(serversValue)) {
      const entry = serversValue[name];
      const where = `servers entry ${JSON.stringify(name)}`;
      if (!isJsonObject(entry)) return fail(`${where} must be an object`);
      checkKeys(entry, V2_SERVER_KEYS, V2_REQUIRED_SERVER_KEYS, where, fail);
      servers.set(name, parseServerEntry(entry, LOCKFILE_VERSION_SERVERS, `${where}: `, source, entryOptions, fail));
    }
    return { version: LOCKFILE_VERSION_SERVERS, servers };
  }
  throw new LockFormatError(
    `${source}: lockfile format version ${JSON.stringify(version)} is not supported (this mcp-lint reads versions ${LOCKFILE_VERSION} and ${LOCKFILE_VERSION_SERVERS}); upgrade mcp-lint or re-create the lock`,
  );
}

/** One server's part: the whole file in v1, one `servers` entry in v2. `at` prefixes messages. */
function parseServerEntry(parsed: JsonObject, version: Lockfile["version"], at: string, source: string, options: EntryOptions, fail: Fail): Lockfile {
  const server = ownField(parsed, "server");
  if (!isJsonObject(server)) return fail(`${at}"server" must be an object`);
  checkKeys(server, SERVER_KEYS, REQUIRED_SERVER_KEYS, `${at}"server"`, fail);
  const name = nullableString(ownField(server, "name"), `${at}"server.name"`, fail);
  const serverVersion = nullableString(ownField(server, "version"), `${at}"server.version"`, fail);
  const commandSha256 = nullableString(ownField(server, "command_sha256"), `${at}"server.command_sha256"`, fail);
  if (commandSha256 !== null && !SHA256_HEX.test(commandSha256)) {
    return fail(`${at}"server.command_sha256" must be 64 lowercase hex digits`);
  }
  const toolOrder = ownField(server, "tool_order_sha256");
  if (toolOrder !== undefined && (typeof toolOrder !== "string" || !SHA256_HEX.test(toolOrder))) {
    return fail(`${at}"server.tool_order_sha256" must be 64 lowercase hex digits`);
  }

  const instructionsValue = ownField(parsed, "instructions");
  if (!isJsonObject(instructionsValue)) return fail(`${at}"instructions" must be an object`);
  checkKeys(instructionsValue, ["known", "text"], ["known", "text"], `${at}"instructions"`, fail);
  const known = ownField(instructionsValue, "known");
  const text = nullableString(ownField(instructionsValue, "text"), `${at}"instructions.text"`, fail);
  if (typeof known !== "boolean") return fail(`${at}"instructions.known" must be true or false`);
  if (!known && text !== null) return fail(`${at}"instructions.text" must be null when "known" is false`);

  const section = (name: EntrySection | "tools") => {
    const { json, key } = SECTION_FIELDS[name];
    // v1's reserved prompts and resources sections are keyed by the definition's name.
    const keyField = version === LOCKFILE_VERSION ? "name" : key;
    return Object.hasOwn(parsed, json) ? parseEntries(parsed[json], `${at}${json}`, keyField, fail, source, options) : null;
  };
  return {
    version,
    server: { name, version: serverVersion, commandSha256, icons: ownField(server, "icons") ?? null, toolOrderSha256: toolOrder ?? null },
    instructions: known ? { known: true, text: text === "" ? null : text } : { known: false },
    tools: section("tools") ?? new Map(),
    prompts: section("prompts"),
    resources: section("resources"),
    resourceTemplates: version === LOCKFILE_VERSION ? null : section("resourceTemplates"),
    ignores: version === LOCKFILE_VERSION ? [] : parseIgnores(ownField(parsed, "ignores"), at, fail),
    readAs: version === LOCKFILE_VERSION ? null : parseReadAs(ownField(parsed, "read_as"), at, fail),
    artifact: Object.hasOwn(parsed, "artifact") ? parseArtifact(ownField(parsed, "artifact"), at, fail) : null,
  };
}

function parseIgnores(value: unknown, at: string, fail: Fail): IgnoreRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail(`${at}"ignores" must be an array`);
  return value.map((rule: unknown, index) => {
    const where = `${at}ignore #${index + 1}`;
    if (!isJsonObject(rule)) return fail(`${where} must be an object`);
    checkKeys(rule, IGNORE_KEYS, IGNORE_KEYS, where, fail);
    const field = (key: string) => {
      const text = ownField(rule, key);
      return typeof text === "string" ? text : fail(`${where}: "${key}" must be a string`);
    };
    const valueSha256 = field("value_sha256");
    if (!SHA256_HEX.test(valueSha256)) return fail(`${where}: "value_sha256" must be 64 lowercase hex digits`);
    return { tool: field("tool"), path: field("path"), kind: field("kind"), valueSha256, reason: field("reason") };
  });
}

function parseReadAs(value: unknown, at: string, fail: Fail): Lockfile["readAs"] {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) return fail(`${at}"read_as" must be an object`);
  checkKeys(value, ["name", "version"], ["name", "version"], `${at}"read_as"`, fail);
  const { name, version } = { name: ownField(value, "name"), version: ownField(value, "version") };
  if (typeof name !== "string" || typeof version !== "string") return fail(`${at}"read_as" needs a string name and version`);
  return { name, version };
}

function parseEntries(value: unknown, section: string, keyField: string, fail: Fail, source: string, options: EntryOptions): Map<string, LockedEntry> {
  if (!isJsonObject(value)) return fail(`"${section}" must be an object keyed by ${keyField}`);
  const names = Object.keys(value);
  // No list over MAX_TOOLS is ever locked; a lock holding more was not written by mcp-lint.
  const tools = section.endsWith("tools");
  if (tools && names.length > MAX_TOOLS)
    return fail(`"${section}" holds ${thousands(names.length)} tools, more than the ${thousands(MAX_TOOLS)} mcp-lint locks`);
  const entries = new Map<string, LockedEntry>();
  for (const name of names) {
    const entry = value[name];
    if (tools && options.deferred !== undefined && typeof entry === "number") {
      // A tools entry cut out of the text (see lock/deferred.ts): it keeps its place in the map and is read later.
      options.deferred.claim(entries, entry, name, section);
      entries.set(name, UNSETTLED);
      continue;
    }
    entries.set(name, parseLockedEntry(entry, name, section, keyField, source, options));
  }
  return entries;
}

/** What stands in the map for a tools entry that is cut out of the text and not read yet; reading it is a bug. */
const UNSETTLED: LockedEntry = Object.freeze({
  sha256: "",
  get definition(): JsonObject {
    throw new Error("internal error: a lock entry was read before it was settled against the server");
  },
});

/**
 * One entry of a section (`{ "definition": ..., "sha256": ... }`), validated strictly: exact keys,
 * the definition's key field equal to its name, depth, and a hash that matches (or, with
 * `hashMismatch: "repair"`, rehashed and named in `repaired`).
 */
export function parseLockedEntry(
  entry: unknown,
  name: string,
  section: string,
  keyField: string,
  source: string,
  options: ParseLockOptions & { depthChecked: boolean },
): LockedEntry {
  const fail = failFor(source);
  const where = `${section} entry ${JSON.stringify(name)}`;
  if (!isJsonObject(entry)) return fail(`${where} must be an object`);
  checkKeys(entry, ENTRY_KEYS, ENTRY_KEYS, where, fail);
  const definition = ownField(entry, "definition");
  const sha256 = ownField(entry, "sha256");
  if (!isJsonObject(definition)) return fail(`${where}: "definition" must be an object`);
  if (ownField(definition, keyField) !== name) return fail(`${where}: the definition's "${keyField}" differs from its key`);
  if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) {
    return fail(`${where}: "sha256" must be 64 lowercase hex digits`);
  }
  if (!options.depthChecked && maxDepth(definition, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) {
    return fail(`${where} is nested deeper than ${MAX_DEFINITION_DEPTH} levels`);
  }
  // The hash only catches corruption or a naive hand edit; review of the diff is the real control.
  if (!hashMatches(definition, sha256)) {
    if (options.hashMismatch === "repair") {
      options.repaired?.push(name);
      return { sha256: definitionSha256(definition), definition };
    }
    throw new LockFormatError(
      `${source}: ${where}: "sha256" does not match the definition (edited by hand?); review the lock's diff, then run "mcp-lint lock --accept" to compare with the server and rewrite it`,
    );
  }
  return { sha256, definition };
}

function checkKeys(object: JsonObject, allowed: readonly string[], required: readonly string[], where: string, fail: Fail): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) fail(`unknown key ${JSON.stringify(key)} in ${where}`);
  }
  for (const key of required) {
    if (!Object.hasOwn(object, key)) fail(`missing key ${JSON.stringify(key)} in ${where}`);
  }
}

function nullableString(value: unknown, where: string, fail: Fail): string | null {
  if (value === null || typeof value === "string") return value;
  return fail(`${where} must be a string or null`);
}
