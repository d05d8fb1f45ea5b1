/** One-line sentences for changes: the only place change data becomes words. */

import type { PackageChange } from "../artifact/compare.js";
import { isHttpToken } from "../lint/mcp-header.js";
import type { Change } from "../lock/kinds.js";
import { thousands } from "../numbers.js";
import { SCHEMA_REASONS } from "../schema/reasons.js";
import { neutralize } from "../text/neutralize.js";
import { textHunks, whitespaceOnly } from "./text-diff.js";

// JSON values that are not text (whole annotations, limits) are cut for a one-line message; text the
// model reads is never cut when it is new, since a payload can sit at its end.
const MAX_JSON_SHOWN = 300;
const MAX_REMOVED_SHOWN = 300;

/** Quote a JSON value for a message: strings whole and made inert, other values as compact JSON. */
export function quote(value: unknown): string {
  if (value === undefined) return "(absent)";
  if (typeof value === "string") return `"${neutralize(value)}"`;
  return cut(neutralize(JSON.stringify(value) ?? "null"), MAX_JSON_SHOWN);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}...(${text.length - max} more characters)`;
}

/** What a text edit that moved, added or dropped only spaces, tabs and line breaks is called. */
export const WHITESPACE_ONLY = "whitespace only, the same words in the same order";

/**
 * Every edit between two texts, in order, each whole: `inserted "..."`, `replaced "..." with
 * "..."`, `removed "..."` (long removed text is cut; it no longer reaches the model). An edit of
 * white space only is one phrase with the count of edits, not a `removed " "` per space.
 */
export function describeTextEdit(before: unknown, after: unknown): string {
  if (typeof before !== "string" || typeof after !== "string") return `${quote(before)} -> ${quote(after)}`;
  if (whitespaceOnly(before, after)) return `${WHITESPACE_ONLY} (${editCount(before, after)})`;
  const removedText = (text: string) => `"${cut(neutralize(text), MAX_REMOVED_SHOWN)}"`;
  const parts = textHunks(before, after).map((hunk) => {
    if (hunk.op === "insert") return `inserted ${quote(hunk.after)}`;
    if (hunk.op === "delete") return `removed ${removedText(hunk.before)}`;
    return `replaced ${removedText(hunk.before)} with ${quote(hunk.after)}`;
  });
  return parts.join("; ");
}

/** How many edits a text change holds, for the terminal's short line above the diff. */
export function editCount(before: unknown, after: unknown): string {
  if (typeof before !== "string" || typeof after !== "string") return "";
  const hunks = textHunks(before, after);
  const count = (op: string, word: string) => {
    const n = hunks.filter((hunk) => hunk.op === op).length;
    return n === 0 ? [] : [`${n} ${word}${n === 1 ? "" : "s"}`];
  };
  return [...count("insert", "insertion"), ...count("replace", "replacement"), ...count("delete", "deletion")].join(", ");
}

/** The facts of a schema finding as `name: value` pairs; values arrive as display-ready JSON text or numbers. */
function schemaFacts(detail: Record<string, string | number> | undefined): string {
  if (detail === undefined) return "";
  const facts = Object.keys(detail).map((key) => {
    const value = detail[key];
    return `${neutralize(key)}: ${typeof value === "number" ? String(value) : neutralize(value ?? "")}`;
  });
  return facts.length === 0 ? "" : ` (${facts.join(", ")})`;
}

function schemaReason(change: Change): string {
  const reason = change.args.reason;
  const info = reason !== undefined && Object.hasOwn(SCHEMA_REASONS, reason) ? SCHEMA_REASONS[reason as keyof typeof SCHEMA_REASONS] : undefined;
  return `${info?.summary ?? reason ?? "changed"}${schemaFacts(change.args.detail)}`;
}

const HINT_WORDS: Record<string, string> = {
  readOnlyHint: "read-only",
  idempotentHint: "idempotent",
  destructiveHint: "destructive",
  openWorldHint: "open-world",
};

/** A path for a message: made inert like any server text (property names come from the server). */
function at(path: string | undefined): string {
  return neutralize(path ?? "");
}

function renameNote(change: Change): string {
  const { renamedFrom } = change.args;
  if (renamedFrom === undefined) return "";
  const similarity = change.args.detail?.similarity;
  if (typeof similarity === "number" && similarity < 100) {
    return `; possibly renamed from ${quote(renamedFrom)} (description ${similarity}% similar)`;
  }
  return `; renamed from ${quote(renamedFrom)} (same definition otherwise)`;
}

/** The one-line message for a change, with every inserted character of text the model reads. */
export function changeMessage(change: Change): string {
  const { args } = change;
  switch (change.kind) {
    case "duplicate_tool":
      return `${args.count ?? 2} tools are named ${quote(change.tool)}; a client may pick either one`;
    case "tool_added": {
      const description = typeof args.after === "string" ? `description ${quote(args.after)}` : "no description";
      return `new tool, not in the lock${renameNote(change)}; ${description}`;
    }
    case "tool_removed": {
      const to = args.detail?.renamedTo;
      if (to === undefined) return "tool is no longer served";
      const similarity = args.detail?.similarity;
      return typeof similarity === "number" && similarity < 100
        ? `tool is no longer served (possibly renamed to ${quote(to)}, description ${similarity}% similar)`
        : `tool is no longer served (renamed to ${quote(to)})`;
    }
    case "description_changed":
      return `description changed: ${describeTextEdit(args.before, args.after)}`;
    case "title_changed":
      return `title changed: ${quote(args.before)} -> ${quote(args.after)}`;
    case "schema_text_changed":
      if (args.reason === "name_added" || args.reason === "names_added") {
        return `new named sub-schema${(args.paths?.length ?? 1) === 1 ? "" : "s"} the model reads: ${(args.paths ?? [change.path ?? ""]).map(at).join(", ")}`;
      }
      if (args.reason === "text_added") return `new text the model reads at ${at(change.path)}: ${quote(args.after)}`;
      if (args.reason === "text_removed") return `text removed at ${at(change.path)}: ${quote(args.before)}`;
      return `text at ${at(change.path)} changed: ${describeTextEdit(args.before, args.after)}`;
    case "mcp_header_changed":
      return mcpHeaderMessage(change);
    case "schema_widened":
      if (args.reason === "property_added" || args.reason === "property_added_accepts_more") return newParameter(change);
      if (args.reason === "reference_retargeted") {
        return `reference at ${at(change.path)} now points at ${neutralize(String(args.detail?.after ?? ""))} instead of ${neutralize(String(args.detail?.before ?? ""))}, which accepts more (${differences(args.detail?.changes)}; review the diff)`;
      }
      return `input schema accepts or asks for more at ${at(change.path)}: ${schemaReason(change)}`;
    case "schema_changed": {
      const where = uniquePaths(args.paths ?? [change.path ?? ""])
        .map(at)
        .join(", ");
      if (args.reason === "dialect_uri_changed") return `$schema URI changed at ${where}, but no keyword changes meaning`;
      if (args.reason === "parameter_removed") {
        const extra = args.detail?.extra === 1 ? "; extra values are still accepted" : "";
        return `parameter \`${neutralize(String(args.detail?.name ?? ""))}\` removed${extra} (at ${at(change.path)})`;
      }
      if (args.reason === "enum_value_removed") {
        const count = Number(args.detail?.count ?? 1);
        const more = typeof args.detail?.more === "number" ? ` and ${thousands(args.detail.more)} more` : "";
        const what = count === 1 ? "allowed value removed" : "allowed values removed";
        return `${what} at ${at(change.path)}: ${neutralize(String(args.detail?.values ?? ""))}${more}; a call that sends ${count === 1 ? "it" : "one of them"} is now refused`;
      }
      if (args.reason === "reference_retargeted_structural") {
        return `reference at ${at(change.path)} now points at ${neutralize(String(args.detail?.after ?? ""))} instead of ${neutralize(String(args.detail?.before ?? ""))}; the new target accepts nothing the old one rejected (${differences(args.detail?.changes)})`;
      }
      if (args.reason === "default_null") return `default: null added or removed at ${where}; an optional parameter left out means the same`;
      if (args.reason === "unreferenced_definition") return `definitions nothing references changed at ${where}; they do not affect what the tool accepts`;
      return `input schema changed structurally at ${where}; review the diff`;
    }
    case "output_schema_changed": {
      const how = args.reason === "added" ? "added" : args.reason === "removed" ? "removed" : args.reason === "widened" ? "widened" : "changed";
      const where = args.paths && args.paths.length > 0 ? ` at ${uniquePaths(args.paths).map(at).join(", ")}` : "";
      return `output schema ${how}${where}`;
    }
    case "annotations_changed": {
      if (args.reason === "title") return `annotations.title changed (shown to the user): ${quote(args.before)} -> ${quote(args.after)}`;
      const hint = args.reason ?? "";
      if (Object.hasOwn(HINT_WORDS, hint)) {
        if (args.detail?.text === 1) return `${hint} ${quote(args.before)} -> ${quote(args.after)}: the hint holds text a model may read, not a flag`;
        const safer = args.detail?.safer === 1;
        const negated = hint === "destructiveHint" || hint === "openWorldHint";
        return `${hint} ${quote(args.before)} -> ${quote(args.after)}${safer ? `: the tool now claims to be ${negated ? "not " : ""}${HINT_WORDS[hint]}` : ""}`;
      }
      const fields = args.fields && args.fields.length > 0 ? ` (${args.fields.map((field) => neutralize(field)).join(", ")})` : "";
      const text = args.detail?.text === 1 ? " (text a model may read)" : "";
      return `annotations changed${fields}${text}: ${quote(args.before)} -> ${quote(args.after)}`;
    }
    case "meta_changed":
      return `${(args.fields ?? []).map((field) => neutralize(field)).join(", ")} changed (hosts act on it or show it to users): ${quote(args.before)} -> ${quote(args.after)}`;
    case "definition_changed":
      return `other fields of the definition changed: ${(args.fields ?? []).map((field) => quote(field)).join(", ")}`;
    case "instructions_changed":
      if (args.reason === "removed") return "server instructions removed";
      if (args.reason === "not_in_lock") return `server instructions not in the lock: ${quote(args.after)}`;
      return `server instructions changed: ${describeTextEdit(args.before, args.after)}`;
    case "instructions_unchecked":
      return 'the lock holds server instructions but this run does not know them (a --from file without "instructions"), so they were not checked';
    case "server_changed":
      if (args.reason === "command") return "the launch command changed (compared by hash; the command is never stored)";
      return `server ${args.reason ?? "version"} changed: ${quote(args.before)} -> ${quote(args.after)}`;
    case "prompt_added":
    case "resource_added":
    case "resource_template_added":
      // Every string of a new definition is text the model may read: shown whole, never cut.
      return `new ${change.subject ?? "item"}, not in the lock: ${neutralize(JSON.stringify(args.definition) ?? "null")}`;
    case "prompt_removed":
    case "resource_removed":
    case "resource_template_removed":
      return `${change.subject ?? "item"} is no longer served`;
    case "prompt_changed":
    case "resource_changed":
    case "resource_template_changed":
      return entryChangeMessage(change);
    case "artifact_changed":
    case "dependencies_changed":
    case "provenance_changed":
      return artifactMessage(change);
    case "client_divergence":
      return `served differently to ${(args.fields ?? []).map((client) => quote(client)).join(" and ")}${args.paths && args.paths.length > 0 ? ` at ${uniquePaths(args.paths).map(at).join(", ")}` : ""}; each client may approve a different tool`;
    case "ignore_stale":
      return `the ignore rule for ${args.reason ?? "a change"} at ${at(change.path)} (${quote(args.detail?.because)}) silenced nothing: the value it was granted for is no longer served; the next write drops it`;
  }
}

/** Which header a parameter is copied into, before and after; a secret-looking parameter says so. */
function mcpHeaderMessage(change: Change): string {
  const { args } = change;
  const name = args.detail?.name;
  const parameter = name === undefined ? `the schema at ${at(change.path)}` : `parameter \`${neutralize(String(name))}\``;
  const secret = args.detail?.secret === undefined ? "" : ` (it looks like a secret, by its ${neutralize(String(args.detail.secret))})`;
  if (args.reason === "added")
    return `${parameter} is now copied into HTTP header Mcp-Param-${headerName(args.after)}, which every proxy on the way sees${secret}`;
  if (args.reason === "removed") return `${parameter} is no longer copied into HTTP header Mcp-Param-${headerName(args.before)}`;
  return `${parameter} is now copied into HTTP header Mcp-Param-${headerName(args.after)} instead of Mcp-Param-${headerName(args.before)}${secret}`;
}

/** A header name as sent, inert and short (a server may send anything there). */
function headerName(value: unknown): string {
  if (isHttpToken(value) && value.length <= 80) return value;
  return typeof value === "string" ? `"${cut(neutralize(value), 80)}"` : quote(value);
}

/** `new parameter \`x\` (string, required)`, and when the old schema held the name to less, that it accepts more. */

function newParameter(change: Change): string {
  const detail = change.args.detail ?? {};
  const facts = [detail.type, detail.required].filter((v) => v !== undefined).map((v) => neutralize(String(v)));
  const how = facts.length > 0 ? ` (${facts.join(", ")})` : "";
  const more = change.args.reason === "property_added_accepts_more" ? "; the old schema rejected this name or held it to a stricter schema" : "";
  return `new parameter \`${neutralize(String(detail.name ?? ""))}\`${how} at ${at(change.path)}${more}`;
}

/** A changed prompt, resource or template field; text fields show every edit. */
function entryChangeMessage(change: Change): string {
  const { args } = change;
  const where = neutralize(change.path ?? "");
  if (args.reason === "argument_added") return `new argument ${quote(args.fields?.[0])}: ${neutralize(JSON.stringify(args.after) ?? "null")}`;
  if (args.reason === "argument_removed") return `argument ${quote(args.fields?.[0])} removed`;
  if (typeof args.before === "string" && typeof args.after === "string") return `${where} changed: ${describeTextEdit(args.before, args.after)}`;
  return `${where} changed: ${quote(args.before)} -> ${quote(args.after)}`;
}

/** `1 difference`, `4 differences`. */
function differences(count: string | number | undefined): string {
  const n = typeof count === "number" ? count : 1;
  return `${thousands(n)} difference${n === 1 ? "" : "s"}`;
}

function uniquePaths(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

/** Packages listed by name in a dependencies_changed message before "and N more" (the JSON report lists all). */
const LISTED_PACKAGES = 40;

function artifactMessage(change: Change): string {
  const { args } = change;
  const text = (value: unknown) => neutralize(String(value ?? ""));
  switch (change.kind) {
    case "artifact_changed":
      if (args.reason === "integrity") {
        return `${text(args.detail?.package)} is another tarball under the same version: integrity ${text(args.before)} -> ${text(args.after)}; the registry serves different code than was locked`;
      }
      if (args.reason === "unpinned") return `the lock pins ${text(args.before)}, but what the launch runs now cannot be pinned: ${text(args.after)}`;
      return `the launch runs ${text(args.after)}, not the locked ${text(args.before)}`;
    case "dependencies_changed": {
      const packages = (Array.isArray(args.after) ? args.after : []) as PackageChange[];
      const shown = packages.slice(0, LISTED_PACKAGES).map(packageLine);
      const more =
        packages.length > LISTED_PACKAGES ? `, and ${thousands(packages.length - LISTED_PACKAGES)} more (every one is in --json and in the lock's diff)` : "";
      const counts = `${args.detail?.changed ?? 0} changed, ${args.detail?.added ?? 0} added, ${args.detail?.removed ?? 0} removed`;
      return `the dependency tree npm installs changed (${counts}): ${shown.join("; ")}${more}`;
    }
    default:
      if (args.reason === "lost") return `this release has no provenance; the locked one was built by ${text(args.before)}`;
      if (args.reason === "source") return `this release was built by ${text(args.after)}, the locked one by ${text(args.before)}`;
      if (args.reason === "signature_lost") return "this release carries no registry signature; the locked one had a verified one";
      return `this release has provenance (${text(args.after)}); the locked one had none`;
  }
}

function packageLine(item: PackageChange): string {
  // A copy nested under another package is named with it: two `content-type` lines must not look alike.
  const nested = item.location.lastIndexOf("/node_modules/");
  const parent = nested > 0 ? item.location.slice(0, nested).replace(/^node_modules\//, "") : null;
  const name = `${neutralize(item.name)}${parent === null ? "" : ` (under ${neutralize(parent.replaceAll("/node_modules/", " > "))})`}`;
  const notes: string[] = [];
  if (item.gainedInstallScript) notes.push("install script added");
  if (item.knownBad !== null) notes.push(`known-bad release, ${neutralize(item.knownBad)}`);
  if (item.integrityChanged) notes.push("same version, another tarball");
  const tail = notes.length > 0 ? ` (${notes.join(", ")})` : "";
  if (item.before === null) return `+ ${name} ${neutralize(item.after ?? "")}${tail}`;
  if (item.after === null) return `- ${name} ${neutralize(item.before)}`;
  return `${name} ${neutralize(item.before)} -> ${neutralize(item.after)}${tail}`;
}
