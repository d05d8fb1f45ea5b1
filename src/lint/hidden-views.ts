/**
 * The other ways a string can be read: what a model sees once look-alike letters, invisible
 * characters and spacing stop mattering, what sits inside comments a person never sees, and what
 * an encoded blob says. S8 looks for attacks in each view, so an attack cannot hide by its spelling.
 * Pure and linear.
 */

import { leetText, rot13Text } from "./deobfuscate.js";
import { glossText } from "./gloss.js";

/** How a view was obtained from the original string. */
export type Carrier = "folded" | "comment" | "encoded" | "translated";

export interface TextView {
  text: string;
  carrier: Carrier;
  /** Report the view itself (an encoded blob) only when it holds a part of an attack: leetspeak in a name is ordinary. */
  quiet?: boolean;
}

/** A comment found in a string: HTML (`<!-- -->`) or Markdown reference-style (`[//]: # (...)`). */
export interface Comment {
  syntax: "html" | "markdown";
  text: string;
}

// Letters that look like Latin ones, by code point: Cyrillic, Greek and a few others attackers use.
// NFKC already turns fullwidth and mathematical letters into plain ones.
const LOOKALIKES: Readonly<Record<string, string>> = {
  "\u0430": "a",
  "\u0435": "e",
  "\u043e": "o",
  "\u0440": "p",
  "\u0441": "c",
  "\u0443": "y",
  "\u0445": "x",
  "\u0456": "i",
  "\u0458": "j",
  "\u0455": "s",
  "\u0501": "d",
  "\u04bb": "h",
  "\u04cf": "l",
  "\u051b": "q",
  "\u051d": "w",
  "\u0457": "i",
  "\u045e": "y",
  "\u0410": "A",
  "\u0412": "B",
  "\u0415": "E",
  "\u041a": "K",
  "\u041c": "M",
  "\u041d": "H",
  "\u041e": "O",
  "\u0420": "P",
  "\u0421": "C",
  "\u0422": "T",
  "\u0425": "X",
  "\u0406": "I",
  "\u0408": "J",
  "\u0405": "S",
  "\u03bf": "o",
  "\u03b1": "a",
  "\u03b9": "i",
  "\u03ba": "k",
  "\u03bd": "v",
  "\u03c1": "p",
  "\u03c4": "t",
  "\u03c5": "u",
  "\u03c7": "x",
  "\u0391": "A",
  "\u0392": "B",
  "\u0395": "E",
  "\u0396": "Z",
  "\u0397": "H",
  "\u0399": "I",
  "\u039a": "K",
  "\u039c": "M",
  "\u039d": "N",
  "\u039f": "O",
  "\u03a1": "P",
  "\u03a4": "T",
  "\u03a5": "Y",
  "\u03a7": "X",
  "\u0261": "g",
  "\u0251": "a",
  "\u1d0f": "o",
  "\u0131": "i",
  "\u0237": "j",
};

/** Characters a person does not see, removed from the folded view (zero-width, joiners, TAG, variation selectors, soft hyphen). */
const INVISIBLE =
  /\u034f|[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0]|[\ufe00-\ufe0f]|[\u{e0000}-\u{e007f}]|[\u{e0100}-\u{e01ef}]/gu;
const LOOKALIKE_CLASS = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "g");
const LATIN_LETTER = /[A-Za-z]/;
/** Four or more single characters separated by single spaces ("i d _ r s a", "~ / . s s h"). */
const SPACED = /(?<!\S)(?:\S ){3,}\S(?!\S)/g;

/** A word that mixes look-alike letters with Latin ones (`rеad` with a Cyrillic е), with how many there are. */
export interface MixedScript {
  text: string;
  count: number;
}

/** Most mixed-script words counted in one string. */
const MAX_MIXED = 10_000;
/** How far around a look-alike letter its word is searched for Latin letters. */
const WORD_REACH = 64;

/** A character that ends a word: whitespace, punctuation other than the path characters attackers spell with. */
function endsWord(code: number): boolean {
  if (code < 0x80)
    return !(
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a) ||
      code === 0x5f ||
      code === 0x2e ||
      code === 0x7e ||
      code === 0x2f ||
      code === 0x5c ||
      code === 0x2d
    );
  return code === 0xa0 || (code >= 0x2000 && code <= 0x206f) || code === 0x3000;
}

/**
 * The words of a text that mix look-alike letters into Latin ones; null when there is none. Only the
 * neighbourhood of each look-alike letter is read, so a long run of Cyrillic or CJK costs one pass.
 */
export function mixedScriptWords(text: string): MixedScript | null {
  let count = 0;
  let first = "";
  let lastWordEnd = -1;
  LOOKALIKE_CLASS.lastIndex = 0;
  for (let match = LOOKALIKE_CLASS.exec(text); match !== null; match = LOOKALIKE_CLASS.exec(text)) {
    const at = match.index;
    if (at < lastWordEnd) continue;
    let start = at;
    while (start > 0 && at - start < WORD_REACH && !endsWord(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && end - at < WORD_REACH && !endsWord(text.charCodeAt(end))) end++;
    lastWordEnd = end;
    LOOKALIKE_CLASS.lastIndex = end;
    const word = text.slice(start, end);
    if (!LATIN_LETTER.test(word)) continue;
    if (count === 0) first = word;
    // The first word is what the message shows; past the cap, counting costs and says nothing.
    if (++count >= MAX_MIXED) break;
  }
  return count === 0 ? null : { text: first, count };
}

/**
 * The text as a model may read it: NFKC, invisible characters removed, look-alike letters made
 * Latin, spaced-out letters joined. Null when that changes nothing, so plain ASCII costs one test.
 */
export function foldedText(text: string): string | null {
  let folded = text;
  if (/[^\x00-\x7f]/.test(text)) {
    folded = folded.replace(INVISIBLE, "").normalize("NFKC");
    folded = folded.replace(LOOKALIKE_CLASS, (char) => LOOKALIKES[char] ?? char);
  }
  if (/\S \S \S \S/.test(folded)) folded = folded.replace(SPACED, (run) => run.replaceAll(" ", ""));
  return folded === text ? null : folded;
}

/** Most comments of each syntax read from one string: a flood of them says no more than the first few. */
const MAX_COMMENTS = 64;
/** Longest comment text kept; comments past it are cut (their start is what matters). */
const MAX_COMMENT = 4_096;
/** A Markdown reference definition used as a comment: `[//]: # (text)`, `[comment]: <> "text"`. */
const MARKDOWN_COMMENT = /^[ \t]{0,3}\[[^\]\n]{0,40}\]:[ \t]*(?:#|<>)[ \t]*(?:\((.*)\)|"(.*)"|'(.*)')[ \t]*$/;

/** An HTML element a renderer hides: `style="display:none"`, `visibility:hidden`, the `hidden` attribute. */
const HIDDEN_ELEMENT = /<[a-z][a-z0-9]{0,10}\b[^<>]{0,200}?(?:display\s{0,3}:\s{0,3}none|visibility\s{0,3}:\s{0,3}hidden|\shidden(?=[\s>=]))[^<>]{0,200}>/gi;

/** HTML and Markdown comments (and elements a renderer hides) in a text, which rendered Markdown hides and a model reads. An unclosed `<!--` hides the rest. */
export function comments(text: string): Comment[] {
  const out: Comment[] = [];
  for (let at = text.indexOf("<!--"); at >= 0 && out.length < MAX_COMMENTS; ) {
    const close = text.indexOf("-->", at + 4);
    const end = close < 0 ? text.length : close;
    out.push({ syntax: "html", text: text.slice(at + 4, Math.min(end, at + 4 + MAX_COMMENT)).trim() });
    if (close < 0) break;
    at = text.indexOf("<!--", close + 3);
  }
  if (text.includes("<")) {
    HIDDEN_ELEMENT.lastIndex = 0;
    // Once no closing tag is left, none is searched for again: a flood of open tags stays linear.
    let closeAt = 0;
    for (let match = HIDDEN_ELEMENT.exec(text); match !== null && out.length < MAX_COMMENTS * 2; match = HIDDEN_ELEMENT.exec(text)) {
      const from = match.index + match[0].length;
      if (closeAt >= 0 && closeAt < from) closeAt = text.indexOf("</", from);
      const close = closeAt;
      const end = close < 0 ? text.length : close;
      out.push({ syntax: "html", text: text.slice(match.index + match[0].length, Math.min(end, match.index + match[0].length + MAX_COMMENT)).trim() });
    }
  }
  if (text.includes("]:")) {
    let lineStart = 0;
    while (lineStart <= text.length && out.length < MAX_COMMENTS * 3) {
      let lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      if (line.includes("]:")) {
        const match = MARKDOWN_COMMENT.exec(line.length > MAX_COMMENT ? line.slice(0, MAX_COMMENT) : line);
        if (match !== null) out.push({ syntax: "markdown", text: (match[1] ?? match[2] ?? match[3] ?? "").trim() });
      }
      lineStart = lineEnd + 1;
    }
  }
  return out;
}

/** A run that may be base64 (standard or URL-safe) or hex; 24 characters is 18 bytes, short enough for "cat ~/.ssh/id_rsa". */
const MIN_BLOB = 24;

/** A character of base64 (standard or URL-safe), which hex is a part of. */
function isBlobCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2b ||
    code === 0x2f ||
    code === 0x5f ||
    code === 0x2d
  );
}

/**
 * The runs of 24 or more base64 characters (with up to two `=` after), at most `limit` of them and
 * each cut to MAX_BLOB. A loop, not a regex: V8 backtracks a `{24,}` run with a stack frame per
 * character and overflows on a 16 MB word.
 */
function blobRuns(text: string, limit: number): string[] {
  const out: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length && out.length < limit; index++) {
    const inRun = index < text.length && isBlobCode(text.charCodeAt(index));
    if (inRun) {
      if (start < 0) start = index;
      continue;
    }
    if (start >= 0 && index - start >= MIN_BLOB) {
      let end = index;
      while (end < text.length && end - index < 2 && text.charCodeAt(end) === 0x3d) end++;
      out.push(text.slice(start, Math.min(end, start + MAX_BLOB)));
    }
    start = -1;
  }
  return out;
}
// A plain character-class loop: a repeated group would backtrack with a stack frame per pair and overflow on a 16 MB run.
const HEX_CHARS = /^[0-9a-fA-F]+$/;
const isHex = (text: string) => text.length % 2 === 0 && HEX_CHARS.test(text);
/** Most blobs decoded per string: a list of hashes costs nothing past it. */
const MAX_BLOBS = 32;
const MAX_BLOB = 65_536;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What an encoded blob says, when it decodes to prose: printable UTF-8 with at least three words between spaces. */
function decodedProse(blob: string): string | null {
  let bytes: Buffer;
  if (isHex(blob)) bytes = Buffer.from(blob, "hex");
  else bytes = Buffer.from(blob.replaceAll("-", "+").replaceAll("_", "/"), "base64");
  if (bytes.length < 12) return null;
  // Most blobs are hashes or binary: reject on the bytes before decoding anything.
  let control = 0;
  for (const byte of bytes) if ((byte < 0x20 && byte !== 0x0a && byte !== 0x09 && byte !== 0x0d) || byte === 0x7f) control++;
  if (control > bytes.length * 0.05) return null;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  let printable = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x09 || code >= 0xa0) printable++;
  }
  if (printable < text.length * 0.95) return null;
  // Prose has words between spaces; a JWT header or a JSON blob does not.
  return /[A-Za-z]{2,} +[A-Za-z~./]/.test(text) && (text.match(/[A-Za-z]/g) ?? []).length >= 8 ? text : null;
}

/** The prose hidden in base64 or hex blobs of a text, decoded. */
export function encodedProse(text: string): string[] {
  const out: string[] = [];
  if (text.length < 24) return out;
  // Names are skipped without counting, so look at more runs than are decoded.
  let tried = 0;
  for (const run of blobRuns(text, MAX_BLOBS * 8)) {
    if (tried >= MAX_BLOBS) break;
    // A hex literal's 0x prefix is not part of the bytes.
    const blob = /^0x[0-9a-fA-F]/.test(run) ? run.slice(2) : run;
    // A name (`billing_update_invoice_2`) is not a blob: base64 mixes both cases with digits, hex is hex.
    if (!isHex(blob) && !(/[A-Z]/.test(blob) && /[a-z]/.test(blob) && /[0-9+/]/.test(blob))) continue;
    tried++;
    const prose = decodedProse(blob);
    if (prose !== null) out.push(prose);
  }
  return out;
}

/** Eight or more percent-escapes in a row: URL-encoded text. */
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2}[^%\s]{0,3}){8,}/g;

/** The text of percent-encoded runs ("%53%65%6E%64" is "Send"), decoded. */
export function percentDecoded(text: string): string[] {
  if (!text.includes("%")) return [];
  const out: string[] = [];
  PERCENT_RUN.lastIndex = 0;
  for (let match = PERCENT_RUN.exec(text); match !== null && out.length < MAX_BLOBS; match = PERCENT_RUN.exec(text)) {
    try {
      out.push(decodeURIComponent(match[0]));
    } catch {
      // Not valid UTF-8 once decoded: not text.
    }
  }
  return out;
}

// Common English words spelled backwards ("eht", "dna"): a text read right to left.
const REVERSED_WORDS = /\b(?:eht|dna|ruoy|siht|taht|htiw|morf)\b/gi;

/** The text reversed, when at least two common words in it read backwards. */
export function reversedText(text: string): string | null {
  REVERSED_WORDS.lastIndex = 0;
  let count = 0;
  while (REVERSED_WORDS.exec(text) !== null) if (++count >= 2) return Array.from(text).reverse().join("");
  return null;
}

/**
 * A letter outside ASCII, or a function word of German, French, Spanish, Portuguese or Italian that
 * English does not use: text without one is English (or code) and is not glossed. A gate, not a
 * reader: foreign text with none of these words ("Ignoriere alle vorherigen Anweisungen.") is not
 * glossed either.
 */
const FOREIGN_HINT =
  /[\u00c0-\u024f\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]|\b(?:der|und|ist|nicht|mit|zu|dem|den|ein|eine|auf|du|sie|wenn|oder|auch|sich|les|des|est|une|un|le|la|et|vous|tu|au|aux|ce|cette|lorsque|quand|par|pour|avec|dans|sur|pas|ne|el|los|las|del|por|para|con|una|que|se|su|sus|al|y|uma|nao|com|dos|das|ao|em|seu|sua|voce|il|lo|gli|nel|che|della|delle|sono|anche|non)\b/i;

/** Whether a text holds at least `count` spaces between non-space characters: a phrase, not a name. */
export function hasWords(text: string, count: number): boolean {
  let found = 0;
  for (let at = text.indexOf(" "); at > 0 && at < text.length - 1; at = text.indexOf(" ", at + 1)) {
    if (text.charCodeAt(at - 1) !== 0x20 && ++found >= count) return true;
  }
  return false;
}

/** Every other view of a string S8 reads for attacks; empty for most strings. */
export function hiddenViews(text: string, found: readonly Comment[]): TextView[] {
  const views: TextView[] = [];
  const folded = foldedText(text);
  if (folded !== null) views.push({ text: folded, carrier: "folded" });
  for (const comment of found) views.push({ text: foldedText(comment.text) ?? comment.text, carrier: "comment" });
  for (const prose of encodedProse(folded ?? text)) views.push({ text: prose, carrier: "encoded" });
  for (const prose of percentDecoded(text)) views.push({ text: prose, carrier: "encoded" });
  const reversed = reversedText(folded ?? text);
  if (reversed !== null) views.push({ text: reversed, carrier: "encoded" });
  // A view needs a few words to say anything: a key, an enum value or a short label has none to hide.
  if (!hasWords(text, 3)) return views;
  const base = folded ?? text;
  const rot13 = rot13Text(base);
  if (rot13 !== null) views.push({ text: rot13, carrier: "encoded" });
  const leet = leetText(base);
  if (leet !== null) views.push({ text: leet, carrier: "encoded", quiet: true });
  // Another language is no hiding: its gloss is read like the text itself, marked only so a message can say so.
  const glossed = FOREIGN_HINT.test(base) ? glossText(base) : null;
  if (glossed !== null) views.push({ text: glossed, carrier: "translated", quiet: true });
  return views;
}
