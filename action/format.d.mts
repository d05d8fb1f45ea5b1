// Types for format.mjs (plain JS, run by the runner's node), for the tests.
/** Escape an annotation's message the way the runner unescapes it (`%`, CR, LF). */
export function escapeData(text: string): string;
/** Escape an annotation property value: the message rules plus `:` and `,`. */
export function escapeProperty(text: string): string;
/** One workflow command line, `::level key=value,...::message`, with every part escaped. */
export function workflowCommand(level: string, properties: Record<string, string | undefined>, message: string): string;
/** Text as one Markdown table cell that renders exactly as written. */
export function markdownCell(text: string): string;
/** A backtick fence longer than every run of backticks in `text` (at least three). */
export function fenceFor(text: string): string;
/** `text` as a fenced code block that shows it verbatim. */
export function codeBlock(text: string): string;
