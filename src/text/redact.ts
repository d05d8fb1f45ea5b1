/** Keep secrets out of everything mcp-lint prints or writes: every form of each secret a server can echo becomes [redacted]. Pure. */

import { Buffer } from "node:buffer";

/** The text that replaces a secret. */
export const REDACTED = "[redacted]";

/** Replaces secret values in text; `found` reports whether any replacement happened. */
export interface Redactor {
  text(value: string): string;
  readonly found: boolean;
  /** A redaction for a stream of lines (a server's stderr), where a secret may be split between chunks and lines; it knows the secrets known when it is made. */
  lines(): LineRedaction;
  /** Redact these too from now on (tokens an OAuth login obtains during the run). */
  learn(secrets: readonly string[]): void;
  /** Whether there is any secret to redact. */
  readonly active: boolean;
}

/**
 * Redacts a stream of text read as lines. The stream is matched as one text in which line breaks
 * do not count, so a secret split over two lines (or two chunks) is found; a line is given out only
 * once no secret can still begin in it. Lines come out without their line break, redacted, and
 * never cut: a caller that shortens a line does so after this, so no part of a secret survives a cut.
 */
export interface LineRedaction {
  /** Read more text; returns the lines now complete and safe to show. */
  push(chunk: string): string[];
  /**
   * Give out everything held, the unfinished last line too (the stream ended or went quiet). Held
   * text that could be the start of a secret (8 or more characters of one) is redacted; the rest
   * of such a secret is still found when it arrives.
   */
  flush(): string[];
}

/** The forms of well-known tokens: GitHub, GitLab, Slack, OpenAI/Anthropic-style keys, AWS access keys, JWTs. */
const TOKEN_FORMS = String.raw`gh[pousr]_\w{20,}|github_pat_\w{20,}|glpat-[\w-]{16,}|xox[abprs]-[\w-]{10,}|sk-[\w-]{16,}|AKIA[0-9A-Z]{16}|eyJ[\w-]+\.[\w-]+\.[\w-]+`;

/** A whole word shaped like a well-known token. */
export const TOKEN_SHAPE = new RegExp(`^(?:${TOKEN_FORMS})$`);

// Not inside a longer word ("task-..." holds no `sk-` key); starting only after a word ends keeps the search linear.
const TOKEN_INSIDE = new RegExp(String.raw`(?<![\w-])(?:${TOKEN_FORMS})(?![\w-])`);

/**
 * Whether text holds a well-known token anywhere (`Bearer ghp_...`, `?key=sk-...`). By its form
 * alone, never by length or randomness: near certain, for places that refuse rather than redact.
 */
export function holdsTokenShape(text: string): boolean {
  return TOKEN_INSIDE.test(text);
}

/**
 * A passed setting shorter than this is not taken for a secret: real tokens, keys and passwords are
 * longer, and redacting "info" or "git" everywhere rewrote descriptions ("Shows [redacted]rmation")
 * and refused locks of servers that merely read a log level.
 */
export const MIN_SETTING_SECRET_LENGTH = 8;

/** Words settings take that no credential is: booleans, log levels, modes, environments, transports. */
const SETTING_WORDS = new Set(
  "true false yes no on off enabled disabled enable disable none null nil trace debug info information notice warn warning warnings error errors fatal critical silent quiet verbose all production development staging testing test local localhost default auto stdio http https json text readonly read-only".split(
    " ",
  ),
);

/**
 * Whether a value passed to a server as a setting (a `--pass-env` value, a config `env` value, a
 * placeholder's expansion) can be a secret. Not a boolean, a log level or another setting word, not a
 * number, not a path or a URL without user info or query, and not a value shorter than
 * MIN_SETTING_SECRET_LENGTH. Header values, URL user info and query values and OAuth tokens are
 * secrets whatever their shape and never pass through here.
 */
export function couldBeSecret(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < MIN_SETTING_SECRET_LENGTH) return false;
  if (SETTING_WORDS.has(trimmed.toLowerCase())) return false;
  if (/^[+-]?\d+(?:\.\d+)?$/.test(trimmed)) return false;
  if (/^(?:~|\.{1,2})?\/[^\s?#@]*$/.test(trimmed) || /^[A-Za-z]:\\[^\s?#@]*$/.test(trimmed)) return false;
  if (/^https?:\/\/[^\s/@?#]+(?:\/[^\s@?#]*)?$/.test(trimmed)) return false;
  return true;
}

/** Shorter forms are not treated as secrets: redacting "1" everywhere would only garble output. */
const MIN_FORM_LENGTH = 3;
/**
 * A whitespace-separated part of a secret this long is a secret on its own: the token after
 * `Bearer ` or `Token `. Shorter parts are scheme words ("Bearer", "Basic") that appear in prose.
 */
const MIN_PART_LENGTH = 8;

/** Encoded forms shorter than this are left out: a short base64 or hex run occurs in ordinary text by chance. */
const MIN_ENCODED_LENGTH = 8;

/**
 * Every string a server could echo back for this secret: the whole value; each whitespace-separated
 * part of 8 or more characters; for `Basic <blob>` (and a URL with user info, such as a proxy URL)
 * the decoded `user:password` and each half; then each of those encoded (base64 and base64url,
 * padded and not, and as the run of characters its bytes give inside a longer base64 text at any
 * of the three byte alignments; hex in both cases), and every form so far JSON-escaped (also with
 * non-ASCII as \uXXXX) and percent-encoded (as by encodeURIComponent and by form encoding, with
 * upper- and lower-case hex). Forms under 3 characters, and encoded forms under 8, are left out.
 */
export function secretForms(secret: string): string[] {
  const plain = new Set<string>();
  const add = (form: string) => {
    if (form.length >= MIN_FORM_LENGTH) plain.add(form);
  };
  const credentials = (user: string, password: string) => {
    add(`${user}:${password}`);
    add(user);
    add(password);
  };
  add(secret);
  for (const part of secret.split(/\s+/)) if (part.length >= MIN_PART_LENGTH) add(part);
  const basic = /^\s*basic\s+([A-Za-z0-9+/_-]+={0,2})\s*$/i.exec(secret);
  if (basic?.[1] !== undefined) {
    const decoded = decodeBase64(basic[1]);
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded !== null && colon >= 0) credentials(decoded.slice(0, colon), decoded.slice(colon + 1));
  }
  const userInfo = urlUserInfo(secret);
  if (userInfo !== null) {
    add(userInfo.rawUser);
    add(userInfo.rawPassword);
    credentials(userInfo.user, userInfo.password);
  }
  for (const form of [...plain]) for (const encoded of encodedForms(form)) if (encoded.length >= MIN_ENCODED_LENGTH) plain.add(encoded);
  const forms = new Set<string>();
  for (const form of plain) {
    forms.add(form);
    const json = JSON.stringify(form).slice(1, -1);
    forms.add(json);
    const ascii = json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
    forms.add(ascii);
    forms.add(ascii.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`));
    for (const encoded of [safeEncode(form), formEncode(form)]) {
      if (encoded === null) continue;
      forms.add(encoded);
      forms.add(encoded.replace(/%[0-9A-F]{2}/g, (pair) => pair.toLowerCase()));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_FORM_LENGTH);
}

/**
 * A value as a server could encode it before echoing it: base64 and base64url, padded and not; the
 * characters its bytes alone decide inside a longer base64 text, at each of the three byte
 * offsets it can start at; and hex, lower and upper case.
 */
function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const out: string[] = [];
  for (const alphabet of ["base64", "base64url"] as const) {
    const whole = bytes.toString(alphabet);
    out.push(whole, whole.replace(/=+$/, ""), `${whole.replace(/=+$/, "")}${"=".repeat((4 - (whole.replace(/=+$/, "").length % 4)) % 4)}`);
    for (let offset = 1; offset <= 2; offset++) {
      const shifted = Buffer.concat([Buffer.alloc(offset), bytes])
        .toString(alphabet)
        .replace(/=+$/, "");
      // Character i carries bits 6i..6i+5; those wholly inside the value's bits are the same in any text around it.
      const first = Math.ceil((8 * offset) / 6);
      const last = Math.floor((8 * (offset + bytes.length)) / 6);
      if (last > first) out.push(shifted.slice(first, last));
    }
    const aligned = whole.replace(/=+$/, "");
    out.push(aligned.slice(0, Math.floor((8 * bytes.length) / 6)));
  }
  const hex = bytes.toString("hex");
  out.push(hex, hex.toUpperCase());
  return out;
}

/**
 * A redactor for these secrets, in every form `secretForms` lists. All forms of all secrets are
 * found in one pass over the text (an Aho-Corasick automaton), so the cost is linear in the text
 * whatever the number of secrets; overlapping matches are merged and replaced as one.
 */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  const known = new Set<string>();
  const add = (list: readonly string[]): boolean => {
    let added = false;
    for (const secret of list) {
      if (known.has(secret)) continue;
      known.add(secret);
      for (const form of secretForms(secret)) forms.add(form);
      added = true;
    }
    return added;
  };
  add(secrets);
  let matcher = forms.size === 0 ? null : new Matcher([...forms]);
  let found = false;
  return {
    learn(more: readonly string[]) {
      if (add(more)) matcher = new Matcher([...forms]);
    },
    get active() {
      return matcher !== null;
    },
    text(value: string): string {
      if (matcher === null || value.length < MIN_FORM_LENGTH) return value;
      const out = matcher.replace(value, REDACTED);
      if (out !== value) found = true;
      return out;
    },
    get found() {
      return found;
    },
    lines: () =>
      matcher === null
        ? new PlainLines()
        : new LineStream(matcher, () => {
            found = true;
          }),
  };
}

/** Held text past this with no line break is given out as a line of its own, so memory stays bounded. */
const MAX_HELD = 256 * 1024;

/** Lines as they are, when there is no secret to look for. */
class PlainLines implements LineRedaction {
  private held = "";

  push(chunk: string): string[] {
    const lines = (this.held + chunk).split("\n");
    this.held = lines.pop() as string;
    if (this.held.length > MAX_HELD) {
      lines.push(this.held);
      this.held = "";
    }
    return lines;
  }

  flush(): string[] {
    const rest = this.held;
    this.held = "";
    return rest === "" ? [] : [rest];
  }
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** See LineRedaction. One automaton walk over the whole stream, linear in its length. */
class LineStream implements LineRedaction {
  private node = 0;
  /** Text read and not yet given out; it always starts at the start of a line (or after a flush). */
  private text = "";
  /** Where in `text` each of the last characters that count (not line breaks) sits; may be negative (given out already). */
  private places: number[] = [];
  /** Spans of `text` to redact, sorted and disjoint; a span may start before `text` (negative). */
  private spans: Array<[number, number]> = [];

  constructor(
    private readonly matcher: Matcher,
    private readonly onFound: () => void,
  ) {}

  push(chunk: string): string[] {
    const from = this.text.length;
    this.text += chunk;
    for (let i = from; i < this.text.length; i++) {
      const unit = this.text.charCodeAt(i);
      if (unit === LINE_FEED || unit === CARRIAGE_RETURN) continue;
      this.places.push(i);
      this.node = this.matcher.step(this.node, unit);
      const length = this.matcher.matchLength(this.node);
      if (length > 0) this.mark(this.places[this.places.length - length] as number, i + 1);
    }
    // Only the last (longest form) characters can still begin a match.
    const keep = this.matcher.longest;
    if (this.places.length > 2 * keep) this.places = this.places.slice(-keep);
    const pending = this.matcher.depth(this.node);
    const safe = pending === 0 ? this.text.length : (this.places[this.places.length - pending] as number);
    let end = this.text.lastIndexOf("\n", safe - 1) + 1;
    // A line that never ends is given out in pieces rather than held without bound.
    if (end === 0 && safe > MAX_HELD) end = safe;
    return end === 0 ? [] : this.giveOut(end);
  }

  flush(): string[] {
    const pending = this.matcher.depth(this.node);
    if (pending >= MIN_PART_LENGTH) this.mark(this.places[this.places.length - pending] as number, this.text.length);
    return this.text === "" ? [] : this.giveOut(this.text.length);
  }

  /** Record a span to redact, merged with those it overlaps. */
  private mark(begin: number, end: number): void {
    this.onFound();
    let start = begin;
    while (this.spans.length > 0 && (this.spans[this.spans.length - 1] as [number, number])[1] >= start) {
      start = Math.min(start, (this.spans.pop() as [number, number])[0]);
    }
    this.spans.push([start, end]);
  }

  /** The text up to `end`, redacted and split into lines; what is left starts at `end`. */
  private giveOut(end: number): string[] {
    let out = "";
    let at = 0;
    for (const [begin, stop] of this.spans) {
      if (begin >= end) break;
      const from = Math.max(0, begin);
      if (from > at) out += this.text.slice(at, from);
      // The redacted span keeps its line breaks, so the lines stay where they were.
      const covered = this.text.slice(Math.max(at, from), Math.min(stop, end));
      if (stop > at)
        out += covered.includes("\n")
          ? covered
              .split("\n")
              .map((part) => (part === "" ? "" : REDACTED))
              .join("\n")
          : REDACTED;
      at = Math.max(at, Math.min(stop, end));
    }
    if (at < end) out += this.text.slice(at, end);
    // Spans that reach past `end` go on in what is left; shift everything to the new start.
    this.spans = this.spans.filter(([, stop]) => stop > end).map(([begin, stop]) => [begin - end, stop - end]);
    this.places = this.places.map((place) => place - end);
    this.text = this.text.slice(end);
    const lines = out.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines.map((line) => line.replace(/\r$/, ""));
  }
}

/** Decode standard or URL-safe base64, padded or not; null when it is not valid base64 of UTF-8. */
function decodeBase64(blob: string): string | null {
  const normal = blob.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (normal.length % 4 === 1) return null;
  const bytes = Buffer.from(normal, "base64");
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : null;
}

function urlUserInfo(text: string): { rawUser: string; rawPassword: string; user: string; password: string } | null {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^\s/]*@/i.test(text)) return null;
  try {
    const url = new URL(text);
    if (url.username === "" && url.password === "") return null;
    return { rawUser: url.username, rawPassword: url.password, user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    return null;
  }
}

function safeEncode(text: string): string | null {
  try {
    return encodeURIComponent(text);
  } catch {
    return null; // a lone surrogate cannot be percent-encoded
  }
}

function formEncode(text: string): string | null {
  if (/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) return null;
  return new URLSearchParams({ v: text }).toString().slice(2);
}

/** The dense ASCII transition table is built only up to this many entries (states x 128), 16 MB. */
const MAX_TABLE_ENTRIES = 4 * 1024 * 1024;

/**
 * Aho-Corasick over UTF-16 code units. `replace` walks the text once; at each position the longest
 * form ending there (the automaton's output) gives one interval, and intervals are merged on a stack
 * as they arrive, so every character covered by any form is replaced. ASCII steps go through a
 * dense table (one array read per character); other code units follow failure links.
 */
class Matcher {
  private readonly edges: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Length of the longest form that is a suffix of the node's string (0: none). */
  private readonly output: Int32Array;
  /** Length of the node's string: how many of the last characters read may still begin a match. */
  private readonly depths: Int32Array;
  /** Length of the longest form. */
  readonly longest: number;
  /** state * 128 + ASCII code unit -> next state, with failure links folded in; null when too big. */
  private readonly table: Int32Array | null;

  constructor(forms: readonly string[]) {
    const output: number[] = [0];
    const depths: number[] = [0];
    let longest = 0;
    for (const form of forms) {
      let node = 0;
      longest = Math.max(longest, form.length);
      for (let i = 0; i < form.length; i++) {
        const unit = form.charCodeAt(i);
        const edges = this.edges[node] as Map<number, number>;
        let next = edges.get(unit);
        if (next === undefined) {
          next = this.edges.length;
          this.edges.push(new Map());
          this.fail.push(0);
          output.push(0);
          depths.push(i + 1);
          edges.set(unit, next);
        }
        node = next;
      }
      output[node] = Math.max(output[node] ?? 0, form.length);
    }
    this.depths = Int32Array.from(depths);
    this.longest = longest;
    // Breadth first, so a node's failure target (shallower) is complete before the node is used.
    const order: number[] = [0];
    for (let head = 0; head < order.length; head++) {
      const node = order[head] as number;
      for (const [unit, child] of this.edges[node] as Map<number, number>) {
        if (node !== 0) {
          let target = this.fail[node] as number;
          let next = (this.edges[target] as Map<number, number>).get(unit);
          while (next === undefined && target !== 0) {
            target = this.fail[target] as number;
            next = (this.edges[target] as Map<number, number>).get(unit);
          }
          this.fail[child] = next ?? 0;
          output[child] = Math.max(output[child] as number, output[next ?? 0] as number);
        }
        order.push(child);
      }
    }
    this.output = Int32Array.from(output);
    const states = this.edges.length;
    if (states * 128 > MAX_TABLE_ENTRIES) {
      this.table = null;
      return;
    }
    const table = new Int32Array(states * 128);
    for (const node of order) {
      const edges = this.edges[node] as Map<number, number>;
      const fallback = (this.fail[node] as number) * 128;
      for (let unit = 0; unit < 128; unit++) {
        const next = edges.get(unit);
        table[node * 128 + unit] = next ?? (node === 0 ? 0 : (table[fallback + unit] as number));
      }
    }
    this.table = table;
  }

  /** Length of the longest form ending at this state (0: none). */
  matchLength(node: number): number {
    return this.output[node] as number;
  }

  /** How many of the last characters read are a start of some form. */
  depth(node: number): number {
    return this.depths[node] as number;
  }

  /** The state after reading one more UTF-16 code unit. */
  step(node: number, unit: number): number {
    if (unit < 128 && this.table !== null) return this.table[node * 128 + unit] as number;
    let current = node;
    let next = (this.edges[current] as Map<number, number>).get(unit);
    while (next === undefined && current !== 0) {
      current = this.fail[current] as number;
      next = (this.edges[current] as Map<number, number>).get(unit);
    }
    return next ?? 0;
  }

  replace(text: string, replacement: string): string {
    const begins: number[] = [];
    const ends: number[] = [];
    const { output, table } = this;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      node = unit < 128 && table !== null ? (table[node * 128 + unit] as number) : this.step(node, unit);
      const length = output[node] as number;
      if (length === 0) continue;
      let begin = i + 1 - length;
      while (ends.length > 0 && begin < (ends[ends.length - 1] as number)) {
        begin = Math.min(begin, begins.pop() as number);
        ends.pop();
      }
      begins.push(begin);
      ends.push(i + 1);
    }
    if (begins.length === 0) return text;
    const parts: string[] = [];
    let at = 0;
    for (let k = 0; k < begins.length; k++) {
      parts.push(text.slice(at, begins[k]), replacement);
      at = ends[k] as number;
    }
    parts.push(text.slice(at));
    return parts.join("");
  }
}

/**
 * Redact every string (keys too) inside a JSON value; returns a new value and leaves the input
 * alone. `redacted` is told the JSON Pointer (of the redacted copy) of each string that changed.
 */
export function redactJson(value: unknown, redactor: Redactor, redacted?: (pointer: string) => void, at = ""): unknown {
  if (typeof value === "string") {
    const out = redactor.text(value);
    if (out !== value) redacted?.(at);
    return out;
  }
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item, index) => redactJson(item, redactor, redacted, `${at}/${index}`));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const name = redactor.text(key);
    const pointer = `${at}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (name !== key) redacted?.(pointer);
    copy[name] = redactJson((value as Record<string, unknown>)[key], redactor, redacted, pointer);
  }
  return Object.setPrototypeOf(copy, Object.prototype);
}
