/** The crosscheck rules: what each finds, how severe, and where it is documented. Pure data. */

import type { Severity } from "../lock/kinds.js";

/** Every crosscheck rule, in report order. */
export const CROSSCHECK_RULE_IDS = [
  "render-client-failed",
  "render-tools-absent",
  "render-tool-missing",
  "render-param-missing",
  "render-nested-dropped",
  "render-required-lost",
  "render-type-changed",
  "render-description-missing",
  "render-constraint-dropped",
  "render-branches-ignored",
  "render-description-truncated",
  "render-description-rewritten",
  "render-output-lost",
] as const;

export type CrosscheckRuleId = (typeof CROSSCHECK_RULE_IDS)[number];

export interface CrosscheckRuleInfo {
  /** Severities the rule reports, most usual first. */
  severities: readonly Severity[];
  title: string;
  meaning: string;
  fix: string;
}

const SERVER_FIX = "Simplify the schema so the client can express it, or accept the drift with --baseline after review.";

/** What each rule means; the docs anchor is docs/crosscheck.md#<id>. */
export const CROSSCHECK_RULES: Readonly<Record<CrosscheckRuleId, CrosscheckRuleInfo>> = {
  "render-client-failed": {
    severities: ["error"],
    title: "Client did not render the tools",
    meaning: "The client could not be started, timed out, or ended before it sent its model a request, so nothing was compared for it.",
    fix: "Run the client by hand with the same server to see why; check --client-bin and the client's version.",
  },
  "render-tools-absent": {
    severities: ["error"],
    title: "No tool of the server reached the model",
    meaning: "The client sent its model a request without any of the server's tools: it failed to connect to the server or rejected its whole tool list.",
    fix: "Look for a definition the client rejects (mcp-lint run reports client-sdk1-rejects) or a server that fails under the client's launch.",
  },
  "render-tool-missing": {
    severities: ["error", "info"],
    title: "Tool not shown to the model",
    meaning:
      "The server lists the tool but the client did not send it to its model, so the model cannot call it (info when the server lists the tool only to clients that declare a capability this one may lack).",
    fix: "Check the tool's schema for what this client refuses (a oneOf, anyOf or allOf at the root, an odd name).",
  },
  "render-param-missing": {
    severities: ["error"],
    title: "Parameter not shown to the model",
    meaning: "An input property the server declares is absent from what the client sent its model, so the model cannot fill it in.",
    fix: SERVER_FIX,
  },
  "render-nested-dropped": {
    severities: ["error"],
    title: "Nested fields not shown to the model",
    meaning: "An object or array parameter reached the model without the fields or item schema the server declares inside it.",
    fix: SERVER_FIX,
  },
  "render-required-lost": {
    severities: ["error"],
    title: "Required marker lost",
    meaning: "A parameter the server requires reached the model as optional, so the model may leave it out and the call fails.",
    fix: SERVER_FIX,
  },
  "render-type-changed": {
    severities: ["error"],
    title: "Parameter type lost or changed",
    meaning: "A parameter reached the model without its declared type or with another one, so the model may send a value the server refuses.",
    fix: SERVER_FIX,
  },
  "render-description-missing": {
    severities: ["error", "info"],
    title: "Description not shown to the model",
    meaning: "A tool's description (error) or a parameter's (info) is missing or blank in what the client sent its model.",
    fix: "Keep descriptions as plain strings on the tool and on each property; some clients drop them elsewhere.",
  },
  "render-constraint-dropped": {
    severities: ["info"],
    title: "Constraint dropped or changed",
    meaning: "A constraint (enum, const, bounds, pattern, format, lengths) did not reach the model as the server declares it; the server still enforces it.",
    fix: "Say the constraint in the parameter's description as well, so a model that does not see the keyword still reads it.",
  },
  "render-branches-ignored": {
    severities: ["info"],
    title: "Root anyOf or oneOf ignored",
    meaning: "The client kept the root properties but not the anyOf/oneOf alternatives that say which combinations are valid.",
    fix: "Describe the alternatives in the tool description, or flatten them into one object with a mode field.",
  },
  "render-description-truncated": {
    severities: ["info"],
    title: "Description truncated",
    meaning: "The client cut the description; the model reads only its beginning.",
    fix: "Put what the model must know first and keep the description under the client's limit.",
  },
  "render-description-rewritten": {
    severities: ["info"],
    title: "Description rewritten",
    meaning: "The model reads another text than the server's description (the client rewrote, merged or escaped it).",
    fix: "Review what the client shows; plain text without markup survives best.",
  },
  "render-output-lost": {
    severities: ["info"],
    title: "outputSchema not shown to the model",
    meaning: "The server declares what the tool returns, but the client does not show the model that schema (or drops fields of it).",
    fix: "Say in the description what the result holds, if the model needs to know before it calls.",
  },
};

/** The docs place of a crosscheck rule. */
export function crosscheckRuleDocs(id: CrosscheckRuleId): string {
  return `docs/crosscheck.md#${id}`;
}
