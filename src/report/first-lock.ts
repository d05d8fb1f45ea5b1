/** What a first lock lists for review: every string the model reads, grouped by tool (then prompts, resources, templates), once each. Pure. */

import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { ownField } from "../lock/snapshot.js";
import { schemaTexts } from "../schema/texts.js";

/** One string the model reads: where it is (a JSON Pointer into its definition, or a label) and the raw text. */
export interface ListedText {
  at: string;
  text: string;
  /** Other places in the same definition holding the same text, listed here instead (their findings show here too). */
  also?: string[];
}

/** One group of the listing: a tool, prompt, resource or template, or the server's instructions. */
export interface ListedGroup {
  subject: "tool" | "prompt" | "resource" | "resource template";
  /** The tool's or prompt's name, the resource's uri, the template's uriTemplate. */
  name: string;
  texts: ListedText[];
}

/** Every string of a tool the model reads: description, titles, then each schema's names and text keywords. */
export function toolTexts(tool: JsonObject): ListedText[] {
  const out: ListedText[] = [];
  for (const key of ["description", "title"]) {
    const value = ownField(tool, key);
    if (typeof value === "string") out.push({ at: `/${key}`, text: value });
  }
  const annotations = ownField(tool, "annotations");
  const title = typeof annotations === "object" && annotations !== null ? ownField(annotations as JsonObject, "title") : undefined;
  if (typeof title === "string") out.push({ at: "/annotations/title", text: title });
  for (const key of ["inputSchema", "outputSchema"]) {
    for (const item of schemaTexts(ownField(tool, key), `/${key}`)) out.push({ at: item.path, text: item.text });
  }
  return once(out);
}

const ENTRY_FIELDS = {
  prompt: ["name", "title", "description"],
  resource: ["name", "title", "description", "uri"],
  "resource template": ["name", "title", "description", "uriTemplate"],
} as const;

/** The strings of a prompt (with its arguments), a resource or a template that a client shows the model. */
function entryTexts(subject: keyof typeof ENTRY_FIELDS, entry: JsonObject): ListedText[] {
  const out: ListedText[] = [];
  for (const key of ENTRY_FIELDS[subject]) {
    const value = ownField(entry, key);
    if (typeof value === "string") out.push({ at: `/${key}`, text: value });
  }
  const args = subject === "prompt" ? ownField(entry, "arguments") : undefined;
  if (Array.isArray(args)) {
    args.forEach((arg: unknown, index) => {
      if (typeof arg !== "object" || arg === null) return;
      for (const key of ["name", "title", "description"]) {
        const value = ownField(arg as JsonObject, key);
        if (typeof value === "string") out.push({ at: `/arguments/${index}/${key}`, text: value });
      }
    });
  }
  return once(out);
}

/** The prompts, resources and templates a v2 lock records, each with its strings, in the order sent. */
export function catalogGroups(snapshot: ServerSnapshot): ListedGroup[] {
  const groups: ListedGroup[] = [];
  const sections = [
    ["prompt", snapshot.prompts, "name"],
    ["resource", snapshot.resources, "uri"],
    ["resource template", snapshot.resourceTemplates, "uriTemplate"],
  ] as const;
  for (const [subject, entries, key] of sections) {
    for (const entry of entries ?? []) {
      const name = ownField(entry, key);
      groups.push({ subject, name: typeof name === "string" ? name : "", texts: entryTexts(subject, entry) });
    }
  }
  return groups;
}

/** Each text once: a string repeated in the same definition is listed where it first appears. */
function once(texts: readonly ListedText[]): ListedText[] {
  const first = new Map<string, ListedText>();
  const out: ListedText[] = [];
  for (const item of texts) {
    const kept = first.get(item.text);
    if (kept === undefined) {
      first.set(item.text, item);
      out.push(item);
    } else {
      kept.also ??= [];
      kept.also.push(item.at);
    }
  }
  return out;
}
