/** Every way a shell, a launcher or a URL could decode one command token, for finding known-bad names in any spelling. Pure, no dependencies. */

// The known-bad guard must not be walked around by spelling a package name so that the parser gives
// up while the shell still runs it: `$'\x70ostmark-mcp'`, `post"mark"-mcp`, `post^mark-mcp`,
// `` post`u{6d}ark-mcp ``, `postmark%2Dmcp`, `post${EMPTY}mark-mcp`, `{x,p}ostmark-mcp`. `spellings`
// lists the texts a token can turn into; the start-up prefilter and the full check both read names
// from this one list, so the prefilter can never miss a name the full check finds.

/** Nested quoting deeper than this is not decoded (the parser follows wrappers to depth 8). */
const MAX_ROUNDS = 8;
/**
 * Longer tokens get a few coarse spellings (see bigSpellings), so the work stays a small multiple of
 * their length. Below the parser's script limit, so the prefilter (which defers on an incomplete
 * list) still covers scripts the parser splits.
 */
const BIG_TOKEN = 16_384;
/** More distinct spellings than this and the list is marked incomplete. */
const MAX_SPELLINGS = 48;
/** Brace expansions per word beyond this fall back to one pick per alternative. */
const MAX_BRACE_WORDS = 64;
/** Rounds of percent-decoding (`%252D` -> `%2D` -> `-`). */
const PERCENT_ROUNDS = 4;

/** The decoded texts of one token; `complete` is false when a limit cut the list short. */
export interface Spellings {
  texts: string[];
  complete: boolean;
}

type Decoder = (text: string) => string;

/**
 * The texts `token` can mean: as written; decoded by the POSIX, PowerShell and cmd quoting rules
 * (each as shell-quote reads it and as the real shell does), with ANSI-C `$'...'` segments
 * expanded anywhere, repeatedly for nested quoting; each also with variables and substitutions
 * empty or at their `${X:-default}`, with `{a,b}` braces expanded, and percent-decoded.
 */
export function spellings(token: string): Spellings {
  if (token.length > BIG_TOKEN) return bigSpellings(token);
  const decoded = new Set<string>([token]);
  let frontier = [token];
  // A list cut short by a limit is marked incomplete: the prefilter then defers to the full check.
  let complete = true;
  for (let round = 0; round < MAX_ROUNDS && frontier.length > 0; round++) {
    const next: string[] = [];
    for (const text of frontier) {
      for (const decode of DECODERS) {
        const out = decode(text);
        if (decoded.has(out)) continue;
        if (decoded.size >= MAX_SPELLINGS) {
          complete = false;
          continue;
        }
        decoded.add(out);
        next.push(out);
      }
    }
    frontier = next;
    if (round === MAX_ROUNDS - 1 && next.length > 0) complete = false;
  }
  const texts = new Set<string>();
  for (const text of decoded) {
    for (const braced of [text, expandBraces(text)]) {
      texts.add(braced);
      texts.add(percentDecoded(braced));
    }
  }
  return { texts: [...texts], complete };
}

/**
 * A long token is only scanned: as written, and through one pass that expands every escape that
 * can make a letter and drops every quote and escape character, with expansions removed and
 * percent-decoded. Marked incomplete, so the prefilter defers to the full check.
 */
function bigSpellings(token: string): Spellings {
  const coarse = coarseDecode(token);
  const texts = new Set([token, coarse, withoutExpansions(coarse, "empty")]);
  for (const text of [...texts]) texts.add(percentDecoded(text));
  return { texts: [...texts], complete: false };
}

function coarseDecode(text: string): string {
  const ansi = ansiCAnywhere(text);
  const unicode = ansi.includes("`u{")
    ? ansi.replace(/`u\{([0-9A-Fa-f]{1,6})\}/g, (whole, hex: string) => {
        const code = Number.parseInt(hex, 16);
        return code > 0x10ffff ? whole : String.fromCodePoint(code);
      })
    : ansi;
  return unicode.replace(/['"`^\\\u2018-\u201E]+/g, "");
}

/**
 * The letters and digits of a text, each code point folded by NFKC and lower-cased, everything else
 * dropped. Folding one code point at a time makes `squash(a + b) === squash(a) + squash(b)` (when
 * the cut does not split a surrogate pair, which a code-point regex match never does), so a name
 * found anywhere in a text is also found in its squashed form.
 */
export function squash(text: string): string {
  let units = new Uint16Array(text.length + 16);
  let length = 0;
  const keep = (unit: number) => {
    // NFKC can turn one code unit into several letters (`㎒` -> `MHz`).
    if (length === units.length) {
      const bigger = new Uint16Array(units.length * 2);
      bigger.set(units);
      units = bigger;
    }
    units[length++] = unit;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a)) keep(code);
      else if (code >= 0x41 && code <= 0x5a) keep(code + 32);
      continue;
    }
    // One code point (a surrogate pair is read whole), folded on its own.
    const point = text.codePointAt(i) as number;
    if (point > 0xffff) i++;
    for (const folded of String.fromCodePoint(point).normalize("NFKC").toLowerCase()) {
      const unit = folded.charCodeAt(0);
      if ((unit >= 0x30 && unit <= 0x39) || (unit >= 0x61 && unit <= 0x7a)) keep(unit);
    }
  }
  return unitsToString(units, length);
}

/** Inputs up to this long are built by plain string concatenation; longer ones in a code-unit array. */
const SMALL_TEXT = 1024;

/**
 * Builds a decoded text from unchanged runs of the input and replacements. A long input goes into
 * one typed array of code units (a decoded text is never longer than its input, but the array grows
 * if needed), so a text with a quote every few characters does not become millions of small strings.
 */
class Output {
  private units: Uint16Array | null = null;
  private small = "";
  private changed = false;
  private length = 0;
  private from = 0;
  constructor(private readonly text: string) {}

  /** Keep the input up to `at`, then add `replacement`, and go on from `next`. */
  put(at: number, replacement: string, next: number): void {
    this.changed = true;
    if (this.text.length <= SMALL_TEXT) {
      this.small += this.text.slice(this.from, at) + replacement;
    } else {
      this.copy(this.from, at);
      for (let k = 0; k < replacement.length; k++) this.push(replacement.charCodeAt(k));
    }
    this.from = next;
  }

  /** The input from the last `put` to the end added, as a string. */
  done(): string {
    if (!this.changed) return this.text;
    if (this.text.length <= SMALL_TEXT) return this.small + this.text.slice(this.from);
    this.copy(this.from, this.text.length);
    return unitsToString(this.units ?? new Uint16Array(0), this.length);
  }

  private copy(start: number, end: number): void {
    for (let k = start; k < end; k++) this.push(this.text.charCodeAt(k));
  }

  private push(unit: number): void {
    if (this.units === null) this.units = new Uint16Array(this.text.length + 16);
    if (this.length === this.units.length) {
      const bigger = new Uint16Array(this.units.length * 2);
      bigger.set(this.units);
      this.units = bigger;
    }
    this.units[this.length++] = unit;
  }
}

// TextDecoder reads UTF-16 code units as little-endian bytes: usable when the platform is little-endian.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const UTF16 = new TextDecoder("utf-16le");

/**
 * Code units to a string. TextDecoder turns a lone surrogate into U+FFFD, which no name match or
 * squash reads as a letter either, so nothing a scan finds changes.
 */
function unitsToString(units: Uint16Array, length: number): string {
  if (LITTLE_ENDIAN) return UTF16.decode(units.subarray(0, length));
  const chunks: string[] = [];
  for (let start = 0; start < length; start += 8192) {
    chunks.push(String.fromCharCode.apply(null, units.subarray(start, Math.min(length, start + 8192)) as unknown as number[]));
  }
  return chunks.join("");
}

// --- ANSI-C quoting, `$'...'` ---------------------------------------------------------------

const ANSI_C_LETTERS: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1B",
  E: "\x1B",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * The body of a `$'...'` segment expanded as shell-quote and bash do (`\x70`, `\160`, `\u0070`,
 * `\U00000070`, `\cX`, `\n`...); like bash, a NUL ends the segment. Unknown escapes stay as written.
 */
export function expandAnsiC(body: string): string {
  if (!body.includes("\\")) return body;
  const out = new Output(body);
  for (let i = body.indexOf("\\"); i >= 0 && i + 1 < body.length; i = body.indexOf("\\", i + 1)) {
    const kind = body[i + 1] as string;
    let value: string | undefined;
    let length = 2;
    if (kind >= "0" && kind <= "7") {
      length = 1 + digitRun(body, i + 1, 3, 8);
      value = String.fromCharCode(Number.parseInt(body.slice(i + 1, i + length), 8) & 0xff);
    } else if (kind === "x" || kind === "u" || kind === "U") {
      const digits = digitRun(body, i + 2, kind === "x" ? 2 : kind === "u" ? 4 : 8, 16);
      if (digits > 0) {
        const code = Number.parseInt(body.slice(i + 2, i + 2 + digits), 16);
        length = 2 + digits;
        value = code > 0x10ffff ? body.slice(i, i + length) : String.fromCodePoint(code);
      }
    } else if (kind === "c" && i + 2 < body.length) {
      // `\c\\` is control-backslash; otherwise the next character, masked to a control code.
      const pair = body.startsWith("\\\\", i + 2);
      const control = pair ? "\\" : (body[i + 2] as string);
      length = pair ? 4 : 3;
      value = control === "?" ? "\x7F" : String.fromCharCode(control.charCodeAt(0) & 0x1f);
    } else {
      value = ANSI_C_LETTERS[kind];
    }
    if (value === undefined) continue;
    out.put(i, value, i + length);
    i += length - 1;
  }
  const expanded = out.done();
  const nul = expanded.indexOf("\0");
  return nul < 0 ? expanded : expanded.slice(0, nul);
}

/** How many digits of `radix` (at most `max`) start at `from`. */
function digitRun(text: string, from: number, max: number, radix: 8 | 16): number {
  let count = 0;
  while (count < max) {
    const code = text.charCodeAt(from + count);
    const ok = radix === 8 ? code >= 0x30 && code <= 0x37 : hexDigit(code) >= 0;
    if (!ok) break;
    count++;
  }
  return count;
}

/**
 * Scans for the quote that closes a `$'` body starting at `from`, as shell-quote does (a backslash
 * escapes the next character). After one body runs to the end unclosed, no later one can close
 * (the escape pairing from there on is the same), so callers stop looking: linear overall.
 */
function ansiCClose(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === "'") return j;
  }
  return -1;
}

/** Every `$'...'` segment expanded wherever it stands, quotes or not. */
function ansiCAnywhere(text: string): string {
  if (!text.includes("$'")) return text;
  const out = new Output(text);
  for (let i = text.indexOf("$'"); i >= 0; ) {
    const end = ansiCClose(text, i + 2);
    if (end < 0) break;
    out.put(i, expandAnsiC(text.slice(i + 2, end)), end + 1);
    i = text.indexOf("$'", end + 1);
  }
  return out.done();
}

// --- Quoting as shell-quote reads it (the parser's own decoding) ----------------------------

/**
 * Quotes and escapes removed the way shell-quote does with the given escape character (`\` for
 * POSIX, `` ` `` for PowerShell, `^` for cmd), with `$'...'` expanded outside quotes. The parser
 * splits scripts with shell-quote, so every word it reads is a piece of this text.
 */
function shellQuoteDecoder(escapeCharacter: string): Decoder {
  return (text) => {
    if (!/['"$]/.test(text) && !text.includes(escapeCharacter)) return text;
    const out = new Output(text);
    let quote: string | null = null;
    let canClose = true;
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (quote === "'") {
        if (c === "'") {
          out.put(i, "", i + 1);
          quote = null;
        }
      } else if (quote === '"') {
        if (c === '"') {
          out.put(i, "", i + 1);
          quote = null;
        } else if (c === escapeCharacter) {
          const next = text[i + 1] ?? "";
          // Inside double quotes the escape character only takes a quote, itself or `$`; otherwise both stay.
          if (next === '"' || next === escapeCharacter || next === "$") out.put(i, next, i + 2);
          i++;
        }
      } else if (c === '"' || c === "'") {
        out.put(i, "", i + 1);
        quote = c;
      } else if (c === escapeCharacter) {
        out.put(i, text[i + 1] ?? "", i + 2);
        i++;
      } else if (c === "$" && text[i + 1] === "'" && canClose) {
        const end = ansiCClose(text, i + 2);
        if (end >= 0) {
          out.put(i, expandAnsiC(text.slice(i + 2, end)), end + 1);
          i = end;
        } else {
          canClose = false;
        }
      }
    }
    return out.done();
  };
}

// --- Quoting as the real shells read it ------------------------------------------------------

const POWERSHELL_ESCAPES: Readonly<Record<string, string>> = { "0": "\0", a: "\x07", b: "\b", e: "\x1B", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
// PowerShell also takes the typographic quotes as quotes.
const PS_SINGLE = new Set(["'", "\u2018", "\u2019", "\u201A", "\u201B"]);
const PS_DOUBLE = new Set(['"', "\u201C", "\u201D", "\u201E"]);

/** PowerShell: backtick escapes (`` `n ``, `` `u{6d} ``) outside single quotes, `''` inside them. */
function powershellDecode(text: string): string {
  if (!/['"`\u2018-\u201E]/.test(text)) return text;
  const out = new Output(text);
  let quote: "single" | "double" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "single") {
      if (PS_SINGLE.has(c)) {
        // Drop this quote; a doubled quote keeps the second one as text, a single one ends the string.
        out.put(i, "", i + 1);
        if (PS_SINGLE.has(text[i + 1] ?? "")) i++;
        else quote = null;
      }
    } else if (c === "`") {
      const unicode = /^u\{([0-9A-Fa-f]{1,6})\}/.exec(text.slice(i + 1, i + 11));
      if (unicode !== null) {
        const code = Number.parseInt(unicode[1] as string, 16);
        out.put(i, code > 0x10ffff ? "" : String.fromCodePoint(code), i + 1 + unicode[0].length);
        i += unicode[0].length;
      } else {
        const next = text[i + 1] ?? "";
        out.put(i, POWERSHELL_ESCAPES[next] ?? next, i + 2);
        i++;
      }
    } else if (quote === "double" && PS_DOUBLE.has(c)) {
      if (PS_DOUBLE.has(text[i + 1] ?? "")) {
        out.put(i, "", i + 1);
        i++;
      } else {
        out.put(i, "", i + 1);
        quote = null;
      }
    } else if (quote === null && PS_DOUBLE.has(c)) {
      out.put(i, "", i + 1);
      quote = "double";
    } else if (quote === null && PS_SINGLE.has(c)) {
      out.put(i, "", i + 1);
      quote = "single";
    }
  }
  return out.done();
}

/** cmd: `^` escapes the next character outside double quotes; the quotes themselves are dropped. */
function cmdDecode(text: string): string {
  if (!/[\^"]/.test(text)) return text;
  const out = new Output(text);
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      quoted = !quoted;
      out.put(i, "", i + 1);
    } else if (c === "^" && !quoted) {
      out.put(i, "", i + 1);
      i++;
    }
  }
  return out.done();
}

// Expansions are removed in the same rounds as quotes, so either can come first: in `post$EMPTY\mark`
// the backslash ends the variable's name, and only then is the backslash itself dropped.
const DECODERS: readonly Decoder[] = [
  shellQuoteDecoder("\\"),
  shellQuoteDecoder("`"),
  shellQuoteDecoder("^"),
  powershellDecode,
  cmdDecode,
  ansiCAnywhere,
  (text) => withoutExpansions(text, "empty"),
  (text) => withoutExpansions(text, "default"),
];

// --- Expansions the shell or the client performs ----------------------------------------------

// Sticky, so each is tried only where the scan stands.
const SHELL_NAME = /\$(?:env:)?[A-Za-z_][A-Za-z0-9_]*/iy;
const CMD_NAME = /%[A-Za-z_][A-Za-z0-9_]*%/y;
const NAME_START_CHAR = /^[A-Za-z_]$/;

/**
 * Variables and substitutions replaced by what they may well expand to: nothing (an unset
 * variable, `$()`), or the default of `${X:-default}` (Claude Code expands that form in configs).
 * Covers `${...}`, `$(...)`, backticks, `$NAME`, `$env:NAME` and `%NAME%`.
 */
function withoutExpansions(text: string, mode: "empty" | "default"): string {
  if (!/[$%`]/.test(text)) return text;
  const out = new Output(text);
  let brackets: Int32Array | null = null;
  let backticks = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "$" && (text[i + 1] === "{" || text[i + 1] === "(")) {
      brackets ??= matchingBrackets(text);
      const end = brackets[i + 1] as number;
      if (end < 0) continue;
      out.put(i, mode === "default" && text[i + 1] === "{" ? defaultWord(text.slice(i + 2, end)) : "", end + 1);
      i = end;
    } else if ((c === "$" || c === "%") && NAME_START_CHAR.test(text[i + 1] ?? "")) {
      const pattern = c === "$" ? SHELL_NAME : CMD_NAME;
      pattern.lastIndex = i;
      const name = pattern.exec(text);
      if (name !== null) {
        out.put(i, "", i + name[0].length);
        i += name[0].length - 1;
      }
    } else if (c === "`" && backticks) {
      const end = text.indexOf("`", i + 1);
      // No closing backtick here means none for any later one either.
      if (end < 0) backticks = false;
      else {
        out.put(i, "", end + 1);
        i = end;
      }
    }
  }
  return out.done();
}

/** For each `{` and `(`, the index of the bracket of the same kind that closes it, or -1; one pass with two stacks. */
function matchingBrackets(text: string): Int32Array {
  const match = new Int32Array(text.length).fill(-1);
  const curly: number[] = [];
  const round: number[] = [];
  for (let j = 0; j < text.length; j++) {
    const c = text[j];
    if (c === "{") curly.push(j);
    else if (c === "(") round.push(j);
    else if (c === "}" || c === ")") {
      const start = (c === "}" ? curly : round).pop();
      if (start !== undefined) match[start] = j;
    }
  }
  return match;
}

/** The word of `NAME:-word`, `NAME-word`, `NAME:=word`, `NAME=word` (or `NAME:+word`), else nothing. */
function defaultWord(inner: string): string {
  const match = /^[A-Za-z_][A-Za-z0-9_]*:?[-=+?]([\s\S]*)$/.exec(inner);
  return match === null ? "" : (match[1] as string);
}

/**
 * Bash brace expansion: each whitespace-separated word holding `{a,b}` or `{a..e}` is replaced by
 * its expansions, space-separated (as bash passes them). Past a limit, each group contributes its
 * n-th alternative in the n-th word instead of every combination.
 */
function expandBraces(text: string): string {
  if (!text.includes("{") || !text.includes("}")) return text;
  // Split on whitespace by hand: a regex for "a word holding braces" backtracks over long words.
  return text
    .split(/(\s+)/)
    .map((word) => (word.includes("{") && word.includes("}") ? expandWord(word) : word))
    .join("");
}

function expandWord(word: string): string {
  const parts = word.split(/(\{[^{}]*\})/);
  const choices = parts.map((part) => (part.startsWith("{") && part.endsWith("}") ? braceAlternatives(part.slice(1, -1)) : [part]));
  // `{o..o}` expands to one word: still an expansion.
  if (choices.every((options) => options.length === 1)) return choices.map((options) => options[0] as string).join("");
  let total = 1;
  for (const options of choices) total = Math.min(total * options.length, MAX_BRACE_WORDS + 1);
  if (total <= MAX_BRACE_WORDS) {
    let words = [""];
    for (const options of choices) words = words.flatMap((prefix) => options.map((option) => prefix + option));
    return words.join(" ");
  }
  const widest = Math.min(MAX_BRACE_WORDS, Math.max(...choices.map((options) => options.length)));
  const words: string[] = [];
  for (let n = 0; n < widest; n++) words.push(choices.map((options) => options[Math.min(n, options.length - 1)] as string).join(""));
  return words.join(" ");
}

/** The alternatives of one brace group: `a,b,c`, or a sequence `a..e` / `1..5`; else the group as written. */
function braceAlternatives(inner: string): string[] {
  if (inner.includes(",")) return inner.split(",");
  const sequence = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(inner);
  if (sequence === null) return [`{${inner}}`];
  const [from, to] = [sequence[1] as string, sequence[2] as string];
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return [`{${inner}}`];
  const start = numeric ? Number(from) : from.charCodeAt(0);
  const end = numeric ? Number(to) : to.charCodeAt(0);
  const step = start <= end ? 1 : -1;
  const out: string[] = [];
  for (let value = start; out.length < MAX_BRACE_WORDS; value += step) {
    out.push(numeric ? String(value) : String.fromCharCode(value));
    if (value === end) break;
  }
  return out;
}

/** `%HH` decoded, again and again (`%252D` -> `-`), as a registry or web server would read a URL. */
function percentDecoded(text: string): string {
  let out = text;
  for (let round = 0; round < PERCENT_ROUNDS && out.includes("%"); round++) {
    const next = percentOnce(out);
    if (next === out) break;
    out = next;
  }
  return out;
}

function percentOnce(text: string): string {
  const out = new Output(text);
  for (let i = text.indexOf("%"); i >= 0; i = text.indexOf("%", i + 1)) {
    const high = hexDigit(text.charCodeAt(i + 1));
    const low = hexDigit(text.charCodeAt(i + 2));
    if (high < 0 || low < 0) continue;
    out.put(i, String.fromCharCode(high * 16 + low), i + 3);
    i += 2;
  }
  return out.done();
}

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
