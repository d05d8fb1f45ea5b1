/** Where a keyword holds sub-schemas, and schema-aware questions about whole sub-trees (text inside, always true). */

import { escapePointer, hasString, isObject, type JsonObject } from "./json.js";
import { isNonConstraining, type KeywordInfo, keywordInfo } from "./keywords.js";

/** Deepest schema nesting the analyzer walks; the caller already bounds input to 64 levels. */
export const MAX_SCHEMA_DEPTH = 200;

/** The sub-schemas inside one keyword's value, each with its pointer suffix relative to the keyword. */
export function subschemaEntries(info: KeywordInfo, value: unknown): Array<readonly [string, unknown]> {
  switch (info.role) {
    case "schema":
    case "opaqueSchema":
    case "restProperties":
    case "restItems":
    case "contains":
    case "unevaluated":
      return [["", value]];
    case "schemaList":
    case "schemaArray":
      return Array.isArray(value) ? value.map((v, i) => [`/${i}`, v] as const) : [];
    case "schemaOrArray":
      return Array.isArray(value) ? value.map((v, i) => [`/${i}`, v] as const) : [["", value]];
    case "schemaMap":
    case "patternMap":
    case "namedSchemas":
    case "dependentSchemas":
      return isObject(value) ? Object.keys(value).map((k) => [`/${escapePointer(k)}`, value[k]] as const) : [];
    case "dependencies":
      return isObject(value)
        ? Object.keys(value)
            .filter((k) => !Array.isArray(value[k]))
            .map((k) => [`/${escapePointer(k)}`, value[k]] as const)
        : [];
    default:
      return [];
  }
}

/**
 * True when a schema holds anything the model reads as text: strings under annotation or unknown keys, a
 * `default` of any type, or names of $defs/definitions/dependentSchemas entries. Past the depth limit it answers yes, the safe answer.
 */
export function containsText(schema: unknown, depth = 0): boolean {
  if (!isObject(schema)) return false;
  if (depth > MAX_SCHEMA_DEPTH) return true;
  for (const key of Object.keys(schema)) {
    const info = keywordInfo(key);
    const value = schema[key];
    switch (info.role) {
      case "text":
      case "unknown":
        if (hasString(value) || info.wholeValueIsText === true) return true;
        break;
      case "namedSchemas":
      case "dependentSchemas":
        if (isObject(value) && Object.keys(value).length > 0) return true;
        break;
      case "dependencies":
        if (subschemaEntries(info, value).length > 0) return true;
        break;
      default:
        for (const [, sub] of subschemaEntries(info, value)) {
          if (containsText(sub, depth + 1)) return true;
        }
    }
  }
  return false;
}

/** True when a schema accepts every instance: `true`, or an object whose keys never constrain. */
export function isTrivial(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  return Object.keys(schema).every(isNonConstraining);
}

/** The keys of two objects, each once, before's first. */
export function unionKeys(before: JsonObject, after: JsonObject): string[] {
  const keys = new Set(Object.keys(before));
  for (const key of Object.keys(after)) keys.add(key);
  return [...keys];
}

/** True when a schema object holds a keyword besides `key` that constrains (not text, not an identifier). */
export function hasConstrainingSiblings(node: JsonObject, key: string): boolean {
  return Object.keys(node).some((k) => k !== key && !isNonConstraining(k) && keywordInfo(k).role !== "reference");
}

/**
 * The words a model reads in a sub-schema that appeared whole: strings under annotation and unknown keys,
 * `enum`/`const` strings and `default` values, with their pointers (relative to the schema), in document
 * order. Names of new definitions are reported on their own (name_added) and are not repeated here.
 */
export function textEntries(schema: unknown): Array<{ at: string; text: string }> {
  const out: Array<{ at: string; text: string }> = [];
  const strings = (value: unknown, at: string): void => {
    const stack: Array<{ value: unknown; at: string }> = [{ value, at }];
    for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
      const v = item.value;
      if (typeof v === "string") out.push({ at: item.at, text: v });
      else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], at: `${item.at}/${i}` });
      else if (isObject(v)) {
        const keys = Object.keys(v);
        for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: v[keys[i] as string], at: `${item.at}/${escapePointer(keys[i] as string)}` });
      }
    }
  };
  const visit = (node: unknown, at: string, depth: number): void => {
    if (!isObject(node) || depth > MAX_SCHEMA_DEPTH) return;
    for (const key of Object.keys(node)) {
      const info = keywordInfo(key);
      const value = node[key];
      const here = `${at}/${escapePointer(key)}`;
      if (info.role === "text" || info.role === "unknown") {
        if (info.wholeValueIsText === true && typeof value !== "string") {
          if (value !== null) out.push({ at: here, text: JSON.stringify(value) ?? "null" });
        } else strings(value, here);
      } else if (info.role === "values") {
        strings(value, here);
      } else if ((info.role === "namedSchemas" || info.role === "dependentSchemas") && isObject(value)) {
        for (const name of Object.keys(value)) {
          out.push({ at: `${here}/${escapePointer(name)}`, text: name });
          visit(value[name], `${here}/${escapePointer(name)}`, depth + 1);
        }
      } else {
        for (const [suffix, sub] of subschemaEntries(info, value)) visit(sub, `${here}${suffix}`, depth + 1);
      }
    }
  };
  visit(schema, "", 0);
  return out;
}
