/** Visit every sub-schema of a JSON Schema, driven by the shared keyword table, with its JSON Pointer. */

import { MAX_DEFINITION_DEPTH } from "../limits.js";
import { keywordInfo } from "../schema/keywords.js";
import { childPointer, isObject, type JsonObject, own } from "./json.js";
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

type Frame = { kind: "visit"; visit: SchemaVisit } | { kind: "leave"; node: object };

function isSchemaValue(value: unknown): value is JsonObject | boolean {
  return typeof value === "boolean" || isObject(value);
}

const CONDITION_KEYWORDS = new Set(["if", "not", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"]);

/** The sub-schemas directly under a schema object, in document order. */
function children(node: JsonObject, path: string, depth: number, inCondition: boolean): SchemaVisit[] {
  const out: SchemaVisit[] = [];
  for (const key of Object.keys(node)) {
    const value = node[key];
    const role = keywordInfo(key).role;
    const condition = inCondition || CONDITION_KEYWORDS.has(key);
    const add = (member: unknown, at: string, slot: SchemaSlot, level: number) => {
      if (isSchemaValue(member)) out.push({ node: member, path: at, slot, depth: level, owner: node, inCondition: condition });
    };
    switch (role) {
      case "schema":
      case "opaqueSchema":
      case "contains":
      case "unevaluated":
      case "restProperties":
      case "restItems":
        add(value, childPointer(path, key), { kind: "other", keyword: key }, depth + 1);
        break;
      case "schemaOrArray":
      case "schemaArray":
      case "schemaList": {
        const at = childPointer(path, key);
        // `items` may be one schema, or an array of them (the draft-07 tuple form).
        if (role === "schemaOrArray" && isSchemaValue(value)) {
          add(value, at, { kind: "other", keyword: key }, depth + 1);
        } else if (Array.isArray(value)) {
          const members = value as unknown[];
          const branch = key === "anyOf" || key === "oneOf" || key === "allOf" ? key : null;
          for (let index = 0; index < members.length; index++) {
            const slot: SchemaSlot = branch !== null ? { kind: "branch", keyword: branch, index } : { kind: "other", keyword: key };
            add(members[index], `${at}/${index}`, slot, depth + 2);
          }
        }
        break;
      }
      case "schemaMap":
      case "patternMap":
      case "dependentSchemas":
      case "dependencies":
        if (isObject(value)) {
          const at = childPointer(path, key);
          for (const name of Object.keys(value)) {
            const slot: SchemaSlot = role === "schemaMap" ? { kind: "property", name, parent: node } : { kind: "other", keyword: key };
            add(value[name], childPointer(at, name), slot, depth + 2);
          }
        }
        break;
      default:
        break;
    }
  }
  return out;
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
  const stack: Frame[] = [{ kind: "visit", visit: { node: root, path: base, slot: { kind: "root" }, depth: rootDepth, owner: null, inCondition: false } }];
  const onPath = new Set<object>();
  const reached = new Set<object>();
  if (typeof root === "object") reached.add(root);
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    if (frame.kind === "leave") {
      onPath.delete(frame.node);
      continue;
    }
    const item = frame.visit;
    if (item.depth > MAX_DEFINITION_DEPTH) continue;
    if (typeof item.node === "object" && onPath.has(item.node)) continue;
    visit(item);
    if (typeof item.node !== "object") continue;
    onPath.add(item.node);
    stack.push({ kind: "leave", node: item.node });
    const below = children(item.node, item.path, item.depth, item.inCondition);
    const ref = own(item.node, "$ref");
    const pointer = typeof ref === "string" ? localPointer(ref) : null;
    if (pointer !== null) {
      const target = resolveLocalRef(root, `#${pointer}`);
      if (isSchemaValue(target) && !(typeof target === "object" && reached.has(target))) {
        if (typeof target === "object") reached.add(target);
        const depth = rootDepth + pointer.split("/").length - 1;
        below.push({
          node: target,
          path: base + pointer,
          slot: { kind: "reference", ref: ref as string },
          depth,
          owner: item.node,
          inCondition: item.inCondition,
        });
      }
    }
    for (let index = below.length - 1; index >= 0; index--) stack.push({ kind: "visit", visit: below[index] as SchemaVisit });
  }
}
