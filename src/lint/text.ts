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
  // Moving and copying, replying and forwarding, are different acts, not words for one.
  "move",
  "copy clone duplicate",
  "send notify",
  "reply",
  "forward",
  "publish",
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
  "generate render build compile convert",
  "translate",
  "summarize",
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

// Scripts written without spaces: each character counts as half a word (about two per word).
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_ALL = new RegExp(UNSPACED.source, "gu");
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
// A letter or digit of a script written with spaces: it makes a run of unspaced text one word longer.
const SPACED_LETTER = new RegExp(`(?!${UNSPACED.source})[\\p{L}\\p{N}]`, "u");

// Characters above ASCII that JavaScript's `\s` matches (NBSP, the Unicode spaces, line and paragraph separators, BOM).
const WIDE_SPACES: ReadonlySet<number> = new Set([
  160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288, 65279,
]);

/** True for the characters `\s` matches, so a no-break or ideographic space ends a word too. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return code >= 160 && WIDE_SPACES.has(code);
}

/** Words one whitespace-separated run adds, counting on from `count` and never past `cap`. */
function runWords(run: string, count: number, cap: number): number {
  if (!UNSPACED.test(run)) return LETTER_OR_DIGIT.test(run) ? 1 : 0;
  const extra = SPACED_LETTER.test(run) ? 1 : 0;
  // Count characters only until the cap is reached, so a long run of unspaced text stays cheap.
  let unspaced = 0;
  UNSPACED_ALL.lastIndex = 0;
  while (count + extra + Math.ceil(unspaced / 2) < cap && UNSPACED_ALL.exec(run) !== null) unspaced++;
  return Math.ceil(unspaced / 2) + extra;
}

/**
 * Words in a description, up to `cap` (counting stops there; the text is read once, so the work stays
 * linear in its length): runs of text between whitespace that hold a letter or a digit. An identifier
 * (`read_text_file`, `a/b.txt`, `e.g.`) is one word; a lone `|` or `-` is none. Text in scripts
 * written without spaces (Chinese, Japanese, Thai) counts one word per two characters, so a full
 * sentence in them is not "too short".
 */
export function countWords(text: string, cap: number): number {
  let count = 0;
  let start = -1;
  for (let index = 0; index <= text.length && count < cap; index++) {
    const space = index === text.length || isSpace(text.charCodeAt(index));
    if (space && start >= 0) {
      count += runWords(text.slice(start, index), count, cap);
      start = -1;
    } else if (!space && start < 0) {
      start = index;
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
