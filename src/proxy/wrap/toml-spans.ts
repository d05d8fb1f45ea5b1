/** Where each value of a TOML file is written: the character span of every key's value (and of each array item), for edits that keep every other byte. Pure. */

/** A range of characters: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** One key's value as written. */
export interface TomlValueSpan {
  /** The value itself. */
  span: Span;
  /** The key as written (dotted keys whole), and where its line starts. */
  key: Span;
  lineStart: number;
  /** Written inside an inline table (`{ ... }`), where a new key joins with a comma, not a newline. */
  inline: boolean;
  /** Each item, for an array value. */
  items?: Span[];
  /** Where the array's `[` and `]` are, for an array value. */
  open?: number;
  close?: number;
}

/** A TOML file too unusual to edit safely; the caller leaves it alone. */
export class TomlScanError extends Error {
  override name = "TomlScanError";
}

/**
 * Every key path of a TOML document (keyed by `JSON.stringify(path)`) with the span of its value.
 * Table headers, dotted keys, inline tables, arrays of tables (indexed), every string form and
 * comments are understood; values are not interpreted. smol-toml parses values but keeps no
 * positions, and an edit must touch nothing but the value it changes.
 */
export function tomlValueSpans(text: string): Map<string, TomlValueSpan> {
  return new TomlScanner(text).scan();
}

class TomlScanner {
  private at = 0;
  private readonly spans = new Map<string, TomlValueSpan>();
  private readonly arrayTables = new Map<string, number>();

  constructor(private readonly text: string) {}

  scan(): Map<string, TomlValueSpan> {
    let table: string[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.at >= this.text.length) return this.spans;
      if (this.text[this.at] === "[") {
        const array = this.text[this.at + 1] === "[";
        this.at += array ? 2 : 1;
        const path = this.readKey().path;
        this.skipSpaces();
        if (!this.text.startsWith(array ? "]]" : "]", this.at)) throw this.fail("a table header");
        this.at += array ? 2 : 1;
        if (array) {
          const key = JSON.stringify(path);
          const index = this.arrayTables.get(key) ?? 0;
          this.arrayTables.set(key, index + 1);
          table = [...path, String(index)];
        } else {
          table = path;
        }
        this.endOfLine();
        continue;
      }
      const lineStart = this.text.lastIndexOf("\n", this.at - 1) + 1;
      this.readKeyValue(table, lineStart, false);
      this.endOfLine();
    }
  }

  private readKeyValue(prefix: string[], lineStart: number, inline: boolean): void {
    const keyStart = this.at;
    const { path, end } = this.readKey();
    const key = { start: keyStart, end };
    this.skipSpaces();
    if (this.text[this.at] !== "=") throw this.fail("a key = value line");
    this.at++;
    this.skipSpaces();
    this.readValue([...prefix, ...path], key, lineStart, inline);
  }

  private readValue(path: string[], key: Span, lineStart: number, inline: boolean): void {
    const start = this.at;
    const char = this.text[this.at];
    const record: TomlValueSpan = { span: { start, end: start }, key, lineStart, inline };
    if (char === '"' || char === "'") {
      this.readString();
    } else if (char === "[") {
      record.open = this.at;
      record.items = [];
      this.at++;
      for (let index = 0; ; index++) {
        this.skipBlank(true);
        if (this.text[this.at] === "]") break;
        const itemStart = this.at;
        this.readValue([...path, String(index)], key, lineStart, inline);
        record.items.push({ start: itemStart, end: this.at });
        this.skipBlank(true);
        if (this.text[this.at] === ",") {
          this.at++;
          continue;
        }
        if (this.text[this.at] !== "]") throw this.fail("an array");
        break;
      }
      record.close = this.at;
      this.at++;
    } else if (char === "{") {
      this.at++;
      this.skipSpaces();
      if (this.text[this.at] !== "}") {
        for (;;) {
          this.readKeyValue(path, lineStart, true);
          this.skipSpaces();
          if (this.text[this.at] === ",") {
            this.at++;
            this.skipSpaces();
            continue;
          }
          if (this.text[this.at] !== "}") throw this.fail("an inline table");
          break;
        }
      }
      this.at++;
    } else {
      // A number, boolean or date: up to the next separator.
      while (this.at < this.text.length && !/[,\]}\n#\r]/.test(this.text[this.at] as string)) this.at++;
      while (this.at > start && /[ \t]/.test(this.text[this.at - 1] as string)) this.at--;
      if (this.at === start) throw this.fail("a value");
    }
    record.span.end = this.at;
    this.spans.set(JSON.stringify(path), record);
  }

  private readString(): void {
    const text = this.text;
    const quote = text[this.at] as '"' | "'";
    const triple = text.startsWith(quote.repeat(3), this.at);
    this.at += triple ? 3 : 1;
    for (;;) {
      if (this.at >= text.length) throw this.fail("a string");
      const char = text[this.at];
      if (char === "\\" && quote === '"') {
        this.at += 2;
        continue;
      }
      if (!triple && char === "\n") throw this.fail("a string");
      if (triple ? text.startsWith(quote.repeat(3), this.at) : char === quote) {
        this.at += triple ? 3 : 1;
        // Up to two quotes right before the closing three belong to the string.
        if (triple) while (text[this.at] === quote && text.startsWith(quote.repeat(3), this.at - 2)) this.at++;
        return;
      }
      this.at++;
    }
  }

  /** A dotted key: bare, "basic" and 'literal' parts. */
  private readKey(): { path: string[]; end: number } {
    const path: string[] = [];
    for (;;) {
      this.skipSpaces();
      const char = this.text[this.at];
      if (char === '"' || char === "'") {
        const start = this.at;
        this.readString();
        path.push(decodeKey(this.text.slice(start, this.at)));
      } else {
        const match = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.at, this.at + 1024));
        if (match === null) throw this.fail("a key");
        path.push(match[0]);
        this.at += match[0].length;
      }
      const end = this.at;
      this.skipSpaces();
      if (this.text[this.at] !== ".") return { path, end };
      this.at++;
    }
  }

  private skipSpaces(): void {
    while (this.text[this.at] === " " || this.text[this.at] === "\t") this.at++;
  }

  /** Spaces, comments and (with `lines`) line ends. */
  private skipBlank(lines: boolean): void {
    for (;;) {
      this.skipSpaces();
      const char = this.text[this.at];
      if (char === "#") {
        while (this.at < this.text.length && this.text[this.at] !== "\n") this.at++;
      } else if (lines && (char === "\n" || char === "\r")) {
        this.at++;
      } else {
        return;
      }
    }
  }

  private endOfLine(): void {
    this.skipBlank(false);
    if (this.at < this.text.length && this.text[this.at] !== "\n" && this.text[this.at] !== "\r") throw this.fail("the end of a line");
  }

  private fail(what: string): TomlScanError {
    const line = this.text.slice(0, this.at).split("\n").length;
    return new TomlScanError(`expected ${what} at line ${line}`);
  }
}

const ESCAPES: Readonly<Record<string, string>> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" };

function decodeKey(raw: string): string {
  if (raw.startsWith("'")) return raw.slice(1, -1);
  return raw.slice(1, -1).replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_, sequence: string) => {
    if (/^[uUx]/.test(sequence)) return String.fromCodePoint(Number.parseInt(sequence.slice(1), 16));
    return ESCAPES[sequence] ?? sequence;
  });
}
