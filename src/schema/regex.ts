/** Decides whether a patternProperties pattern matches a property name, on a linear-time engine (RE2) only. */

import { RE2JS } from "re2js";
import { pushAll } from "../arrays.js";

// Both pattern and name come from the server under test, so a pattern like `^(a|a)?(a|a)?...$` against a
// crafted name would hang a backtracking engine. Patterns are never run on one: an ECMA-262 pattern is
// translated, token by token, into an RE2 pattern that matches exactly the same names, and RE2 (re2js, a
// port of Go's regexp) runs it in time linear in the name. What RE2 cannot express (backreferences,
// lookarounds) and what validators read differently (with or without the `u` flag: `\p{..}`, `\u{..}`,
// astral characters, a lone `{` or `]`) is not translated: the answer is "unknown", and callers then assume
// the unsafe answer.
const MAX_PATTERN = 1024;
const MAX_NAME = 1024;
// Counted repetition unrolls in RE2's program (`.{1000}.{1000}` is 2,000 states); a server listing many such
// patterns could make compiling them slow, so patterns past this size are left unknown.
const MAX_PROGRAM = 4096;
const MAX_CACHE = 1024;

type Compiled = RE2JS | null;
const cache = new Map<string, Compiled>();

/** Whether `pattern` (ECMA-262, as JSON Schema validators run it) matches `name`; undefined when not known. */
export function patternMatches(pattern: string, name: string): boolean | undefined {
  if (name.length > MAX_NAME || /[\uD800-\uDFFF]/.test(name)) return undefined;
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compileLinear(pattern);
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(pattern, compiled);
  }
  if (compiled === null) return undefined;
  try {
    return compiled.test(name);
  } catch {
    return undefined;
  }
}

/** The RE2 program for an ECMA-262 pattern, or null when it is outside the translatable subset. */
function compileLinear(pattern: string): Compiled {
  if (pattern.length > MAX_PATTERN) return null;
  const translated = translatePattern(pattern);
  if (translated === undefined || !validEitherWay(pattern)) return null;
  try {
    return RE2JS.compile(translated);
  } catch {
    return null; // RE2's own limits (a repeat count over 1000, a program too large)
  }
}

/**
 * True when JavaScript accepts the pattern both with the `u` flag (ajv) and without (most other validators).
 * This only parses it: V8 compiles and runs a RegExp lazily, on the first match, which never happens here.
 */
function validEitherWay(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// ECMA-262 to RE2. Every character class is rebuilt as explicit code point ranges, so the two engines'
// differences (`.`, `\s`, POSIX classes inside brackets, `\x{..}` spelling) cannot leak through.

/** A set of code points as sorted, disjoint, inclusive ranges. */
type Ranges = Array<readonly [number, number]>;

const MAX_CODE_POINT = 0x10ffff;
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// ECMA-262 WhiteSpace and LineTerminator (what `\s` matches), which RE2's `\s` does not fully cover.
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
// `.` matches anything but a LineTerminator.
const LINE_TERMINATORS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function normalizeRanges(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: Array<readonly [number, number]> = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;

/** An RE2 character class for a set of code points (an empty set matches nothing). */
function classOf(ranges: Ranges): string {
  const set = normalizeRanges(ranges);
  if (set.length === 0) return `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
  return `[${set.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join("")}]`;
}

const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;
const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/";
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const CLASS_ESCAPES: Readonly<Record<string, Ranges>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

class Unsupported extends Error {}

/** Translates an ECMA-262 pattern into an RE2 pattern with the same matches, or undefined outside the subset. */
export function translatePattern(pattern: string): string | undefined {
  try {
    const parser = new Parser(pattern);
    const out = parser.disjunction();
    if (!parser.done()) return undefined;
    return out;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Parser {
  private at = 0;
  private depth = 0;
  /** Rough size of the RE2 program: a literal counts 1, a class 8, a counted repetition multiplies what it repeats. */
  private size = 0;

  constructor(private readonly source: string) {}

  done(): boolean {
    return this.at >= this.source.length;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.at + offset];
  }

  private take(): string {
    const c = this.source[this.at];
    if (c === undefined) throw new Unsupported();
    this.at++;
    return c;
  }

  private codePoint(c: string): number {
    const cp = c.codePointAt(0) ?? 0;
    // Astral characters are one character with the `u` flag and two without: read differently.
    if (isSurrogate(cp)) throw new Unsupported();
    return cp;
  }

  disjunction(): string {
    if (++this.depth > 64) throw new Unsupported();
    const alternatives = [this.alternative()];
    while (this.peek() === "|") {
      this.at++;
      alternatives.push(this.alternative());
    }
    this.depth--;
    return alternatives.join("|");
  }

  /** Counts `units` more program states, giving up past the limit. */
  private grow(units: number): void {
    this.size += units;
    if (this.size > MAX_PROGRAM) throw new Unsupported();
  }

  private alternative(): string {
    let out = "";
    for (let c = this.peek(); c !== undefined && c !== "|" && c !== ")"; c = this.peek()) out += this.term();
    return out;
  }

  private term(): string {
    const c = this.peek();
    if (c === "^" || c === "$") {
      this.at++;
      return this.noQuantifier(c);
    }
    if (c === "\\" && (this.peek(1) === "b" || this.peek(1) === "B")) {
      this.at += 2;
      return this.noQuantifier(`\\${this.source[this.at - 1]}`);
    }
    const before = this.size;
    const atom = this.atom();
    const quantifier = this.quantifier();
    // The atom's states appear once per counted repetition.
    const repeat = /\{(\d+)(?:,(\d*))?\}/.exec(quantifier);
    if (repeat !== null) {
      const times = Math.max(Number(repeat[1]), repeat[2] === undefined || repeat[2] === "" ? 1 : Number(repeat[2]));
      this.grow((this.size - before) * Math.max(times - 1, 0));
    }
    return atom + quantifier;
  }

  private noQuantifier(assertion: string): string {
    const c = this.peek();
    if (c === "*" || c === "+" || c === "?" || c === "{") throw new Unsupported();
    return assertion;
  }

  private atom(): string {
    const c = this.take();
    // A class of wide ranges compiles to many UTF-8 states; a literal to one.
    this.grow(c === "." || c === "[" || (c === "\\" && /[dDwWsS]/.test(this.peek() ?? "")) ? 8 : 1);
    switch (c) {
      case ".":
        return classOf(complement(LINE_TERMINATORS));
      case "\\":
        return this.atomEscape();
      case "[":
        return this.characterClass();
      case "(":
        return this.group();
      case "*":
      case "+":
      case "?":
      case "{":
      case "}":
      case "]":
      case ")":
        throw new Unsupported();
      default:
        return hex(this.codePoint(c));
    }
  }

  private group(): string {
    if (this.peek() === "?") {
      this.at++;
      const kind = this.take();
      if (kind === "<") {
        // A named group captures like any group; the name does not change what matches.
        if (this.peek() === "=" || this.peek() === "!") throw new Unsupported(); // lookbehind
        while (this.peek() !== ">") if (!/[A-Za-z0-9_$]/.test(this.take())) throw new Unsupported();
        this.at++;
      } else if (kind !== ":") {
        throw new Unsupported(); // lookahead or an inline modifier
      }
    }
    const inner = this.disjunction();
    if (this.take() !== ")") throw new Unsupported();
    return `(?:${inner})`;
  }

  private quantifier(): string {
    const c = this.peek();
    let out: string;
    if (c === "*" || c === "+" || c === "?") {
      this.at++;
      out = c;
    } else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      // A `{` that is not a quantifier is a literal without `u` and an error with it.
      if (match === null) throw new Unsupported();
      const min = Number(match[1]);
      const max = match[3] === undefined ? min : match[3] === "" ? undefined : Number(match[3]);
      if (max !== undefined && max < min) throw new Unsupported();
      this.at += match[0].length;
      out = max === min ? `{${min}}` : `{${min},${max ?? ""}}`;
    } else {
      return "";
    }
    if (this.peek() === "?") this.at++; // lazy: the same names match
    const next = this.peek();
    if (next === "*" || next === "+" || next === "?" || next === "{") throw new Unsupported();
    return out;
  }

  private atomEscape(): string {
    const c = this.take();
    const ranges = CLASS_ESCAPES[c];
    if (ranges !== undefined) return classOf(ranges);
    return hex(this.characterEscape(c, false));
  }

  /** A single-character escape after `\`; class escapes and `\b` are handled by the callers. */
  private characterEscape(c: string, inClass: boolean): number {
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (c === "0") {
      if (/[0-9]/.test(this.peek() ?? "")) throw new Unsupported(); // octal without `u`
      return 0;
    }
    if (c === "x") {
      const digits = this.source.slice(this.at, this.at + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(digits)) throw new Unsupported();
      this.at += 2;
      return Number.parseInt(digits, 16);
    }
    if (c === "u") {
      const digits = this.source.slice(this.at, this.at + 4);
      if (!/^[0-9A-Fa-f]{4}$/.test(digits)) throw new Unsupported(); // `\u{..}` differs with and without `u`
      const cp = Number.parseInt(digits, 16);
      if (isSurrogate(cp)) throw new Unsupported();
      this.at += 4;
      return cp;
    }
    if (SYNTAX_CHARACTERS.includes(c) || (inClass && c === "-")) return c.charCodeAt(0);
    // Backreferences, `\k<..>`, `\p{..}`, `\c`, and identity escapes that `u` forbids.
    throw new Unsupported();
  }

  private characterClass(): string {
    const negated = this.peek() === "^";
    if (negated) this.at++;
    const ranges: Array<readonly [number, number]> = [];
    let items = 0;
    while (this.peek() !== "]") {
      const first = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
        this.at++;
        const last = this.classAtom();
        // A class escape at either end of a range is an error with `u` and literal without it.
        if (!("cp" in first) || !("cp" in last) || last.cp < first.cp) throw new Unsupported();
        ranges.push([first.cp, last.cp]);
      } else if ("cp" in first) {
        ranges.push([first.cp, first.cp]);
      } else {
        pushAll(ranges, first.set);
      }
      items++;
    }
    this.at++;
    // `[]` and `[^]` mean nothing and everything in ECMA-262; rare enough to leave unknown.
    if (items === 0) throw new Unsupported();
    return classOf(negated ? complement(ranges) : ranges);
  }

  private classAtom(): { cp: number } | { set: Ranges } {
    const c = this.take();
    if (c !== "\\") return { cp: this.codePoint(c) };
    const e = this.take();
    if (e === "b") return { cp: 0x08 };
    const ranges = CLASS_ESCAPES[e];
    if (ranges !== undefined) return { set: ranges };
    return { cp: this.characterEscape(e, true) };
  }
}
