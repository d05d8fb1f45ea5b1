/** Classify changes to the prompts, resources and resource templates a v2 lock pins. Pure. */

import { jsonEqual } from "../json/equal.js";
import type { LockedEntry, Lockfile } from "./format.js";
import type { Change, ChangeKind, Severity } from "./kinds.js";
import { CHANGE_KINDS } from "./kinds.js";
import { type EntrySection, type JsonObject, type ServerSnapshot, isJsonObject, ownField } from "./snapshot.js";
import { pushAll } from "../arrays.js";

/** What each section calls its items, its change kinds, and which fields are text the model reads. */
const SECTIONS: Record<
  EntrySection,
  { subject: Change["subject"] & string; key: string; added: ChangeKind; changed: ChangeKind; removed: ChangeKind; text: readonly string[] }
> = {
  prompts: {
    subject: "prompt",
    key: "name",
    added: "prompt_added",
    changed: "prompt_changed",
    removed: "prompt_removed",
    text: ["title", "description"],
  },
  resources: {
    subject: "resource",
    key: "uri",
    added: "resource_added",
    changed: "resource_changed",
    removed: "resource_removed",
    text: ["name", "title", "description"],
  },
  resourceTemplates: {
    subject: "resource template",
    key: "uriTemplate",
    added: "resource_template_added",
    changed: "resource_template_changed",
    removed: "resource_template_removed",
    text: ["name", "title", "description"],
  },
};

/** Fields of a prompt argument the model reads. */
const ARGUMENT_TEXT = ["name", "title", "description"];

/**
 * Changes between the pinned and the served prompts, resources and templates. A section this run
 * did not read is not compared; a section the lock never pinned compares as empty, so every served
 * item is new.
 */
export function compareEntrySections(lock: Lockfile, snapshot: ServerSnapshot): Change[] {
  const changes: Change[] = [];
  for (const section of Object.keys(SECTIONS) as EntrySection[]) {
    const served = snapshot[section];
    if (served === undefined) continue;
    pushAll(changes, compareSection(section, lock[section], served));
  }
  return changes;
}

function compareSection(section: EntrySection, locked: Map<string, LockedEntry> | null, served: readonly JsonObject[]): Change[] {
  const info = SECTIONS[section];
  const changes: Change[] = [];
  const live = new Map(served.map((item) => [item[info.key] as string, item]));
  for (const [name, definition] of live) {
    const pinned = locked?.get(name);
    if (pinned === undefined) {
      changes.push(make(info.added, info.subject, name, { after: ownField(definition, "description"), definition }));
    } else if (!jsonEqual(pinned.definition, definition)) {
      pushAll(changes, compareItem(section, name, pinned.definition, definition));
    }
  }
  for (const name of locked?.keys() ?? []) {
    if (!live.has(name)) changes.push(make(info.removed, info.subject, name, {}));
  }
  return changes;
}

/** One change per changed field: text the model reads is an error, anything else a warning. */
function compareItem(section: EntrySection, name: string, before: JsonObject, after: JsonObject): Change[] {
  const info = SECTIONS[section];
  const changes: Change[] = [];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const field of fields) {
    const old = ownField(before, field);
    const now = ownField(after, field);
    if (jsonEqual(old, now)) continue;
    if (section === "prompts" && field === "arguments") {
      pushAll(changes, compareArguments(name, old, now));
      continue;
    }
    const text = info.text.includes(field);
    changes.push(make(info.changed, info.subject, name, { reason: field, before: old, after: now, fields: [field] }, text ? "error" : "warning", `/${field}`));
  }
  return changes;
}

/** Prompt arguments, matched by name: a new argument or new text is an error, other edits are warnings. */
function compareArguments(prompt: string, before: unknown, after: unknown): Change[] {
  const byName = (value: unknown) => {
    const map = new Map<string, JsonObject>();
    if (Array.isArray(value)) {
      for (const item of value) if (isJsonObject(item) && typeof item.name === "string") map.set(item.name, item);
    }
    return map;
  };
  const old = byName(before);
  const now = byName(after);
  const changes: Change[] = [];
  const changed = (args: Change["args"], severity: Severity, path: string) => changes.push(make("prompt_changed", "prompt", prompt, args, severity, path));
  if (old.size === 0 && now.size === 0) {
    changed({ reason: "arguments", before, after, fields: ["arguments"] }, "warning", "/arguments");
    return changes;
  }
  for (const [argument, definition] of now) {
    const path = `/arguments/${argument}`;
    const previous = old.get(argument);
    if (previous === undefined) {
      changed({ reason: "argument_added", after: definition, fields: [argument] }, "error", path);
      continue;
    }
    for (const field of [...new Set([...Object.keys(previous), ...Object.keys(definition)])].sort()) {
      const a = ownField(previous, field);
      const b = ownField(definition, field);
      if (jsonEqual(a, b)) continue;
      const text = ARGUMENT_TEXT.includes(field);
      changed(
        { reason: text ? "argument_text" : "argument_changed", before: a, after: b, fields: [argument, field] },
        text ? "error" : "warning",
        `${path}/${field}`,
      );
    }
  }
  for (const [argument, definition] of old) {
    if (!now.has(argument)) changed({ reason: "argument_removed", before: definition, fields: [argument] }, "warning", `/arguments/${argument}`);
  }
  return changes;
}

function make(kind: ChangeKind, subject: Change["subject"], name: string, args: Change["args"], severity?: Severity, path?: string): Change {
  const change: Change = { kind, severity: severity ?? CHANGE_KINDS[kind].severity, tool: name, args };
  if (subject !== undefined) change.subject = subject;
  if (path !== undefined) change.path = path;
  return change;
}
