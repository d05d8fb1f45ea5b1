/** The one table of JSON Schema keywords (2020-12 plus draft-07/04 forms) and the role the walker dispatches on. */

import type { SchemaReason } from "./reasons.js";

/** What a keyword's value is and how a change to it is judged; each role is owned by exactly one rule. */
export type KeywordRole =
  | "text" // an annotation the model reads: strings inside are text, anything else structural
  | "dialect" // $schema, $vocabulary: which keywords apply (see dialects.ts)
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

/** The JSON Schema dialects mcp-lint tells apart, oldest first. */
export const DIALECTS = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"] as const;

/** One JSON Schema dialect (draft). */
export type Dialect = (typeof DIALECTS)[number];

/** The dialects that define a keyword (or a form of its value): from `since` to `until`, both included. */
export interface DialectRange {
  readonly since?: Dialect;
  readonly until?: Dialect;
}

/** Facts about one keyword beyond its role. */
export interface KeywordInfo {
  readonly role: KeywordRole;
  /** The dialects that apply this keyword; absent = every dialect. Others ignore it as an unknown key. */
  readonly dialects?: DialectRange;
  /** Value forms whose meaning depends on the dialect (draft-07 tuple `items`, draft-04 boolean exclusive bounds). */
  readonly forms?: Readonly<Partial<Record<"array" | "boolean" | "number", DialectRange>>>;
  /** Applying this keyword can let more through (minContains: 0 lifts contains): a dialect that starts to, widens. */
  readonly loosensWhenApplied?: true;
  /** text: the whole value is what the model reads, whatever its type (a `default` of false is still text). */
  readonly wholeValueIsText?: true;
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
  $id: { role: "reference", dialects: { since: "draft-06" } },
  $anchor: { role: "reference", link: "anchor", dialects: { since: "2019-09" } },
  $dynamicAnchor: { role: "reference", link: "anchor", dialects: { since: "2020-12" } },
  $ref: { role: "reference", evaluates: "both", link: "ref" },
  $dynamicRef: { role: "reference", evaluates: "both", link: "ref", dialects: { since: "2020-12" } },
  $recursiveRef: { role: "reference", evaluates: "both", link: "ref", dialects: { since: "2019-09", until: "2019-09" } },
  $recursiveAnchor: { role: "reference", dialects: { since: "2019-09", until: "2019-09" } },
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
    dialects: { since: "draft-07" },
  },
  then: { role: "schema", evaluates: "both", group: "conditional", dialects: { since: "draft-07" } },
  else: { role: "schema", evaluates: "both", group: "conditional", dialects: { since: "draft-07" } },
  dependentSchemas: { role: "dependentSchemas", evaluates: "both", family: "object", dialects: { since: "2019-09" } },
  dependencies: { role: "dependencies", evaluates: "both", family: "object", dialects: { until: "draft-07" } },
  prefixItems: { role: "schemaArray", evaluates: "items", family: "array", group: "tuple", dialects: { since: "2020-12" } },
  items: {
    role: "schemaOrArray",
    evaluates: "items",
    family: "array",
    group: "tuple",
    // The tuple form was replaced by prefixItems in 2020-12.
    forms: { array: { until: "2019-09" } },
  },
  additionalItems: {
    role: "restItems",
    evaluates: "items",
    family: "array",
    group: "tuple",
    dialects: { until: "2019-09" },
  },
  contains: { role: "contains", evaluates: "items", family: "array", group: "contains", dialects: { since: "draft-06" } },
  properties: { role: "schemaMap", evaluates: "properties", family: "object", group: "members" },
  patternProperties: { role: "patternMap", evaluates: "properties", family: "object", group: "members" },
  additionalProperties: { role: "restProperties", evaluates: "properties", family: "object", group: "members" },
  propertyNames: { role: "schema", family: "object", dialects: { since: "draft-06" } },

  // unevaluated
  unevaluatedItems: {
    role: "unevaluated",
    covers: "items",
    evaluates: "items",
    family: "array",
    dialects: { since: "2019-09" },
  },
  unevaluatedProperties: {
    role: "unevaluated",
    covers: "properties",
    evaluates: "properties",
    family: "object",
    dialects: { since: "2019-09" },
  },

  // validation
  type: { role: "type" },
  enum: { role: "values" },
  const: { role: "values", dialects: { since: "draft-06" } },
  multipleOf: { role: "multipleOf", family: "number" },
  maximum: { role: "upperLimit", exclusiveFlag: "exclusiveMaximum", family: "number", group: "maximum" },
  exclusiveMaximum: {
    role: "upperLimit",
    flagFor: "maximum",
    family: "number",
    group: "maximum",
    // draft-04 reads a boolean that makes `maximum` exclusive; later drafts read a number.
    forms: { boolean: { until: "draft-04" }, number: { since: "draft-06" } },
  },
  minimum: { role: "lowerLimit", exclusiveFlag: "exclusiveMinimum", family: "number", group: "minimum" },
  exclusiveMinimum: {
    role: "lowerLimit",
    flagFor: "minimum",
    family: "number",
    group: "minimum",
    forms: { boolean: { until: "draft-04" }, number: { since: "draft-06" } },
  },
  maxLength: { role: "upperLimit", family: "string" },
  minLength: { role: "lowerLimit", family: "string" },
  pattern: { role: "assertion", family: "string" },
  maxItems: { role: "upperLimit", family: "array" },
  minItems: { role: "lowerLimit", family: "array" },
  uniqueItems: { role: "flag", family: "array" },
  maxContains: { role: "upperLimit", family: "array", group: "contains", dialects: { since: "2019-09" } },
  minContains: {
    role: "lowerLimit",
    defaultValue: 1,
    family: "array",
    group: "contains",
    dialects: { since: "2019-09" },
    loosensWhenApplied: true,
  },
  maxProperties: { role: "upperLimit", family: "object" },
  minProperties: { role: "lowerLimit", family: "object" },
  required: { role: "required", family: "object" },
  dependentRequired: { role: "dependentRequired", family: "object", dialects: { since: "2019-09" } },

  // format and content
  format: { role: "assertion" },
  contentEncoding: { role: "assertion", dialects: { since: "draft-07" } },
  contentMediaType: { role: "assertion", dialects: { since: "draft-07" } },
  contentSchema: {
    role: "opaqueSchema",
    changed: "assertion_changed",
    added: "assertion_added",
    removed: "assertion_removed",
    dialects: { since: "2019-09" },
  },

  // meta-data
  title: { role: "text" },
  description: { role: "text" },
  default: { role: "text", wholeValueIsText: true },
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
