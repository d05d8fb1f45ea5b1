// Pure text formats the Action writes: workflow-command escaping for annotations, and Markdown that
// shows text exactly as it is (no markup, no HTML, no links) for the job summary.

/** Escape an annotation's message the way the runner unescapes it (`%`, CR, LF). */
export function escapeData(text) {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escape an annotation property value (`title=`, `file=`): the message rules plus `:` and `,`. */
export function escapeProperty(text) {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** One workflow command line, `::level key=value,...::message`, with every part escaped. */
export function workflowCommand(level, properties, message) {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(",");
  return `::${level}${props === "" ? "" : ` ${props}`}::${escapeData(message)}`;
}

// Every ASCII punctuation character may be backslash-escaped in CommonMark, and an escaped character
// is always literal: no emphasis, code span, link, image, autolink, HTML tag or entity can start.
// Escaping each one also splits the text where GitHub's autolinker looks for `://`, `www.` and `@`.
const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * Text as one Markdown table cell that renders exactly as written: ASCII punctuation is
 * backslash-escaped (so `|` cannot end the cell, `<img>` is text, `**` is not bold), and any line
 * break or control character left in it becomes a visible `\u{HEX}` escape, since a cell is one line.
 */
export function markdownCell(text) {
  const oneLine = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (char) => `\\u{${char.charCodeAt(0).toString(16).toUpperCase()}}`);
  return oneLine.replace(PUNCTUATION, (char) => `\\${char}`);
}

/** A backtick fence longer than every run of backticks in `text` (at least three), so the text cannot close it. */
export function fenceFor(text) {
  let longest = 0;
  for (const run of text.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return "`".repeat(Math.max(3, longest + 1));
}

/** `text` as a fenced code block that shows it verbatim. */
export function codeBlock(text) {
  const fence = fenceFor(text);
  return `${fence}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${fence}\n`;
}
