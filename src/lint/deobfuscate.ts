/** Undoes two cheap disguises, ROT13 and leetspeak, so S8's English patterns can read an attack spelled in them. */

// Common English words and the words attacks are made of. ROT13 is its own inverse, so a text reads
// as English in exactly one of its two spellings; which one is decided by counting these. No word's
// rotation is itself in the list (a test pins that), so the two counts never feed each other. Left
// out: words whose rotation is common elsewhere ("a"/"n" after every "\n", "an"/"na" and "in"/"va"
// in Portuguese and Spanish, "be"/"or").
const COMMON = new Set(
  (
    "the and to of you your user file files send read all this that must before after tool tools call key keys secret secrets " +
    "password passwords token tokens contents content do not tell with from into it is on for are any other use when " +
    "always never ssh private instructions ignore previous include parameter server env history mention data every without"
  ).split(" "),
);

/** ROT13 decides on the start of a text; an attack that hides past it is not a disguised text but a long one. */
const ROT13_WINDOW = 65_536;
/** Common words the rotation must hold, and how many times more than the original. */
const ROT13_MIN_WORDS = 4;
const ROT13_RATIO = 3;
/** Longest word looked up: no listed word is longer. */
const LONGEST_COMMON = 12;
/** Code units turned back into a string at a time, well under the engine's argument limit. */
const CHUNK = 8_192;

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * A word set off as a word: not glued to digits or other letters (base64, "expresión" split at the ó),
 * and cased as prose is (lower, Capitalized or UPPER), not as a random string is.
 */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = start > 0 ? text.charCodeAt(start - 1) : 32;
  const after = end < text.length ? text.charCodeAt(end) : 32;
  if (gluesWord(before) || gluesWord(after)) return false;
  let upper = 0;
  for (let index = start; index < end; index++) if (text.charCodeAt(index) <= 90) upper++;
  const firstUpper = text.charCodeAt(start) <= 90;
  return upper === 0 || upper === end - start || (upper === 1 && firstUpper);
}

/** A digit or a non-ASCII letter next to a word makes it part of something longer. */
function gluesWord(code: number): boolean {
  return (code >= 48 && code <= 57) || code >= 0xc0;
}

function rotate(code: number): number {
  if (code >= 65 && code <= 90) return ((code - 65 + 13) % 26) + 65;
  if (code >= 97 && code <= 122) return ((code - 97 + 13) % 26) + 97;
  return code;
}

function rot13(text: string): string {
  const parts: string[] = [];
  const codes = new Array<number>(Math.min(CHUNK, text.length));
  for (let base = 0; base < text.length; base += CHUNK) {
    const end = Math.min(text.length, base + CHUNK);
    codes.length = end - base;
    for (let index = base; index < end; index++) codes[index - base] = rotate(text.charCodeAt(index));
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join("");
}

const ROT13_COMMON = /\b(?:gur|naq|lbh|gb|bs|vf)\b/i;
/** A letter beside a digit or a leet symbol, inside a word. */
const LEET_MIX = /[a-z][0-9@$]|[0-9@$][a-z]/i;

/** The ROT13 of a text's ASCII letters when that reads as English and the text does not; otherwise null. */
export function rot13Text(text: string): string | null {
  // ROT13 English always holds a rotated "the", "and", "you", "to", "of" or "is"; most text holds none.
  if (!ROT13_COMMON.test(text)) return null;
  const limit = Math.min(text.length, ROT13_WINDOW);
  let plain = 0;
  let rotated = 0;
  let index = 0;
  while (index < limit) {
    if (!isAsciiLetter(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    while (index < limit && isAsciiLetter(text.charCodeAt(index))) index++;
    if (index - start > LONGEST_COMMON || !standsAlone(text, start, index)) continue;
    let word = "";
    let turned = "";
    for (let at = start; at < index; at++) {
      const code = text.charCodeAt(at) | 0x20; // lower case
      word += String.fromCharCode(code);
      turned += String.fromCharCode(rotate(code));
    }
    if (COMMON.has(word)) plain++;
    if (COMMON.has(turned)) rotated++;
  }
  if (rotated < ROT13_MIN_WORDS || rotated < ROT13_RATIO * plain) return null;
  return rot13(text);
}

const LEET: Readonly<Record<string, string>> = { "4": "a", "3": "e", "1": "i", "0": "o", "5": "s", "7": "t", "@": "a", $: "s" };

/**
 * Tokens that mix letters and digits on purpose: versions, units, ordinals, identifiers with a number
 * (ipv4, s3, h264, sha256, 10ms, 3d, 10tals, v1.2.3, v1beta1, md5, oauth2, image01), numeronyms
 * (i18n, l10n, a11y), durations, timestamps and sizes (5h30m, 10T13, 1x1) and hex (0x1f, c0ffee).
 * Undoing leetspeak in them would make words out of noise.
 */
const IDENTIFIER = /^(?:v?\d+(?:\.\d+)*[a-z]{0,3}|[a-z]+\d+|\d+[a-z]+|(?:\d+[a-z]{1,2})+|[a-z]\d+[a-z]|\d+[a-z]\d+|v\d+[a-z]+\d*|0x[0-9a-f]+|[0-9a-f]{4,})$/i;

/** Words an attacker spells a secret's path with (`~/.55h/1d_r54`): enough to undo an identifier-looking part of a path. */
const PATH_WORDS = new Set(
  (
    "ssh id rsa dsa ecdsa env aws config credentials kube docker gnupg netrc npmrc pgpass passwd shadow etc home root user users " +
    "secret secrets token tokens key keys password passwords history bash zsh git private wallet keychain cookies login tmp"
  ).split(" "),
);

/** Substitutions a path needs before it is read as leetspeak rather than a path with numbers in it. */
const PATH_SUBSTITUTIONS = 2;
/** A longer run of letters and digits is a key, hash or ID, not a word spelled in leetspeak. */
const LONGEST_WORD = 24;

function isWordCode(code: number): boolean {
  return isAsciiLetter(code) || (code >= 48 && code <= 57) || code === 0x40 || code === 0x24;
}

function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0;
}

/** How one word would read undone, and how many characters that changed; null when it is not leetspeak. */
function undoWord(word: string, inPath: boolean): { text: string; count: number; known: boolean } | null {
  let letters = 0;
  let digits = 0;
  let upper = 0;
  for (let index = 0; index < word.length; index++) {
    const char = word[index] as string;
    const code = word.charCodeAt(index);
    if (isAsciiLetter(code)) {
      letters++;
      if (code <= 90) upper++;
    } else if (LEET[char] === undefined) {
      return null; // 2, 6, 8, 9: a number, not a spelling
    } else if (code >= 48 && code <= 57) {
      digits++;
    }
  }
  if (letters === 0) return null;
  // A capital after the first letter, beside small letters, is camelCase or a random string ("getV4Address", "Xk9aBz").
  if (upper > 0 && upper < letters && (upper > 1 || !isAsciiLetter(word.charCodeAt(0)) || word.charCodeAt(0) > 90)) return null;
  // "$HOME", "@param", "@user1", "user@host", "$SM": a sigil, a handle or an address unless a digit in a
  // lower-case word says it is spelling ("p@$$w0rd").
  if (word.startsWith("$") || word.startsWith("@")) return null;
  if ((word.includes("$") || word.includes("@")) && (digits === 0 || upper === letters)) return null;
  const shout = upper === letters;
  let text = "";
  let count = 0;
  for (const char of word) {
    const letter = LEET[char];
    if (letter === undefined) {
      text += char;
    } else {
      text += shout ? letter.toUpperCase() : letter;
      count++;
    }
  }
  if (count === 0) return null;
  const lower = text.toLowerCase();
  const known = inPath && PATH_WORDS.has(lower);
  // An upper-case code (MOB31T, R50KELTJP) or a doubled 1 or 4 ("x11vnc": "ii" and "aa" are rare in
  // words) is a name with a number in it, unless it spells a word outright.
  const coded = IDENTIFIER.test(word) || (shout && letters > 1) || word.includes("11") || word.includes("44");
  if (coded && !known && !COMMON.has(lower)) return null;
  return { text, count, known };
}

/** What a run of non-space characters is, read once before its words are. */
interface Chunk {
  /** Starts with ~ or holds a slash: a path, whose parts may spell a secret's location. */
  path: boolean;
  /** Holds + or =, or is a URL: base64, a query string, an expression or an address, whose digits spell nothing. */
  encoded: boolean;
}

function readChunk(text: string, start: number, end: number): Chunk {
  let path = text.charCodeAt(start) === 0x7e;
  let encoded = false;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x2f || code === 0x5c) path = true;
    else if (code === 0x2b || code === 0x3d) encoded = true;
    else if (code === 0x3a && text.startsWith("//", index + 1)) encoded = true;
  }
  return { path, encoded };
}

// A view needs a word with two or more substitutions, or a path spelling a secret's location
// (`~/.55h/1d_r54`); identifiers, units, versions, hex, addresses and encoded blobs stay as they are.
/** The text with leetspeak undone in words that mix letters with 4 3 1 0 5 7 @ $ (`r34d` reads `read`); null when nothing reads as leetspeak. */
export function leetText(text: string): string | null {
  // Nothing to undo without a letter beside a digit or a leet symbol.
  if (!LEET_MIX.test(text)) return null;
  const parts: string[] = [];
  let copied = 0;
  let convincing = false;
  let index = 0;
  while (index < text.length) {
    if (isSpaceCode(text.charCodeAt(index))) {
      index++;
      continue;
    }
    const chunkStart = index;
    while (index < text.length && !isSpaceCode(text.charCodeAt(index))) index++;
    const chunkEnd = index;
    const chunk = readChunk(text, chunkStart, chunkEnd);
    if (chunk.encoded) continue;
    let pathSubstitutions = 0;
    for (let at = chunkStart; at < chunkEnd; ) {
      if (!isWordCode(text.charCodeAt(at))) {
        at++;
        continue;
      }
      const start = at;
      while (at < chunkEnd && isWordCode(text.charCodeAt(at))) at++;
      if (at - start > LONGEST_WORD) continue;
      const word = text.slice(start, at);
      // An address keeps its @ and its dots ("j0hn@ex4mple.com"); "%40" is an escape, "pkg@1" a version.
      if (word.includes("@") && (text.charCodeAt(at) === 0x2e || /@\d+$/.test(word))) continue;
      if (start > 0 && text.charCodeAt(start - 1) === 0x25) continue;
      const undone = undoWord(word, chunk.path);
      if (undone === null) continue;
      parts.push(text.slice(copied, start), undone.text);
      copied = at;
      if (undone.count >= 2 && (!IDENTIFIER.test(word) || COMMON.has(undone.text.toLowerCase()))) convincing = true;
      if (undone.known) {
        pathSubstitutions += undone.count;
        if (pathSubstitutions >= PATH_SUBSTITUTIONS) convincing = true;
      }
    }
  }
  if (!convincing) return null;
  parts.push(text.slice(copied));
  return parts.join("");
}
