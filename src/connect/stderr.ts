/** Pick the lines of a server's stderr that explain why it failed, redacted and bounded. Pure. */

import type { Redactor } from "../text/redact.js";

/** Most characters quoted from stderr in all, and from one line. */
const TOTAL_CHARS = 900;
const LINE_CHARS = 240;
/** The last lines are always candidates; lines that look like an error are, from further back. */
const LAST_LINES = 3;
const ERROR_LINES = 6;
const LOOKS_LIKE_ERROR =
  /\b(err!|error|fatal|failed|failure|exception|panic|traceback|denied|refused|not found|no such|cannot|can't|unable|invalid|enotfound|eai_again|econnrefused|econnreset|etimedout|eacces|enoent|certificate|cert_|self[- ]signed|ssl|tls|proxy|40[134]|5\d\d)\b/i;

/**
 * The stderr lines worth quoting when a start fails: the last few non-empty lines plus earlier
 * lines that look like errors (npm's `npm ERR! code ...`, a Python traceback's last line, a TLS
 * error), in their order, each redacted before it is cut, shown as printable ASCII, under 1,000
 * characters in all. Returns "" when stderr was empty.
 */
export function explainStderr(tail: string, redactor: Redactor): string {
  // Redacted as one text first: a secret split over two lines is found before lines are picked and cut.
  const stream = redactor.lines();
  const lines = [...stream.push(tail), ...stream.flush()]
    .flatMap((line) => line.split("\r"))
    .map((line) => line.trim())
    .filter((line) => line !== "");
  if (lines.length === 0) return "";
  const picked = new Set<number>();
  for (let i = Math.max(0, lines.length - LAST_LINES); i < lines.length; i++) picked.add(i);
  let errors = 0;
  for (let i = lines.length - LAST_LINES - 1; i >= 0 && errors < ERROR_LINES; i--) {
    if (LOOKS_LIKE_ERROR.test((lines[i] as string).slice(0, 2000))) {
      picked.add(i);
      errors++;
    }
  }
  const order = [...picked].sort((a, b) => a - b);
  const shown = order.map((i) => {
    const line = (lines[i] as string).replace(/[^\x20-\x7e]/g, "?");
    return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line;
  });
  // Over the budget, drop the earliest lines first: the last ones say how it ended.
  let total = shown.reduce((sum, line) => sum + line.length + 5, 0);
  while (shown.length > 1 && total > TOTAL_CHARS) total -= (shown.shift() as string).length + 5;
  return shown.map((line) => JSON.stringify(line)).join(" / ");
}
