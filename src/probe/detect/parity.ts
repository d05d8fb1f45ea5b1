/**
 * Format parity on a real answer (seed 000, "Format parity"): every leaf of `structuredContent`
 * should be visible in the `content` text, since some clients forward only one of the two. Base64
 * of binary data is not judged: no text renders an image's bytes. Pure.
 */

import { isJsonObject } from "../../lock/snapshot.js";
import { isBinaryBase64, isResourceBlob } from "./binary.js";

/** One field of the structured result that the text does not show, by its path with array positions folded (`items[].id`). */
export interface ParityMiss {
  field: string;
  /** Values at that path the text does not show, out of all values there. */
  missing: number;
  total: number;
}

/** Deepest level walked; deeper fields are not judged (the depth of real answers is far lower). */
const MAX_DEPTH = 32;
/** Most leaves judged per answer; the rest are not. */
const MAX_LEAVES = 2_000;
/** Longest string compared whole; a longer one is judged by its first part (text may be reflowed after it). */
const MAX_COMPARED = 200;

const WORD = /[A-Za-z0-9_]/;

/** The text as a reader may find a value in it: as sent, with Markdown backslash escapes and HTML entities undone, whitespace collapsed. */
function haystacks(text: string): string[] {
  const collapse = (value: string) => value.replace(/\s+/g, " ");
  const unescaped = text
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return [...new Set([text, collapse(text), unescaped, collapse(unescaped)])];
}

/** Texts to search, with the set of their word tokens so that a one-word value is found without a scan. */
interface Haystack {
  texts: string[];
  tokens: Set<string>;
}

function haystack(texts: string[]): Haystack {
  const tokens = new Set<string>();
  for (const text of texts) for (const token of text.split(/[^A-Za-z0-9_]+/)) if (token !== "") tokens.add(token);
  return { texts, tokens };
}

/**
 * `needle` in one of the texts as its own token: no letter, digit or underscore (or what `glued`
 * says) next to either end. `cut` says the needle is the start of a longer value, so its end may
 * run on in the text.
 */
function visible(hay: Haystack, needle: string, glued: RegExp = WORD, cut = false): boolean {
  if (needle === "") return false;
  // One word under the default rule: a token lookup answers exactly what the scan below would.
  if (glued === WORD && !cut && /^[A-Za-z0-9_]+$/.test(needle)) return hay.tokens.has(needle);
  const startsWord = glued.test(needle.charAt(0));
  const endsWord = !cut && glued.test(needle.charAt(needle.length - 1));
  for (const text of hay.texts) {
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const before = at === 0 ? "" : text.charAt(at - 1);
      const after = text.charAt(at + needle.length);
      if ((!startsWord || before === "" || !glued.test(before)) && (!endsWord || after === "" || !glued.test(after))) return true;
    }
  }
  return false;
}

function grouped(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Ways a text may show a number: as JSON writes it, with thousands separators, or rounded to one or two decimals. */
function numberForms(value: number): string[] {
  const plain = String(value);
  const forms = new Set([plain]);
  if (Number.isInteger(value) && Math.abs(value) >= 1000 && !plain.includes("e")) forms.add(`${value < 0 ? "-" : ""}${grouped(String(Math.abs(value)))}`);
  if (!Number.isInteger(value) && Number.isFinite(value)) {
    forms.add(value.toFixed(2));
    forms.add(value.toFixed(1));
  }
  return [...forms];
}

/** A key as a person may write it as a label: as is, with separators as spaces, camelCase split. */
function keyForms(key: string): string[] {
  const spaced = key.replace(/[_-]+/g, " ").trim();
  const split = spaced.replace(/([a-z0-9])([A-Z])/g, "$1 $2");
  return [...new Set([key, spaced, split].filter((form) => form !== "").map((form) => form.toLowerCase()))];
}

/** True when the text shows this leaf: its value as a token, or for booleans, null and empty strings its key as a label. */
function leafVisible(texts: Haystack, lowered: Haystack, value: unknown, key: string | null): boolean {
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed !== "") {
      const cut = trimmed.length > MAX_COMPARED;
      const head = cut ? trimmed.slice(0, MAX_COMPARED) : trimmed;
      const forms = [head, head.replace(/\s+/g, " "), JSON.stringify(head).slice(1, -1)];
      return forms.some((form) => visible(texts, form, WORD, cut));
    }
  } else if (typeof value === "number") {
    return numberForms(value).some((form) => visible(texts, form, /[0-9]/));
  } else if (typeof value === "boolean" || value === null) {
    if (visible(lowered, String(value))) return true;
  }
  return key !== null && keyForms(key).some((form) => visible(lowered, form));
}

/**
 * The fields of `structured` the text does not show, by folded path, in order of first appearance;
 * an empty list when everything is visible (or there is nothing to check). A resource's `blob` and
 * any other string that is base64 of binary data are left out: the text may describe the file, but
 * nobody expects it to spell out the bytes.
 */
export function parityMisses(structured: unknown, text: string): ParityMiss[] {
  const forms = haystacks(text);
  const texts = haystack(forms);
  const lowered = haystack(forms.map((value) => value.toLowerCase()));
  const byField = new Map<string, ParityMiss>();
  let leaves = 0;
  const stack: { value: unknown; path: string; key: string | null; depth: number; blob?: boolean }[] = [{ value: structured, path: "", key: null, depth: 0 }];
  while (stack.length > 0 && leaves < MAX_LEAVES) {
    const frame = stack.pop() as (typeof stack)[number];
    const { value, path, key, depth, blob } = frame;
    if (Array.isArray(value)) {
      if (depth >= MAX_DEPTH) continue;
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: `${path}[]`, key, depth: depth + 1 });
      continue;
    }
    if (isJsonObject(value)) {
      if (depth >= MAX_DEPTH) continue;
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const child = keys[index] as string;
        stack.push({ value: value[child], path: path === "" ? child : `${path}.${child}`, key: child, depth: depth + 1, blob: isResourceBlob(value, child) });
      }
      continue;
    }
    if (blob === true || (typeof value === "string" && isBinaryBase64(value))) continue;
    leaves++;
    const field = path === "" ? "(root)" : path;
    let entry = byField.get(field);
    if (entry === undefined) {
      entry = { field, missing: 0, total: 0 };
      byField.set(field, entry);
    }
    entry.total++;
    if (!leafVisible(texts, lowered, value, key)) entry.missing++;
  }
  return [...byField.values()].filter((entry) => entry.missing > 0);
}
