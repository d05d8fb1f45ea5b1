/** Classify every difference between a lock and what a server serves now, following the change table. Pure. */

import { canonicalize } from "../json/canonical.js";
import { type SchemaFinding, compareSchemas } from "../schema/index.js";
import { hasString } from "../schema/json.js";
import { textEntries } from "../schema/shape.js";
import { jsonEqual } from "../json/equal.js";
import { escapePointer, valueAtPointer } from "../json/value.js";
import { compareEntrySections } from "./compare-entries.js";
import { mcpHeaderChanges, mcpHeaderPaths } from "./mcp-header.js";
import { type LockedEntry, type Lockfile, LOCKFILE_VERSION_SERVERS } from "./format.js";
import type { Change, ChangeKind, Severity } from "./kinds.js";
import { CHANGE_KINDS, CHANGE_KIND_NAMES } from "./kinds.js";
import { type JsonObject, type ServerSnapshot, isJsonObject, ownField } from "./snapshot.js";
import { pushAll } from "../arrays.js";
import { TooManyChangesError } from "../errors.js";
import { MAX_CHANGES } from "../limits.js";
import { thousands } from "../numbers.js";

/** Names served more than once, with how many times. */
export function duplicateNames(tools: readonly JsonObject[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const name = tool.name as string;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  for (const [name, count] of counts) if (count < 2) counts.delete(name);
  return counts;
}

/** Compare a lock with a snapshot: every change, ordered by tool (server-level last) then by table order. */
export function compareWithLock(lock: Lockfile, snapshot: ServerSnapshot): Change[] {
  const changes: Change[] = [];
  const served = new Map<string, JsonObject[]>();
  for (const tool of snapshot.tools) {
    const name = tool.name as string;
    const copies = served.get(name);
    if (copies) copies.push(tool);
    else served.set(name, [tool]);
  }

  for (const [name, count] of duplicateNames(snapshot.tools)) {
    changes.push(change("duplicate_tool", name, { count }));
  }

  const added = [...served.keys()].filter((name) => !lock.tools.has(name));
  const removed = [...lock.tools.keys()].filter((name) => !served.has(name));
  const renames = findRenames(
    removed.map((name) => [name, (lock.tools.get(name) as LockedEntry).definition] as const),
    added.map((name) => [name, (served.get(name) as JsonObject[])[0] as JsonObject] as const),
  );
  for (const name of added) {
    const definition = (served.get(name) as JsonObject[])[0] as JsonObject;
    const rename = renames.get(name);
    changes.push(
      change("tool_added", name, {
        after: ownField(definition, "description"),
        definition,
        ...(rename === undefined ? {} : { renamedFrom: rename.from, detail: { similarity: rename.similarity } }),
      }),
    );
  }
  const renamedTo = new Map([...renames].map(([to, rename]) => [rename.from, { to, similarity: rename.similarity }]));
  for (const name of removed) {
    const rename = renamedTo.get(name);
    changes.push(change("tool_removed", name, rename === undefined ? {} : { detail: { renamedTo: rename.to, similarity: rename.similarity } }));
  }

  for (const [name, copies] of served) {
    const locked = lock.tools.get(name);
    if (!locked) continue;
    // Every copy of a duplicated name is compared: either one may be what a client picks.
    const seen: JsonObject[] = [];
    for (const copy of copies) {
      if (jsonEqual(copy, locked.definition) || seen.some((other) => jsonEqual(other, copy))) continue;
      seen.push(copy);
      pushAll(changes, compareDefinitions(name, locked.definition, copy));
      if (changes.length > MAX_CHANGES) {
        throw new TooManyChangesError(
          `more than ${thousands(MAX_CHANGES)} changes against the lock (the server was rewritten wholesale); stopping rather than build a report that size: review the server, and if it is what you want, delete the lock and run mcp-lint lock to record it afresh`,
        );
      }
    }
  }

  changes.push(...compareInstructions(lock, snapshot), ...compareServer(lock, snapshot));
  // A v1 lock pins tools and instructions only; its reserved sections are kept, not compared.
  if (lock.version === LOCKFILE_VERSION_SERVERS) pushAll(changes, compareEntrySections(lock, snapshot));
  return sortChanges(changes);
}

function sortChanges(changes: Change[]): Change[] {
  const rank = (kind: ChangeKind) => CHANGE_KIND_NAMES.indexOf(kind);
  return changes
    .map((item, index) => ({ item, index }))
    .sort((a, b) => {
      const ta = a.item.tool;
      const tb = b.item.tool;
      if (ta !== tb) {
        if (ta === null) return 1;
        if (tb === null) return -1;
        return ta < tb ? -1 : 1;
      }
      return rank(a.item.kind) - rank(b.item.kind) || a.index - b.index;
    })
    .map(({ item }) => item);
}

function change(kind: ChangeKind, tool: string | null, args: Change["args"], severity?: Severity, path?: string): Change {
  const result: Change = { kind, severity: severity ?? CHANGE_KINDS[kind].severity, tool, args };
  if (path !== undefined) result.path = path;
  return result;
}

/** A likely rename: the removed tool's name, and how similar the descriptions are (100 when only the name changed). */
interface Rename {
  from: string;
  similarity: number;
}

/** Descriptions at least this similar (Dice coefficient over words) make a removed and an added tool a likely rename. */
const RENAME_SIMILARITY = 0.8;
/** Pairs compared for a fuzzy rename; past this, only exact renames are found. */
const MAX_RENAME_PAIRS = 10_000;

/**
 * Tools whose definitions match except for the name are a rename; otherwise a removed and an added
 * tool with near-identical descriptions are "possibly renamed". Reported on the added tool.
 */
function findRenames(removed: ReadonlyArray<readonly [string, JsonObject]>, added: ReadonlyArray<readonly [string, JsonObject]>): Map<string, Rename> {
  const renames = new Map<string, Rename>();
  if (removed.length === 0 || added.length === 0) return renames;
  const byBody = new Map<string, string[]>();
  for (const [name, definition] of removed) {
    const key = canonicalize(withoutName(definition));
    const names = byBody.get(key);
    if (names) names.push(name);
    else byBody.set(key, [name]);
  }
  const taken = new Set<string>();
  for (const [name, definition] of added) {
    const candidates = byBody.get(canonicalize(withoutName(definition)));
    const from = candidates?.shift();
    if (from !== undefined) {
      renames.set(name, { from, similarity: 100 });
      taken.add(from);
    }
  }
  const leftRemoved = removed.filter(([name]) => !taken.has(name));
  const leftAdded = added.filter(([name]) => !renames.has(name));
  if (leftRemoved.length * leftAdded.length > MAX_RENAME_PAIRS) return renames;
  const bags = new Map(leftRemoved.map(([name, definition]) => [name, wordBag(ownField(definition, "description"))]));
  for (const [name, definition] of leftAdded) {
    const bag = wordBag(ownField(definition, "description"));
    if (bag === null) continue;
    let best: Rename | null = null;
    for (const [from] of leftRemoved) {
      const other = bags.get(from);
      if (other === null || other === undefined || taken.has(from)) continue;
      const similarity = dice(bag, other);
      if (similarity >= RENAME_SIMILARITY && (best === null || similarity * 100 > best.similarity)) {
        best = { from, similarity: Math.floor(similarity * 100) };
      }
    }
    if (best !== null) {
      renames.set(name, best);
      taken.add(best.from);
    }
  }
  return renames;
}

/** Lower-cased words of a description with their counts; null when there is too little text to compare. */
function wordBag(description: unknown): Map<string, number> | null {
  if (typeof description !== "string") return null;
  const words = description.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (words.length < 3) return null;
  const bag = new Map<string, number>();
  for (const word of words) bag.set(word, (bag.get(word) ?? 0) + 1);
  return bag;
}

/** Dice coefficient of two word multisets: 2 x shared / total. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const [word, count] of a) {
    shared += Math.min(count, b.get(word) ?? 0);
    total += count;
  }
  for (const count of b.values()) total += count;
  return total === 0 ? 0 : (2 * shared) / total;
}

function withoutName(definition: JsonObject): JsonObject {
  const copy = Object.create(null) as JsonObject;
  for (const key of Object.keys(definition)) if (key !== "name") copy[key] = definition[key];
  return copy;
}

const META_FIELDS = new Set(["_meta", "icons", "execution"]);
const HANDLED_FIELDS = new Set(["name", "title", "description", "inputSchema", "outputSchema", "annotations"]);

/** Classify the differences between two definitions of the same tool. */
export function compareDefinitions(tool: string, before: JsonObject, after: JsonObject): Change[] {
  const changes: Change[] = [];
  const field = (key: string) => [ownField(before, key), ownField(after, key)] as const;

  const [oldDescription, newDescription] = field("description");
  if (!jsonEqual(oldDescription, newDescription)) {
    changes.push(change("description_changed", tool, { before: oldDescription, after: newDescription }, undefined, "/description"));
  }
  const [oldTitle, newTitle] = field("title");
  if (!jsonEqual(oldTitle, newTitle)) {
    changes.push(change("title_changed", tool, { before: oldTitle, after: newTitle }, undefined, "/title"));
  }

  const [oldInput, newInput] = field("inputSchema");
  if (!jsonEqual(oldInput, newInput)) pushAll(changes, compareInputSchema(tool, oldInput, newInput));
  const [oldOutput, newOutput] = field("outputSchema");
  if (!jsonEqual(oldOutput, newOutput)) pushAll(changes, compareOutputSchema(tool, oldOutput, newOutput));

  const [oldAnnotations, newAnnotations] = field("annotations");
  if (!jsonEqual(oldAnnotations, newAnnotations)) {
    pushAll(changes, compareAnnotations(tool, oldAnnotations, newAnnotations));
  }

  const otherFields: string[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of [...keys].sort()) {
    if (HANDLED_FIELDS.has(key)) continue;
    const [oldValue, newValue] = field(key);
    if (jsonEqual(oldValue, newValue)) continue;
    if (key === "execution" && jsonEqual(executionWithDefaults(oldValue), executionWithDefaults(newValue))) continue;
    if (META_FIELDS.has(key)) {
      changes.push(change("meta_changed", tool, { fields: [key], before: oldValue, after: newValue }, undefined, `/${escapePointer(key)}`));
    } else {
      otherFields.push(key);
    }
  }
  if (otherFields.length > 0) {
    changes.push(change("definition_changed", tool, { fields: otherFields }));
  }
  return changes;
}

/**
 * `execution` as a host reads it: absent means `{"taskSupport": "forbidden"}` (the specification's
 * default), so spelling the default out is not a change.
 */
function executionWithDefaults(value: unknown): unknown {
  if (value === undefined) return { taskSupport: "forbidden" };
  if (!isJsonObject(value) || Object.hasOwn(value, "taskSupport")) return value;
  return { ...value, taskSupport: "forbidden" };
}

/** A schema as the analyzer sees it: a missing schema accepts anything. */
function schemaOrEmpty(schema: unknown): unknown {
  return schema === undefined ? {} : schema;
}

function compareInputSchema(tool: string, before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  const findings = compareSchemas(schemaOrEmpty(before), schemaOrEmpty(after));
  const structural: SchemaFinding[] = [];
  const widened = new Set<string>();
  // An x-mcp-header value is reported as mcp_header_changed, never also as text or structure.
  const headers = mcpHeaderPaths(before, after);
  for (const finding of findings) {
    if (headers.has(finding.path)) continue;
    const path = `/inputSchema${finding.path}`;
    if (finding.kind === "widened") {
      changes.push(change("schema_widened", tool, findingArgs(finding), undefined, path));
      widened.add(path);
    } else if (finding.kind === "text") {
      if (finding.reason !== "name_added") changes.push(change("schema_text_changed", tool, textArgs(finding, before, after), undefined, path));
    } else if ((finding.reason === "parameter_removed" || finding.reason === "property_removed") && typeof finding.args?.name === "string") {
      // A removed parameter is named on its own line: the model no longer sees it, so it is a warning.
      const extra = finding.reason === "parameter_removed" ? 1 : 0;
      changes.push(change("schema_changed", tool, { reason: "parameter_removed", detail: { name: finding.args.name, extra } }, undefined, path));
    } else if (finding.reason === "reference_retargeted_structural") {
      changes.push(change("schema_changed", tool, findingArgs(finding), undefined, path));
    } else if (finding.reason !== "enum_value_removed") {
      // Removed enum values get their own row (removedValues), even where values were also added at the
      // same path: a call that sends one is now refused, which the widening row for the added ones does not say.
      structural.push(finding);
    }
  }
  pushAll(changes, removedValues(tool, findings));
  pushAll(changes, newNames(tool, "/inputSchema", findings));
  pushAll(changes, mcpHeaderChanges(tool, before, after));
  // The analyzer normalizes equivalent rewrites and reorders; no finding means no change to report. A path
  // already reported as a widening is not repeated as a structural change.
  pushAll(changes, structuralChanges(tool, "/inputSchema", structural, widened, before, after));
  return changes;
}

/**
 * One `schema_changed` warning per list that lost values, naming them (`values: "archived", "draft"`);
 * past the analyzer's cap the rest are counted (`more`).
 */
function removedValues(tool: string, findings: readonly SchemaFinding[]): Change[] {
  const byPath = new Map<string, { shown: string[]; more: number }>();
  for (const finding of findings) {
    if (finding.reason !== "enum_value_removed") continue;
    const path = `/inputSchema${finding.path}`;
    const entry = byPath.get(path) ?? { shown: [], more: 0 };
    byPath.set(path, entry);
    const more = finding.args?.more;
    if (typeof more === "number") entry.more += more;
    else entry.shown.push(String(finding.args?.value ?? ""));
  }
  return [...byPath].map(([path, { shown, more }]) => {
    const detail: Record<string, string | number> = { values: shown.join(", "), count: shown.length + more };
    if (more > 0) detail.more = more;
    return change("schema_changed", tool, { reason: "enum_value_removed", detail }, undefined, path);
  });
}

/**
 * Structural findings as `schema_changed` changes, each path once: one warning for those that matter, and
 * info for those a reviewer need not act on (a `$schema` URI that changes no keyword's meaning, edits only
 * inside definitions nothing references), with `reason` saying which.
 */
function structuralChanges(
  tool: string,
  root: string,
  findings: readonly SchemaFinding[],
  skip: ReadonlySet<string>,
  before: unknown,
  after: unknown,
): Change[] {
  const paths = (list: readonly SchemaFinding[]) => [...new Set(list.map((f) => `${root}${f.path}`))].filter((p) => !skip.has(p));
  const out: Change[] = [];
  const warnings = paths(findings.filter((f) => f.info !== true));
  if (warnings.length > 0) out.push(change("schema_changed", tool, { paths: warnings, before, after }, undefined, root));
  const infoReason = (f: SchemaFinding) =>
    f.unreferenced === true ? "unreferenced_definition" : f.reason === "annotation_changed" ? "default_null" : "dialect_uri_changed";
  for (const reason of ["dialect_uri_changed", "unreferenced_definition", "default_null"] as const) {
    const info = paths(findings.filter((f) => f.info === true && infoReason(f) === reason));
    if (info.length > 0) out.push(change("schema_changed", tool, { reason, paths: info, before, after }, "info", root));
  }
  return out;
}

function compareOutputSchema(tool: string, before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  const findings = compareSchemas(schemaOrEmpty(before), schemaOrEmpty(after));
  const other: SchemaFinding[] = [];
  for (const finding of findings) {
    if (finding.kind === "text") {
      if (finding.reason !== "name_added")
        changes.push(change("schema_text_changed", tool, textArgs(finding, before, after), undefined, `/outputSchema${finding.path}`));
    } else {
      other.push(finding);
    }
  }
  pushAll(changes, newNames(tool, "/outputSchema", findings));
  const presence = before === undefined ? "added" : after === undefined ? "removed" : null;
  if (presence !== null || other.length > 0) {
    const reason = presence ?? (other.some((finding) => finding.kind === "widened") ? "widened" : "changed");
    const paths = [...new Set(other.map((finding) => `/outputSchema${finding.path}`))];
    // Only changes a reviewer need not act on (see structuralChanges): info.
    const severity = presence === null && other.every((finding) => finding.info === true) ? "info" : undefined;
    changes.push(change("output_schema_changed", tool, { reason, paths, before, after }, severity, "/outputSchema"));
  }
  return changes;
}

/**
 * New `$defs`/`definitions` names are text the model reads, but a schema that gains twenty
 * definitions is one change, not twenty: one `schema_text_changed` per schema, listing the names.
 */
function newNames(tool: string, root: string, findings: readonly SchemaFinding[]): Change[] {
  const paths = [...new Set(findings.filter((finding) => finding.reason === "name_added").map((finding) => `${root}${finding.path}`))];
  if (paths.length === 0) return [];
  if (paths.length === 1) return [change("schema_text_changed", tool, { reason: "name_added" }, undefined, paths[0])];
  return [change("schema_text_changed", tool, { reason: "names_added", paths }, undefined, root)];
}

function findingArgs(finding: SchemaFinding): Change["args"] {
  return finding.args === undefined ? { reason: finding.reason } : { reason: finding.reason, detail: finding.args };
}

/**
 * A text finding carries the old and new value at its path, so the report can show the edit. Text that came
 * with a whole new sub-schema (a new parameter) is shown as the words in it, not as the schema's JSON.
 */
function textArgs(finding: SchemaFinding, before: unknown, after: unknown): Change["args"] {
  const was = valueAtPointer(before, finding.path);
  const now = valueAtPointer(after, finding.path);
  if (finding.reason === "text_added" && isJsonObject(now)) {
    const entries = textEntries(now);
    if (entries.length > 0) {
      const only = entries.length === 1 && entries[0]?.at === "/description" ? entries[0].text : undefined;
      const words = only ?? entries.map((entry) => `${entry.at.slice(1)}: ${entry.text}`).join("\n");
      return { ...findingArgs(finding), before: was, after: words };
    }
  }
  return { ...findingArgs(finding), before: was, after: now };
}

const HINTS = [
  // [hint, value when absent, which truthiness is the safer claim]
  ["readOnlyHint", false, true],
  ["idempotentHint", false, true],
  ["destructiveHint", true, false],
  ["openWorldHint", true, false],
] as const;

/**
 * Hints are read the way a JavaScript host reads them, by truthiness. A tool that now claims to be
 * safer could skip an approval prompt, so that is an error; other annotation edits are warnings.
 */
function compareAnnotations(tool: string, before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  const oldAnnotations = isJsonObject(before) ? before : ({} as JsonObject);
  const newAnnotations = isJsonObject(after) ? after : ({} as JsonObject);
  const explained = new Set<string>();
  const oldTitle = ownField(oldAnnotations, "title");
  const newTitle = ownField(newAnnotations, "title");
  if (!jsonEqual(oldTitle, newTitle)) {
    explained.add("title");
    changes.push(change("annotations_changed", tool, { reason: "title", before: oldTitle, after: newTitle }, "error", "/annotations/title"));
  }
  for (const [hint, absent, safer] of HINTS) {
    const oldValue = ownField(oldAnnotations, hint);
    const newValue = ownField(newAnnotations, hint);
    explained.add(hint);
    if (jsonEqual(oldValue, newValue)) continue;
    if (!isFlag(oldValue) || !isFlag(newValue)) {
      // A hint that is or was a string, object or array holds text a model may read: never a no-op,
      // whatever its truthiness (`true` -> "<IMPORTANT>..." is as truthy as before).
      changes.push(
        change("annotations_changed", tool, { reason: hint, before: oldValue, after: newValue, detail: { text: 1 } }, "error", `/annotations/${hint}`),
      );
      continue;
    }
    const oldTruthy = oldValue === undefined ? absent : Boolean(oldValue);
    const newTruthy = newValue === undefined ? absent : Boolean(newValue);
    // Same meaning to a host (absent vs its default, false vs null, true vs 1): not a change.
    if (oldTruthy === newTruthy) continue;
    const severity: Severity = newTruthy === safer ? "error" : "warning";
    changes.push(
      change(
        "annotations_changed",
        tool,
        { reason: hint, before: oldValue, after: newValue, detail: { safer: severity === "error" ? 1 : 0 } },
        severity,
        `/annotations/${hint}`,
      ),
    );
  }
  const rest = [...new Set([...Object.keys(oldAnnotations), ...Object.keys(newAnnotations)])]
    .filter((key) => !explained.has(key) && !jsonEqual(ownField(oldAnnotations, key), ownField(newAnnotations, key)))
    .sort();
  // An annotations value that is not an object (absent aside) cannot be read as hints at all.
  const malformed = (value: unknown) => value !== undefined && !isJsonObject(value);
  // Annotations that are (or were) a string or a list holding one are text, even where a hint change explains the rest.
  const malformedText = (malformed(before) && hasString(before)) || (malformed(after) && hasString(after));
  const malformedChanged = malformedText || (changes.length === 0 && (malformed(before) || malformed(after)));
  if (rest.length > 0 || malformedChanged) {
    // Text in a field no row explains is text the model may read: an error, like schema text.
    const text = malformedText || rest.some((key) => hasString(ownField(oldAnnotations, key)) || hasString(ownField(newAnnotations, key)));
    const severity: Severity = text ? "error" : "warning";
    const args: Change["args"] = { reason: "other", fields: rest, before, after };
    if (text) args.detail = { text: 1 };
    changes.push(change("annotations_changed", tool, args, severity, "/annotations"));
  }
  return changes;
}

/** A value a host reads as a plain flag: a boolean, number or null, or absent. */
function isFlag(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "boolean" || typeof value === "number";
}

function compareInstructions(lock: Lockfile, snapshot: ServerSnapshot): Change[] {
  const locked = lock.instructions;
  const live = snapshot.instructions;
  if (!live.known) {
    // Nothing to compare against; say so only when the lock holds text this run could not check.
    return locked.known && locked.text !== null ? [change("instructions_unchecked", null, { before: locked.text })] : [];
  }
  const before = locked.known ? locked.text : null;
  if (before === live.text || (!locked.known && live.text === null)) return [];
  if (live.text === null) return [change("instructions_changed", null, { reason: "removed", before }, "info")];
  return [change("instructions_changed", null, { reason: locked.known && before !== null ? "changed" : "not_in_lock", before, after: live.text }, "error")];
}

function compareServer(lock: Lockfile, snapshot: ServerSnapshot): Change[] {
  const changes: Change[] = [];
  const pairs = [
    ["name", lock.server.name, snapshot.name],
    ["version", lock.server.version, snapshot.version],
  ] as const;
  for (const [what, before, after] of pairs) {
    if (after !== null && before !== null && before !== after) {
      changes.push(change("server_changed", null, { reason: what, before, after }));
    }
  }
  // The server's icons are shown to users like a tool's, and compared the same way (meta_changed).
  if (snapshot.icons !== undefined && !jsonEqual(lock.server.icons ?? null, snapshot.icons ?? null)) {
    changes.push(change("meta_changed", null, { fields: ["serverInfo.icons"], before: lock.server.icons ?? null, after: snapshot.icons ?? null }));
  }
  const { commandSha256 } = lock.server;
  if (snapshot.commandSha256 !== null && commandSha256 !== null && commandSha256 !== snapshot.commandSha256) {
    changes.push(change("server_changed", null, { reason: "command" }));
  }
  return changes;
}
