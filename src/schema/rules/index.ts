/** The ordered list of schema rules; each keyword role belongs to exactly one of them. */

import type { Rule } from "../context.js";
import type { KeywordRole } from "../keywords.js";
import { annotationsRule } from "./annotations.js";
import { arraysRule } from "./arrays.js";
import { assertionsRule } from "./assertions.js";
import { combinatorsRule } from "./combinators.js";
import { definitionsRule } from "./definitions.js";
import { dependenciesRule } from "./dependencies.js";
import { dialectRule } from "./dialect.js";
import { limitsRule } from "./limits.js";
import { objectsRule } from "./objects.js";
import { referencesRule } from "./references.js";
import { requiredRule } from "./required.js";
import { subschemasRule } from "./subschemas.js";
import { unevaluatedRule } from "./unevaluated.js";
import { valuesRule } from "./values.js";

/** Rules in the order they run on each schema object; unevaluated must stay last (it reads the others' findings). */
export const RULES: readonly Rule[] = [
  referencesRule,
  valuesRule,
  limitsRule,
  assertionsRule,
  requiredRule,
  objectsRule,
  arraysRule,
  combinatorsRule,
  subschemasRule,
  dependenciesRule,
  definitionsRule,
  dialectRule,
  annotationsRule,
  unevaluatedRule,
];

/** The rule that owns each role. */
export const RULE_BY_ROLE: ReadonlyMap<KeywordRole, Rule> = new Map(RULES.flatMap((rule) => rule.roles.map((role) => [role, rule] as const)));
