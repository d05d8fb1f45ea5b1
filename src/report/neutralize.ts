/** The one function every server-controlled string passes through before any channel shows it. Pure. */

// A server chooses its tool names, descriptions, schema keys and error texts. Shown raw, they can
// move a terminal's cursor (ESC/CSI/OSC), overwrite a line (CR), start a workflow command on a new
// line (LF, U+2028), reorder what a reviewer reads (bidi controls) or hide words (zero-width and TAG
// characters). Each such character becomes a visible `\u{HEX}` escape; everything a person can read
// as itself (ASCII, accents, CJK, emoji) stays as it is.

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
const LETTER = /[\p{L}\p{M}\p{N}]/u;
const LATIN = /\p{Script=Latin}/u;
// Scripts whose letters pass for Latin ones; in a word that also has Latin letters they are escaped.
const LOOKALIKE = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Coptic}]/u;
const PLAIN = /^[\x20-\x7e]*$/;

function alwaysEscaped(code: number): boolean {
  for (const [low, high] of ALWAYS_ESCAPED) {
    if (code < low) return false;
    if (code <= high) return true;
  }
  return false;
}

function escape(char: string): string {
  return `\\u{${(char.codePointAt(0) as number).toString(16).toUpperCase()}}`;
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
  const chars = Array.from(text);
  const mixed = mixedScriptWords(chars);
  let out = "";
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] as string;
    const code = char.codePointAt(0) as number;
    if (code >= 0x20 && code <= 0x7e) {
      out += char;
    } else if (alwaysEscaped(code)) {
      out += keptInEmoji(chars, index, code) ? char : escape(char);
    } else if (mixed[index] === true) {
      out += escape(char);
    } else {
      out += char;
    }
  }
  return out;
}

/** ZWJ between two pictographs, and VS16 after one, are part of an emoji, not hidden text. */
function keptInEmoji(chars: readonly string[], index: number, code: number): boolean {
  const before = chars[index - 1];
  if (before === undefined || !PICTOGRAPHIC.test(before)) return false;
  if (code === 0xfe0f) return true;
  if (code !== 0x200d) return false;
  const after = chars[index + 1];
  return after !== undefined && PICTOGRAPHIC.test(after);
}

/** Marks the look-alike letters of each word that mixes them with Latin letters (`pаypal` with a Cyrillic а). */
function mixedScriptWords(chars: readonly string[]): boolean[] {
  const marks: boolean[] = [];
  let start = 0;
  for (let index = 0; index <= chars.length; index++) {
    const char = chars[index];
    if (char !== undefined && LETTER.test(char)) continue;
    if (index > start) markWord(chars, start, index, marks);
    start = index + 1;
  }
  return marks;
}

function markWord(chars: readonly string[], start: number, end: number, marks: boolean[]): void {
  let latin = false;
  let lookalike = false;
  for (let index = start; index < end; index++) {
    const char = chars[index] as string;
    if (LATIN.test(char)) latin = true;
    else if (LOOKALIKE.test(char)) lookalike = true;
  }
  if (!latin || !lookalike) return;
  for (let index = start; index < end; index++) if (LOOKALIKE.test(chars[index] as string)) marks[index] = true;
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
