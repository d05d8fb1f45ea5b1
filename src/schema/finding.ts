/** The finding record the analyzer emits, and the one constructor that stamps each reason with its kind. */

import { canonical } from "./json.js";
import { type ReasonInfo, SCHEMA_REASONS, type SchemaFindingKind, type SchemaReason } from "./reasons.js";

/** Values a report may interpolate into its sentence. */
export type FindingArgs = Record<string, string | number>;

/**
 * Marks on a finding for the lock layer. `info`: a structural change a reviewer need not act on (a `$schema`
 * URI that changes no keyword's meaning, an edit inside a definition nothing references). `unreferenced`:
 * the change sits inside a `$defs`/`definitions` entry that no reference reaches in either document.
 */
export interface FindingFlags {
  info?: true;
  unreferenced?: true;
}

/** One schema change: its kind, a stable reason code, where it is (RFC 6901 pointer, "" = root) and details. */
export interface SchemaFinding extends FindingFlags {
  kind: SchemaFindingKind;
  reason: SchemaReason;
  path: string;
  args?: FindingArgs;
}

/** Builds a finding; the kind always comes from the reasons table so a reason can never carry two kinds. */
export function finding(reason: SchemaReason, path: string, args?: FindingArgs, flags?: FindingFlags): SchemaFinding {
  const kind = SCHEMA_REASONS[reason].kind;
  const out: SchemaFinding = args === undefined ? { kind, reason, path } : { kind, reason, path, args };
  if (flags?.info === true) out.info = true;
  if (flags?.unreferenced === true) out.unreferenced = true;
  return out;
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

/** True when no finding accepts more: widenings, if any, only ask the model for more (a new required name). */
export function acceptsNoMore(findings: readonly SchemaFinding[]): boolean {
  return findings.every((f) => f.kind !== "widened" || (SCHEMA_REASONS[f.reason] as ReasonInfo).asks === true);
}

/** True when every finding is a text change (the schemas validate the same instances). */
export function onlyText(findings: readonly SchemaFinding[]): boolean {
  return findings.every((f) => f.kind === "text");
}

/** True when no finding changes what validates: only text, and structural changes of names and identifiers. */
export function sameValidation(findings: readonly SchemaFinding[]): boolean {
  return findings.every((f) => f.kind === "text" || (SCHEMA_REASONS[f.reason] as ReasonInfo).noEffect === true);
}
