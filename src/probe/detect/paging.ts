/** Whether a long response tells the agent how to get the rest: a paging cursor or a note on what is left (P3, and the score). Pure. */

import { P3_HINT_WINDOW } from "../thresholds.js";

// Read only in the first and last P3_HINT_WINDOW characters, so each test is bounded whatever the size.
const HINTS: readonly RegExp[] = [
  // A cursor or token for the next page, in JSON or prose.
  /\b(?:next_?cursor|next_?page(?:_?token)?|page_?token|has_?more|continuation(?:_?token)?|cursor)\b/i,
  // "19000 remaining", "12 more", "3,400 left"
  /\b\d[\d,]*\s+(?:more|remaining|left|others?)\b/i,
  /\b(?:remaining|truncated|more results|more items|more lines|more entries|continues|continued|to be continued)\b/i,
  // "page 2 of 40", "page 2/40"
  /\bpage\s+\d+\s*(?:of|\/)\s*\d+/i,
  // "lines 1-1000 of 20000", "showing 50 of 1200", "items 1 to 50 of 900"
  /\b\d[\d,]*\s*(?:-|–|to)\s*\d[\d,]*\s+of\s+\d/i,
  /\bshowing\s+(?:the\s+)?(?:first\s+)?\d/i,
  /\bof\s+\d[\d,]*\s+(?:lines|items|results|entries|rows|files|records|bytes|characters|chars|pages|matches)\b/i,
  // "offset=1000", "pass offset: 1000", "start_line=1001"
  /\b(?:offset|start_?line|start_?index|page)\s*[=:]\s*\d/i,
];

/** True when the start or the end of the text holds a paging cursor or a note on what is left. */
export function hasPagingHint(text: string): boolean {
  const head = text.slice(0, P3_HINT_WINDOW);
  const tail = text.length > P3_HINT_WINDOW ? text.slice(-P3_HINT_WINDOW) : "";
  return HINTS.some((pattern) => pattern.test(head) || (tail !== "" && pattern.test(tail)));
}
