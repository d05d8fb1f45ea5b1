/** Keep secrets out of everything mcp-lint prints or writes: every form of each secret a server can echo becomes [redacted]. Pure. */

import { Buffer } from "node:buffer";

/** The text that replaces a secret. */
export const REDACTED = "[redacted]";

/** Replaces secret values in text; `found` reports whether any replacement happened. */
export interface Redactor {
  text(value: string): string;
  readonly found: boolean;
}

/** Shorter forms are not treated as secrets: redacting "1" everywhere would only garble output. */
const MIN_FORM_LENGTH = 3;
/**
 * A whitespace-separated part of a secret this long is a secret on its own: the token after
 * `Bearer ` or `Token `. Shorter parts are scheme words ("Bearer", "Basic") that appear in prose.
 */
const MIN_PART_LENGTH = 8;

/**
 * Every string a server could echo back for this secret: the whole value; each whitespace-separated
 * part of 8 or more characters; for `Basic <blob>` (and a URL with user info, such as a proxy URL)
 * the blob in base64 and base64url, padded and not, the decoded `user:password` and each half; and
 * each of those JSON-escaped (also with non-ASCII as \uXXXX) and percent-encoded (as by
 * encodeURIComponent and by form encoding, with upper- and lower-case hex). Forms under 3
 * characters are left out.
 */
export function secretForms(secret: string): string[] {
  const plain = new Set<string>();
  const add = (form: string) => {
    if (form.length >= MIN_FORM_LENGTH) plain.add(form);
  };
  const credentials = (user: string, password: string) => {
    const pair = `${user}:${password}`;
    add(pair);
    add(user);
    add(password);
    const base64 = Buffer.from(pair, "utf8").toString("base64");
    const base64url = Buffer.from(pair, "utf8").toString("base64url");
    for (const blob of [base64, base64.replace(/=+$/, ""), base64url, `${base64url}${"=".repeat((4 - (base64url.length % 4)) % 4)}`]) add(blob);
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
 * A redactor for these secrets, in every form `secretForms` lists. All forms of all secrets are
 * found in one pass over the text (an Aho-Corasick automaton), so the cost is linear in the text
 * whatever the number of secrets; overlapping matches are merged and replaced as one.
 */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) for (const form of secretForms(secret)) forms.add(form);
  const matcher = forms.size === 0 ? null : new Matcher([...forms]);
  let found = false;
  return {
    text(value: string): string {
      if (matcher === null || value.length < MIN_FORM_LENGTH) return value;
      const out = matcher.replace(value, REDACTED);
      if (out !== value) found = true;
      return out;
    },
    get found() {
      return found;
    },
  };
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
  /** state * 128 + ASCII code unit -> next state, with failure links folded in; null when too big. */
  private readonly table: Int32Array | null;

  constructor(forms: readonly string[]) {
    const output: number[] = [0];
    for (const form of forms) {
      let node = 0;
      for (let i = 0; i < form.length; i++) {
        const unit = form.charCodeAt(i);
        const edges = this.edges[node] as Map<number, number>;
        let next = edges.get(unit);
        if (next === undefined) {
          next = this.edges.length;
          this.edges.push(new Map());
          this.fail.push(0);
          output.push(0);
          edges.set(unit, next);
        }
        node = next;
      }
      output[node] = Math.max(output[node] ?? 0, form.length);
    }
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

  private step(node: number, unit: number): number {
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

/** Redact every string (keys too) inside a JSON value; returns a new value and leaves the input alone. */
export function redactJson(value: unknown, redactor: Redactor): unknown {
  if (typeof value === "string") return redactor.text(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    copy[redactor.text(key)] = redactJson((value as Record<string, unknown>)[key], redactor);
  }
  return Object.setPrototypeOf(copy, Object.prototype);
}
