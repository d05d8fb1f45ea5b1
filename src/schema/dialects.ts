/** Which JSON Schema dialect a `$schema` names, and which of a schema's keywords a dialect applies or ignores. */

import { isObject, type JsonObject, own } from "./json.js";
import { DIALECTS, type Dialect, type DialectRange, type KeywordInfo, keywordInfo } from "./keywords.js";
import { hasConstrainingSiblings, MAX_SCHEMA_DEPTH, subschemaEntries } from "./shape.js";

// The meta-schema URIs of each draft, compared without the empty fragment and without caring for http/https
// (both spellings are served).
const URIS: ReadonlyMap<string, Dialect> = new Map([
  ["json-schema.org/draft-04/schema", "draft-04"],
  ["json-schema.org/draft-06/schema", "draft-06"],
  ["json-schema.org/draft-07/schema", "draft-07"],
  ["json-schema.org/draft/2019-09/schema", "2019-09"],
  ["json-schema.org/draft/2020-12/schema", "2020-12"],
]);

// Without `$schema`, a validator picks its own default: the MCP specification says 2020-12, ajv's default
// export (the SDK's) is draft-07. A custom or unknown meta-schema could be any of them.
const UNSPECIFIED: readonly Dialect[] = ["draft-07", "2020-12"];

/** The unversioned meta-schema URI: a dialect URI, though it names no draft. */
const LATEST_URI = "json-schema.org/schema";

function uriKey(schema: string): string {
  return schema
    .trim()
    .replace(/^https?:\/\//, "")
    .replace(/#$/, "");
}

/** The dialects a `$schema` value may mean: one for a known draft, several when absent or unknown. */
export function dialectsOf(schema: unknown): readonly Dialect[] {
  if (schema === undefined) return UNSPECIFIED;
  if (typeof schema !== "string") return DIALECTS;
  const dialect = URIS.get(uriKey(schema));
  return dialect === undefined ? DIALECTS : [dialect];
}

/**
 * Whether a `$schema` value is a dialect URI (a JSON Schema meta-schema's). Anything else there is
 * text a model reads like a description, however URI-like: a server can write an instruction into it.
 */
export function isDialectUri(schema: unknown): boolean {
  if (typeof schema !== "string") return false;
  const key = uriKey(schema);
  return URIS.has(key) || key === LATEST_URI;
}

/** A short name for what a `$schema` value means, for messages. */
export function dialectName(schema: unknown): string {
  if (schema === undefined) return "unspecified (draft-07 or 2020-12)";
  const dialects = dialectsOf(schema);
  return dialects.length === 1 ? (dialects[0] as string) : "unknown";
}

function within(range: DialectRange | undefined, dialect: Dialect): boolean {
  if (range === undefined) return true;
  const at = DIALECTS.indexOf(dialect);
  const since = range.since === undefined ? 0 : DIALECTS.indexOf(range.since);
  const until = range.until === undefined ? DIALECTS.length - 1 : DIALECTS.indexOf(range.until);
  return at >= since && at <= until;
}

/** One keyword use whose meaning depends on the dialect: a keyword, a form of its value, or `$ref` siblings. */
interface Usage {
  readonly label: string;
  readonly applies: (dialect: Dialect) => boolean;
  readonly loosens: boolean;
}

// Up to draft-07, `$ref` overrides every keyword beside it; from 2019-09 on they apply together.
const REF_SIBLINGS: Usage = {
  label: "keywords next to $ref",
  applies: (dialect) => within({ since: "2019-09" }, dialect),
  loosens: false,
};

function formOf(value: unknown): "array" | "boolean" | "number" | undefined {
  if (Array.isArray(value)) return "array";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  return undefined;
}

function usageOf(key: string, info: KeywordInfo, value: unknown): Usage | undefined {
  const form = formOf(value);
  const formRange = form === undefined ? undefined : info.forms?.[form];
  if (info.dialects === undefined && formRange === undefined) return undefined;
  return {
    label: formRange === undefined ? key : `${key} (${form} form)`,
    applies: (dialect) => within(info.dialects, dialect) && within(formRange, dialect),
    loosens: info.loosensWhenApplied === true,
  };
}

/** Every dialect-dependent keyword use in a schema, at any depth along schema keywords, once per label. */
function usages(schema: unknown): Map<string, Usage> {
  const found = new Map<string, Usage>();
  const stack: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const node = item.value;
    if (!isObject(node) || item.depth > MAX_SCHEMA_DEPTH) continue;
    if (typeof own(node, "$ref") === "string" && hasConstrainingSiblings(node, "$ref")) {
      found.set(REF_SIBLINGS.label, REF_SIBLINGS);
    }
    for (const key of Object.keys(node)) {
      const info = keywordInfo(key);
      const usage = usageOf(key, info, node[key]);
      if (usage !== undefined && !found.has(usage.label)) found.set(usage.label, usage);
      for (const [, sub] of subschemaEntries(info, node[key])) stack.push({ value: sub, depth: item.depth + 1 });
    }
  }
  return found;
}

/** What a change of dialect does to the keywords a schema uses. */
export interface DialectShift {
  /** Uses the old dialect may apply and the new one may ignore: the schema can accept more. */
  readonly ignored: readonly string[];
  /** Uses the old dialect may ignore and the new one applies: stricter, except where applying loosens. */
  readonly applied: readonly string[];
  /** Newly applied uses that can accept more (minContains: 0). */
  readonly loosened: readonly string[];
}

/**
 * Compares what two `$schema` values make of the keywords `schema` (the new schema below the `$schema`)
 * uses. Where a side may mean several dialects, the answer assumes the worst: the old side applied whatever
 * any of its dialects applies, the new side ignores whatever any of its dialects ignores.
 */
export function dialectShift(before: unknown, after: unknown, schema: JsonObject): DialectShift {
  const was = dialectsOf(before);
  const now = dialectsOf(after);
  const ignored: string[] = [];
  const applied: string[] = [];
  const loosened: string[] = [];
  for (const usage of usages(schema).values()) {
    // Every dialect on either side reading the use alike (all apply it, or all ignore it) is no shift.
    const all = [...was, ...now];
    if (all.every(usage.applies) || all.every((d) => !usage.applies(d))) continue;
    if (was.some(usage.applies) && now.some((d) => !usage.applies(d))) {
      ignored.push(usage.label);
    } else if (now.some(usage.applies)) {
      applied.push(usage.label);
      if (usage.loosens) loosened.push(usage.label);
    }
  }
  return { ignored: ignored.sort(), applied: applied.sort(), loosened: loosened.sort() };
}
