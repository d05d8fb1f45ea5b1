/** The install-lint (rule I1) kind table: every finding kind declared once with its severity and meaning. */

import type { Severity } from "../lock/kinds.js";

/** Name of an I1 finding kind. */
export type InstallKind = "known_bad" | "unparsed" | "unpinned_source" | "unpinned" | "no_digest" | "no_hashes" | "insecure_transport" | "unreadable_entry";

/** What the table says about one kind. */
export interface InstallKindInfo {
  severity: Severity;
  /** Short title for reports and docs. */
  title: string;
  /** One line for the README and `--help`. */
  meaning: string;
  /** Where the kind is documented. */
  docs: string;
}

const DOCS = "https://github.com/mcp-lint/mcp-lint/blob/main/docs/install-lint.md";

/** Every I1 kind, worst first: when one package earns several verdicts, the first in this order wins. */
export const INSTALL_KINDS = {
  known_bad: {
    severity: "error",
    title: "Known-bad release",
    meaning:
      "A version on the known-bad list, pinned exactly or by a range or tag that would still resolve to it, or a known-bad package named in a launch I1 could not fully follow.",
    docs: DOCS,
  },
  unparsed: {
    severity: "info",
    title: "Not checked",
    meaning: "Part of the command could not be understood (a variable, a pipeline, an unknown flag), so it was not checked.",
    docs: DOCS,
  },
  unpinned_source: {
    severity: "warning",
    title: "Unpinned source",
    meaning: "A git, GitHub or URL source not pinned to a full commit SHA.",
    docs: DOCS,
  },
  unpinned: {
    severity: "warning",
    title: "Unpinned package",
    meaning: "A package with no exact version: no version, a tag such as latest, or a range.",
    docs: DOCS,
  },
  no_digest: {
    severity: "warning",
    title: "Image without digest",
    meaning: "A docker or podman image without a full @sha256:<64 hex> digest (a tag, no tag, or a short or malformed digest); it can point at new content.",
    docs: DOCS,
  },
  no_hashes: {
    severity: "warning",
    title: "No hash checking",
    meaning: "A pip install without --require-hashes, pinned or not: the downloaded files are not hash-checked.",
    docs: DOCS,
  },
  insecure_transport: {
    severity: "warning",
    title: "Remote server over plain HTTP",
    meaning:
      "A remote server reached over plain http:// (or ws://) on a host that is not this machine: anyone on the network path can read and change what it tells the model.",
    docs: DOCS,
  },
  unreadable_entry: {
    severity: "warning",
    title: "Unreadable config entry",
    meaning: "A config entry whose command or args has the wrong type, or that has neither a command nor a url.",
    docs: DOCS,
  },
} as const satisfies Record<InstallKind, InstallKindInfo>;

/** All kinds, worst first. */
export const INSTALL_KIND_NAMES = Object.keys(INSTALL_KINDS) as InstallKind[];

/** Rank of a kind: lower is worse. */
export function kindRank(kind: InstallKind): number {
  return INSTALL_KIND_NAMES.indexOf(kind);
}

/** Where a package comes from. */
export type Ecosystem = "npm" | "PyPI" | "image" | "Go" | "NuGet" | "crates.io" | "JSR" | "url";

/** The specific cause of a finding; messages.ts turns it into words. */
export type InstallReason =
  // unpinned
  | "no_version"
  | "tag"
  | "range"
  | "not_a_version"
  // unpinned_source
  | "git_no_ref"
  | "git_ref"
  | "url"
  // no_digest
  | "image_tag"
  | "image_no_tag"
  | "invalid_digest"
  // no_hashes
  | "pip_no_hashes"
  // insecure_transport
  | "plain_http"
  // known_bad
  | "bad_version"
  | "bad_range"
  | "bad_any"
  | "bad_text"
  | "bad_name"
  // unreadable_entry
  | "entry_not_object"
  | "command_type"
  | "args_type"
  | "no_command_or_url"
  // unparsed
  | "variable"
  | "unsplittable"
  | "substitution"
  | "pipeline"
  | "control_flow"
  | "cmd_metachar"
  | "encoded_command"
  | "unknown_flag"
  | "invalid_spec"
  | "workspace_protocol"
  | "requirements_file"
  | "missing_package"
  | "ambiguous_command"
  | "unsupported"
  | "too_long"
  | "too_deep";

/** How a known-bad finding was matched, with the advisory facts the message cites. */
export interface AdvisoryFacts {
  ecosystem: "npm" | "PyPI";
  name: string;
  /** Bad versions the advisory lists. */
  versions: string[];
  /** Bad intervals; `fixed` null means every release from `introduced` on. */
  ranges: { introduced: string; fixed: string | null }[];
  id: string | null;
  date: string;
  source: string;
  summary: string | null;
}

/** Facts a finding carries; every field is optional and kind-specific. Never holds env values or whole commands. */
export interface InstallArgs {
  reason: InstallReason;
  ecosystem?: Ecosystem;
  /** Launcher that fetches the package (`npx`, `uvx`, `docker run`, ...). */
  launcher?: string;
  /** The version, range, tag or git ref as written (already made safe to show). */
  spec?: string;
  /** The package is an extra one (`--with`, `-p`), not the main package. */
  role?: "main" | "extra";
  /** A flag involved (`--frobnicate`), without its value. */
  flag?: string;
  /** Config field involved in an unreadable entry. */
  field?: string;
  advisory?: AdvisoryFacts;
}

/** One I1 finding, as data: sentences are built in `install/messages.ts`. */
export interface InstallFinding {
  rule: "I1";
  kind: InstallKind;
  severity: Severity;
  /** The package as written (safe to show: no credentials or query strings), or null when none was found. */
  package: string | null;
  args: InstallArgs;
}

/** Build a finding with the table's severity. */
export function installFinding(kind: InstallKind, pkg: string | null, args: InstallArgs): InstallFinding {
  return { rule: "I1", kind, severity: INSTALL_KINDS[kind].severity, package: pkg, args };
}
