/** Pick the lines of a server's stderr that explain why it failed, redacted and bounded. Pure. */

import { withoutColour } from "../text/neutralize.js";
import type { Redactor } from "../text/redact.js";

/** Most characters quoted from stderr in all, and from one line. */
const TOTAL_CHARS = 900;
const LINE_CHARS = 240;
/** The last lines are always candidates; lines that look like an error are, from further back. */
const LAST_LINES = 3;
const ERROR_LINES = 6;
const LOOKS_LIKE_ERROR =
  /\b(err!|error|fatal|failed|failure|exception|panic|traceback|denied|refused|not found|no such|cannot|can't|unable|invalid|enotfound|eai_again|econnrefused|econnreset|etimedout|eacces|enoent|certificate|cert_|self[- ]signed|ssl|tls|proxy|40[134]|5\d\d)\b/i;
/** A frame of a stack trace (Node's "at f (file:1:2)", Python's 'File "x", line 3'): where, not why. */
const STACK_FRAME = /^(at\s|File "|\.\.\. \d+ more)/;

/**
 * The stderr lines worth quoting when a start fails: the last few non-empty lines, the first line
 * that looks like an error (an uncaught exception's message, above its stack) and other such lines
 * (npm's `npm ERR! code ...`, a TLS error), in their order, without terminal colours, each redacted
 * before it is cut, shown as printable ASCII, under 1,000 characters in all. Over that budget stack
 * frames go first, then the earliest lines, but never the first error line. "" when stderr was empty.
 */
export function explainStderr(tail: string, redactor: Redactor): string {
  // Redacted as one text first: a secret split over two lines is found before lines are picked and cut.
  const stream = redactor.lines();
  const lines = [...stream.push(tail), ...stream.flush()]
    .flatMap((line) => line.split("\r"))
    .map((line) => withoutColour(line).trim())
    .filter((line) => line !== "");
  if (lines.length === 0) return "";
  const isFrame = (i: number) => STACK_FRAME.test(lines[i] as string);
  const looksLikeError = (i: number) => !isFrame(i) && LOOKS_LIKE_ERROR.test((lines[i] as string).slice(0, 2000));
  const picked = new Set<number>();
  for (let i = Math.max(0, lines.length - LAST_LINES); i < lines.length; i++) picked.add(i);
  const firstError = lines.findIndex((_, i) => looksLikeError(i));
  if (firstError >= 0) picked.add(firstError);
  let errors = 0;
  for (let i = lines.length - LAST_LINES - 1; i > firstError && errors < ERROR_LINES; i--) {
    if (looksLikeError(i)) {
      picked.add(i);
      errors++;
    }
  }
  const shown = [...picked]
    .sort((a, b) => a - b)
    .map((i) => {
      const line = (lines[i] as string).replace(/[^\x20-\x7e]/g, "?");
      return { i, text: line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}...` : line };
    });
  // Over the budget: drop stack frames, then the earliest lines, keeping the first error and the last line.
  let total = shown.reduce((sum, line) => sum + line.text.length + 5, 0);
  const drop = (which: (line: { i: number }) => boolean) => {
    for (let k = 0; k < shown.length && total > TOTAL_CHARS && shown.length > 1; ) {
      const line = shown[k] as { i: number; text: string };
      if (which(line) && line.i !== firstError && line.i !== lines.length - 1) {
        total -= line.text.length + 5;
        shown.splice(k, 1);
      } else k++;
    }
  };
  drop((line) => isFrame(line.i));
  drop(() => true);
  return shown.map((line) => JSON.stringify(line.text)).join(" / ");
}
