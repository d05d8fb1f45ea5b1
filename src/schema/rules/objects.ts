/** properties, patternProperties and additionalProperties, judged together: each decides what the others cover. */

import { compareSlot, descend, emit, keyPath, malformed, narrowerOrEqual, type Rule, type SchemaNode, textAdded } from "../context.js";
import { childPath, isEmptySchema, isObject, type JsonObject, own } from "../json.js";
import { patternMatches } from "../regex.js";
import { unionKeys } from "../shape.js";

/** properties, patternProperties, additionalProperties. */
export const objectsRule: Rule = {
  roles: ["schemaMap", "patternMap", "restProperties"],
  run(node) {
    const badProperties = malformed(node, "properties", isObject);
    const badPatterns = malformed(node, "patternProperties", isObject);
    if (!badProperties) compareProperties(node);
    if (!badPatterns) comparePatterns(node);
    compareSlot(
      node,
      own(node.before, "additionalProperties"),
      own(node.after, "additionalProperties"),
      keyPath(node, "additionalProperties"),
      "additionalProperties",
      "additional_allowed",
    );
  },
};

function map(schema: JsonObject, key: string): JsonObject {
  const value = own(schema, key);
  return isObject(value) ? value : {};
}

/** What additionalProperties holds names to; absent means `true` (a null stays null, an invalid value). */
function restSchema(schema: JsonObject): unknown {
  return Object.hasOwn(schema, "additionalProperties") ? own(schema, "additionalProperties") : true;
}

function compareProperties(node: SchemaNode): void {
  const before = map(node.before, "properties");
  const after = map(node.after, "properties");
  const base = keyPath(node, "properties");
  for (const name of unionKeys(before, after)) {
    const path = childPath(base, name);
    const inBefore = Object.hasOwn(before, name);
    const inAfter = Object.hasOwn(after, name);
    if (inBefore && inAfter) {
      descend(node, before[name], after[name], path);
    } else if (inAfter) {
      // A new parameter always asks the model for more; where the old schema rejected the name (or held it
      // to something else) it also accepts values that were rejected.
      const covered = addedNameCovered(node, name, after[name], path);
      const facts = { name, type: typeName(after[name]), required: requires(node.after, name) ? "required" : "optional" };
      emit(node, covered ? "property_added" : "property_added_accepts_more", path, facts);
      textAdded(node, path, after[name]);
    } else if (removedNameCovered(node, name, before[name], path)) {
      emit(node, "property_removed", path, { name });
    } else if (heldOnlyByRest(node, name)) {
      // Still a widening to a validator (proofs and `not`/`if` rely on it); compareSchemas reports it as a
      // removed parameter where the model reads the schema as parameters (see reportRemovedParameters).
      emit(node, "property_removed_open", path, { name });
    } else {
      emit(node, "property_removed_unconstrained", path, { name });
    }
  }
}

/**
 * True when, in `after`, a property named `name` (no longer listed in properties) is held to something at
 * least as strict as `was`: a matching pattern's schema, or additionalProperties when no pattern matches.
 */
function removedNameCovered(node: SchemaNode, name: string, was: unknown, path: string): boolean {
  const patterns = map(node.after, "patternProperties");
  const matched: unknown[] = [];
  const unsure: unknown[] = [];
  for (const pattern of Object.keys(patterns)) {
    const hit = patternMatches(pattern, name);
    if (hit === true) matched.push(patterns[pattern]);
    else if (hit === undefined) unsure.push(patterns[pattern]);
  }
  const narrower = (schema: unknown): boolean => narrowerOrEqual(node, was, schema, path);
  // Every matching pattern applies, so one of them being strict enough is enough.
  if (matched.some(narrower)) return true;
  if (matched.length > 0) return false;
  return narrower(restSchema(node.after)) && unsure.every(narrower);
}

/**
 * True when a property now listed under `name` accepts no value the old schema accepted for it: the old
 * schema held the name to its matching patterns' schemas, or to additionalProperties when none matched, and
 * the new property schema is at least as strict as each. unevaluatedProperties reads which names are listed,
 * so next to it a new name never counts as covered.
 */
function addedNameCovered(node: SchemaNode, name: string, now: unknown, path: string): boolean {
  if (Object.hasOwn(node.before, "unevaluatedProperties") || Object.hasOwn(node.after, "unevaluatedProperties")) {
    return false;
  }
  const patterns = map(node.before, "patternProperties");
  const matched: unknown[] = [];
  for (const pattern of Object.keys(patterns)) {
    const hit = patternMatches(pattern, name);
    // Not knowing whether a pattern applied, require the new schema to be as strict as it too.
    if (hit !== false) matched.push(patterns[pattern]);
  }
  const implied = (schema: unknown): boolean => isEmptySchema(schema) || narrowerOrEqual(node, schema, now, path);
  if (!matched.every(implied)) return false;
  return matched.length > 0 || implied(restSchema(node.before));
}

function comparePatterns(node: SchemaNode): void {
  const before = map(node.before, "patternProperties");
  const after = map(node.after, "patternProperties");
  const base = keyPath(node, "patternProperties");
  for (const pattern of unionKeys(before, after)) {
    const path = childPath(base, pattern);
    const inBefore = Object.hasOwn(before, pattern);
    const inAfter = Object.hasOwn(after, pattern);
    if (inBefore && inAfter) {
      descend(node, before[pattern], after[pattern], path);
    } else if (inAfter) {
      // It may match names additionalProperties used to reject.
      emit(node, "pattern_property_added", path, { pattern });
      textAdded(node, path, after[pattern]);
    } else {
      const covered = removedPatternCovered(node, pattern, before[pattern], path);
      emit(node, covered ? "pattern_property_removed" : "pattern_property_removed_unconstrained", path, { pattern });
    }
  }
}

/**
 * True when every name the removed pattern covered is still held to something at least as strict as `was`.
 * We cannot tell which names two patterns share, so every remaining pattern must itself be that strict.
 */
function removedPatternCovered(node: SchemaNode, pattern: string, was: unknown, path: string): boolean {
  const narrower = (schema: unknown): boolean => narrowerOrEqual(node, was, schema, path);
  if (!narrower(restSchema(node.after))) return false;
  const patterns = map(node.after, "patternProperties");
  if (!Object.keys(patterns).every((p) => narrower(patterns[p]))) return false;
  const properties = map(node.after, "properties");
  return Object.keys(properties).every((name) => patternMatches(pattern, name) === false || narrower(properties[name]));
}

/**
 * True when, in `after`, a name no longer in properties is held only by additionalProperties: no pattern
 * matches it (or may), and no unevaluatedProperties reads which names are listed.
 */
function heldOnlyByRest(node: SchemaNode, name: string): boolean {
  if (Object.hasOwn(node.after, "unevaluatedProperties") || Object.hasOwn(node.before, "unevaluatedProperties")) return false;
  const patterns = map(node.after, "patternProperties");
  return Object.keys(patterns).every((pattern) => patternMatches(pattern, name) === false);
}

/** True when a schema object lists `name` in `required`. */
function requires(schema: JsonObject, name: string): boolean {
  const list = own(schema, "required");
  return Array.isArray(list) && list.includes(name);
}

/** The type a parameter schema names, for a message: `string`, `string | null`, or `any`. */
function typeName(schema: unknown): string {
  if (!isObject(schema)) return schema === false ? "never" : "any";
  const type = own(schema, "type");
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type.join(" | ");
  if (Object.hasOwn(schema, "$ref")) return "reference";
  if (Object.hasOwn(schema, "enum") || Object.hasOwn(schema, "const")) return "enum";
  return "any";
}
