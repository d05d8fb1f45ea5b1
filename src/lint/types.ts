/** Shapes shared by the linter: rule IDs, findings as data, options and the per-tool view rules read. */

import type { Severity } from "../lock/kinds.js";

/** Every rule the linter can report, in report order. */
export const RULE_IDS = [
  "S1",
  "S2",
  "S3",
  "S4",
  "S5",
  "S6",
  "S7",
  "S8",
  "name-format",
  "name-unique",
  "annotation-type",
  "annotation-coherence",
  "annotation-missing",
  "meta-ui-type",
  "meta-ui-resource-uri-required",
  "meta-ui-resource-uri-scheme",
  "mcp-header",
  "schema-format-portability",
  "schema-anyof-needs-type",
  "schema-no-discriminator-keyword",
  "schema-no-defs",
  "schema-root-oneof-portability",
  "schema-dialect-tag",
  "client-unknown-dialect",
  "client-sdk1-rejects",
  // Probe rules: they read what tools returned, so they run only with --probe or --error-probes.
  "P1",
  "P2",
  "P3",
  "P4",
  "P5",
  "format-parity",
] as const;

/** The rules that judge probe answers rather than definitions (src/probe/rules). */
export const PROBE_RULE_IDS = ["P1", "P2", "P3", "P4", "P5", "format-parity"] as const satisfies readonly (typeof RULE_IDS)[number][];

/** Stable ID of a rule (`S1`, `name-format`, ...). */
export type RuleId = (typeof RULE_IDS)[number];

/** Which family a rule belongs to; the report and docs group by it. */
export type RuleFamily = "static" | "definition" | "portability" | "client" | "probe";

/** What the rule table says about one rule. */
export interface RuleInfo {
  /** Severities the rule can report, most usual first. */
  severities: readonly Severity[];
  /** Short title for reports, SARIF rule entries and docs. */
  title: string;
  /** What the rule finds and why it matters, in a sentence or two (SARIF's fullDescription). */
  meaning: string;
  family: RuleFamily;
  /** Runs only with `--portability strict`. */
  strictOnly: boolean;
  /** Repository-relative docs page for the rule. */
  docs: string;
  /** Default one-line fix hint; `fix(finding)` may give a more specific one. */
  fix: string;
}

/** The S8 classes of hidden text, each with its own severity; `poisoning` is a tool's attack parts taken together. */
export type HiddenKind =
  | "tag"
  | "bidi"
  | "zero_width"
  | "bom"
  | "mixed_script"
  | "encoded_text"
  | "html_comment"
  | "markdown_comment"
  | "quiet_comment"
  | "credential_file"
  | "mcp_config"
  | "env_file"
  | "secret_words"
  | "hide_from_user"
  | "quiet_action"
  | "override_tools"
  | "session_claim"
  | "exfiltration"
  | "tool_hijack"
  | "tool_chain"
  | "user_override"
  | "coercion"
  | "harmful_action"
  | "poisoning";

/** One part of a poisoning finding: what it is, the words that say it (raw excerpt), and where. */
export interface PoisoningPart {
  part: "source" | "sink" | "secrecy" | "precedence" | "hijack" | "effect";
  kind: HiddenKind;
  text: string;
  path: string;
  /** Found only in a comment, a decoded blob, or once look-alike letters are folded. */
  carrier?: "folded" | "comment" | "encoded" | "translated";
}

/** Naming styles S5 tells apart. */
export type NamingStyle = "snake_case" | "kebab-case" | "camelCase" | "PascalCase" | "dot.case" | "mixed separators";

/** Facts a finding carries for its message; every field is optional and rule-specific. Server text here is raw. */
export interface LintArgs {
  /** Stable code for the specific case within the rule (`missing`, `short`, `untyped`, ...). */
  reason?: string;
  /** A parameter, property or tool name involved (raw server text). */
  name?: string;
  /**
   * Where a parameter sits in the data (S2, S3): property names from the root, `[]` for array items,
   * `.*` for a map's values, with `anyOf`/`oneOf`/`allOf` branches and `$ref` targets folded, so a
   * property every branch repeats is one place (`message.contents.action.label`). Raw server text.
   */
  place?: string;
  /** Word count of a description (S1). */
  words?: number;
  /** The other tool of an overlapping pair (S4), or the first tool with a duplicated name. */
  other?: string;
  /** TF-IDF cosine of an overlapping pair, rounded to two decimals (S4). */
  similarity?: number;
  /** Parameters two tools share (S4). */
  shared?: string[];
  /** The service prefix most tools share (S5). */
  prefix?: string;
  /** How many tools share something, and out of how many. */
  count?: number;
  total?: number;
  /** Naming styles in use with a count and an example each (S5). */
  styles?: { style: NamingStyle; count: number; example: string }[];
  /** Estimated tokens and the limit they were compared with (S6). */
  tokens?: number;
  limit?: number;
  /** Class of hidden text (S8). */
  kind?: HiddenKind;
  /** Hidden text decoded (TAG characters as the ASCII they encode) or an excerpt around it (raw). */
  text?: string;
  /** The parts of a poisoning attack one tool holds, in the order found (S8 `poisoning`). */
  parts?: PoisoningPart[];
  /** The secret is the tool's own subject (an SSH tool naming `~/.ssh/config`), so a mention alone is info (S8). */
  ownSubject?: boolean;
  /** Where a hidden part was found: a comment, a decoded blob, or text with look-alike letters (S8). */
  carrier?: "folded" | "comment" | "encoded" | "translated";
  /** The string was a property or object key, not a value (S8). */
  inKey?: boolean;
  /** The finding is about the server's instructions, a prompt or a resource rather than a tool (S8). */
  where?: "instructions" | "prompt" | "resource" | "resource template";
  /** A value the message quotes: a format, a hint value as JSON, a URI, a dialect. */
  value?: string;
  /** Annotation hint or field name (`readOnlyHint`). */
  key?: string;
  /** Which schema: input or output. */
  schema?: "inputSchema" | "outputSchema";
  /** The probe a finding is about: its label from the fixtures file (raw), when it has one. */
  label?: string;
  /** For a generated error probe: which bad argument it sent (`missing_required`, `unknown_value`, ...). */
  variant?: string;
  /** Share of a response, in percent, rounded (P2: characters spent on opaque IDs). */
  share?: number;
  /** A field of a structured result, by path with array positions folded (`items[].id`; format-parity). */
  field?: string;
}

/** One finding, as data: sentences are built only in `lint/messages.ts`. */
export interface LintFinding {
  rule: RuleId;
  severity: Severity;
  /** Tool name (or `#N` for a tool without a string name), null for a server-level finding. */
  tool: string | null;
  /** Position of the tool in the list (0-based), null for a server-level finding; tells duplicates apart. */
  toolIndex: number | null;
  /** JSON Pointer into the tool definition (`/inputSchema/properties/path`), null when it is the whole tool or server. */
  path: string | null;
  args: LintArgs;
}

/** How the linter is configured; the CLI builds this from its flags. */
export interface LintOptions {
  /** Rule IDs not to run. */
  disable: ReadonlySet<string>;
  /** `strict` also runs the strict-only portability rules. */
  portability: "default" | "strict";
  /** Formats `schema-format-portability` accepts besides the default nine. */
  formatAllowlist: readonly string[];
}

/** What the linter reads: the tool definitions exactly as served and the server's instructions. */
export interface LintInput {
  tools: readonly unknown[];
  instructions?: string | null;
}
