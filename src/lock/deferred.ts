/**
 * `lock --check` of a large lock, entry by entry. A lock mcp-lint wrote has one layout: each tools
 * entry starts on a line of its own (`    "name": {`) and ends on the first line that closes it at
 * the same indentation. The reader cuts those entries out of the text, parses the rest (the
 * skeleton, with a number standing in for each entry) strictly, and reads each entry only when the
 * server's tools are known: an entry equal to the served tool keeps the served object and its own
 * parsed tree is dropped at once, so a 10,000-tool check never holds the whole lock as objects.
 *
 * Exactness does not rest on the layout. The cuts are at line starts, which are never inside a
 * JSON string, and a cut-out entry replaced by a number is a value like any other: when the
 * skeleton and every entry each parse strictly, the whole text parses to the same value with no
 * duplicate key anywhere. Whenever anything looks different (another layout, an entry that does not
 * parse, a hash that does not match, a stand-in number in the wrong place), the whole text is read
 * the ordinary way, so every error and its message is exactly what parseLockDocument gives. Pure.
 */

import { JsonInputError, LockFormatError } from "../errors.js";
import { equalKeyCount, jsonEqual } from "../json/equal.js";
import { countKeyColons, parseJsonStrict, parsedWithinDepth } from "../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { PiecedText } from "../text/pieced.js";
import {
  type DeferredEntries,
  type LockDocument,
  type LockedEntry,
  type Lockfile,
  LOCKFILE_VERSION,
  parseLockDocument,
  parseLockSkeleton,
  parseLockedEntry,
} from "./format.js";
import type { JsonObject } from "./snapshot.js";

/** Locks smaller than this are read whole: they are quick to parse, and their errors come before any server is read. */
export const DEFERRED_LOCK_CHARS = 2_000_000;

/** One tools entry cut out of the text: its name as the entry line spells it, and where its value lies. */
interface Cut {
  name: string;
  start: number;
  end: number;
}

/** A lock read with its tools entries still in the text. */
export interface DeferredLock {
  document: LockDocument;
  /**
   * Read the tools entries of `lock` (one server of `document`) against the tools a server served.
   * Throws the error the whole-text reading gives when anything in them is wrong.
   */
  settle(lock: Lockfile, served: readonly JsonObject[]): void;
}

/** Pending entries of one tools section, in the order the section lists them. */
interface Pending {
  section: string;
  entries: Array<{ name: string; cut: Cut }>;
}

/** Thrown inside when the entry-by-entry reading cannot go on; the whole text is then read instead. */
class NotDeferred extends Error {}

/**
 * Read `read` (a lock of DEFERRED_LOCK_CHARS or more, in mcp-lint's layout; its text or the pieces
 * it was read in) with its tools entries deferred; any other text is read whole, and its `settle`
 * has nothing left to do.
 */
export function readLockDeferred(read: string | readonly string[], source: string): DeferredLock {
  const text = new PiecedText(typeof read === "string" ? [read] : read);
  const cut = text.length >= DEFERRED_LOCK_CHARS ? cutToolEntries(text) : null;
  if (cut === null) return whole(text.join(), source);
  const pending = new Map<Map<string, LockedEntry>, Pending>();
  const claimed = new Set<number>();
  const deferred: DeferredEntries = {
    claim(entries, index, name, section) {
      const item = cut.cuts[index];
      if (!Number.isInteger(index) || item === undefined || item.name !== name || claimed.has(index)) throw new NotDeferred();
      claimed.add(index);
      let list = pending.get(entries);
      if (list === undefined) {
        list = { section, entries: [] };
        pending.set(entries, list);
      }
      list.entries.push({ name, cut: item });
    },
  };
  let document: LockDocument;
  try {
    document = parseLockSkeleton(parseJsonStrict(cut.skeleton, source), source, deferred);
    // A cut whose stand-in landed anywhere but a tools entry would have failed above or be unclaimed here.
    if (claimed.size !== cut.cuts.length) throw new NotDeferred();
  } catch {
    return whole(text.join(), source);
  }
  let full: LockDocument | null = null;
  // The whole text, read once if an entry turns out wrong: it throws the exact error, or (were this
  // reader ever to disagree with it) gives the entries to use instead.
  const wholeDocument = (): LockDocument => {
    full ??= parseLockDocument(parseJsonStrict(text.join(), source), source);
    return full;
  };
  return {
    document,
    settle(lock, served) {
      const list = pending.get(lock.tools);
      if (list === undefined) return;
      pending.delete(lock.tools);
      try {
        settleEntries(lock.tools, list, served, text, source);
      } catch (error) {
        if (!(error instanceof NotDeferred || error instanceof LockFormatError || error instanceof JsonInputError)) throw error;
        const replacement = sameServer(wholeDocument(), document, lock);
        lock.tools.clear();
        for (const [name, entry] of replacement.tools) lock.tools.set(name, entry);
      }
    },
  };
}

function whole(text: string, source: string): DeferredLock {
  return { document: parseLockDocument(parseJsonStrict(text, source), source), settle() {} };
}

/** The Lockfile of `full` that stands where `lock` stands in `document`. */
function sameServer(full: LockDocument, document: LockDocument, lock: Lockfile): Lockfile {
  if (full.version === LOCKFILE_VERSION) return full.lock;
  // Both were read from one text, so they have one version and the same servers.
  if (document.version === LOCKFILE_VERSION) throw new Error("internal error: one lock text read as two versions");
  for (const [name, candidate] of document.servers) {
    const match = candidate === lock ? full.servers.get(name) : undefined;
    if (match !== undefined) return match;
  }
  throw new Error("internal error: a deferred lock entry belongs to no server of the lock");
}

/** Read each pending entry strictly; one equal to the served tool of its name keeps the served object. */
function settleEntries(entries: Map<string, LockedEntry>, list: Pending, served: readonly JsonObject[], text: PiecedText, source: string): void {
  const live = new Map<string, JsonObject>();
  for (const tool of served) {
    const name = tool.name as string;
    if (!live.has(name)) live.set(name, tool);
  }
  for (const { name, cut } of list.entries) {
    const slice = text.slice(cut.start, cut.end);
    const tool = live.get(name);
    const same = tool === undefined ? null : unchangedEntry(slice, tool, name, list.section, source);
    if (same !== null) {
      entries.set(name, same);
      continue;
    }
    const value = parseJsonStrict(slice, source);
    const entry = parseLockedEntry(value, name, list.section, "name", source, { depthChecked: parsedWithinDepth(value, MAX_DEFINITION_DEPTH) });
    entries.set(name, tool !== undefined && jsonEqual(tool, entry.definition) ? { sha256: entry.sha256, definition: tool } : entry);
  }
}

/**
 * The entry for `tool` when the locked entry's text holds exactly the served definition, else null.
 * Equality stands in for two of parseJsonStrict's walks: the served tool is no deeper than allowed
 * and holds only finite numbers, so an equal definition is and does too; and equal values have the
 * same keys, so a text with no more key colons than the entry's keys has no repeated key.
 */
function unchangedEntry(slice: string, tool: JsonObject, name: string, section: string, source: string): LockedEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(slice);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const definition = (value as Record<string, unknown>).definition;
  const keys = equalKeyCount(tool, definition);
  // The entry's own two keys ("definition" and "sha256"; parseLockedEntry refuses any other).
  if (keys < 0 || keys + 2 !== countKeyColons(slice)) return null;
  const entry = parseLockedEntry(value, name, section, "name", source, { depthChecked: true });
  return { sha256: entry.sha256, definition: tool };
}

/** The text with each tools entry's value replaced by its index, and the cuts; null when the text is not in mcp-lint's layout. */
export function cutToolEntries(read: string | PiecedText): { skeleton: string; cuts: Cut[] } | null {
  const text = typeof read === "string" ? new PiecedText([read]) : read;
  const HEADER = '"tools": {\n';
  const pieces: string[] = [];
  const cuts: Cut[] = [];
  let copied = 0;
  let search = 0;
  for (;;) {
    const header = text.indexOf(HEADER, search);
    if (header < 0) break;
    search = header + HEADER.length;
    const lineStart = text.lastIndexOf("\n", header) + 1;
    const indent = header - lineStart;
    // v1 keeps its tools at the top level (two spaces), v2 in each server's entry (six).
    if ((indent !== 2 && indent !== 6) || !onlySpaces(text, lineStart, header)) continue;
    const entryIndent = " ".repeat(indent + 2);
    const closing = `\n${entryIndent}}`;
    let cursor = search;
    for (;;) {
      if (!text.startsWith(`${entryIndent}"`, cursor)) return null;
      const lineEnd = text.indexOf("\n", cursor);
      if (lineEnd < 0 || !text.startsWith(": {", lineEnd - 3)) return null;
      const name = keyName(text.slice(cursor + entryIndent.length, lineEnd - 3));
      if (name === null) return null;
      const start = lineEnd - 1;
      const close = text.indexOf(closing, lineEnd);
      if (close < 0) return null;
      const end = close + closing.length;
      const after = text.charCodeAt(end);
      pieces.push(text.slice(copied, start), String(cuts.length));
      cuts.push({ name, start, end });
      copied = end;
      if (after === 0x0a) break; // the section's last entry
      if (after !== 0x2c || text.charCodeAt(end + 1) !== 0x0a) return null;
      cursor = end + 2;
    }
    search = copied;
  }
  if (cuts.length === 0) return null;
  pieces.push(text.slice(copied, text.length));
  return { skeleton: pieces.join(""), cuts };
}

function onlySpaces(text: PiecedText, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) !== 0x20) return false;
  return true;
}

/** The key a JSON string token spells, or null when the text is not exactly one string. */
function keyName(token: string): string | null {
  try {
    const name: unknown = JSON.parse(token);
    return typeof name === "string" && token.startsWith('"') && token.endsWith('"') ? name : null;
  } catch {
    return null;
  }
}
