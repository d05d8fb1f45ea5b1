/** `type`, `enum` and `const`: set comparisons where anything newly allowed widens and anything dropped narrows. */

import { emit, keyPath, malformed, type Rule, type SchemaNode } from "../context.js";
import { showValue } from "../finding.js";
import { canonical, deepEqual, type JsonObject, own } from "../json.js";
import { keywordInfo } from "../keywords.js";

// A hostile enum of 100k values must not become 100k findings; the rest is summarised in one.
const MAX_VALUE_FINDINGS = 25;

/** type, enum, const. */
export const valuesRule: Rule = {
  roles: ["type", "values"],
  run(node, keys) {
    if (keys.includes("type")) compareType(node);
    if (keys.some((k) => keywordInfo(k).role === "values")) compareValues(node);
  },
};

function isTypeValue(value: unknown): boolean {
  return typeof value === "string" || (Array.isArray(value) && value.every((t) => typeof t === "string"));
}

function typeSet(value: unknown): Set<string> {
  return new Set(typeof value === "string" ? [value] : Array.isArray(value) ? value.map(String) : []);
}

/**
 * The types as the schema admits them: `number` with a whole `multipleOf` admits integers only, so
 * `type: "number", multipleOf: 2` becoming `type: "integer"` is no change of type (the step is the limits rule's).
 */
function wholeTypes(schema: JsonObject, types: Set<string>): Set<string> {
  const step = own(schema, "multipleOf");
  if (!types.has("number") || typeof step !== "number" || !Number.isSafeInteger(step) || step <= 0) return types;
  return new Set([...types].map((t) => (t === "number" ? "integer" : t)));
}

/** A type is accepted by a set if it is in it, or it is `integer` and the set has `number`. */
function accepts(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

function compareType(node: SchemaNode): void {
  const before = own(node.before, "type");
  const after = own(node.after, "type");
  if (deepEqual(before, after) || malformed(node, "type", isTypeValue)) return;
  const path = keyPath(node, "type");
  // Where one side lists its values, a type the other side drops or adds only repeats what those values
  // already say (`type: "string", enum: ["a"]` and `anyOf: [{const: "a"}]`); new values are compareValues' job.
  if (valuesWithin(node.after, before) && valuesWithin(node.before, after)) return;
  if (before === undefined) {
    emit(node, "type_added", path, { after: showValue(after) });
    return;
  }
  if (after === undefined) {
    emit(node, "type_removed", path, { before: showValue(before) });
    return;
  }
  const was = wholeTypes(node.before, typeSet(before));
  const now = wholeTypes(node.after, typeSet(after));
  for (const type of now) if (!accepts(was, type)) emit(node, "type_widened", path, { type });
  for (const type of was) if (!accepts(now, type)) emit(node, "type_narrowed", path, { type });
}

/** The JSON type of a value, `integer` for whole numbers. */
function valueType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/**
 * True when `type` is absent, or admits every value the schema lists through `enum`/`const`: then that
 * `type` rejects nothing the schema would accept.
 */
function valuesWithin(schema: JsonObject, type: unknown): boolean {
  if (type === undefined) return true;
  const { values } = allowed(schema);
  if (values === undefined) return false;
  const types = typeSet(type);
  return [...values.values()].every((v) => accepts(types, valueType(v)));
}

interface Allowed {
  /** Canonical text -> value; undefined means no value constraint. */
  readonly values: Map<string, unknown> | undefined;
  /** The keyword that set the constraint (const wins when both are present). */
  readonly source: "enum" | "const" | undefined;
}

/** The values a schema allows through enum and const together (their intersection when both are present). */
function allowed(schema: JsonObject): Allowed {
  const hasConst = Object.hasOwn(schema, "const");
  const list = own(schema, "enum");
  const enumValues = Array.isArray(list) ? new Map(list.map((v) => [canonical(v), v] as const)) : undefined;
  if (hasConst) {
    const value = own(schema, "const");
    const key = canonical(value);
    const values = new Map<string, unknown>();
    if (enumValues === undefined || enumValues.has(key)) values.set(key, value);
    return { values, source: "const" };
  }
  return enumValues === undefined ? { values: undefined, source: undefined } : { values: enumValues, source: "enum" };
}

function compareValues(node: SchemaNode): void {
  const sameEnum = deepEqual(own(node.before, "enum"), own(node.after, "enum"));
  const sameConst = deepEqual(own(node.before, "const"), own(node.after, "const"));
  if (sameEnum && sameConst) return;
  // A malformed enum is reported, then read as absent (what lenient validators do) so const still counts.
  malformed(node, "enum", Array.isArray);
  const was = allowed(node.before);
  const now = allowed(node.after);
  if (was.values === undefined && now.values === undefined) return;
  if (was.values === undefined) {
    const source = now.source ?? "enum";
    emit(node, source === "const" ? "const_added" : "enum_added", keyPath(node, source));
    return;
  }
  const beforePath = keyPath(node, was.source ?? "enum");
  if (now.values === undefined) {
    emit(node, was.source === "const" ? "const_removed" : "enum_removed", beforePath);
    return;
  }
  const afterPath = keyPath(node, now.source ?? "enum");
  // Prefer the enum's path when the after schema lists values there (const+enum together is rare).
  const addedPath = Object.hasOwn(node.after, "enum") ? keyPath(node, "enum") : afterPath;
  const added = [...now.values.entries()].filter(([key]) => !was.values?.has(key));
  const dropped = [...was.values.entries()].filter(([key]) => !now.values?.has(key));
  if (was.source === "const" && now.source === "const" && added.length > 0) {
    emit(node, "const_changed", afterPath, {
      before: showValue(own(node.before, "const")),
      after: showValue(own(node.after, "const")),
    });
    return;
  }
  emitValues(node, "enum_value_added", addedPath, added);
  emitValues(node, "enum_value_removed", beforePath, dropped);
}

function emitValues(
  node: SchemaNode,
  reason: "enum_value_added" | "enum_value_removed",
  path: string,
  entries: ReadonlyArray<readonly [string, unknown]>,
): void {
  for (const [, value] of entries.slice(0, MAX_VALUE_FINDINGS)) emit(node, reason, path, { value: showValue(value) });
  if (entries.length > MAX_VALUE_FINDINGS) {
    emit(node, reason, path, { value: "...", more: entries.length - MAX_VALUE_FINDINGS });
  }
}
