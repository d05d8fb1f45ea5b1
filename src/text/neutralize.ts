/** The one function every server-controlled string passes through before any channel shows it. Pure. */

// A server chooses its tool names, descriptions, schema keys and error texts. Shown raw, they can
// move a terminal's cursor (ESC/CSI/OSC), overwrite a line (CR), start a workflow command on a new
// line (LF, U+2028), reorder what a reviewer reads (bidi controls) or hide words (zero-width and TAG
// characters). Each such character becomes a visible `\u{HEX}` escape; everything a person can read
// as itself (ASCII, accents, CJK, emoji) stays as it is.

import { createHash } from "node:crypto";

/** Characters escaped wherever they appear. */
const ALWAYS_ESCAPED: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x001f], // C0 controls: ESC, CR, LF, BEL, TAB...
  [0x007f, 0x009f], // DEL and C1 controls (CSI as one code point, NEL)
  [0x00a0, 0x00a0], // no-break space, reads as a space
  [0x00ad, 0x00ad], // soft hyphen, invisible
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark (bidi)
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer invisible vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x2000, 0x200a], // spaces of other widths
  [0x200b, 0x200f], // zero-width space, non-joiner, joiner, LRM, RLM
  [0x2028, 0x202f], // line and paragraph separators, bidi embeddings and overrides, narrow space
  [0x205f, 0x206f], // medium space, word joiner, invisible operators, bidi isolates, deprecated format chars
  [0x3000, 0x3000], // ideographic space
  [0x3164, 0x3164], // Hangul filler
  [0xd800, 0xdfff], // lone surrogates (invalid Unicode)
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // byte order mark / zero-width no-break space
  [0xff01, 0xff5e], // fullwidth ASCII look-alikes
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff0, 0xfffb], // specials, interlinear annotation controls
  [0x1d400, 0x1d7ff], // mathematical alphanumeric look-alikes of Latin letters and digits
  [0xe0000, 0xe0fff], // TAG characters (hidden ASCII) and variation selectors supplement
  [0xf0000, 0x10ffff], // private use planes
];

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const PLAIN = /^[\x20-\x7e]*$/;

// Scripts whose letters pass for Latin ones (Greek and Coptic, Cyrillic, Armenian, Cherokee); in a
// word that also has Latin letters they are escaped. Numeric ranges: a Unicode property regex per
// character made a 10 MB CJK text take seconds.
const LOOKALIKE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0370, 0x058f],
  [0x13a0, 0x13ff],
  [0x1c80, 0x1c8f],
  [0x1f00, 0x1fff],
  [0x2c80, 0x2cff],
  [0x2de0, 0x2dff],
  [0xa640, 0xa69f],
  [0xab70, 0xabbf],
  [0xfb13, 0xfb17],
];
const LATIN_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0041, 0x005a],
  [0x0061, 0x007a],
  [0x00c0, 0x024f],
  [0x1e00, 0x1eff],
  [0x2c60, 0x2c7f],
  [0xa720, 0xa7ff],
  [0xab30, 0xab6f],
];

function inRanges(code: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (const [low, high] of ranges) {
    if (code < low) return false;
    if (code <= high) return true;
  }
  return false;
}

function alwaysEscaped(code: number): boolean {
  return inRanges(code, ALWAYS_ESCAPED);
}

/** Part of a word for the mixed-script test: ASCII letters and digits, and letters past Latin-1's symbols. */
function wordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0xc0 && !alwaysEscaped(code) && code !== 0xd7 && code !== 0xf7)
  );
}

function escapeCodePoint(code: number): string {
  return `\\u{${code.toString(16).toUpperCase()}}`;
}

/** A colour or text-style sequence (SGR, with ESC [ or the one-character CSI). */
const COLOUR = /(?:\x1b\[|\x9b)[0-9;:]*m/g;

/**
 * The text without its terminal colour sequences: a log line's colours carry no words, and escaped
 * they read as noise (`\u{1B}[33mWARN`). Any other control sequence stays for neutralize to escape.
 */
export function withoutColour(text: string): string {
  return text.replace(COLOUR, "");
}

/** Options for {@link neutralize}. */
export interface NeutralizeOptions {
  /**
   * The text starts an output line: a leading `::` (a GitHub Actions workflow command) is escaped
   * too, so no line the report prints can be read as a command.
   */
  lineStart?: boolean;
}

/**
 * Make server-controlled text inert and visible. Control characters (ESC, CR, LF, BEL...), U+2028/9,
 * bidi controls, zero-width and TAG characters, odd spaces and look-alike characters become
 * `\u{HEX}`; printable text, non-ASCII included, is kept. A zero-width joiner or variation selector
 * inside an emoji sequence is kept, so emoji show as emoji. Linear in the length of the text.
 */
export function neutralize(text: string, options: NeutralizeOptions = {}): string {
  let out = PLAIN.test(text) ? text : escapeUnsafe(text);
  if (options.lineStart === true && out.startsWith("::")) out = `\\u{3A}${out.slice(1)}`;
  return out;
}

/** Text that may hold several lines, as neutralized lines (`\r\n`, `\n` and `\r` end a line). */
export function neutralizeLines(text: string): string[] {
  return text.split(/\r\n|\n|\r/).map((line) => neutralize(line));
}

function escapeUnsafe(text: string): string {
  const lookalikes = hasLookalike(text) ? mixedScriptLookalikes(text) : null;
  const parts: string[] = [];
  let safeFrom = 0;
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    const unsafe = (code < 0x20 || code > 0x7e) && ((alwaysEscaped(code) && !keptInEmoji(text, index, width, code)) || lookalikes?.has(index) === true);
    if (unsafe) {
      parts.push(text.slice(safeFrom, index), escapeCodePoint(code));
      safeFrom = index + width;
    }
    index += width;
  }
  parts.push(text.slice(safeFrom));
  return parts.join("");
}

/** ZWJ between two pictographs, and VS16 after one, are part of an emoji, not hidden text. */
function keptInEmoji(text: string, index: number, width: number, code: number): boolean {
  if (code !== 0xfe0f && code !== 0x200d) return false;
  if (!PICTOGRAPHIC.test(charBefore(text, index))) return false;
  if (code === 0xfe0f) return true;
  const next = text.codePointAt(index + width);
  return next !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(next));
}

function charBefore(text: string, index: number): string {
  if (index === 0) return "";
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text.charAt(index - 1);
}

function hasLookalike(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x370 && inRanges(code, LOOKALIKE_RANGES)) return true;
  }
  return false;
}

/** Offsets of the look-alike letters of each word that mixes them with Latin letters (`pаypal` with a Cyrillic а). */
function mixedScriptLookalikes(text: string): Set<number> {
  const marks = new Set<number>();
  let latin = false;
  let found: number[] = [];
  const endWord = () => {
    if (latin) for (const offset of found) marks.add(offset);
    latin = false;
    found = [];
  };
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    if (!wordChar(code)) endWord();
    else if (inRanges(code, LATIN_RANGES)) latin = true;
    else if (inRanges(code, LOOKALIKE_RANGES)) found.push(index);
    index += code > 0xffff ? 2 : 1;
  }
  endWord();
  return marks;
}

/** Cut already-neutralized text to `max` characters for a name-like field (tool, server, version). */
export function capDisplay(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never cut inside a `\u{...}` escape: back up to its start.
  let end = max;
  const escapes = /\\u\{[0-9A-F]+\}/g;
  for (let match = escapes.exec(text); match !== null && match.index < max; match = escapes.exec(text)) {
    if (match.index + match[0].length > max) end = match.index;
  }
  const cut = text.slice(0, end);
  return `${cut}...(${text.length - cut.length} more characters)`;
}

/** Share of a cut path's room given to its end: the last names of a pointer tell two places apart. */
const PATH_TAIL_SHARE = 0.45;
const PATH_ELISION = "...";

/**
 * Cut an already-neutralized JSON Pointer or parameter path to at most `max` characters, keeping its
 * start and its end with `...` between: a plain cut kept only the start, so two paths that differ
 * near the end looked the same. A cut falls on a `/` or `.` when one is near, and never inside a
 * `\u{...}` escape or a surrogate pair.
 */
export function capPath(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(2, max - PATH_ELISION.length);
  const tailRoom = Math.max(1, Math.floor(room * PATH_TAIL_SHARE));
  const headRoom = room - tailRoom;
  let headEnd = headRoom;
  const headSeparator = Math.max(text.lastIndexOf("/", headEnd - 1), text.lastIndexOf(".", headEnd - 1));
  if (headSeparator >= headRoom / 2) headEnd = headSeparator + 1;
  let tailStart = text.length - tailRoom;
  const tailSeparator = nextSeparator(text, tailStart);
  if (tailSeparator !== -1 && tailSeparator - tailStart <= tailRoom / 2) tailStart = tailSeparator;
  headEnd = outsideEscape(text, headEnd, "back");
  tailStart = outsideEscape(text, tailStart, "forward");
  return `${text.slice(0, headEnd)}${PATH_ELISION}${text.slice(tailStart)}`;
}

function nextSeparator(text: string, from: number): number {
  const slash = text.indexOf("/", from);
  const dot = text.indexOf(".", from);
  return slash === -1 ? dot : dot === -1 ? slash : Math.min(slash, dot);
}

/** A cut offset moved off a `\u{...}` escape and off the middle of a surrogate pair, toward `way`. */
function outsideEscape(text: string, at: number, way: "back" | "forward"): number {
  let offset = at;
  const escapes = /\\u\{[0-9A-F]+\}/g;
  for (let match = escapes.exec(text); match !== null && match.index < offset; match = escapes.exec(text)) {
    const end = match.index + match[0].length;
    if (end > offset) offset = way === "back" ? match.index : end;
  }
  const low = text.charCodeAt(offset);
  if (offset > 0 && offset < text.length && low >= 0xdc00 && low <= 0xdfff) offset += way === "back" ? -1 : 1;
  return offset;
}

/** Characters of a cut name's end that stay on screen: where generated names usually differ. */
const NAME_TAIL = 24;

/**
 * A server-chosen name, inert, and cut so that two different names never look the same: whole up
 * to `max` characters (a valid MCP name has at most 128), else its head, its tail and a short digest
 * of the whole name. A plain cut at a fixed width showed two names that share their first 120
 * characters alike in every report line and review prompt.
 */
export function showNameCapped(name: string, max: number): string {
  if (name.length <= max) return neutralize(name);
  const head = Math.max(8, max - NAME_TAIL - 3);
  const digest = createHash("sha256").update(name, "utf8").digest("hex").slice(0, 8);
  return `${neutralize(name.slice(0, head))}...${neutralize(name.slice(-NAME_TAIL))} (${name.length} characters, #${digest})`;
}
