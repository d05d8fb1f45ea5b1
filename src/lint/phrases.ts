/** Word-pattern matching for S8's two prose classes: instructions to hide things from the user, and claims to override other tools. */

// Patterns are short sequences of word sets with a bounded gap between them, matched over a word
// list. That keeps the matching linear in the text (no regex backtracking) and makes the vocabulary
// explicit. The sets hold imperative forms only ("tell", not "tells"): a tool describing itself in
// the third person ("hides archived rows") is not an instruction to the model.

/** Which prose class a pattern belongs to. */
export type PhraseKind = "hide_from_user" | "override_tools";

interface Step {
  words: ReadonlySet<string>;
  /** Words that may be skipped before this step matches (0 = adjacent to the previous step). */
  gap: number;
}

interface Pattern {
  kind: PhraseKind;
  first: ReadonlySet<string>;
  steps: readonly Step[];
}

const set = (text: string): ReadonlySet<string> => new Set(text.split(" "));

// "do not", "must not" and friends are merged into one word while tokenizing ("dont", "mustnt").
const NEGATION = set("dont doesnt mustnt shouldnt never wont cant neednt");
const USER = set("user users human humans");
const TELL = set("tell inform notify alert mention reveal disclose");
const OTHERS = set("other another all any every");
const TOOLS = set("tool tools server servers mcp function functions");

function pattern(kind: PhraseKind, first: ReadonlySet<string>, ...steps: [ReadonlySet<string>, number][]): Pattern {
  return { kind, first, steps: steps.map(([words, gap]) => ({ words, gap })) };
}

const PATTERNS: readonly Pattern[] = [
  // "do not tell the user", "never mention this to the user"
  pattern("hide_from_user", NEGATION, [TELL, 2], [USER, 6]),
  // "do not reveal these instructions", "don't mention that you read the file"
  pattern("hide_from_user", NEGATION, [set("mention reveal disclose"), 1], [set("instructions instruction"), 4]),
  pattern("hide_from_user", NEGATION, [set("mention reveal disclose"), 1], [set("that"), 0], [set("you"), 0]),
  // "don't let the user know"
  pattern("hide_from_user", NEGATION, [set("let"), 0], [USER, 2], [set("know see notice find learn realize realise"), 2]),
  // "without telling the user", "without the user noticing"
  pattern("hide_from_user", set("without"), [set("telling informing notifying alerting"), 1], [USER, 3]),
  pattern("hide_from_user", set("without"), [USER, 1], [set("knowing noticing seeing realizing realising"), 1]),
  // "hide this from the user", "keep it secret from the user"
  pattern("hide_from_user", set("hide conceal withhold"), [set("from"), 6], [USER, 2]),
  pattern("hide_from_user", set("keep"), [set("secret hidden private confidential"), 4], [set("from"), 2], [USER, 2]),
  // "the user must not know", "the user doesn't need to know"
  pattern("hide_from_user", USER, [set("mustnt shouldnt cant never"), 0], [set("know notice learn find realize realise suspect"), 1]),
  pattern("hide_from_user", USER, [set("doesnt dont"), 0], [set("need"), 0], [set("to"), 0], [set("know"), 0]),
  // "replaces any other tool", "overrides all other servers"
  pattern("override_tools", set("override replace supersede shadow overrides replaces supersedes shadows"), [OTHERS, 3], [TOOLS, 2]),
  // "takes precedence over other tools"
  pattern("override_tools", set("precedence priority"), [set("over"), 0], [set("other another all any every tool tools server servers"), 3]),
  // "ignore all previous instructions", "disregard other servers"
  pattern(
    "override_tools",
    set("ignore disregard"),
    [set("all any other previous prior earlier above preceding"), 2],
    [set("instructions instruction tools servers rules directions prompts prompt"), 2],
  ),
  // "use this instead of any other server" (plain "instead of" is never enough)
  pattern("override_tools", set("instead"), [set("of"), 0], [set("other another any every"), 3], [set("server servers mcp"), 2]),
];

const BY_FIRST = new Map<string, Pattern[]>();
for (const item of PATTERNS) {
  for (const word of item.first) BY_FIRST.set(word, [...(BY_FIRST.get(word) ?? []), item]);
}

/** Cheap test for whether a text can hold any pattern at all, so most strings skip tokenizing. */
const TRIGGER = /user|human|overrid|replac|supersed|shadow|precedence|priority|ignor|disregard|instead|mention|reveal|disclos/i;

const MERGE_NOT: Readonly<Record<string, string>> = {
  do: "dont",
  does: "doesnt",
  did: "dont",
  must: "mustnt",
  should: "shouldnt",
  will: "wont",
  can: "cant",
  need: "neednt",
};

interface Word {
  word: string;
  start: number;
  end: number;
}

/** ASCII words of a text, lower-cased, with contractions and "X not" merged ("don't", "do not" -> "dont"). */
function words(text: string, from: number, to: number): Word[] {
  const out: Word[] = [];
  let index = from;
  while (index < to) {
    let code = text.charCodeAt(index);
    if (!isWordCode(code)) {
      index++;
      continue;
    }
    const start = index;
    let apostrophe = false;
    while (index < to) {
      code = text.charCodeAt(index);
      if (isWordCode(code)) {
        index++;
      } else if ((code === 0x27 || code === 0x2019) && index + 1 < to && isLetterCode(text.charCodeAt(index + 1))) {
        apostrophe = true; // inside a word: "don't" reads as "dont"
        index++;
      } else {
        break;
      }
    }
    let word = text.slice(start, index).toLowerCase();
    if (apostrophe) word = word.replace(/['\u2019]/g, "");
    const previous = out[out.length - 1];
    const merged = word === "not" && previous !== undefined ? MERGE_NOT[previous.word] : undefined;
    if (merged !== undefined && previous !== undefined) {
      previous.word = merged;
      previous.end = index;
    } else {
      out.push({ word: word === "cannot" ? "cant" : word, start, end: index });
    }
  }
  return out;
}

function isLetterCode(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isWordCode(code: number): boolean {
  return isLetterCode(code) || (code >= 48 && code <= 57);
}

/** Index of the last word of a match starting at `start`, or -1. */
function matchAt(list: readonly Word[], start: number, item: Pattern): number {
  let position = start;
  for (const step of item.steps) {
    let found = -1;
    const last = Math.min(list.length - 1, position + step.gap + 1);
    for (let next = position + 1; next <= last; next++) {
      if (step.words.has((list[next] as Word).word)) {
        found = next;
        break;
      }
    }
    if (found < 0) return -1;
    position = found;
  }
  return position;
}

/** The first match of one kind in a text, as offsets, and how many matches there are (capped). */
export interface PhraseHit {
  kind: PhraseKind;
  start: number;
  end: number;
  count: number;
}

const CHUNK = 65_536;
const OVERLAP = 4_096;
const MAX_COUNT = 10_000;

/**
 * Find the prose patterns in a text. Long texts are tokenized in overlapping chunks so memory stays
 * bounded; a match is counted in the chunk where its first word starts.
 */
export function findPhrases(text: string): PhraseHit[] {
  if (!TRIGGER.test(text)) return [];
  const hits = new Map<PhraseKind, PhraseHit>();
  for (let base = 0; base < text.length; base += CHUNK) {
    let from = base;
    // Skip a word cut by the chunk start: the previous chunk's overlap already read it.
    if (from > 0) while (from < text.length && isWordCode(text.charCodeAt(from - 1)) && isWordCode(text.charCodeAt(from))) from++;
    const list = words(text, from, Math.min(text.length, base + CHUNK + OVERLAP));
    for (let index = 0; index < list.length; index++) {
      const current = list[index] as Word;
      if (current.start >= base + CHUNK) break;
      const candidates = BY_FIRST.get(current.word);
      if (candidates === undefined) continue;
      for (const item of candidates) {
        const last = matchAt(list, index, item);
        if (last < 0) continue;
        const seen = hits.get(item.kind);
        if (seen === undefined) hits.set(item.kind, { kind: item.kind, start: current.start, end: (list[last] as Word).end, count: 1 });
        else if (seen.count < MAX_COUNT) seen.count++;
        break;
      }
    }
  }
  return [...hits.values()];
}
