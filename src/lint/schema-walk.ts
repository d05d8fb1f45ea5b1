/** Visit every sub-schema of a JSON Schema, driven by the shared keyword table, with its JSON Pointer. */

import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { type KeywordRole, keywordsWithRole } from "../schema/keywords.js";
import { isObject, type JsonObject, own, pointerToken } from "./json.js";
import { resolveLocalRef } from "./params.js";

/** How the walker reached a sub-schema. */
export type SchemaSlot =
  | { kind: "root" }
  /** A property of `properties`: a named parameter or field. */
  | { kind: "property"; name: string; parent: JsonObject }
  /** A member of `anyOf`, `oneOf` or `allOf`. */
  | { kind: "branch"; keyword: "anyOf" | "oneOf" | "allOf"; index: number }
  /** The target of a local `$ref`, visited once where it is defined. */
  | { kind: "reference"; ref: string }
  /** Any other sub-schema position (`items`, `not`, `patternProperties/x`, ...). */
  | { kind: "other"; keyword: string };

/** One sub-schema the walker visits. */
export interface SchemaVisit {
  node: JsonObject | boolean;
  path: string;
  slot: SchemaSlot;
  /** Nesting level in the tool definition (the tool object is level 1). */
  depth: number;
  /** The schema object this one sits in, null at the root. */
  owner: JsonObject | null;
  /**
   * Reached through `if`, `not`, `contains`, `propertyNames` or `unevaluated*`: a condition on the
   * instance, not a declaration of what it holds.
   */
  inCondition: boolean;
}

function isSchemaValue(value: unknown): value is JsonObject | boolean {
  return typeof value === "boolean" || isObject(value);
}

// How a keyword's value holds sub-schemas, from the shared keyword table, looked up once per key.
const ONE = 1; // one schema
const ONE_OR_LIST = 2; // one schema, or a list of them (`items`)
const LIST = 3; // a list of schemas
const PROPERTIES = 4; // a map of named properties
const MAP = 5; // another map of schemas
const SHAPE_MASK = 7;
const CONDITION = 8; // reached as a condition on the instance

const CONDITION_KEYWORDS = new Set(["if", "not", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);

const SHAPES: readonly [KeywordRole, number][] = [
  ["schema", ONE],
  ["opaqueSchema", ONE],
  ["contains", ONE],
  ["unevaluated", ONE],
  ["restProperties", ONE],
  ["restItems", ONE],
  ["schemaOrArray", ONE_OR_LIST],
  ["schemaArray", LIST],
  ["schemaList", LIST],
  ["schemaMap", PROPERTIES],
  ["patternMap", MAP],
  ["dependentSchemas", MAP],
  ["dependencies", MAP],
];

/** Keywords that hold sub-schemas, with their shape and condition flag; every other key holds none. */
const SUBSCHEMA_KEYWORDS: ReadonlyMap<string, number> = new Map(
  SHAPES.flatMap(([role, shape]) => keywordsWithRole(role).map((key): [string, number] => [key, shape | (CONDITION_KEYWORDS.has(key) ? CONDITION : 0)])),
);

// Slots carry no per-node data except for properties and branches; the rest are shared (slots are read, never changed).
const ROOT_SLOT: SchemaSlot = Object.freeze({ kind: "root" });
const otherSlots = new Map<string, SchemaSlot>();
function otherSlot(keyword: string): SchemaSlot {
  let slot = otherSlots.get(keyword);
  if (slot === undefined) {
    slot = Object.freeze({ kind: "other", keyword });
    otherSlots.set(keyword, slot);
  }
  return slot;
}
const branchSlots: Record<"anyOf" | "oneOf" | "allOf", SchemaSlot[]> = { anyOf: [], oneOf: [], allOf: [] };
function branchSlot(keyword: "anyOf" | "oneOf" | "allOf", index: number): SchemaSlot {
  // Real schemas have a handful of branches; a hostile list gets fresh slots past the first 64.
  if (index >= 64) return { kind: "branch", keyword, index };
  const list = branchSlots[keyword];
  let slot = list[index];
  if (slot === undefined) {
    slot = Object.freeze({ kind: "branch", keyword, index });
    list[index] = slot;
  }
  return slot;
}

/** A JSON Pointer one step below `parent`, for a key known to be a string. */
function below(parent: string, key: string): string {
  return `${parent}/${key.includes("~") || key.includes("/") ? pointerToken(key) : key}`;
}

/**
 * Push the sub-schemas directly under a schema object onto `out`, in document order. Keys that
 * cannot hold a sub-schema cost one map lookup; nothing is allocated for them. Plain indexed loops
 * and inline checks: this runs once per schema node of every tool, mostly before any optimization.
 */
function children(node: JsonObject, path: string, depth: number, inCondition: boolean, out: SchemaVisit[]): void {
  const keys = Object.keys(node);
  for (let at = 0; at < keys.length; at++) {
    const key = keys[at] as string;
    const kind = SUBSCHEMA_KEYWORDS.get(key);
    if (kind === undefined) continue;
    const value = node[key];
    const shape = kind & SHAPE_MASK;
    const condition = inCondition || (kind & CONDITION) !== 0;
    const isArray = Array.isArray(value);
    const schema = typeof value === "boolean" || (typeof value === "object" && value !== null && !isArray);
    if (shape === ONE || (shape === ONE_OR_LIST && schema)) {
      // `items` may be one schema, or an array of them (the draft-07 tuple form).
      if (schema)
        out.push({ node: value as JsonObject | boolean, path: below(path, key), slot: otherSlot(key), depth: depth + 1, owner: node, inCondition: condition });
    } else if (shape === ONE_OR_LIST || shape === LIST) {
      if (!isArray) continue;
      const members = value as unknown[];
      const prefix = below(path, key);
      const branch = key === "anyOf" || key === "oneOf" || key === "allOf" ? key : null;
      for (let index = 0; index < members.length; index++) {
        const member = members[index];
        if (typeof member !== "boolean" && (typeof member !== "object" || member === null || Array.isArray(member))) continue;
        const slot = branch !== null ? branchSlot(branch, index) : otherSlot(key);
        out.push({ node: member as JsonObject | boolean, path: `${prefix}/${index}`, slot, depth: depth + 2, owner: node, inCondition: condition });
      }
    } else if (schema && typeof value === "object") {
      const map = value as JsonObject;
      const prefix = below(path, key);
      const names = Object.keys(map);
      for (let index = 0; index < names.length; index++) {
        const name = names[index] as string;
        const member = map[name];
        if (typeof member !== "boolean" && (typeof member !== "object" || member === null || Array.isArray(member))) continue;
        const slot: SchemaSlot = shape === PROPERTIES ? { kind: "property", name, parent: node } : otherSlot(key);
        out.push({ node: member as JsonObject | boolean, path: below(prefix, name), slot, depth: depth + 2, owner: node, inCondition: condition });
      }
    }
  }
}

/** The pointer (below the schema root) of a local reference, or null for anything else. */
function localPointer(ref: string): string | null {
  if (ref === "#") return "";
  if (!ref.startsWith("#/")) return null;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return null;
  }
}

/**
 * Call `visit` on a schema and every sub-schema reachable from it, parents before children, in
 * document order. Definitions (`$defs`, `definitions`) are visited only when a local `$ref` reaches
 * them, once each, at their own pointer: a server that ships every definition with every tool is
 * judged on what each tool uses. Stops at the definition depth limit and never loops.
 */
export function walkSchema(root: unknown, base: string, rootDepth: number, visit: (item: SchemaVisit) => void): void {
  if (!isSchemaValue(root)) return;
  // Pending visits, with null marking where a schema's subtree ends (its node then leaves `path`).
  const stack: (SchemaVisit | null)[] = [{ node: root, path: base, slot: ROOT_SLOT, depth: rootDepth, owner: null, inCondition: false }];
  const path: object[] = [];
  const onPath = new Set<object>();
  const reached = new Set<object>();
  if (typeof root === "object") reached.add(root);
  const next: SchemaVisit[] = [];
  while (stack.length > 0) {
    const item = stack.pop() as SchemaVisit | null;
    if (item === null) {
      onPath.delete(path.pop() as object);
      continue;
    }
    if (item.depth > MAX_DEFINITION_DEPTH) continue;
    const node = item.node;
    if (typeof node !== "object") {
      visit(item);
      continue;
    }
    if (onPath.has(node)) continue;
    visit(item);
    onPath.add(node);
    path.push(node);
    stack.push(null);
    next.length = 0;
    children(node, item.path, item.depth, item.inCondition, next);
    const ref = own(node, "$ref");
    const pointer = typeof ref === "string" ? localPointer(ref) : null;
    if (pointer !== null) {
      const target = resolveLocalRef(root, `#${pointer}`);
      if (isSchemaValue(target) && !(typeof target === "object" && reached.has(target))) {
        if (typeof target === "object") reached.add(target);
        const depth = rootDepth + pointer.split("/").length - 1;
        next.push({
          node: target,
          path: base + pointer,
          slot: { kind: "reference", ref: ref as string },
          depth,
          owner: node,
          inCondition: item.inCondition,
        });
      }
    }
    for (let index = next.length - 1; index >= 0; index--) stack.push(next[index] as SchemaVisit);
  }
}
