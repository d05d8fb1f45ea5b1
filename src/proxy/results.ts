/**
 * Answers read before the model reads them: in a `tools/call` result, a `prompts/get` answer or a
 * `resources/read` answer, characters a model reads but a person does not see are removed, and S8
 * judges the text for poisoning. Pure.
 */

import {
  BLACK_FLAG,
  flagTagSequence,
  isBidiControl,
  isVariationSelector,
  isZeroWidth,
  ordinaryFormatChar,
  RIGHT_TO_LEFT,
  TAG_FIRST,
  TAG_LAST,
} from "../lint/hidden.js";
import { hiddenTextScanner } from "../lint/index.js";
import { message } from "../lint/messages.js";
import type { LintFinding } from "../lint/types.js";
import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { neutralize } from "../text/neutralize.js";
import type { Removed } from "./events.js";

/** `--results`: remove hidden text and warn of poisoning (clean), also withhold a poisoned answer (strict), or pass answers untouched (off). */
export type ResultsMode = "strict" | "clean" | "off";

/**
 * Characters of an answer's text that S8 judges, in order; the rest is cleaned but not judged.
 * S8 costs a few milliseconds per kilobyte of prose, and every call waits for it.
 */
export const JUDGED_CHARS = 32_000;

/** What reading one answer found. */
export interface AnswerReading {
  /** The answer with hidden text removed: the very same value when there was none. */
  value: unknown;
  /** Removed classes with their counts, in a fixed order; empty when nothing was removed. */
  removed: Removed[];
  /** S8's error-level findings in the text besides the removed characters themselves: poisoning and steering. */
  poisoning: LintFinding[];
}

/** Text that needs no look: printable ASCII and ordinary whitespace. */
const PLAIN = /^[\x20-\x7e\t\n\r]*$/;

/** Fields that hold base64 (images, audio, blobs): never text a model reads as words, so never judged. */
const BINARY_FIELDS: ReadonlySet<string> = new Set(["data", "blob"]);

/**
 * Read one answer (a JSON-RPC result or error object): every string and key in it is cleaned, and,
 * with `judge`, the first JUDGED_CHARS characters of its strings are judged by S8 as they were sent
 * (hidden characters included, so text hidden in them is judged too).
 */
export function readAnswer(answer: unknown, judge: boolean): AnswerReading {
  const counts: Record<Removed["kind"], number> = { tag: 0, bidi: 0, zero_width: 0, escape: 0, control: 0 };
  const value = hasUnplainText(answer) ? cleanedCopy(answer, counts) : answer;
  const removed = (Object.keys(counts) as Removed["kind"][]).filter((kind) => counts[kind] > 0).map((kind) => ({ kind, count: counts[kind] }));
  const poisoning = judge ? judged(answer) : [];
  return { value, removed, poisoning };
}

/** S8 on a view of the answer that keeps its shape (so paths read `/content/0/text`) and at most JUDGED_CHARS characters. */
function judged(answer: unknown): LintFinding[] {
  let budget = JUDGED_CHARS;
  const view = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") {
      if (budget <= 0) return "";
      const kept = value.length > budget ? value.slice(0, budget) : value;
      budget -= kept.length;
      return kept;
    }
    if (typeof value !== "object" || value === null || depth > MAX_DEFINITION_DEPTH || budget <= 0) return null;
    if (Array.isArray(value)) return value.map((item) => view(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (BINARY_FIELDS.has(key) || key === "_meta") continue;
      defineField(out, key, view((value as Record<string, unknown>)[key], depth + 1));
    }
    return out;
  };
  const findings = hiddenTextScanner()(view(answer, 1));
  // TAG and bidi characters are removed and counted; what is left to warn of is what the words say.
  return findings.filter((finding) => finding.severity === "error" && finding.args.kind !== "tag" && finding.args.kind !== "bidi");
}

/** Whether any string or key in the value holds more than plain ASCII (the usual answer does not, and is passed as is). */
function hasUnplainText(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (!PLAIN.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (typeof value === "object" && value !== null) {
      for (const key of Object.keys(value)) {
        if (!PLAIN.test(key)) return true;
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * A copy of the value with every string and key cleaned, walked without recursion (an answer may
 * nest deeper than the stack). A key that cleans to one already present keeps the first value.
 */
function cleanedCopy(root: unknown, counts: Record<Removed["kind"], number>): unknown {
  const copyOf = (value: unknown, pending: Array<[unknown, unknown]>): unknown => {
    if (typeof value === "string") return cleanText(value, counts);
    if (typeof value !== "object" || value === null) return value;
    const copy: unknown = Array.isArray(value) ? [] : {};
    pending.push([value, copy]);
    return copy;
  };
  const pending: Array<[unknown, unknown]> = [];
  const top = copyOf(root, pending);
  while (pending.length > 0) {
    const [source, target] = pending.pop() as [unknown, unknown];
    if (Array.isArray(source)) {
      for (const item of source) (target as unknown[]).push(copyOf(item, pending));
      continue;
    }
    const record = source as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const clean = cleanText(key, counts);
      if (Object.hasOwn(target as object, clean)) continue;
      defineField(target as Record<string, unknown>, clean, copyOf(record[key], pending));
    }
  }
  return top;
}

/** Set a field as an own property, so a key named `__proto__` stays data. */
function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The text without what a person does not see: TAG characters (an emoji flag's tag sequence
 * excepted), bidi embeddings, overrides and isolates, zero-width and invisible format characters
 * outside the places ordinary text uses them (S8's rules: a joiner inside an emoji or between
 * letters of a joining script, a direction mark in right-to-left text), terminal escape sequences
 * (CSI, OSC such as `ESC ] 52` clipboard writes, DCS and the rest, 7- and 8-bit), and other control
 * characters except tab, line feed and carriage return. Linear in the length of the text.
 */
export function cleanText(text: string, counts: Record<Removed["kind"], number>): string {
  if (PLAIN.test(text)) return text;
  const parts: string[] = [];
  let kept = 0;
  const drop = (from: number, to: number, kind: Removed["kind"]) => {
    if (from > kept) parts.push(text.slice(kept, from));
    kept = to;
    counts[kind]++;
  };
  let previous: number | undefined;
  let rtl: boolean | undefined;
  const rightToLeft = () => (rtl ??= RIGHT_TO_LEFT.test(text));
  for (let index = 0; index < text.length; ) {
    const code = text.codePointAt(index) as number;
    const width = code > 0xffff ? 2 : 1;
    if (code === 0x1b || ESCAPE_INTRODUCERS.has(code)) {
      const end = escapeEnd(text, index);
      drop(index, end, "escape");
      index = end;
      previous = undefined;
      continue;
    }
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) {
      drop(index, index + 1, "control");
      index += 1;
      continue;
    }
    if (code === BLACK_FLAG) {
      const flag = flagTagSequence(text, index + 2);
      if (flag > 0) {
        previous = TAG_LAST;
        index += 2 + flag;
        continue;
      }
    }
    if (code >= TAG_FIRST && code <= TAG_LAST) drop(index, index + width, "tag");
    else if (isBidiControl(code)) drop(index, index + width, "bidi");
    else if ((isZeroWidth(code) || isVariationSelector(code)) && !ordinaryFormatChar(code, previous, text.codePointAt(index + width), rightToLeft)) {
      drop(index, index + width, "zero_width");
    }
    previous = code;
    index += width;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join("");
}

/** 8-bit introducers of an escape sequence: CSI, OSC, DCS, SOS, PM, APC. */
const ESCAPE_INTRODUCERS: ReadonlySet<number> = new Set([0x9b, 0x9d, 0x90, 0x98, 0x9e, 0x9f]);

/**
 * Where the escape sequence at `at` ends (exclusive). CSI runs to its final byte; OSC to BEL or ST,
 * DCS, SOS, PM and APC to ST; an unterminated one to the end of the text, which a terminal would
 * swallow too. Other ESC sequences are ESC, any intermediates and one final character; a lone ESC is
 * itself.
 */
function escapeEnd(text: string, at: number): number {
  const code = text.charCodeAt(at);
  const length = text.length;
  const inRange = (index: number, low: number, high: number) => index < length && text.charCodeAt(index) >= low && text.charCodeAt(index) <= high;
  let body: number;
  let kind: "csi" | "osc" | "string";
  if (code === 0x1b) {
    const next = at + 1 < length ? text.charCodeAt(at + 1) : -1;
    if (next === 0x5b) kind = "csi";
    else if (next === 0x5d) kind = "osc";
    else if (next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f) kind = "string";
    else {
      let index = at + 1;
      while (inRange(index, 0x20, 0x2f)) index++;
      return inRange(index, 0x30, 0x7e) ? index + 1 : index;
    }
    body = at + 2;
  } else {
    kind = code === 0x9b ? "csi" : code === 0x9d ? "osc" : "string";
    body = at + 1;
  }
  let index = body;
  if (kind === "csi") {
    while (inRange(index, 0x30, 0x3f)) index++;
    while (inRange(index, 0x20, 0x2f)) index++;
    return inRange(index, 0x40, 0x7e) ? index + 1 : index;
  }
  for (; index < length; index++) {
    const character = text.charCodeAt(index);
    if (character === 0x07 && kind === "osc") return index + 1;
    if (character === 0x9c) return index + 1;
    if (character === 0x1b) return text.charCodeAt(index + 1) === 0x5c ? index + 2 : index;
  }
  return length;
}

/** Poisoning findings named in one log line; past this the line names the first ones only. */
const POISONING_LOGGED = 5;

/** The findings as the log names them: S8's message for each, starting in lower case (`contains tool poisoning: ...`). */
export function poisoningLines(findings: readonly LintFinding[]): string[] {
  return findings.slice(0, POISONING_LOGGED).map((finding) => {
    const text = message(finding).replace(/\.$/, "");
    return text.charAt(0).toLowerCase() + text.slice(1);
  });
}

/** What each part of a poisoning finding is, in mcp-lint's words (the client never gets the server's). */
const PART_NAMES: Readonly<Record<string, string>> = {
  source: "a secret to read",
  sink: "a place to send it",
  secrecy: "secrecy from the user",
  precedence: "precedence over the user or other tools",
  hijack: "an order on another tool's call",
  effect: "a harmful effect",
};

/**
 * The text a client gets for an answer withheld under `--results strict`. It reaches the model, so
 * it quotes none of the server's text, names what kind of thing was found, and names no command.
 */
export function withheldResultText(source: { tool: string; subject?: "prompt" | "resource" }, findings: readonly LintFinding[]): string {
  const parts = new Set<string>();
  for (const finding of findings) for (const part of finding.args.parts ?? []) parts.add(PART_NAMES[part.part] ?? part.part);
  const what = parts.size > 0 ? ` (${[...parts].join(", ")})` : "";
  const name = JSON.stringify(neutralize(source.tool));
  const whose =
    source.subject === "prompt"
      ? `the answer to the prompt ${name}`
      : source.subject === "resource"
        ? `the contents of the resource ${name}`
        : `the result of the tool ${name}`;
  return (
    `mcp-lint withheld ${whose}: it reads as an instruction to the model that steers it against the user${what}. ` +
    "It was not passed on. The user can see why in the proxy's log; do not try to get around this refusal."
  );
}
