/** `required`: a set of names where adding, dropping or requiring an undeclared name all widen. */

import { emit, keyPath, malformed, type Rule } from "../context.js";
import { isObject, type JsonObject, own } from "../json.js";
import { patternMatches } from "../regex.js";

function isNameList(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function names(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
}

/** True when the schema describes the name in properties or through a patternProperties pattern we can run. */
function declares(schema: JsonObject, name: string): boolean {
  const properties = own(schema, "properties");
  if (isObject(properties) && Object.hasOwn(properties, name)) return true;
  const patterns = own(schema, "patternProperties");
  if (!isObject(patterns)) return false;
  // An unknown match counts as undeclared: the unsafe answer here is "declared".
  return Object.keys(patterns).some((pattern) => patternMatches(pattern, name) === true);
}

/** required (set semantics; order never matters). */
export const requiredRule: Rule = {
  roles: ["required"],
  run(node) {
    if (malformed(node, "required", isNameList)) return;
    const was = names(own(node.before, "required"));
    const now = names(own(node.after, "required"));
    const path = keyPath(node, "required");
    for (const name of now) {
      if (!was.has(name)) emit(node, "required_added", path, { name });
      const undeclaredBefore = was.has(name) && !declares(node.before, name);
      if (!undeclaredBefore && !declares(node.after, name)) emit(node, "required_undeclared", path, { name });
    }
    for (const name of was) if (!now.has(name)) emit(node, "required_removed", path, { name });
  },
};
