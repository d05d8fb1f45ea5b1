/** Where each key of a TOML file is written: the first line of every table and dotted-key path, for a report's line numbers. Pure. */

// smol-toml gives values, not positions. This reads the lines again, only as far as needed to know
// which key path each header (`[mcp_servers."my.server"]`) or key (`name.command = "x"`) starts.

/**
 * The first line (1-based) that writes each key path, and every path above it, keyed by
 * `JSON.stringify(path)`. Array tables (`[[x]]`) and multi-line strings are stepped over.
 */
export function tomlKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const record = (path: readonly string[], line: number) => {
    for (let length = 1; length <= path.length; length++) {
      const key = JSON.stringify(path.slice(0, length));
      if (!lines.has(key)) lines.set(key, line);
    }
  };
  let table: string[] = [];
  let openString: '"""' | "'''" | null = null;
  const rows = text.split("\n");
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as string;
    if (openString !== null) {
      if (countOf(row, openString) % 2 === 1) openString = null;
      continue;
    }
    const trimmed = row.trimStart();
    if (trimmed.startsWith("[[")) {
      // An array of tables: its entries have no stable key path; later keys belong to it.
      table = [];
      continue;
    }
    if (trimmed.startsWith("[")) {
      const header = readKey(trimmed, 1);
      if (header !== null && trimmed.slice(header.end).trimStart().startsWith("]")) {
        table = header.path;
        record(table, index + 1);
      } else {
        table = [];
      }
      continue;
    }
    const key = readKey(trimmed, 0);
    if (key === null || !trimmed.slice(key.end).trimStart().startsWith("=")) continue;
    record([...table, ...key.path], index + 1);
    const value = trimmed.slice(key.end);
    for (const quote of ['"""', "'''"] as const) {
      if (countOf(value, quote) % 2 === 1) openString = quote;
    }
  }
  return lines;
}

function countOf(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** A dotted key (`a."b.c".'d'`) starting at `from`, and where it ends; null when there is none. */
function readKey(text: string, from: number): { path: string[]; end: number } | null {
  const path: string[] = [];
  let at = from;
  for (;;) {
    while (text[at] === " " || text[at] === "\t") at++;
    const part = readKeyPart(text, at);
    if (part === null) return null;
    path.push(part.value);
    at = part.end;
    while (text[at] === " " || text[at] === "\t") at++;
    if (text[at] !== ".") return { path, end: at };
    at++;
  }
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ["b", "\b"],
  ["t", "\t"],
  ["n", "\n"],
  ["f", "\f"],
  ["r", "\r"],
  ["e", "\x1B"],
  ['"', '"'],
  ["\\", "\\"],
]);

function readKeyPart(text: string, at: number): { value: string; end: number } | null {
  const quote = text[at];
  if (quote === "'") {
    const end = text.indexOf("'", at + 1);
    return end < 0 ? null : { value: text.slice(at + 1, end), end: end + 1 };
  }
  if (quote === '"') {
    let value = "";
    for (let i = at + 1; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '"') return { value, end: i + 1 };
      if (c !== "\\") {
        value += c;
        continue;
      }
      const next = text[i + 1] ?? "";
      const unicode = next === "u" ? 4 : next === "U" ? 8 : 0;
      if (unicode > 0) {
        const code = Number.parseInt(text.slice(i + 2, i + 2 + unicode), 16);
        if (Number.isNaN(code) || code > 0x10ffff) return null;
        value += String.fromCodePoint(code);
        i += 1 + unicode;
      } else {
        const simple = SIMPLE_ESCAPES.get(next);
        if (simple === undefined) return null;
        value += simple;
        i++;
      }
    }
    return null;
  }
  const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(at, at + 1024));
  return bare === null ? null : { value: bare[0], end: at + bare[0].length };
}
