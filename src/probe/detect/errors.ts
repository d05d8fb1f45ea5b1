/** What an error text gives an agent to fix its call: a leaked stack trace, an empty or opaque message, or guidance (P4). Pure. */

/** Error texts are short; only this much is read, so a huge one costs no more than a small one. */
const MAX_ERROR_CHARS = 20_000;

// Each pattern is anchored to a line start and reads one bounded line.
const STACK_PATTERNS: readonly RegExp[] = [
  /^\s{0,16}at [^\n]{0,300}:\d+:\d+\)?\s*$/m, // JavaScript: "    at handler (/srv/app.js:12:7)"
  /Traceback \(most recent call last\)/, // Python
  /^\s{0,16}File "[^"\n]{1,300}", line \d+/m, // Python frames
  /^\s{0,16}at [\w$.]{1,200}\([\w$]{1,100}\.(?:java|kt|scala|groovy):\d+\)/m, // JVM
  /^goroutine \d+ \[/m, // Go
  /\bpanicked at\b/, // Rust
  /^\s{0,16}at [\w.<>`]{1,200}\([^\n]{0,200}\) in [^\n]{1,300}:line \d+/m, // .NET
];

/** True when the text carries a stack trace (JavaScript, Python, JVM, Go, Rust or .NET). */
export function hasStackTrace(text: string): boolean {
  const head = text.slice(0, MAX_ERROR_CHARS);
  return STACK_PATTERNS.some((pattern) => pattern.test(head));
}

// Messages that name no cause: the agent learns only that something failed.
const OPAQUE =
  /^(?:error executing tool\s*[\w.:/-]{0,128}|internal(?: server)? error|an? (?:unexpected |unknown |internal )?error(?: has)? occurred|unknown error|unexpected error|error|errors?|something went wrong|request failed|failed|failure|tool (?:execution|call) failed|execution failed|bad request|invalid (?:request|input|arguments?|params(?:eters)?)|null|undefined|none|\{\}|\[\])[.!]?$/i;

/** The error text with wrappers that add no information stripped: an `Error:` prefix, surrounding quotes and space. */
function core(text: string): string {
  return text
    .slice(0, MAX_ERROR_CHARS)
    .trim()
    .replace(/^(?:mcp error -?\d+:\s*)/i, "")
    .replace(/^(?:error|exception)\s*:\s*/i, "")
    .replace(/^["'`]+|["'`]+$/g, "")
    .trim();
}

/** True when the error text is empty, or only an `Error:` prefix and quotes. */
export function isEmptyError(text: string): boolean {
  return core(text) === "";
}

/** True for an opaque message, one that only says something failed ("Internal error", "Error executing tool x"). */
export function isOpaqueError(text: string): boolean {
  const rest = core(text);
  return rest !== "" && (OPAQUE.test(rest) || OPAQUE.test(text.trim()));
}

// Words that tell the agent what was expected or what was not found.
const GUIDANCE =
  /\b(?:expected|expects?|must|should|required|requires|one of|allowed|valid (?:values?|options?|choices?)|not found|does not exist|doesn't exist|do not exist|no such|cannot find|can't find|could not find|couldn't find|not a valid|is not valid|unrecognized|not recognized|not permitted|outside|denied|out of range|too (?:long|short|large|small|big)|at least|at most)\b/i;

/**
 * True when the error gives the agent something to fix: it names a parameter or a value that was
 * sent, or says what was expected or what was not found. `names` and `values` are the parameter
 * names and string values of the call (raw; short ones are ignored, they match by accident).
 */
export function hasGuidance(text: string, names: readonly string[], values: readonly string[]): boolean {
  const head = text.slice(0, MAX_ERROR_CHARS);
  if (GUIDANCE.test(head)) return true;
  const lower = head.toLowerCase();
  for (const name of names) if (name.length >= 2 && containsToken(lower, name.toLowerCase())) return true;
  for (const value of values) {
    if (value.length >= 4 && lower.includes(value.toLowerCase())) return true;
    // A path or URL is often quoted by its last part ("exist.txt not found").
    const last = value.split(/[/\\]/).pop() ?? "";
    if (last.length >= 4 && last !== value && lower.includes(last.toLowerCase())) return true;
  }
  return false;
}

/** `needle` in `haystack` as its own token (not inside a longer identifier). */
function containsToken(haystack: string, needle: string): boolean {
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = at === 0 ? "" : haystack.charAt(at - 1);
    const after = haystack.charAt(at + needle.length);
    if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) return true;
  }
  return false;
}

/**
 * An error text as P4 compares it between probes: trimmed, whitespace runs collapsed, and the
 * tool's own name replaced, so "Error calling browser_click: ..." and "Error calling
 * browser_type: ..." are one failure.
 */
export function errorKey(text: string, tool: string): string {
  const flat = text.slice(0, MAX_ERROR_CHARS).trim().replace(/\s+/g, " ");
  return tool.length >= 3 ? flat.replaceAll(tool, "<tool>") : flat;
}
