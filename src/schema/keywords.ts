/** The one table of JSON Schema keywords (2020-12 plus draft-07/04 forms) and the role the walker dispatches on. */

import type { SchemaReason } from "./reasons.js";

/** What a keyword's value is and how a change to it is judged; each role is owned by exactly one rule. */
export type KeywordRole =
  | "text" // an annotation the model reads: strings inside are text, anything else structural
  | "dialect" // $schema, $vocabulary: change is structural
  | "reference" // $ref and identifiers: targets are resolved and compared
  | "namedSchemas" // $defs, definitions: per name; new names are text, changes judged at references
  | "type"
  | "values" // enum, const: a set of allowed values
  | "upperLimit"
  | "lowerLimit"
  | "multipleOf"
  | "flag" // uniqueItems: true constrains
  | "assertion" // pattern, format, content*: changed or removed widens
  | "schema" // one monotone sub-schema: stricter inside means stricter outside
  | "opaqueSchema" // one sub-schema whose non-text change widens (not, if, contentSchema)
  | "schemaList" // allOf, anyOf, oneOf
  | "schemaMap" // properties
  | "patternMap" // patternProperties
  | "restProperties" // additionalProperties
  | "schemaArray" // prefixItems
  | "schemaOrArray" // items (schema, or draft-07 tuple)
  | "restItems" // additionalItems (draft-07)
  | "contains"
  | "unevaluated" // unevaluatedProperties, unevaluatedItems
  | "required"
  | "dependentRequired"
  | "dependentSchemas"
  | "dependencies" // draft-07: array value = dependentRequired, schema value = dependentSchemas
  | "unknown"; // not a keyword: treated like text, never as a schema

/** Facts about one keyword beyond its role. */
export interface KeywordInfo {
  readonly role: KeywordRole;
  /** schemaList: how members combine. */
  readonly combine?: "all" | "any" | "one";
  /** maximum/minimum: the draft-04 boolean keyword that makes the bound exclusive. */
  readonly exclusiveFlag?: string;
  /** exclusiveMaximum/exclusiveMinimum: the bound a draft-04 boolean value modifies. */
  readonly flagFor?: string;
  /** A limit's value when absent, where absent is not "unlimited" (minContains). */
  readonly defaultValue?: number;
  /** Annotations this keyword contributes to unevaluatedProperties/unevaluatedItems. */
  readonly evaluates?: "properties" | "items" | "both";
  /** unevaluated: which instance part it covers. */
  readonly covers?: "properties" | "items";
  /** reference: this keyword points at another schema ("ref") or names this one ("anchor"). */
  readonly link?: "ref" | "anchor";
  /** Constrains only instances of this type family; next to a `type` that excludes it, it is vacuous. */
  readonly family?: "string" | "number" | "array" | "object";
  /** Keywords of one group read each other (additionalProperties reads properties); they only move together. */
  readonly group?: "members" | "tuple" | "contains" | "maximum" | "minimum" | "conditional";
  /** opaqueSchema: reasons for a change, an addition and a removal. */
  readonly changed?: SchemaReason;
  readonly added?: SchemaReason;
  readonly removed?: SchemaReason;
}

/** Every keyword mcp-lint knows; anything else is an unknown key. */
export const KEYWORDS = {
  // core
  $schema: { role: "dialect" },
  $vocabulary: { role: "dialect" },
  $id: { role: "reference" },
  $anchor: { role: "reference", link: "anchor" },
  $dynamicAnchor: { role: "reference", link: "anchor" },
  $ref: { role: "reference", evaluates: "both", link: "ref" },
  $dynamicRef: { role: "reference", evaluates: "both", link: "ref" },
  $recursiveRef: { role: "reference", evaluates: "both", link: "ref" }, // 2019-09, still seen in the wild
  $recursiveAnchor: { role: "reference" },
  $comment: { role: "text" },
  // Definitions evaluate nothing where they sit; a $ref that reaches one does (and carries `evaluates`).
  $defs: { role: "namedSchemas" },
  definitions: { role: "namedSchemas" },

  // applicators
  allOf: { role: "schemaList", combine: "all", evaluates: "both" },
  anyOf: { role: "schemaList", combine: "any", evaluates: "both" },
  oneOf: { role: "schemaList", combine: "one", evaluates: "both" },
  not: {
    role: "opaqueSchema",
    changed: "not_changed",
    added: "subschema_added",
    removed: "not_changed",
  },
  if: {
    role: "opaqueSchema",
    evaluates: "both",
    changed: "if_changed",
    added: "if_changed",
    removed: "if_changed",
    group: "conditional",
  },
  then: { role: "schema", evaluates: "both", group: "conditional" },
  else: { role: "schema", evaluates: "both", group: "conditional" },
  dependentSchemas: { role: "dependentSchemas", evaluates: "both", family: "object" },
  dependencies: { role: "dependencies", evaluates: "both", family: "object" },
  prefixItems: { role: "schemaArray", evaluates: "items", family: "array", group: "tuple" },
  items: { role: "schemaOrArray", evaluates: "items", family: "array", group: "tuple" },
  additionalItems: { role: "restItems", evaluates: "items", family: "array", group: "tuple" },
  contains: { role: "contains", evaluates: "items", family: "array", group: "contains" },
  properties: { role: "schemaMap", evaluates: "properties", family: "object", group: "members" },
  patternProperties: { role: "patternMap", evaluates: "properties", family: "object", group: "members" },
  additionalProperties: { role: "restProperties", evaluates: "properties", family: "object", group: "members" },
  propertyNames: { role: "schema", family: "object" },

  // unevaluated
  unevaluatedItems: { role: "unevaluated", covers: "items", evaluates: "items", family: "array" },
  unevaluatedProperties: { role: "unevaluated", covers: "properties", evaluates: "properties", family: "object" },

  // validation
  type: { role: "type" },
  enum: { role: "values" },
  const: { role: "values" },
  multipleOf: { role: "multipleOf", family: "number" },
  maximum: { role: "upperLimit", exclusiveFlag: "exclusiveMaximum", family: "number", group: "maximum" },
  exclusiveMaximum: { role: "upperLimit", flagFor: "maximum", family: "number", group: "maximum" },
  minimum: { role: "lowerLimit", exclusiveFlag: "exclusiveMinimum", family: "number", group: "minimum" },
  exclusiveMinimum: { role: "lowerLimit", flagFor: "minimum", family: "number", group: "minimum" },
  maxLength: { role: "upperLimit", family: "string" },
  minLength: { role: "lowerLimit", family: "string" },
  pattern: { role: "assertion", family: "string" },
  maxItems: { role: "upperLimit", family: "array" },
  minItems: { role: "lowerLimit", family: "array" },
  uniqueItems: { role: "flag", family: "array" },
  maxContains: { role: "upperLimit", family: "array", group: "contains" },
  minContains: { role: "lowerLimit", defaultValue: 1, family: "array", group: "contains" },
  maxProperties: { role: "upperLimit", family: "object" },
  minProperties: { role: "lowerLimit", family: "object" },
  required: { role: "required", family: "object" },
  dependentRequired: { role: "dependentRequired", family: "object" },

  // format and content
  format: { role: "assertion" },
  contentEncoding: { role: "assertion" },
  contentMediaType: { role: "assertion" },
  contentSchema: {
    role: "opaqueSchema",
    changed: "assertion_changed",
    added: "assertion_added",
    removed: "assertion_removed",
  },

  // meta-data
  title: { role: "text" },
  description: { role: "text" },
  default: { role: "text" },
  deprecated: { role: "text" },
  readOnly: { role: "text" },
  writeOnly: { role: "text" },
  examples: { role: "text" },
} as const satisfies Record<string, KeywordInfo>;

const UNKNOWN: KeywordInfo = { role: "unknown" };
const TABLE: ReadonlyMap<string, KeywordInfo> = new Map<string, KeywordInfo>(Object.entries(KEYWORDS));

/** The table row for a key, or the unknown-key row; safe for `__proto__`, `constructor` and the like. */
export function keywordInfo(key: string): KeywordInfo {
  return TABLE.get(key) ?? UNKNOWN;
}

/** Roles whose keywords never constrain an instance, so a schema made only of them accepts everything. */
const NON_CONSTRAINING: ReadonlySet<KeywordRole> = new Set<KeywordRole>(["text", "dialect", "unknown", "namedSchemas"]);

/** Keywords of one role, in table order. */
export function keywordsWithRole(role: KeywordRole): string[] {
  return [...TABLE].filter(([, info]) => info.role === role).map(([key]) => key);
}

/** Keywords with a given link kind (references or anchors), in table order. */
export function linkKeywords(link: "ref" | "anchor"): string[] {
  return [...TABLE].filter(([, info]) => info.link === link).map(([key]) => key);
}

/** True when a keyword never constrains the instance it sits on. */
export function isNonConstraining(key: string): boolean {
  return NON_CONSTRAINING.has(keywordInfo(key).role);
}
