/** Make text safe to show a reviewer: invisible and non-ASCII characters become `\u{...}`, edits are located. */

/** Show printable ASCII as is and every other code point as `\u{HEX}`, so hidden text cannot hide. */
export function visible(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    out += code >= 0x20 && code <= 0x7e ? char : `\\u{${code.toString(16).toUpperCase()}}`;
  }
  return out;
}

/** Shorten already-visible text to at most `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}...(+${text.length - max} chars)`;
}

/** Where two texts differ: the shared start and end, and the changed middle of each side. */
export interface TextEdit {
  prefix: string;
  removed: string;
  inserted: string;
  suffix: string;
}

/**
 * Locate the edit between two texts as one span: everything between the longest common prefix and
 * suffix. Works on code points so a surrogate pair is never split.
 */
export function locateEdit(before: string, after: string): TextEdit {
  const a = Array.from(before);
  const b = Array.from(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return {
    prefix: a.slice(0, start).join(""),
    removed: a.slice(start, endA).join(""),
    inserted: b.slice(start, endB).join(""),
    suffix: a.slice(endA).join(""),
  };
}

const CONTEXT = 40;
const SPAN = 200;

/**
 * Two lines for a reviewer: the old and new text around the edit, with the removed part marked
 * `[-...-]` and the inserted part `{+...+}`, all made visible.
 */
export function editLines(before: string, after: string): { before: string; after: string } {
  const edit = locateEdit(before, after);
  const head = Array.from(edit.prefix);
  const tail = Array.from(edit.suffix);
  const left = (head.length > CONTEXT ? "..." : "") + visible(head.slice(-CONTEXT).join(""));
  const right = visible(tail.slice(0, CONTEXT).join("")) + (tail.length > CONTEXT ? "..." : "");
  const mark = (text: string, open: string, close: string) => (text === "" ? "" : `${open}${clip(visible(text), SPAN)}${close}`);
  return {
    before: left + mark(edit.removed, "[-", "-]") + right,
    after: left + mark(edit.inserted, "{+", "+}") + right,
  };
}
