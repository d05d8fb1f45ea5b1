/** prefixItems, items (schema or draft-07 tuple), additionalItems and contains, judged position by position. */

import { compareSlot, descend, emit, keyPath, malformed, narrowerOrEqual, type Rule, type SchemaNode, sidePath, textAdded } from "../context.js";
import { sameValidation } from "../finding.js";
import { childPath, isEmptySchema, type JsonObject, own } from "../json.js";

/** prefixItems, items, additionalItems, contains. */
export const arraysRule: Rule = {
  roles: ["schemaArray", "schemaOrArray", "restItems", "contains"],
  run(node, keys) {
    // A non-array prefixItems is reported, then read as absent so items still gets compared.
    malformed(node, "prefixItems", Array.isArray);
    compareTuple(node);
    if (keys.includes("contains")) compareContains(node);
  },
};

/** An array schema as a tuple: per-position schemas, then one schema for every later position. */
interface Tuple {
  readonly prefix: readonly unknown[];
  readonly prefixKey: string;
  /** Schema for positions past the prefix; undefined = absent (accepts anything). */
  readonly rest: unknown;
  readonly restKey: string;
  /** additionalItems present but ignored (items is not a draft-07 tuple). */
  readonly stray: unknown;
}

function tuple(schema: JsonObject): Tuple {
  const prefixItems = own(schema, "prefixItems");
  const items = own(schema, "items");
  const additional = own(schema, "additionalItems");
  if (Array.isArray(prefixItems)) {
    return { prefix: prefixItems, prefixKey: "prefixItems", rest: items, restKey: "items", stray: additional };
  }
  if (Array.isArray(items)) {
    return { prefix: items, prefixKey: "items", rest: additional, restKey: "additionalItems", stray: undefined };
  }
  return { prefix: [], prefixKey: "prefixItems", rest: items, restKey: "items", stray: additional };
}

function compareTuple(node: SchemaNode): void {
  const was = tuple(node.before);
  const now = tuple(node.after);
  const beforeBase = sidePath(node, "before", was.prefixKey);
  const afterBase = sidePath(node, "after", now.prefixKey);
  const shared = Math.min(was.prefix.length, now.prefix.length);
  for (let i = 0; i < shared; i++) descend(node, was.prefix[i], now.prefix[i], childPath(afterBase, i));

  // The tuple grew: position i used to fall under the old rest schema.
  for (let i = shared; i < now.prefix.length; i++) {
    const path = childPath(afterBase, i);
    const item = now.prefix[i];
    const open = isEmptySchema(was.rest) || narrowerOrEqual(node, was.rest === undefined ? true : was.rest, item, path);
    emit(node, open ? "tuple_item_added" : "tuple_extended", path, { index: i });
    textAdded(node, path, item);
  }

  // The tuple shrank: position i now falls under the new rest schema.
  for (let i = shared; i < was.prefix.length; i++) {
    const path = childPath(beforeBase, i);
    const item = was.prefix[i];
    const covered = narrowerOrEqual(node, item, now.rest === undefined ? true : now.rest, path);
    emit(node, covered ? "tuple_item_removed_covered" : "tuple_item_removed", path, { index: i });
  }

  const restKey = now.rest !== undefined ? now.restKey : was.restKey;
  compareSlot(node, was.rest, now.rest, keyPath(node, restKey), restKey, "additional_allowed");
  // additionalItems next to a non-tuple items is ignored by validators; still report its changes.
  compareSlot(node, was.stray, now.stray, keyPath(node, "additionalItems"), "additionalItems", "additional_allowed");
}

/**
 * contains is monotone (stricter inside = fewer matches = harder to reach minContains) unless maxContains
 * caps the matches: then fewer matches can pass where more failed, so any non-text change widens.
 */
function compareContains(node: SchemaNode): void {
  const before = own(node.before, "contains");
  const after = own(node.after, "contains");
  const path = keyPath(node, "contains");
  // Even `contains: {}` constrains (at least one item), so absent is never the same as empty here.
  if (before === undefined) {
    emit(node, "subschema_added", path, { keyword: "contains" });
    textAdded(node, path, after);
    return;
  }
  if (after === undefined) {
    emit(node, "subschema_removed", path, { keyword: "contains" });
    return;
  }
  const capped = Object.hasOwn(node.before, "maxContains") || Object.hasOwn(node.after, "maxContains");
  if (!capped) {
    descend(node, before, after, path);
    return;
  }
  const findings = node.engine.strict(() => node.engine.diff(before, after, path, node.depth + 1));
  for (const f of findings) if (f.kind === "text") node.out.push(f);
  if (!sameValidation(findings)) emit(node, "contains_changed", path);
}
