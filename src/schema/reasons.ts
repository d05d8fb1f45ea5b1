/** The table of schema change reasons: each stable code, the kind it always carries, and the phrase reports use. */

/** How a schema change matters: it accepts or asks for more, it changes text the model reads, or anything else. */
export type SchemaFindingKind = "widened" | "text" | "structural";

/** One row of the reasons table. */
export interface ReasonInfo {
  readonly kind: SchemaFindingKind;
  readonly summary: string;
  /** A structural change that never changes what validates (names, identifiers, unused definitions). */
  readonly noEffect?: true;
  /** A widening that asks the model for more without accepting any instance the old schema rejected. */
  readonly asks?: true;
}

/** Every reason code the analyzer emits; a reason always has the same kind. */
export const SCHEMA_REASONS = {
  // widened: some instance is now accepted that was rejected, or the model is asked for more
  schema_true: { kind: "widened", summary: "schema now accepts any value" },
  schema_false_lifted: { kind: "widened", summary: "schema no longer rejects every value" },
  became_invalid: {
    kind: "widened",
    summary: "value is no longer a valid schema or keyword value, so validators may ignore it",
  },
  type_widened: { kind: "widened", summary: "type now also accepts" },
  type_removed: { kind: "widened", summary: "type constraint removed" },
  enum_value_added: { kind: "widened", summary: "new allowed value" },
  enum_removed: { kind: "widened", summary: "enum constraint removed" },
  const_changed: { kind: "widened", summary: "constant value changed" },
  const_removed: { kind: "widened", summary: "const constraint removed" },
  limit_loosened: { kind: "widened", summary: "limit loosened" },
  limit_removed: { kind: "widened", summary: "limit removed" },
  limit_not_number: { kind: "widened", summary: "limit changed to a non-number" },
  multiple_of_changed: { kind: "widened", summary: "multipleOf is no longer a multiple of the old step" },
  multiple_of_removed: { kind: "widened", summary: "multipleOf removed" },
  assertion_changed: { kind: "widened", summary: "assertion changed" },
  assertion_removed: { kind: "widened", summary: "assertion removed" },
  unique_items_removed: { kind: "widened", summary: "items no longer have to be unique" },
  required_added: { kind: "widened", summary: "parameter now required", asks: true },
  required_removed: { kind: "widened", summary: "parameter no longer required" },
  required_undeclared: { kind: "widened", summary: "required parameter is not declared in properties", asks: true },
  property_added: { kind: "widened", summary: "new parameter", asks: true },
  property_added_accepts_more: {
    kind: "widened",
    summary: "new parameter, under a name the old schema rejected or held to a stricter schema",
  },
  property_removed_open: {
    kind: "widened",
    summary: "parameter removed from properties; its name is still accepted, held only by additionalProperties",
  },
  property_removed_unconstrained: {
    kind: "widened",
    summary: "parameter removed from properties but still accepted with a looser schema",
  },
  pattern_property_added: { kind: "widened", summary: "new property name pattern" },
  pattern_property_removed_unconstrained: {
    kind: "widened",
    summary: "property name pattern removed; matching names are checked more loosely",
  },
  additional_allowed: { kind: "widened", summary: "extra values now allowed" },
  subschema_removed: { kind: "widened", summary: "sub-schema removed" },
  tuple_extended: { kind: "widened", summary: "tuple position now accepts values that extra items could not hold" },
  tuple_item_removed: { kind: "widened", summary: "tuple position removed; its items are checked more loosely" },
  contains_changed: { kind: "widened", summary: "contains changed while maxContains caps the matches" },
  dependent_required_changed: { kind: "widened", summary: "dependent required parameters changed" },
  dependent_required_added: { kind: "widened", summary: "more parameters required when another is present", asks: true },
  dependent_schema_removed: { kind: "widened", summary: "dependent schema removed" },
  all_of_member_removed: { kind: "widened", summary: "allOf member removed" },
  branch_added: { kind: "widened", summary: "new alternative accepted" },
  one_of_branch_changed: {
    kind: "widened",
    summary: "oneOf branch changed; exclusivity can let more values through",
  },
  one_of_branch_removed: {
    kind: "widened",
    summary: "oneOf branch removed; exclusivity can let more values through",
  },
  not_changed: { kind: "widened", summary: "not changed" },
  if_changed: { kind: "widened", summary: "if condition changed" },
  reference_changed: { kind: "widened", summary: "reference or identifier changed" },
  reference_unresolved: {
    kind: "widened",
    summary: "reference cannot be resolved (another document, never fetched, or a missing target), so what it accepts is unknown",
  },
  identifier_changed: {
    kind: "widened",
    summary: "$id or anchor changed; references and dynamic scopes may now resolve to other schemas",
  },
  dialect_ignores_keywords: {
    kind: "widened",
    summary: "the new $schema dialect ignores keywords this schema uses, so they no longer constrain",
  },
  unevaluated_scope_changed: {
    kind: "widened",
    summary: "what counts as evaluated changed next to an unevaluated* keyword",
  },
  analysis_failed: { kind: "widened", summary: "schemas could not be compared; review the diff" },
  reference_retargeted: {
    kind: "widened",
    summary: "reference now points at another schema, which accepts more than the old target",
  },
  reference_target_widened: {
    kind: "widened",
    summary: "referenced schema widened (the same change is detailed at the first reference to it)",
  },
  reference_not_followed: {
    kind: "widened",
    summary: "reference not followed (too deep, too costly, or dynamic across embedded resources); review the diff",
  },
  depth_limit: { kind: "widened", summary: "schema nested too deeply to compare; review the diff" },
  recursive_reference_changed: {
    kind: "widened",
    summary: "recursive schema changed where it is used under not, if, oneOf or an unevaluated* scope",
  },

  // text: a string the model reads changed
  text_changed: { kind: "text", summary: "text changed" },
  text_added: { kind: "text", summary: "text added" },
  text_removed: { kind: "text", summary: "text removed" },
  name_added: { kind: "text", summary: "new named sub-schema" },

  // structural: the schema changed without accepting more
  schema_false: { kind: "structural", summary: "schema now rejects every value" },
  invalid_changed: { kind: "structural", summary: "invalid schema value changed" },
  type_added: { kind: "structural", summary: "type constraint added" },
  type_narrowed: { kind: "structural", summary: "type no longer accepts" },
  enum_added: { kind: "structural", summary: "enum constraint added" },
  const_added: { kind: "structural", summary: "const constraint added" },
  enum_value_removed: { kind: "structural", summary: "allowed value removed" },
  limit_added: { kind: "structural", summary: "limit added" },
  limit_tightened: { kind: "structural", summary: "limit tightened" },
  limit_changed: { kind: "structural", summary: "limit changed" },
  multiple_of_added: { kind: "structural", summary: "multipleOf added" },
  multiple_of_tightened: { kind: "structural", summary: "multipleOf changed to a multiple of the old step" },
  assertion_added: { kind: "structural", summary: "assertion added" },
  unique_items_added: { kind: "structural", summary: "items now have to be unique" },
  property_removed: { kind: "structural", summary: "parameter removed" },
  parameter_removed: {
    kind: "structural",
    summary: "parameter removed; extra values are still accepted, but the model no longer sees the name",
  },
  pattern_property_removed: { kind: "structural", summary: "property name pattern removed" },
  subschema_added: { kind: "structural", summary: "sub-schema added" },
  tuple_item_added: { kind: "structural", summary: "tuple position added" },
  tuple_item_removed_covered: { kind: "structural", summary: "tuple position removed" },
  dependent_schema_added: { kind: "structural", summary: "dependent schema added" },
  all_of_member_added: { kind: "structural", summary: "allOf member added" },
  all_of_member_removed_covered: {
    kind: "structural",
    summary: "allOf member removed; another member still implies it",
  },
  branch_added_covered: { kind: "structural", summary: "alternative added within an existing one" },
  branch_removed: { kind: "structural", summary: "alternative removed" },
  restructured: {
    kind: "structural",
    summary: "schema restructured (alternatives split, merged or moved behind a reference); it accepts nothing it rejected before",
  },
  definition_removed: { kind: "structural", summary: "definition removed", noEffect: true },
  definition_changed: {
    kind: "structural",
    summary: "definition changed; what it lets through is judged where it is referenced",
    noEffect: true,
  },
  dialect_changed: { kind: "structural", summary: "$schema changed; keywords the old dialect ignored now apply" },
  dialect_uri_changed: {
    kind: "structural",
    summary: "$schema URI changed; every keyword this schema uses keeps its meaning",
    noEffect: true,
  },
  reference_retargeted_structural: {
    kind: "structural",
    summary: "reference now points at another schema, which accepts nothing the old target rejected",
  },
  reference_target_changed: {
    kind: "structural",
    summary: "referenced schema changed (detailed at the first reference to it)",
  },
  value_changed: { kind: "structural", summary: "value changed; review the diff" },
  annotation_changed: {
    kind: "structural",
    summary: "non-text value of an annotation or unknown key changed (default, examples, x-*)",
    noEffect: true,
  },
} as const satisfies Record<string, ReasonInfo>;

/** A stable reason code; the key of a row in SCHEMA_REASONS. */
export type SchemaReason = keyof typeof SCHEMA_REASONS;
