/** How the terminal report looks on this terminal: colour (NO_COLOR, FORCE_COLOR, TTY) and line wrapping. Pure. */

/** What the terminal can show. */
export interface TerminalStyle {
  colour: boolean;
  /** Wrap lines to this many columns; null leaves lines whole (pipes, files, CI logs). */
  width: number | null;
}

/** Plain text, no wrapping: what tests, pipes and files get. */
export const PLAIN_STYLE: TerminalStyle = { colour: false, width: null };

/**
 * Decide the style for a stream. NO_COLOR (any non-empty value) turns colour off, FORCE_COLOR
 * turns it on (unless "0" or "false"), otherwise colour and wrapping follow whether it is a TTY.
 */
export function styleFor(stream: { isTTY?: boolean; columns?: number }, env: Readonly<Record<string, string | undefined>>): TerminalStyle {
  const tty = stream.isTTY === true;
  const force = env.FORCE_COLOR;
  let colour = tty;
  if (force !== undefined) colour = force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") colour = false;
  const columns = stream.columns;
  return { colour, width: tty && typeof columns === "number" && columns >= 40 ? columns : null };
}

const CODES = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  bold: [1, 22],
  dim: [2, 22],
} as const;

/** A colour name. */
export type Colour = keyof typeof CODES;

/** Paint text when colour is on; the text itself must already be neutralized. */
export function paint(style: TerminalStyle, colour: Colour, text: string): string {
  if (!style.colour || text === "") return text;
  const [open, close] = CODES[colour];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

// Only our own colour codes can be in a line: server text was neutralized before painting.
const SGR = /\u001b\[[0-9;]*m/g;

/** Columns a line takes on screen, not counting colour codes. */
export function displayWidth(line: string): number {
  let width = 0;
  for (const char of line.replace(SGR, "")) width += wide(char.codePointAt(0) as number) ? 2 : 1;
  return width;
}

function wide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * Wrap one line to `width` columns at spaces where possible, continuing under its own indent plus
 * two. Colour codes are kept whole and do not count toward the width.
 */
export function wrapLine(line: string, width: number | null): string[] {
  if (width === null || displayWidth(line) <= width) return [line];
  const indent = " ".repeat(Math.min((/^ */.exec(line)?.[0].length ?? 0) + 2, Math.floor(width / 2)));
  const pieces = line.split(/(\u001b\[[0-9;]*m| +)/).filter((piece) => piece !== "");
  const lines: string[] = [];
  let current = "";
  let used = 0;
  const room = (first: boolean) => (first ? width : width - indent.length);
  const breakLine = () => {
    lines.push(current.replace(/ +$/, ""));
    current = indent;
    used = indent.length;
  };
  for (const piece of pieces) {
    if (piece.startsWith("\u001b[")) {
      current += piece;
      continue;
    }
    const size = displayWidth(piece);
    if (used + size <= width) {
      current += piece;
      used += size;
      continue;
    }
    if (/^ +$/.test(piece)) {
      breakLine();
      continue;
    }
    if (used > indent.length && size <= room(false)) {
      breakLine();
      current += piece;
      used += size;
      continue;
    }
    // A word longer than the line: cut it into chunks.
    for (const char of piece) {
      const charWidth = displayWidth(char);
      if (used + charWidth > width) breakLine();
      current += char;
      used += charWidth;
    }
  }
  if (current.trim() !== "") lines.push(current.replace(/ +$/, ""));
  return lines;
}
