/** Opaque IDs in a response (UUIDs, long hex, random tokens) and whether the records holding them carry readable labels (P2). Pure. */

import { maxDepth } from "../../json/parse.js";
import { MAX_DEFINITION_DEPTH } from "../../limits.js";
import { isJsonObject } from "../../lock/snapshot.js";

/** Where one ID is in a text: [start, end). */
export interface IdSpan {
  start: number;
  end: number;
}

// Fixed patterns (none comes from a server), each linear in the text.
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
const RUN = /[A-Za-z0-9_-]{12,}/g;
const HEX = /^[0-9a-fA-F]{12,}$/;
const WORDISH = /[A-Z]?[a-z]{3,}/g;
const VOWELS = /[aeiouy]/gi;

/** Longest JSON text parsed to find records; longer answers are read as lines. */
const MAX_JSON_CHARS = 4 * 1024 * 1024;

function count(text: string, test: (code: number) => boolean): number {
  let total = 0;
  for (let index = 0; index < text.length; index++) if (test(text.charCodeAt(index))) total++;
  return total;
}
const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** Long hex (a git SHA, a content hash): 12 or more hex digits with at least two digits and one letter. */
function isLongHex(segment: string): boolean {
  return HEX.test(segment) && count(segment, isDigit) >= 2 && count(segment, isLetter) >= 1;
}

/**
 * A random token of 20 or more characters: digits and letters mixed, and mostly not made of
 * word-like pieces (`getUserProfile2024` reads as words; `Xk9aBzQ2mN7pLr4TyW8c` does not).
 */
export function isRandomToken(run: string): boolean {
  if (run.length < 20 || count(run, isDigit) < 2 || count(run, isLetter) < 4) return false;
  let wordLetters = 0;
  for (const match of run.matchAll(WORDISH)) {
    const piece = match[0];
    const vowels = piece.match(VOWELS)?.length ?? 0;
    if (vowels / piece.length >= 0.2) wordLetters += piece.length;
  }
  return wordLetters / run.length < 0.5;
}

/** Every opaque ID in a text, in order. */
export function findOpaqueIds(text: string): IdSpan[] {
  const spans: IdSpan[] = [];
  for (const run of text.matchAll(RUN)) {
    const start = run.index;
    const value = run[0];
    let found = false;
    for (const uuid of value.matchAll(UUID)) {
      spans.push({ start: start + uuid.index, end: start + uuid.index + uuid[0].length });
      found = true;
    }
    if (found) continue;
    let offset = 0;
    for (const segment of value.split(/[-_]/)) {
      if (isLongHex(segment)) {
        spans.push({ start: start + offset, end: start + offset + segment.length });
        found = true;
      }
      offset += segment.length + 1;
    }
    if (!found && isRandomToken(value)) spans.push({ start, end: start + value.length });
  }
  return spans;
}

// Words that name an ID or stamp a record rather than label it for a person.
const NOT_LABELS = new Set(
  (
    "id ids uuid uuids guid key keys ref refs sha hash token oid node nodes parent child created updated modified deleted " +
    "date time timestamp version rev revision commit object item items record entry entries type kind null true false none " +
    "undefined uri url http https www com org"
  ).split(" "),
);

/** True when text (IDs already blanked) holds a readable word: three or more letters with a vowel, not an ID-ish word. */
export function hasReadableWord(text: string): boolean {
  for (const match of text.matchAll(/[A-Za-z]{3,}/g)) {
    const word = match[0].toLowerCase();
    if (!NOT_LABELS.has(word) && /[aeiouy]/.test(word)) return true;
  }
  return false;
}

/** The text with the given spans blanked out. */
function blank(text: string, spans: readonly IdSpan[], base = 0): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const span of spans) {
    out += `${text.slice(from, span.start - base)} `;
    from = span.end - base;
  }
  return out + text.slice(from);
}

const idLength = (spans: readonly IdSpan[]) => spans.reduce((sum, span) => sum + span.end - span.start, 0);

/** What P2 and the score read from a response. */
export interface IdStats {
  /** IDs found, and the characters they take. */
  ids: number;
  idChars: number;
  totalChars: number;
  /** Records (JSON objects, blank-line blocks or lines) that hold an ID, and how many of them also hold a readable label. */
  records: number;
  labelled: number;
  /** Characters of IDs in records without a label. */
  unlabelledIdChars: number;
}

/**
 * Count IDs and judge their records. A JSON answer's records are its objects (their own string
 * values) and the strings of its arrays; a text answer's are its blank-line-separated blocks when
 * it has several, else its lines.
 */
export function idStats(text: string): IdStats {
  const spans = findOpaqueIds(text);
  const stats: IdStats = { ids: spans.length, idChars: idLength(spans), totalChars: text.length, records: 0, labelled: 0, unlabelledIdChars: 0 };
  if (spans.length === 0) return stats;
  const json = parseJsonRecords(text);
  const records = json ?? textRecords(text);
  for (const record of records) {
    const ids = record.map(findOpaqueIds);
    const chars = ids.reduce((sum, found) => sum + idLength(found), 0);
    if (chars === 0) continue;
    stats.records++;
    if (record.some((part, index) => hasReadableWord(blank(part, ids[index] ?? [])))) stats.labelled++;
    else stats.unlabelledIdChars += chars;
  }
  return stats;
}

/** Records of a JSON answer, each as its list of strings; null when the text is not (small enough) JSON. */
function parseJsonRecords(text: string): string[][] | null {
  const trimmed = text.trim();
  if (trimmed.length > MAX_JSON_CHARS || !(trimmed.startsWith("{") || trimmed.startsWith("["))) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return null;
  }
  if (maxDepth(value, MAX_DEFINITION_DEPTH) > MAX_DEFINITION_DEPTH) return null;
  const records: string[][] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      // Bare strings in a list are records of their own: a list of IDs has no labels.
      for (const item of node) {
        if (typeof item === "string") records.push([item]);
        else stack.push(item);
      }
    } else if (isJsonObject(node)) {
      const own: string[] = [];
      for (const key of Object.keys(node)) {
        const child = node[key];
        if (typeof child === "string") own.push(child);
        else stack.push(child);
      }
      if (own.length > 0) records.push(own);
    }
  }
  return records;
}

function textRecords(text: string): string[][] {
  const blocks = text.split(/\r?\n[ \t]*\r?\n/).filter((block) => block.trim() !== "");
  const parts = blocks.length > 1 ? blocks : text.split(/\r?\n/);
  return parts.map((part) => [part]);
}
