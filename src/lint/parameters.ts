/** A tool's parameters by where they sit in the data: every property of its input schema grouped by its place, branches and references folded. */

import { type ToolView, inputSchemaNodes } from "./context.js";
import { isObject, type JsonObject, own } from "./json.js";

/** One declaration of a parameter: a property schema at a pointer. */
export interface ParameterSite {
  node: JsonObject;
  /** JSON Pointer into the tool definition. */
  path: string;
  /** Declared under `if`, `not`, `contains`, `propertyNames` or `unevaluated*`: a condition, not a parameter. */
  inCondition: boolean;
  /** A branch's property its parent already declares (`oneOf: [{properties: {mode: {const: "a"}}}]`): it only narrows that one. */
  restates: boolean;
}

/** One parameter: a place in the data and every declaration of it, in document order. */
export interface Parameter {
  /** Property names from the root, `[]` for array items, `.*` for a map's values (`message.contents.action.label`). */
  place: string;
  /** The property's own name (the last step of `place`). */
  name: string;
  /** Nesting: 1 for a top-level parameter. */
  level: number;
  sites: ParameterSite[];
}

// Keywords whose sub-schema describes an element of an array, or a value of an object's map; the
// rest (`then`, `else`, `dependentSchemas`, ...) describe the same value, as branches do.
const ELEMENT_KEYWORDS = new Set(["items", "prefixItems", "additionalItems", "contains", "unevaluatedItems"]);
const MAP_VALUE_KEYWORDS = new Set(["additionalProperties", "patternProperties", "unevaluatedProperties"]);

/**
 * Longest property name kept whole in a place. Places are built for every property at every depth,
 * so a hostile schema of 64 nested megabyte names must not make each place megabytes long; a longer
 * name keeps its start and a hash of the whole, which still tells two names apart.
 */
const MAX_STEP = 80;

/** FNV-1a, 32 bits, as 8 hex digits: a short stand-in for a long name. */
function nameHash(name: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** A property name as one step of a place; a name holding the separators is quoted so places stay unambiguous. */
function step(raw: string): string {
  // The cut never splits a surrogate pair.
  const cut = MAX_STEP - (/[\ud800-\udbff]/.test(raw.charAt(MAX_STEP - 1)) ? 1 : 0);
  const name = raw.length <= MAX_STEP ? raw : `${raw.slice(0, cut)}~${nameHash(raw)}`;
  return /^[^.[\]*"]+$/.test(name) ? name : `[${JSON.stringify(name)}]`;
}

function join(place: string, name: string): string {
  const part = step(name);
  return place === "" || part.startsWith("[") ? `${place}${part}` : `${place}.${part}`;
}

const byView = new WeakMap<ToolView, readonly Parameter[]>();

/**
 * Every parameter of a tool, in the order first declared. Each sub-schema's place is its owner's
 * place plus the step that leads to it: a property adds its name, an array's items add `[]`, a
 * map's values `.*`; a branch, a `$ref` target, `then`/`else` add nothing, so the same property in
 * nine `anyOf` branches is one parameter with nine sites. A definition reached through `$ref` is
 * walked once (at its first use), so its properties take the place of that use.
 */
export function toolParameters(view: ToolView): readonly Parameter[] {
  let parameters = byView.get(view);
  if (parameters === undefined) {
    parameters = computeParameters(view);
    byView.set(view, parameters);
  }
  return parameters;
}

function computeParameters(view: ToolView): Parameter[] {
  // The walk visits parents before children, and a node's whole subtree before its next sibling, so
  // the place last recorded for an owner is the place of the visit whose children come next.
  const placeOf = new Map<object, { place: string; level: number }>();
  const branchOwner = new Map<object, JsonObject>();
  const byPlace = new Map<string, Parameter>();
  const seenPaths = new Set<string>();
  const out: Parameter[] = [];
  for (const { node, path, slot, owner, inCondition } of inputSchemaNodes(view)) {
    const outer = owner === null ? { place: "", level: 0 } : (placeOf.get(owner) ?? { place: "", level: 0 });
    let here = outer;
    if (slot.kind === "property") here = { place: join(outer.place, slot.name), level: outer.level + 1 };
    else if (slot.kind === "other" && ELEMENT_KEYWORDS.has(slot.keyword)) here = { place: `${outer.place}[]`, level: outer.level };
    else if (slot.kind === "other" && MAP_VALUE_KEYWORDS.has(slot.keyword)) here = { place: `${outer.place}.*`, level: outer.level };
    if (typeof node !== "object") continue;
    placeOf.set(node, here);
    if (slot.kind === "branch" && owner !== null) branchOwner.set(node, owner);
    if (slot.kind !== "property") continue;
    const parent = branchOwner.get(slot.parent);
    const restates = parent !== undefined && declares(parent, slot.name);
    // A declaration reached again through a recursive `$ref` (a box whose contents are boxes) is
    // the one already seen at a shallower place, not another parameter.
    if (seenPaths.has(path)) continue;
    seenPaths.add(path);
    let parameter = byPlace.get(here.place);
    if (parameter === undefined) {
      parameter = { place: here.place, name: slot.name, level: here.level, sites: [] };
      byPlace.set(here.place, parameter);
      out.push(parameter);
    }
    parameter.sites.push({ node, path, inCondition, restates });
  }
  return out;
}

/** True when a schema declares a property of this name in its own `properties`. */
function declares(schema: JsonObject, name: string): boolean {
  const properties = own(schema, "properties");
  return isObject(properties) && Object.hasOwn(properties, name);
}

/** The sites that declare a parameter: neither conditions nor a branch narrowing what its parent declares. */
export function declaringSites(parameter: Parameter): ParameterSite[] {
  return parameter.sites.filter((site) => !site.inCondition && !site.restates);
}
