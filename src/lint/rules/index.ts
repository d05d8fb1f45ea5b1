/** Every lint rule, registered once, in the order findings are reported within a tool. */

import { annotationCoherence } from "./annotation-coherence.js";
import { annotationMissing } from "./annotation-missing.js";
import { annotationType } from "./annotation-type.js";
import { clientSdk1Rejects } from "./client-sdk1-rejects.js";
import { clientUnknownDialect } from "./client-unknown-dialect.js";
import { mcpHeader } from "./mcp-header.js";
import { metaUiResourceUriRequired } from "./meta-ui-resource-uri-required.js";
import { metaUiResourceUriScheme } from "./meta-ui-resource-uri-scheme.js";
import { metaUiType } from "./meta-ui-type.js";
import { nameFormat } from "./name-format.js";
import { nameUnique } from "./name-unique.js";
import type { Rule } from "./rule.js";
import { s1Description } from "./s1-description.js";
import { s2VagueParameter } from "./s2-vague-parameter.js";
import { s3ParameterSchema } from "./s3-parameter-schema.js";
import { s4Overlap } from "./s4-overlap.js";
import { s5Naming } from "./s5-naming.js";
import { s6TokenBudget } from "./s6-token-budget.js";
import { s7UnboundedList } from "./s7-unbounded-list.js";
import { s8HiddenText } from "./s8-hidden-text.js";
import { schemaAnyofNeedsType } from "./schema-anyof-needs-type.js";
import { schemaDialectTag } from "./schema-dialect-tag.js";
import { schemaFormatPortability } from "./schema-format-portability.js";
import { schemaNoDefs } from "./schema-no-defs.js";
import { schemaNoDiscriminatorKeyword } from "./schema-no-discriminator-keyword.js";
import { schemaRootOneofPortability } from "./schema-root-oneof-portability.js";

/** The rules, S8 first among equals: hidden text is what a reviewer must see before anything else. */
export const RULE_LIST: readonly Rule[] = [
  s8HiddenText,
  s1Description,
  s2VagueParameter,
  s3ParameterSchema,
  s4Overlap,
  s5Naming,
  s6TokenBudget,
  s7UnboundedList,
  nameFormat,
  nameUnique,
  annotationType,
  annotationCoherence,
  annotationMissing,
  metaUiType,
  metaUiResourceUriRequired,
  metaUiResourceUriScheme,
  mcpHeader,
  schemaFormatPortability,
  schemaAnyofNeedsType,
  schemaNoDiscriminatorKeyword,
  schemaNoDefs,
  schemaRootOneofPortability,
  schemaDialectTag,
  clientUnknownDialect,
  clientSdk1Rejects,
];
