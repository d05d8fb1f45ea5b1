/** Secrets out of a server snapshot, every section of it, before anything downstream (report, JSON, lock) sees it. Pure. */

import { ENTRY_SECTIONS, type JsonObject, type ServerSnapshot } from "../lock/snapshot.js";
import { neutralize } from "../text/neutralize.js";
import { type Redactor, redactJson } from "../text/redact.js";

/** Most places a refusal names where a secret was echoed. */
const MAX_PLACES = 5;

/**
 * A snapshot with every secret replaced, so nothing downstream (report, JSON, lock) can hold one.
 * `echoed` lists where a secret was found (a tool or other definition by name, the JSON Pointer in
 * it, the instructions, serverInfo), so a lock can refuse saying where, never what.
 */
export function redactSnapshot(snapshot: ServerSnapshot, redactor: Redactor): ServerSnapshot {
  const echoed = { places: [] as string[], more: false };
  const note = (place: string) => {
    if (echoed.places.length < MAX_PLACES) echoed.places.push(place);
    else echoed.more = true;
  };
  const text = (value: string | null, place: string) => {
    if (value === null) return null;
    const out = redactor.text(value);
    if (out !== value) note(place);
    return out;
  };
  const list = (items: readonly JsonObject[], what: string, key: string) =>
    items.map((item, index) => {
      const places: string[] = [];
      const copy = redactJson(item, redactor, (pointer) => places.push(pointer)) as JsonObject;
      const name = typeof copy[key] === "string" ? JSON.stringify(neutralize(copy[key] as string)) : `#${index + 1}`;
      for (const pointer of places) note(`${what} ${name} at ${neutralize(pointer)}`);
      return copy;
    });
  const redacted: ServerSnapshot = {
    ...snapshot,
    tools: list(snapshot.tools, "tool", "name"),
    instructions: snapshot.instructions.known ? { known: true, text: text(snapshot.instructions.text, "the instructions") } : snapshot.instructions,
    name: text(snapshot.name, "serverInfo.name"),
    version: text(snapshot.version, "serverInfo.version"),
  };
  // The icons are recorded in the lock too.
  if (snapshot.icons !== undefined && snapshot.icons !== null) {
    redacted.icons = redactJson(snapshot.icons, redactor, (pointer) => note(`serverInfo.icons at ${neutralize(pointer)}`));
  }
  // Prompts, resources and templates: a v2 lock records them, so they are redacted like tools.
  for (const { section, key, what } of ENTRY_SECTIONS) {
    const items = snapshot[section];
    if (items !== undefined) redacted[section] = list(items, what, key);
  }
  if (echoed.places.length > 0) redacted.echoed = echoed;
  return redacted;
}
