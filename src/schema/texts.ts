/** Every string of a JSON Schema that a model reads, with its JSON Pointer, found from the keyword table. Pure. */

import { escapePointer, isObject } from "./json.js";
import { keywordInfo } from "./keywords.js";
import { MAX_SCHEMA_DEPTH, subschemaEntries } from "./shape.js";

/** One string a model reads and where it sits. */
export interface SchemaText {
  /** JSON Pointer of the string (for a property or definition name: of the schema it names). */
  path: string;
  text: string;
}

/**
 * The strings of a schema in document order: names of properties and definitions, text keywords
 * (description, title, default, examples...), enum and const values, and the strings under unknown
 * keys (the model reads those too). Numbers, booleans and null are not text; neither are types,
 * patterns, formats or `required` (it repeats property names). `path` is the schema's own pointer.
 */
export function schemaTexts(schema: unknown, path: string): SchemaText[] {
  const out: SchemaText[] = [];
  collect(schema, path, out, 0);
  return out;
}

function collect(schema: unknown, path: string, out: SchemaText[], depth: number): void {
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return;
  for (const key of Object.keys(schema)) {
    const info = keywordInfo(key);
    const value = schema[key];
    const at = `${path}/${escapePointer(key)}`;
    switch (info.role) {
      case "text":
      case "unknown":
      case "values":
        strings(value, at, out, depth);
        break;
      case "schemaMap":
      case "patternMap":
      case "namedSchemas":
      case "dependentSchemas":
      case "dependencies":
        // The names are text the model reads ("path", "notes"); each names the schema below it.
        for (const [suffix, sub] of subschemaEntries(info, value)) {
          out.push({ path: `${at}${suffix}`, text: suffix.slice(1).replace(/~1/g, "/").replace(/~0/g, "~") });
          collect(sub, `${at}${suffix}`, out, depth + 1);
        }
        break;
      default:
        for (const [suffix, sub] of subschemaEntries(info, value)) collect(sub, `${at}${suffix}`, out, depth + 1);
    }
  }
}

/** The strings inside a value (a string, or strings nested in arrays and objects), each at its pointer. */
function strings(value: unknown, path: string, out: SchemaText[], depth: number): void {
  if (typeof value === "string") {
    out.push({ path, text: value });
  } else if (depth <= MAX_SCHEMA_DEPTH && Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) strings(value[index], `${path}/${index}`, out, depth + 1);
  } else if (depth <= MAX_SCHEMA_DEPTH && isObject(value)) {
    for (const key of Object.keys(value)) strings(value[key], `${path}/${escapePointer(key)}`, out, depth + 1);
  }
}
