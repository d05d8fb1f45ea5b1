/** The rule table: every lint rule declared once with its severities, title, family, docs page and fix hint. */

import type { RuleId, RuleInfo } from "./types.js";

const docs = (id: RuleId): string => `docs/rules/${id}.md`;

/** Every rule, in report order; a rule without a row does not compile. */
export const RULES = {
  S1: {
    severities: ["error", "warning"],
    title: "Missing or short description",
    meaning:
      "A model picks a tool from its description; without one, or with only a few words, it cannot tell when the tool fits, what it returns or where its limits are.",
    family: "static",
    strictOnly: false,
    docs: docs("S1"),
    fix: "Say when to use the tool, what it returns and its limits, in 15 words or more.",
  },
  S2: {
    severities: ["warning", "info"],
    title: "Vague parameter name",
    meaning:
      "A top-level parameter whose name says nothing about its value (such as id, data or a single letter) and whose description does not make up for it, so a model has to guess what to pass.",
    family: "static",
    strictOnly: false,
    docs: docs("S2"),
    fix: "Use a specific name (user_id, not id) or describe the value the parameter expects.",
  },
  S3: {
    severities: ["warning", "info"],
    title: "Parameter without a type or description",
    meaning:
      "A parameter, at any depth of the input schema and judged once per place in the data, with no type (the model cannot tell what kind of value to send) or no description (it cannot tell which value).",
    family: "static",
    strictOnly: false,
    docs: docs("S3"),
    fix: "Give the parameter a type (or enum) and a description with an example value.",
  },
  S4: {
    severities: ["warning", "info"],
    title: "Overlapping tools",
    meaning:
      "Two tools that do nearly the same thing by name, words and parameters, with nothing in their descriptions saying when to pick one over the other.",
    family: "static",
    strictOnly: false,
    docs: docs("S4"),
    fix: "Merge the two tools, or say in each description when to pick it over the other.",
  },
  S5: {
    severities: ["warning", "info"],
    title: "Inconsistent tool naming",
    meaning: "Tool names that break the server's own pattern: a tool without the service prefix most of its siblings share, or names that mix naming styles.",
    family: "static",
    strictOnly: false,
    docs: docs("S5"),
    fix: "Prefix every tool name with the service (github_create_issue) in one naming style.",
  },
  S6: {
    severities: ["warning", "error"],
    title: "Tool definitions use too many tokens",
    meaning: "All tool definitions together take more estimated tokens than a client can afford to resend with every request, whether or not a tool is used.",
    family: "static",
    strictOnly: false,
    docs: docs("S6"),
    fix: "Shorten schemas and descriptions, or split the server so clients load fewer tools.",
  },
  S7: {
    severities: ["warning"],
    title: "Unbounded list",
    meaning: "A tool that returns a whole collection with no parameter that bounds or narrows the result, so one call can flood the model's context.",
    family: "static",
    strictOnly: false,
    docs: docs("S7"),
    fix: "Add a limit and a cursor or page parameter, or a filter, so one call cannot return everything.",
  },
  S8: {
    severities: ["error", "warning", "info"],
    title: "Hidden text",
    meaning:
      "Text a person reviewing the tool would not see or would read differently (invisible or look-alike characters, comments, hidden HTML, encoded blobs), and instructions that steer the model to read secrets, send data out, keep quiet or override other tools.",
    family: "static",
    strictOnly: false,
    docs: docs("S8"),
    fix: "Remove the hidden text; if it is meant for the model, write it visibly in the description.",
  },
  "name-format": {
    severities: ["error"],
    title: "Invalid tool name",
    meaning:
      "A tool name outside the 1 to 128 characters of A-Z, a-z, 0-9, _, - and . that the MCP specification allows; clients reject or rewrite such names and some model APIs refuse them.",
    family: "definition",
    strictOnly: false,
    docs: docs("name-format"),
    fix: "Rename the tool to 1-128 characters of letters, digits, _, - and . and keep the display name in title.",
  },
  "name-unique": {
    severities: ["error"],
    title: "Duplicate tool name",
    meaning: "Two tools served under the same name; a client keeps one of them, and which one is up to the client.",
    family: "definition",
    strictOnly: false,
    docs: docs("name-unique"),
    fix: "Rename one of the tools, or merge them if they are the same tool.",
  },
  "annotation-type": {
    severities: ["warning"],
    title: "Annotation of the wrong type",
    meaning:
      'An annotations value of the wrong JSON type (hints must be booleans, the title a string); a string such as "false" reads as true to a JavaScript host.',
    family: "definition",
    strictOnly: false,
    docs: docs("annotation-type"),
    fix: "Send annotation hints as JSON booleans (true/false) and annotations.title as a string.",
  },
  "annotation-coherence": {
    severities: ["warning"],
    title: "Contradictory annotations",
    meaning: "A tool that claims to be read-only and destructive at once, so a client cannot tell whether to ask before calling it.",
    family: "definition",
    strictOnly: false,
    docs: docs("annotation-coherence"),
    fix: "Drop destructiveHint on a read-only tool, or set readOnlyHint to false if the tool changes data.",
  },
  "annotation-missing": {
    severities: ["info"],
    title: "No annotations",
    meaning:
      "A tool with none of the behaviour hints the specification defines (read-only, destructive, idempotent, open-world), so clients must treat it as the riskiest kind.",
    family: "definition",
    strictOnly: false,
    docs: docs("annotation-missing"),
    fix: "Add annotations with readOnlyHint (and destructiveHint, idempotentHint, openWorldHint), so clients can tell tools that only read from tools that change things.",
  },
  "meta-ui-type": {
    severities: ["error"],
    title: "_meta.ui is not an object",
    meaning: "A tool's _meta.ui (the link to the UI an MCP Apps host renders) that is not an object.",
    family: "definition",
    strictOnly: false,
    docs: docs("meta-ui-type"),
    fix: 'Make _meta.ui an object such as {"resourceUri": "ui://..."}, or remove it.',
  },
  "meta-ui-resource-uri-required": {
    severities: ["error"],
    title: "_meta.ui without a resourceUri",
    meaning: "A tool's _meta.ui without the resourceUri string that names the resource the host loads to render its UI.",
    family: "definition",
    strictOnly: false,
    docs: docs("meta-ui-resource-uri-required"),
    fix: "Set _meta.ui.resourceUri to the URI of the UI resource the tool renders with.",
  },
  "meta-ui-resource-uri-scheme": {
    severities: ["warning"],
    title: "_meta.ui.resourceUri not ui://",
    meaning: "A _meta.ui.resourceUri with a scheme other than ui://, which marks a UI fetched from elsewhere rather than served by the MCP server itself.",
    family: "definition",
    strictOnly: false,
    docs: docs("meta-ui-resource-uri-scheme"),
    fix: "Serve the UI as a ui:// resource from the server rather than an external URL.",
  },
  "mcp-header": {
    severities: ["error", "warning"],
    title: "x-mcp-header on a secret or one clients reject",
    meaning:
      "An x-mcp-header (MCP 2026-07-28) copies a parameter's value into an Mcp-Param-{name} HTTP header that every proxy on the way sees: on a parameter that holds a secret it leaks that secret; a header name that is empty, not an HTTP token, repeated in the tool, outside a chain of properties or on a non-primitive parameter makes clients drop the tool.",
    family: "definition",
    strictOnly: false,
    docs: docs("mcp-header"),
    fix: "Keep secrets out of x-mcp-header (send them as authentication); give each header a unique HTTP token name on a string, integer or boolean parameter under properties.",
  },
  "schema-format-portability": {
    severities: ["info"],
    title: "Format outside OpenAI's strict-mode list",
    meaning:
      "A string format in the input schema outside the nine OpenAI's strict function calling accepts; Claude Code, Codex and Gemini CLI all list the tool (Codex drops the format), so only a client that sends OpenAI strict schemas would lose it.",
    family: "portability",
    strictOnly: false,
    docs: docs("schema-format-portability"),
    fix: "Say the form in the description too (\"an absolute URL\"), since Codex's model does not see it; drop the format only if you target OpenAI's strict mode.",
  },
  "schema-anyof-needs-type": {
    severities: ["info"],
    title: "anyOf/oneOf branch without a type",
    meaning:
      "An anyOf or oneOf branch of the input schema without a type of its own: Claude Code, Codex and Gemini CLI pass it on, but the Gemini API's OpenAPI-style parameters field, which Gemini CLI does not use, wants a type on every schema.",
    family: "portability",
    strictOnly: false,
    docs: docs("schema-anyof-needs-type"),
    fix: "Give every anyOf/oneOf branch its own type if you convert schemas for an OpenAPI-style API, or make the field optional instead of nullable.",
  },
  "schema-no-discriminator-keyword": {
    severities: ["info"],
    title: "OpenAPI discriminator keyword",
    meaning:
      "The OpenAPI discriminator keyword in an input schema: it is not JSON Schema; Codex drops it, and the const on each branch is what tells the variants apart.",
    family: "portability",
    strictOnly: false,
    docs: docs("schema-no-discriminator-keyword"),
    fix: "Remove discriminator; a const on each branch already tells the variants apart.",
  },
  "schema-no-defs": {
    severities: ["info"],
    title: "$defs or $ref in the input schema",
    meaning:
      "References ($ref, $defs, definitions) in the input schema: Claude Code, Codex and Gemini CLI pass them on, but the Gemini API's OpenAPI-style parameters field, which Gemini CLI does not use, cannot resolve them.",
    family: "portability",
    strictOnly: true,
    docs: docs("schema-no-defs"),
    fix: "Inline the referenced schemas (bounded depth for recursive ones) if you convert schemas for the Gemini API's parameters field yourself.",
  },
  "schema-root-oneof-portability": {
    severities: ["info"],
    title: "oneOf at the input schema root",
    meaning:
      "A oneOf at the root of the input schema; Claude Code drops it (it merges the branches' parameters, none required, and states the rule in the description), Codex and Gemini CLI keep it.",
    family: "portability",
    strictOnly: true,
    docs: docs("schema-root-oneof-portability"),
    fix: "Check each combination in the handler too and say it in the description, since Claude Code shows the branches' parameters as optional.",
  },
  "schema-dialect-tag": {
    severities: ["info"],
    title: "Input schema without $schema",
    meaning:
      "An input schema without a root $schema; no client measured treats it differently, but a validator that assumes an older dialect may read it otherwise.",
    family: "portability",
    strictOnly: true,
    docs: docs("schema-dialect-tag"),
    fix: 'Add "$schema": "https://json-schema.org/draft/2020-12/schema" at the root of the input schema.',
  },
  "client-unknown-dialect": {
    severities: ["info"],
    title: "$schema dialect the SDK v2 client does not know",
    meaning: "A root $schema naming a dialect the MCP SDK v2 client does not know, so it cannot validate with it.",
    family: "client",
    strictOnly: false,
    docs: docs("client-unknown-dialect"),
    fix: "Use the 2020-12 dialect URI, or drop $schema (2020-12 is the MCP default).",
  },
  "client-sdk1-rejects": {
    severities: ["error"],
    title: "Definition SDK 1.x clients reject",
    meaning:
      'A definition that clients built on the MCP TypeScript SDK 1.x (Claude Code, Gemini CLI) reject, which makes every tool of the server disappear for them; an input schema without "type": "object" also tells the model the tool takes nothing.',
    family: "client",
    strictOnly: false,
    docs: docs("client-sdk1-rejects"),
    fix: 'Send object schemas with "type": "object" at both roots and an object schema for every property.',
  },
  P1: {
    severities: ["warning", "error"],
    title: "Large response",
    meaning: "A probe's answer so large that it takes a large share of the model's context on its own.",
    family: "probe",
    strictOnly: false,
    docs: docs("P1"),
    fix: "Return a page (a limit with a default of a few thousand tokens) and say how to get the rest.",
  },
  P2: {
    severities: ["info", "warning"],
    title: "Opaque IDs without labels",
    meaning: "An answer in which opaque IDs without names or labels beside them take much of the text, so the model cannot tell the items apart.",
    family: "probe",
    strictOnly: false,
    docs: docs("P2"),
    fix: "Put a readable name or title next to each ID, or return names and resolve IDs on the server.",
  },
  P3: {
    severities: ["warning", "info"],
    title: "Long response without a paging hint",
    meaning: "A long answer with no paging or limit parameter, or with one the answer does not point to, so the model has no way to ask for less.",
    family: "probe",
    strictOnly: false,
    docs: docs("P3"),
    fix: 'End a cut-off answer with what is left and how to ask for it ("showing 1-1000 of 20000 lines; pass offset=1000").',
  },
  P4: {
    severities: ["warning", "info"],
    title: "Unhelpful error",
    meaning: "An error answer that does not say what went wrong or how to fix the call, or a tool the probes could not test.",
    family: "probe",
    strictOnly: false,
    docs: docs("P4"),
    fix: "Return isError with a message that names the bad argument and what it expects; never a stack trace.",
  },
  P5: {
    severities: ["info", "warning"],
    title: "No concise mode",
    meaning: "A tool whose answers are long and which has no parameter for a shorter form (a summary, a field list, a limit).",
    family: "probe",
    strictOnly: false,
    docs: docs("P5"),
    fix: "Add a response_format (concise/detailed), fields or limit parameter so an agent can ask for less.",
  },
  "format-parity": {
    severities: ["warning"],
    title: "Structured field missing from the text",
    meaning: "A field present in the tool's structured result but missing from the text clients that read only text show the model.",
    family: "probe",
    strictOnly: false,
    docs: docs("format-parity"),
    fix: "Render every field of structuredContent in the content text too; clients that forward only the text see less.",
  },
} as const satisfies Record<RuleId, RuleInfo>;

const IDS: ReadonlySet<string> = new Set(Object.keys(RULES));

/** True for a known rule ID, for validating `--disable`. */
export function isRuleId(value: string): value is RuleId {
  return IDS.has(value);
}
