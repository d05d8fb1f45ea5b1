/** Keep secrets out of everything mcp-lint prints or writes: replace each known secret value with [redacted]. Pure. */

import type { JsonObject, ServerSnapshot } from "../lock/snapshot.js";

/** The text that replaces a secret. */
export const REDACTED = "[redacted]";

/** Replaces secret values in text; `found` reports whether any replacement happened. */
export interface Redactor {
  text(value: string): string;
  readonly found: boolean;
}

/**
 * A redactor for these secrets. Each secret is also matched in the forms it takes inside JSON text
 * and URLs (escaped and percent-encoded), since servers echo what they received in those forms.
 */
export function makeRedactor(secrets: readonly string[]): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === "") continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  const patterns = [...forms].sort((a, b) => b.length - a.length);
  let found = false;
  return {
    text(value: string): string {
      let out = value;
      for (const pattern of patterns) {
        if (out.includes(pattern)) {
          found = true;
          out = out.split(pattern).join(REDACTED);
        }
      }
      return out;
    },
    get found() {
      return found;
    },
  };
}

/** Redact every string (keys too) inside a JSON value; returns a new value and leaves the input alone. */
export function redactJson(value: unknown, redactor: Redactor): unknown {
  if (typeof value === "string") return redactor.text(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor));
  const copy = Object.create(null) as JsonObject;
  for (const key of Object.keys(value)) {
    copy[redactor.text(key)] = redactJson((value as JsonObject)[key], redactor);
  }
  return Object.setPrototypeOf(copy, Object.prototype) as JsonObject;
}

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
