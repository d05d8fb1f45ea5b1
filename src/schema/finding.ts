/** The finding record the analyzer emits, and the one constructor that stamps each reason with its kind. */

import { canonical } from "./json.js";
import { type ReasonInfo, SCHEMA_REASONS, type SchemaFindingKind, type SchemaReason } from "./reasons.js";

/** Values a report may interpolate into its sentence. */
export type FindingArgs = Record<string, string | number>;

/** One schema change: its kind, a stable reason code, where it is (RFC 6901 pointer, "" = root) and details. */
export interface SchemaFinding {
  kind: SchemaFindingKind;
  reason: SchemaReason;
  path: string;
  args?: FindingArgs;
}

/** Builds a finding; the kind always comes from the reasons table so a reason can never carry two kinds. */
export function finding(reason: SchemaReason, path: string, args?: FindingArgs): SchemaFinding {
  const kind = SCHEMA_REASONS[reason].kind;
  return args === undefined ? { kind, reason, path } : { kind, reason, path, args };
}

// Reports quote values; a hostile schema must not turn one finding into megabytes of output.
const MAX_SHOWN = 200;

/** A value as a report argument: finite numbers stay numbers, everything else becomes short JSON text. */
export function showValue(value: unknown): string | number {
  if (value === undefined) return "(absent)";
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return clip(canonical(value));
}

/** A string as a report argument, shown raw but clipped. */
export function showText(value: string): string {
  return clip(value);
}

function clip(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

/** True when any finding is a widening. */
export function hasWidening(findings: readonly SchemaFinding[]): boolean {
  return findings.some((f) => f.kind === "widened");
}

/** True when every finding is a text change (the schemas validate the same instances). */
export function onlyText(findings: readonly SchemaFinding[]): boolean {
  return findings.every((f) => f.kind === "text");
}

/** True when no finding changes what validates: only text, and structural changes of names and identifiers. */
export function sameValidation(findings: readonly SchemaFinding[]): boolean {
  return findings.every((f) => f.kind === "text" || (SCHEMA_REASONS[f.reason] as ReasonInfo).noEffect === true);
}
