/** Text helpers the rules share: name segments, naming styles, description word counts and TF-IDF terms. */

import type { NamingStyle } from "./types.js";

/**
 * Segments of a tool or parameter name, lower-cased: split on `_`, `-`, `.`, `/`, spaces and camelCase
 * humps (`getPullRequest` and `get_pull_request` both give get, pull, request; `listHTTPRoutes` gives
 * list, http, routes).
 */
export function nameSegments(name: string): string[] {
  const out: string[] = [];
  let current = "";
  const flush = () => {
    if (current !== "") out.push(current.toLowerCase());
    current = "";
  };
  for (let index = 0; index < name.length; index++) {
    const char = name[index] as string;
    const code = name.charCodeAt(index);
    const upper = code >= 65 && code <= 90;
    const lower = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (!upper && !lower) {
      flush();
      continue;
    }
    if (upper && current !== "") {
      const previous = name.charCodeAt(index - 1);
      const previousLower = (previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57);
      const nextCode = name.charCodeAt(index + 1);
      const nextLower = nextCode >= 97 && nextCode <= 122;
      // A hump starts at an upper-case letter after a lower-case one, or at the last capital of an acronym.
      if (previousLower || nextLower) flush();
    }
    current += char;
  }
  flush();
  return out;
}

/** The naming style of a tool name, or null for a single lower-case word that fits any style. */
export function namingStyle(name: string): NamingStyle | null {
  const underscore = name.includes("_");
  const dash = name.includes("-");
  const dot = name.includes(".");
  if ([underscore, dash, dot].filter(Boolean).length > 1) return "mixed separators";
  if (underscore) return "snake_case";
  if (dash) return "kebab-case";
  if (dot) return "dot.case";
  if (/[A-Z]/.test(name.slice(1)) && /[a-z]/.test(name)) return /^[A-Z]/.test(name) ? "PascalCase" : "camelCase";
  return null;
}

// Action verbs grouped by meaning: two tools whose verbs fall in different groups do different
// things even when the rest of their text matches (`retrieve-a-block` / `delete-a-block`).
const VERB_GROUPS: readonly string[] = [
  "get fetch read retrieve show view describe load lookup inspect info",
  "list enumerate browse",
  "search find query lookup filter grep",
  "create add new insert make post register",
  "update edit modify patch set change rename configure",
  "write save put store upload",
  "delete remove destroy drop purge erase clear trash unregister",
  "archive",
  "restore unarchive undelete",
  "move copy clone duplicate",
  "send reply forward publish notify",
  "run execute exec invoke call start launch trigger",
  "stop cancel kill abort terminate",
  "open",
  "close",
  "merge",
  "approve",
  "reject",
  "download export",
  "import",
  "lock",
  "unlock",
  "enable",
  "disable",
  "subscribe",
  "unsubscribe",
  "assign",
  "unassign",
  "validate check verify test",
  "generate render build compile convert translate summarize",
];

const VERB_GROUP = new Map<string, number>();
VERB_GROUPS.forEach((group, index) => {
  for (const verb of group.split(" ")) if (!VERB_GROUP.has(verb)) VERB_GROUP.set(verb, index);
});

/** True when a name segment is a known action verb. */
export function isVerb(segment: string): boolean {
  return VERB_GROUP.has(segment);
}

/** Group of the first action verb in a name's segments, or null when the name has none. */
export function verbGroup(segments: readonly string[]): number | null {
  for (const segment of segments) {
    const group = VERB_GROUP.get(segment);
    if (group !== undefined) return group;
  }
  return null;
}

// Bounded repetition: V8 can overflow its stack matching one multi-megabyte token with `+`, and a
// 64-character cap only splits tokens no real word is as long as.
const WORD = /[\p{L}\p{N}]{1,64}/gu;
// Scripts written without spaces: each character counts as half a word (about two per word).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * Words in a description, up to `cap` (counting stops there, so a 10 MB text costs no more than a
 * short one). Text in scripts written without spaces (Chinese, Japanese, Thai) counts one word per
 * two characters, so a full sentence in them is not "too short".
 */
export function countWords(text: string, cap: number): number {
  let count = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null && count < cap; match = WORD.exec(text)) {
    const token = match[0];
    if (token.length > 1 && UNSPACED.test(token)) {
      let unspaced = 0;
      for (const char of token) if (UNSPACED.test(char)) unspaced++;
      count += Math.ceil(unspaced / 2) + (unspaced < token.length ? 1 : 0);
    } else {
      count++;
    }
  }
  return Math.min(count, cap);
}

const STOPWORDS = new Set(
  (
    "a an and are as at be by can for from has have if in into is it its may of on or that the this " +
    "to was were will with which when what who you your not no use used uses using than then there " +
    "these those such do does given one more most only any all other also each via"
  ).split(" "),
);

/** Reduce a plural or third-person form to its base so `issues` and `issue` count as one term. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is")) return word.slice(0, -1);
  return word;
}

/** Most characters of a description that feed TF-IDF: overlap shows in the first paragraphs, and this bounds the work. */
export const MAX_TERM_TEXT = 8_000;

const LOWER_WORD = /[\p{L}\p{N}]{1,64}/gu;

/** Stemmed, stop-word-free term of one lower-case word, or null; memoized because vocabularies are small. */
const TERM_CACHE = new Map<string, string | null>();
function term(word: string): string | null {
  let cached = TERM_CACHE.get(word);
  if (cached === undefined) {
    cached = STOPWORDS.has(word) ? null : stem(word);
    if (TERM_CACHE.size < 100_000) TERM_CACHE.set(word, cached);
  }
  return cached;
}

/** TF-IDF terms of a tool: its name segments and description words, lower-cased, stop words dropped, lightly stemmed. */
export function terms(name: string, description: string): string[] {
  return segmentTerms(nameSegments(name), description);
}

/** `terms` for a name already split into its segments (`nameSegments`). */
export function segmentTerms(segments: readonly string[], description: string): string[] {
  const out: string[] = [];
  for (let index = 0; index < segments.length; index++) {
    const value = term(segments[index] as string);
    if (value !== null) out.push(value);
  }
  const text = (description.length > MAX_TERM_TEXT ? description.slice(0, MAX_TERM_TEXT) : description).toLowerCase();
  const words = text.match(LOWER_WORD);
  if (words === null) return out;
  for (let index = 0; index < words.length; index++) {
    const value = term(words[index] as string);
    if (value !== null) out.push(value);
  }
  return out;
}
