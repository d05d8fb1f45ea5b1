/** dependentRequired, dependentSchemas and draft-07 dependencies: per property name that triggers them. */

import { compareSlot, emit, keyPath, malformed, type Rule, type SchemaNode } from "../context.js";
import { canonical, childPath, isEmptySchema, isObject, type JsonObject, own } from "../json.js";
import { keywordInfo } from "../keywords.js";
import { unionKeys } from "../shape.js";

/** dependentRequired, dependentSchemas, dependencies. */
export const dependenciesRule: Rule = {
  roles: ["dependentRequired", "dependentSchemas", "dependencies"],
  run(node, keys) {
    for (const key of keys) {
      if (malformed(node, key, isObject)) continue;
      const before = asMap(own(node.before, key));
      const after = asMap(own(node.after, key));
      const role = keywordInfo(key).role;
      for (const name of unionKeys(before, after)) {
        const path = childPath(keyPath(node, key), name);
        const b = own(before, name);
        const a = own(after, name);
        if (role === "dependentRequired") compareNames(node, b, a, path, name);
        else if (role === "dependentSchemas") compareSchemaEntry(node, key, b, a, path, name);
        else compareDependency(node, key, b, a, path, name);
      }
    }
  },
};

function asMap(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/**
 * Names required when the trigger is present; any change to the set asks for something different. More names
 * than before only ask for more; fewer or other names (or a malformed list) also accept more.
 */
function compareNames(node: SchemaNode, before: unknown, after: unknown, path: string, name: string): void {
  if (nameSetKey(before) === nameSetKey(after)) return;
  const more = (before === undefined || isNameList(before)) && isNameList(after) && includesAll(after, before);
  emit(node, more ? "dependent_required_added" : "dependent_required_changed", path, { name });
}

function isNameList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** True when every name in `some` (absent = none) is also in `all`. */
function includesAll(all: readonly unknown[], some: unknown): boolean {
  return !Array.isArray(some) || some.every((v) => all.includes(v));
}

function nameSetKey(value: unknown): string {
  if (value === undefined) return "";
  if (!Array.isArray(value)) return `!${canonical(value)}`;
  return canonical([...new Set(value.map((v) => canonical(v)))].sort());
}

/** A schema applied when the trigger is present: added narrows (its name is text), removed widens. */
function compareSchemaEntry(node: SchemaNode, key: string, before: unknown, after: unknown, path: string, name: string): void {
  if (before === undefined && after !== undefined) {
    emit(node, "dependent_schema_added", path, { name });
    emit(node, "name_added", path, { keyword: key, name });
    return;
  }
  if (after === undefined && before !== undefined) {
    if (!isEmptySchema(before)) emit(node, "dependent_schema_removed", path, { name });
    return;
  }
  compareSlot(node, before, after, path, key);
}

/** draft-07 dependencies: each entry is a name list or a schema, and may switch between the two. */
function compareDependency(node: SchemaNode, key: string, before: unknown, after: unknown, path: string, name: string): void {
  const beforeList = Array.isArray(before);
  const afterList = Array.isArray(after);
  if (beforeList || afterList) {
    compareNames(node, beforeList ? before : undefined, afterList ? after : undefined, path, name);
    // Whichever side is not a list still holds a schema (or nothing) to compare.
    compareSchemaEntry(node, key, beforeList ? undefined : before, afterList ? undefined : after, path, name);
    return;
  }
  compareSchemaEntry(node, key, before, after, path, name);
}
