/** $defs and definitions: compared per name where they sit; a new name is text, a removed one structural. */

import { descend, emit, malformed, type Rule, textRemoved } from "../context.js";
import { childPath, isObject, type JsonObject, own } from "../json.js";
import { unionKeys } from "../shape.js";

function map(schema: JsonObject, key: string): JsonObject {
  const value = own(schema, key);
  return isObject(value) ? value : {};
}

// Without resolving $ref we compare each definition in place: a widened definition widens wherever it is used.
/** $defs, definitions. */
export const definitionsRule: Rule = {
  roles: ["namedSchemas"],
  run(node, keys) {
    for (const key of keys) {
      if (malformed(node, key, isObject)) continue;
      const before = map(node.before, key);
      const after = map(node.after, key);
      const base = childPath(node.path, key);
      for (const name of unionKeys(before, after)) {
        const path = childPath(base, name);
        if (Object.hasOwn(before, name) && Object.hasOwn(after, name)) {
          descend(node, before[name], after[name], path);
        } else if (Object.hasOwn(after, name)) {
          emit(node, "name_added", path, { keyword: key, name });
        } else {
          emit(node, "definition_removed", path, { keyword: key, name });
          textRemoved(node, path, before[name]);
        }
      }
    }
  },
};
