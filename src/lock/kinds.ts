/** The change table: every kind `lock --check` can report, declared once with its severity and meaning. */

/** How serious a change is; the order matters for `--fail-on`. */
export type Severity = "info" | "warning" | "error";

/** Severities from least to most serious. */
export const SEVERITIES: readonly Severity[] = ["info", "warning", "error"];

/** Rank of a severity, for comparisons with `--fail-on`. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** What the change table says about one kind. */
export interface KindInfo {
  /** Severity when the kind has one; kinds with two list the usual one and decide per change. */
  severity: Severity;
  /** Other severity some changes of this kind take (for example `instructions_changed` when removed). */
  alsoSeverity?: Severity;
  /** One line for the README and `--help`. */
  meaning: string;
}

/** Every kind of change, in the order the report lists them within a tool. */
export const CHANGE_KINDS = {
  duplicate_tool: {
    severity: "error",
    meaning: "Two or more tools share a name, so clients may pick either one; lock refuses to write.",
  },
  tool_added: {
    severity: "error",
    meaning: "A tool that is not in the lock; the message quotes the start of its description (and names a rename).",
  },
  tool_removed: { severity: "info", meaning: "A locked tool is no longer served." },
  description_changed: {
    severity: "error",
    meaning: "The tool's description changed; the message quotes the new text around the edit.",
  },
  title_changed: { severity: "error", meaning: "The tool's title changed; approval dialogs show it to the user." },
  schema_text_changed: {
    severity: "error",
    meaning: "Text the model reads inside the input or output schema changed (descriptions, titles, defaults, examples, unknown keys, new $defs names).",
  },
  schema_widened: {
    severity: "error",
    meaning: "The input schema accepts more or asks for more (new or newly required parameter, looser limit, new enum value, ...).",
  },
  mcp_header_changed: {
    severity: "error",
    alsoSeverity: "warning",
    meaning:
      "An x-mcp-header (a parameter copied into an HTTP header every proxy sees) was added, removed or changed; error when added or changed on a parameter that looks like a secret, warning otherwise.",
  },
  annotations_changed: {
    severity: "warning",
    alsoSeverity: "error",
    meaning: "Annotations changed; error when the tool now claims to be safer or annotations.title changed.",
  },
  meta_changed: { severity: "warning", meaning: "The tool's _meta, icons or execution changed." },
  schema_changed: {
    severity: "warning",
    meaning: "The input schema changed structurally in a way the rows above do not explain; review the diff.",
  },
  output_schema_changed: { severity: "warning", meaning: "The output schema changed." },
  definition_changed: {
    severity: "warning",
    meaning: "Another part of the tool definition changed (a field no other row covers).",
  },
  instructions_changed: {
    severity: "error",
    alsoSeverity: "info",
    meaning: "The server's instructions changed; error when the new text is non-empty, info when removed.",
  },
  instructions_unchecked: {
    severity: "warning",
    meaning: "The lock holds instructions but this run does not know them (a --from file without instructions).",
  },
  server_changed: { severity: "info", meaning: "The server name or version, or the launch command, changed." },
  prompt_added: { severity: "error", meaning: "A prompt that is not in the lock (v2); the report shows its whole definition." },
  prompt_changed: {
    severity: "error",
    alsoSeverity: "warning",
    meaning: "A pinned prompt changed: error for its title, description or an argument's name, title or description (or a new argument), warning otherwise.",
  },
  prompt_removed: { severity: "info", meaning: "A pinned prompt is no longer served." },
  resource_added: { severity: "error", meaning: "A resource that is not in the lock (v2); its name and description are text the model reads." },
  resource_changed: {
    severity: "error",
    alsoSeverity: "warning",
    meaning: "A pinned resource changed: error for its name, title or description, warning for anything else (mimeType, annotations, _meta).",
  },
  resource_removed: { severity: "info", meaning: "A pinned resource is no longer listed." },
  resource_template_added: { severity: "error", meaning: "A resource template that is not in the lock (v2)." },
  resource_template_changed: {
    severity: "error",
    alsoSeverity: "warning",
    meaning: "A pinned resource template changed: error for its name, title or description, warning otherwise.",
  },
  resource_template_removed: { severity: "info", meaning: "A pinned resource template is no longer listed." },
  client_divergence: {
    severity: "error",
    meaning: "The server serves a different definition to another client identity (--as-client), so what one client approved is not what another gets.",
  },
  artifact_changed: {
    severity: "error",
    meaning:
      "The package the launch runs is not the locked one: another version, another tarball under the same version (integrity), another image digest, or no pinnable package at all.",
  },
  dependencies_changed: {
    severity: "warning",
    alsoSeverity: "error",
    meaning:
      "The dependency tree npm installs for the locked package changed (each added, removed and changed package listed); error when a package gained an install script or is a known-bad release.",
  },
  provenance_changed: {
    severity: "error",
    alsoSeverity: "info",
    meaning:
      "The release lost the provenance or the registry signature its locked predecessor had, or was built from another repository or workflow; info when it gained them.",
  },
  ignore_stale: {
    severity: "warning",
    meaning: "An ignore rule in the lock silenced nothing this run (the value it was granted for is no longer served); the next write drops it.",
  },
} as const satisfies Record<string, KindInfo>;

/** Name of a change kind. */
export type ChangeKind = keyof typeof CHANGE_KINDS;

/** All kinds, in table order. */
export const CHANGE_KIND_NAMES = Object.keys(CHANGE_KINDS) as ChangeKind[];

/** One change, as data: sentences are built in `report/`. */
export interface Change {
  kind: ChangeKind;
  severity: Severity;
  /** Tool name (or the prompt's name, the resource's URI, the template's URI template), or null for a server-level change. */
  tool: string | null;
  /** What `tool` names when it is not a tool. */
  subject?: "prompt" | "resource" | "resource template";
  /** The server's name in a lock that holds several (v2). */
  server?: string;
  /** Where in the tool definition, as a JSON Pointer (`/inputSchema/properties/notes`), when it is one place. */
  path?: string;
  /** Facts the report needs to explain the change. */
  args: ChangeArgs;
}

/** Facts attached to a change; every field is optional and kind-specific. */
export interface ChangeArgs {
  before?: unknown;
  after?: unknown;
  /** Stable code for the specific cause (a schema reason, an annotation hint, a field name). */
  reason?: string;
  /** Field of the tool definition involved (`_meta`, `icons`, `execution`, an unknown field). */
  fields?: string[];
  /** Name of the tool this one was renamed from. */
  renamedFrom?: string;
  /** How many tools share a duplicated name. */
  count?: number;
  /** Extra values for the sentence (limits, names). */
  detail?: Record<string, string | number>;
  /** Paths involved when one change stands for several (`schema_changed`). */
  paths?: string[];
  /** The whole new definition, for a tool that is not in the lock (a reviewer reads all of it). */
  definition?: { [key: string]: unknown };
}
