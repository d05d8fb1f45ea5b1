/** Values built from a schema: placeholders for a starter fixtures file, and the valid background of a generated error probe. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import { resolveSchema } from "./tools.js";

/** Nesting followed when building an object or array value; deeper parts are left empty. */
const MAX_SAMPLE_DEPTH = 6;
/** Items built for an array with `minItems`; a larger minimum is not met (the check then says so). */
const MAX_SAMPLE_ITEMS = 3;

/** The single type a schema asks for: its `type` (the first that is not "null" in a list), or one read from its shape. */
export function schemaType(schema: JsonObject): string | null {
  const type = ownField(schema, "type");
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const named = type.filter((item): item is string => typeof item === "string");
    return named.find((item) => item !== "null") ?? named[0] ?? null;
  }
  if (isJsonObject(ownField(schema, "properties"))) return "object";
  if (ownField(schema, "items") !== undefined) return "array";
  return null;
}

/**
 * A value for a parameter, as a person would start to fill it in: the schema's `const`, first enum
 * value, `default` or first example when it has one, otherwise a value of the right type (strings
 * as `<name>`). Objects get their required properties. `root` resolves local references.
 */
export function sampleValue(schema: unknown, root: unknown, name: string, depth = 0): unknown {
  const node = resolveSchema(schema, root);
  if (node === null) return `<${name}>`;
  if (Object.hasOwn(node, "const")) return ownField(node, "const");
  const values = ownField(node, "enum");
  if (Array.isArray(values) && values.length > 0) return values[0];
  const fallback = ownField(node, "default");
  if (fallback !== undefined) return fallback;
  const examples = ownField(node, "examples");
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = ownField(node, keyword);
    if (!Array.isArray(branches)) continue;
    const branch = branches.find((item) => isJsonObject(item) && ownField(item, "type") !== "null") ?? branches[0];
    if (branch !== undefined) return sampleValue(branch, root, name, depth + 1);
  }
  switch (schemaType(node)) {
    case "integer":
    case "number":
      return numberSample(node);
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const min = ownField(node, "minItems");
      const count = typeof min === "number" && min > 0 ? Math.min(Math.ceil(min), MAX_SAMPLE_ITEMS) : 0;
      if (count === 0 || depth >= MAX_SAMPLE_DEPTH) return [];
      const item = sampleValue(ownField(node, "items"), root, name, depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case "object":
      return depth >= MAX_SAMPLE_DEPTH ? {} : requiredSample(node, root, depth + 1);
    default:
      return stringSample(node, name);
  }
}

/** An object with a sample of each required property of an object schema. */
export function requiredSample(schema: JsonObject, root: unknown, depth = 0): JsonObject {
  const out: JsonObject = {};
  const properties = ownField(schema, "properties");
  const required = ownField(schema, "required");
  if (!isJsonObject(properties) || !Array.isArray(required)) return out;
  for (const key of required) {
    if (typeof key !== "string" || !Object.hasOwn(properties, key)) continue;
    out[key] = sampleValue(properties[key], root, key, depth);
  }
  return out;
}

function numberSample(schema: JsonObject): number {
  const integer = schemaType(schema) === "integer";
  const minimum = ownField(schema, "minimum");
  const exclusive = ownField(schema, "exclusiveMinimum");
  const maximum = ownField(schema, "maximum");
  let value = 1;
  if (typeof minimum === "number") value = Math.max(value, minimum);
  if (typeof exclusive === "number") value = Math.max(value, integer ? Math.floor(exclusive) + 1 : exclusive + 1);
  if (typeof maximum === "number" && value > maximum) value = maximum;
  return integer ? Math.ceil(value) : value;
}

function stringSample(schema: JsonObject, name: string): string {
  let text = `<${name}>`;
  const min = ownField(schema, "minLength");
  const max = ownField(schema, "maxLength");
  if (typeof min === "number" && text.length < min) text = text.padEnd(Math.min(Math.ceil(min), 1000), "x");
  if (typeof max === "number" && max >= 0 && text.length > max) text = text.slice(0, Math.floor(max));
  return text;
}
