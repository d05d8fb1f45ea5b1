/** Word-level diffs of text the model reads: every edit as a hunk, none cut short. Pure. */

import { createRequire } from "node:module";
import { exportsOf } from "../interop.js";

// The diff library is needed only when a text changed; most runs never load it.
const requireModule = createRequire(import.meta.url);
type WordDiff = (before: string, after: string, options: { maxEditLength: number }) => Array<{ value: string; added?: boolean; removed?: boolean }> | undefined;
let wordDiff: WordDiff | null = null;
function diffWordsWithSpace(before: string, after: string, options: { maxEditLength: number }): ReturnType<WordDiff> {
  wordDiff ??= (requireModule("diff") as { diffWordsWithSpace: WordDiff }).diffWordsWithSpace;
  return wordDiff(before, after, options);
}

/**
 * Load the diff library now: a launched server could rewrite node_modules before a text changes.
 * The dynamic import is bundled into the CLI's chunks (require() on first use reads node_modules).
 */
export async function preloadWordDiff(): Promise<void> {
  const loaded = (await import("diff")) as unknown as { diffWordsWithSpace: WordDiff; default?: { diffWordsWithSpace: WordDiff } };
  wordDiff ??= exportsOf(loaded, "diffWordsWithSpace").diffWordsWithSpace;
}

/** One edit between two texts. */
export interface TextHunk {
  op: "insert" | "delete" | "replace";
  /** Text removed (empty for an insert), whole. */
  before: string;
  /** Text inserted (empty for a delete), whole. */
  after: string;
  /** Offset of the edit in the old text, in UTF-16 code units. */
  at: number;
}

/** A stretch of the compared texts: unchanged, or one edit. */
export type TextSegment = { kind: "same"; text: string } | { kind: "edit"; hunk: TextHunk };

// Myers' diff costs about (length x edits); past these bounds the changed middle is shown as one
// replacement instead: still every character, just not split into words. Deterministic (no clock).
const MAX_DIFF_CHARS = 200_000;
const MAX_EDIT_LENGTH = 2_000;

/**
 * The texts as alternating unchanged stretches and edits. The shared start and end are trimmed to
 * whole words first (linear), so a huge text with a small edit costs little, and an edit is never
 * reported inside a word it only partly changed.
 */
export function textSegments(before: string, after: string): TextSegment[] {
  if (before === after) return before === "" ? [] : [{ kind: "same", text: before }];
  let start = commonPrefix(before, after);
  while (start > 0 && !isSpace(before.charCodeAt(start - 1))) start--;
  let end = commonSuffix(before, after, start);
  while (end > 0 && !isSpace(before.charCodeAt(before.length - end))) end--;
  const oldMiddle = before.slice(start, before.length - end);
  const newMiddle = after.slice(start, after.length - end);

  const segments: TextSegment[] = [];
  const push = (segment: TextSegment) => {
    const last = segments[segments.length - 1];
    if (segment.kind === "same" && segment.text === "") return;
    if (last?.kind === "same" && segment.kind === "same") last.text += segment.text;
    else segments.push(segment);
  };
  push({ kind: "same", text: before.slice(0, start) });
  for (const segment of middleSegments(oldMiddle, newMiddle, start)) push(segment);
  push({ kind: "same", text: before.slice(before.length - end) });
  return segments;
}

/** Just the edits. */
export function textHunks(before: string, after: string): TextHunk[] {
  const hunks: TextHunk[] = [];
  for (const segment of textSegments(before, after)) if (segment.kind === "edit") hunks.push(segment.hunk);
  return hunks;
}

function middleSegments(before: string, after: string, offset: number): TextSegment[] {
  if (before === "" && after === "") return [];
  const whole = (): TextSegment[] => [{ kind: "edit", hunk: hunk(before, after, offset) }];
  if (before === "" || after === "" || before.length + after.length > MAX_DIFF_CHARS) return whole();
  const parts = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (parts === undefined) return whole();

  // Merge the word-level parts: a removal next to an addition is one replacement, and edits
  // separated only by white space read as one.
  const segments: TextSegment[] = [];
  let at = offset;
  let removed = "";
  let added = "";
  let editAt = at;
  let gap = "";
  const flush = () => {
    if (removed !== "" || added !== "") segments.push({ kind: "edit", hunk: hunk(removed, added, editAt) });
    removed = "";
    added = "";
  };
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (removed !== "" || added !== "") {
        if (/^\s+$/.test(part.value) && part.value.length <= 3) {
          gap += part.value;
          at += part.value.length;
          continue;
        }
      }
      flush();
      if (gap !== "") {
        segments.push({ kind: "same", text: gap });
        gap = "";
      }
      segments.push({ kind: "same", text: part.value });
      at += part.value.length;
      editAt = at;
      continue;
    }
    if (gap !== "") {
      // White space between two edits becomes part of both sides of the merged edit.
      removed += gap;
      added += gap;
      gap = "";
    }
    if (removed === "" && added === "") editAt = at;
    if (part.removed) {
      removed += part.value;
      at += part.value.length;
    } else {
      added += part.value;
    }
  }
  flush();
  if (gap !== "") segments.push({ kind: "same", text: gap });
  return segments;
}

function hunk(before: string, after: string, at: number): TextHunk {
  return { op: before === "" ? "insert" : after === "" ? "delete" : "replace", before, after, at };
}

function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** Length of the shared end, not overlapping the first `start` characters of either text. */
function commonSuffix(a: string, b: string, start: number): number {
  const limit = Math.min(a.length, b.length) - start;
  let count = 0;
  while (count < limit && a.charCodeAt(a.length - 1 - count) === b.charCodeAt(b.length - 1 - count)) count++;
  return count;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * True when two different texts hold the same words in the same order, so only spaces, tabs and line
 * breaks changed. Other spaces (no-break, zero-width, ideographic...) are not white space here: they
 * can hide or join words, so their edits are shown one by one. Joining or splitting a word is a word
 * change ("the rapist" is not "therapist").
 */
export function whitespaceOnly(before: string, after: string): boolean {
  if (before === after) return false;
  const words = (text: string) => text.split(/[ \t\n\r]+/).filter((word) => word !== "");
  const [old, fresh] = [words(before), words(after)];
  return old.length === fresh.length && old.every((word, index) => word === fresh[index]);
}

/** Texts shorter than this read fine word by word, however much changed. */
const REWRITE_MIN_CHARS = 120;
/** Below this share of unchanged text, interleaved words are harder to read than the two texts. */
const REWRITE_MAX_KEPT = 0.5;

/**
 * Whether a change is a rewrite: most of a longer text changed, so a reviewer reads the old and the
 * new text each whole (the word diff stays in the JSON report).
 */
export function isRewrite(before: string, after: string, segments: readonly TextSegment[]): boolean {
  const longest = Math.max(before.length, after.length);
  if (Math.min(before.length, after.length) < REWRITE_MIN_CHARS) return false;
  let kept = 0;
  for (const segment of segments) if (segment.kind === "same") kept += segment.text.length;
  return kept / longest < REWRITE_MAX_KEPT;
}

/** How edits are marked when shown; the terminal adds colour, other channels use the plain markers. */
export interface DiffStyle {
  removed: (text: string) => string;
  inserted: (text: string) => string;
}

/** Plain wdiff-style markers: `[-removed-]` and `{+inserted+}`. */
export const PLAIN_DIFF_STYLE: DiffStyle = {
  removed: (text) => `[-${text}-]`,
  inserted: (text) => `{+${text}+}`,
};

/** Words of unchanged context kept on each side of an edit; longer unchanged stretches are elided. */
const CONTEXT_WORDS = 8;
const ELISION = "...";

/**
 * The diff as display lines: unchanged text around each edit (elided to a few words), every
 * removed and inserted character shown, made inert by `show` (the neutralizer), line breaks kept
 * as lines.
 */
export function diffDisplayLines(segments: readonly TextSegment[], show: (text: string) => string, style: DiffStyle = PLAIN_DIFF_STYLE): string[] {
  let out = "";
  const visibleText = (text: string) => text.split("\n").map(show).join("\n");
  const mark = (text: string, paint: (text: string) => string) =>
    text
      .split("\n")
      .map((line) => (line === "" ? "" : paint(show(line))))
      .join("\n");
  segments.forEach((segment, index) => {
    if (segment.kind === "edit") {
      const { before, after } = segment.hunk;
      if (before !== "") out += mark(before, style.removed);
      if (after !== "") out += mark(after, style.inserted);
      return;
    }
    const first = index === 0;
    const last = index === segments.length - 1;
    out += visibleText(elide(segment.text, first ? 0 : CONTEXT_WORDS, last ? 0 : CONTEXT_WORDS));
  });
  return out.split("\n");
}

/** Keep the first `head` and last `tail` words of an unchanged stretch, with `...` for what is left out. */
function elide(text: string, head: number, tail: number): string {
  const words = text.split(/(?<=\s)(?=\S)/);
  if (words.length <= head + tail + 1) return text;
  const start = head === 0 ? "" : words.slice(0, head).join("");
  const end = tail === 0 ? "" : words.slice(words.length - tail).join("");
  // The kept words keep their own spaces: the space after an edit is the first character of `start`.
  return `${start}${ELISION}${end === "" || end.startsWith(" ") ? "" : " "}${end}`;
}
