/** Which other tool a description retires its tool in favour of ("Deprecated: use read_text_file instead"), read from its words. */

import { MAX_TERM_TEXT } from "./text.js";

// Words, not regexes: the text is the server's, and a word scan is linear in it whatever it holds.
// A pointer counts only next to a deprecation marker (in its sentence or the one after it, as in
// "Deprecated compatibility entry point. Use firecrawl_developer_search for ..."), or as a sentence
// of its own that says nothing but "Use X instead." A pointer with a condition ("for remote URLs use
// firecrawl_scrape", "use browser_snapshot for actions") says when to pick the other tool, which is
// S4's fix, not its evidence.

const MARKERS = new Set(["deprecated", "obsolete", "superseded"]);
// "The mode parameter is deprecated; use format instead" retires a parameter, not the tool.
const NOT_THE_TOOL = new Set(["parameter", "parameters", "argument", "arguments", "field", "fields", "property", "properties", "option", "options"]);
// Words right before the tool's name that say "call that one": "use X", "replaced by X", "in favour of X".
const BEFORE_ONE = new Set(["use", "using", "call", "prefer"]);
const BEFORE_TWO = new Set(["replaced by", "superseded by", "favour of", "favor of", "switch to", "migrate to", "moved to", "alias of", "alias for"]);

/** A token of the text as written (for tool names) and lower-cased (for the small words around them). */
interface Word {
  text: string;
  lower: string;
}

// Quotes, backticks and brackets around a name (`firecrawl_developer_search`) are not part of it.
const TOKEN = /[^\s`'"*()[\]{}<>,;:|]{1,200}/g;
const SENTENCE_END = /[.!?]+$/;
// Every marker and "instead" contain one of these.
const HINT = /deprecated|obsolete|superseded|instead/i;

/** The text cut into sentences of words: a sentence ends at a word ending in `.`, `!` or `?`, or at a line break. */
function sentences(text: string): Word[][] {
  const out: Word[][] = [];
  for (const line of text.split("\n")) {
    let current: Word[] = [];
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(line); match !== null; match = TOKEN.exec(line)) {
      const raw = match[0];
      const word = raw.replace(SENTENCE_END, "");
      if (word !== "") current.push({ text: word, lower: word.toLowerCase() });
      if (word.length < raw.length && current.length > 0) {
        out.push(current);
        current = [];
      }
    }
    if (current.length > 0) out.push(current);
  }
  return out;
}

/** Index of the first other tool a sentence points to ("use X", "X instead"), or null. */
function pointedAt(words: readonly Word[], names: ReadonlyMap<string, number>, self: number): number | null {
  for (let at = 0; at < words.length; at++) {
    const target = names.get((words[at] as Word).text);
    if (target === undefined || target === self) continue;
    const before = words[at - 1]?.lower;
    // "use the X", "use the X tool instead"
    const skip = before === "the" ? 1 : 0;
    const one = words[at - 1 - skip]?.lower;
    const two = `${words[at - 2 - skip]?.lower} ${one}`;
    const next = words[at + 1]?.lower === "tool" ? words[at + 2]?.lower : words[at + 1]?.lower;
    if ((one !== undefined && BEFORE_ONE.has(one)) || BEFORE_TWO.has(two) || next === "instead") return target;
  }
  return null;
}

/** The tool a sentence names when it is only "Use X instead" (optionally "Please", "the", "tool"), or null. */
function onlyUseInstead(words: readonly Word[], names: ReadonlyMap<string, number>, self: number): number | null {
  let at = words[0]?.lower === "please" ? 1 : 0;
  if (words[at]?.lower !== "use") return null;
  at++;
  if (words[at]?.lower === "the") at++;
  const target = names.get(words[at]?.text ?? "");
  if (target === undefined || target === self) return null;
  at++;
  if (words[at]?.lower === "tool") at++;
  return words[at]?.lower === "instead" && at === words.length - 1 ? target : null;
}

/**
 * The tool (by index in `names`) that a tool's description says replaces it: a deprecation marker
 * (deprecated, obsolete, superseded) with "use X", "replaced by X", "in favour of X" or "X instead"
 * in that sentence or the next, or a sentence that is only "Use X instead". Null when it names none.
 */
export function replacementNamed(description: string, names: ReadonlyMap<string, number>, self: number): number | null {
  const text = description.length > MAX_TERM_TEXT ? description.slice(0, MAX_TERM_TEXT) : description;
  // Nearly every description has neither word; finding that out must cost no more than one pass.
  if (!HINT.test(text)) return null;
  const list = sentences(text);
  for (let index = 0; index < list.length; index++) {
    const words = list[index] as Word[];
    const alone = onlyUseInstead(words, names, self);
    if (alone !== null) return alone;
    if (!words.some((word) => MARKERS.has(word.lower)) || words.some((word) => NOT_THE_TOOL.has(word.lower))) continue;
    const target = pointedAt(words, names, self) ?? (index + 1 < list.length ? pointedAt(list[index + 1] as Word[], names, self) : null);
    if (target !== null) return target;
  }
  return null;
}
