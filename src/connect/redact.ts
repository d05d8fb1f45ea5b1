/** Secrets out of a server snapshot, every section of it, before anything downstream (report, JSON, lock) sees it. Pure. */

import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";
import { type Redactor, redactJson } from "../text/redact.js";

/** A snapshot with every secret replaced, so nothing downstream (report, JSON, lock) can hold one. */
export function redactSnapshot(snapshot: ServerSnapshot, redactor: Redactor): ServerSnapshot {
  const text = (value: string | null) => (value === null ? null : redactor.text(value));
  return {
    ...snapshot,
    tools: snapshot.tools.map((tool) => redactJson(tool, redactor) as JsonObject),
    instructions: snapshot.instructions.known ? { known: true, text: text(snapshot.instructions.text) } : snapshot.instructions,
    name: text(snapshot.name),
    version: text(snapshot.version),
  };
}
