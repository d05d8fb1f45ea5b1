/** What a parameter schema says about itself: a type, a description, a vague name. Shared by S2, S3 and S7. */

import { isObject, type JsonObject, nonEmptyString, own } from "./json.js";

/** Most `$ref` hops followed when reading a parameter's type or description. */
const MAX_REF_HOPS = 8;

/** The schema a local `$ref` (`#`, `#/$defs/x`, any JSON Pointer) points at, or undefined. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? (node as unknown[])[Number(token)] : undefined;
    else if (isObject(node)) node = own(node, token);
    else return undefined;
  }
  return node;
}

/** The schema and the schemas it stands for: itself, its `$ref` chain, and its direct combinator members. */
function aspects(schema: JsonObject, root: unknown): JsonObject[] {
  const out: JsonObject[] = [];
  let node: unknown = schema;
  for (let hop = 0; hop < MAX_REF_HOPS && isObject(node); hop++) {
    out.push(node);
    const ref = own(node, "$ref");
    node = typeof ref === "string" ? resolveLocalRef(root, ref) : undefined;
  }
  for (const first of [...out]) {
    for (const keyword of ["anyOf", "oneOf", "allOf"]) {
      const members = own(first, keyword);
      if (Array.isArray(members)) for (const member of members as unknown[]) if (isObject(member)) out.push(member);
    }
  }
  return out;
}

const TYPE_KEYWORDS = ["type", "enum", "const", "$ref", "$dynamicRef", "$recursiveRef", "anyOf", "oneOf", "allOf", "properties", "items", "prefixItems"];

/** True when a parameter schema says what kind of value it takes (a type, enum, const, reference, combinator or shape). */
export function hasType(schema: JsonObject): boolean {
  return TYPE_KEYWORDS.some((keyword) => own(schema, keyword) !== undefined);
}

/** True when a parameter schema, its reference target or one of its direct branches carries a non-empty description. */
export function hasDescription(schema: JsonObject, root: unknown): boolean {
  if (nonEmptyString(own(schema, "description")) !== null) return true;
  return aspects(schema, root).some((node) => nonEmptyString(own(node, "description")) !== null);
}

/**
 * True when a parameter schema allows exactly one value (`const`, or an `enum` of one): a
 * discriminator such as `"type": {"enum": ["text"]}` leaves the model no choice to explain.
 */
export function pinsOneValue(schema: JsonObject): boolean {
  if (Object.hasOwn(schema, "const")) return true;
  const values = own(schema, "enum");
  return Array.isArray(values) && values.length === 1;
}

// Names that say nothing about the value on their own; with a description they are fine.
const VAGUE = new Set("id ids user data q value val input obj item info param params arg args payload x s str".split(" "));

/** True for a parameter name that says too little without a description (`id`, `data`, `q`, a single letter). */
export function isVagueName(name: string): boolean {
  return name.length === 1 || VAGUE.has(name.toLowerCase());
}
