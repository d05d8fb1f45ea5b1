/** Shapes of probing: a fixtures file as data, the plan the safety gate makes of it, and what each call returned. */

import type { InvalidDeclaration } from "../connect/param-headers.js";
import type { JsonObject } from "../lock/snapshot.js";

/** One probe as written in the fixtures file, checked for shape but not yet expanded or judged. */
export interface ProbeFixture {
  /** Position in the file's `probes` array (0-based). */
  index: number;
  tool: string;
  label: string | null;
  /** Arguments as written, placeholders (`${NAME}`) not yet expanded. */
  args: JsonObject;
  expectError: boolean;
  allowDestructive: boolean;
  skip: boolean;
}

/** A parsed fixtures file. */
export interface FixturesFile {
  probes: ProbeFixture[];
  /** Absolute folder of the file, what `${FIXTURES_DIR}` expands to. */
  dir: string;
}

/** The bad arguments `--error-probes` sends: three the schema rejects, one it accepts that points at nothing. */
export const ERROR_VARIANTS = ["missing_required", "wrong_type", "invalid_enum", "unknown_value"] as const;

/** One kind of generated error probe. */
export type ErrorVariant = (typeof ERROR_VARIANTS)[number];

/** One thing wrong with a probe's arguments, as ajv reported it against the tool's own input schema. */
export interface ArgumentProblem {
  /** ajv keyword (`required`, `type`, `enum`, `additionalProperties`, ...). */
  keyword: string;
  /** JSON Pointer into the arguments (empty for the root). */
  at: string;
  /** The missing or unexpected property, for `required` and `additionalProperties`. */
  property: string | null;
  /** ajv's own short text (`must be string`), for keywords without a sentence of their own. */
  text: string;
  /** What the schema expects there, when ajv says (`string`, the allowed values as JSON). */
  expected: string | null;
}

/** Why the gate did not call a probe; sentences are built in report/. */
export type BlockReason =
  | { code: "unknown_tool" }
  | { code: "not_read_only" }
  | { code: "missing_variable"; name: string }
  | { code: "invalid_arguments"; problems: ArgumentProblem[] }
  | { code: "schema_unusable"; detail: string }
  | { code: "no_longer_applies" }
  /** 2026-07-28 over HTTP: the tool's x-mcp-header declarations are invalid, so a client must leave it out. */
  | { code: "invalid_param_headers"; why: InvalidDeclaration; header: string | null }
  /** 2026-07-28 over HTTP: a value bound for this `Mcp-Param-*` header has a credential's form (the value is never kept). */
  | { code: "credential_in_header"; header: string };

/** A probe after the safety gate: called, or held back with the reason. */
export interface PlannedProbe {
  /** Order of the plan (fixtures first, then generated error probes). */
  order: number;
  tool: string;
  /** First position of the tool in the served list; null for a name the server does not serve. */
  toolIndex: number | null;
  label: string | null;
  /** Where the probe comes from: the fixtures file or `--error-probes`. */
  origin: "fixture" | "error_probe";
  /** For a generated error probe: which bad argument it sends, and the parameter it varies. */
  variant: ErrorVariant | null;
  param: string | null;
  expectError: boolean;
  /** The arguments to send, placeholders expanded; null when the probe is not called. */
  args: JsonObject | null;
  /** Argument names the probe sets (before expansion): they tell whether it asked for a big answer. */
  argNames: string[];
  /** String values sent (expanded), for P4's "does the error name the bad input". Raw; never printed. */
  argValues: string[];
  /** The `Mcp-Param-*` headers the call carries (2026-07-28 over HTTP); empty otherwise. Raw; never printed. */
  headers: Record<string, string>;
  action: "call" | "blocked" | "skipped";
  blocked: BlockReason | null;
}

/** How one probe ended. */
export type ProbeStatus = "ok" | "tool_error" | "protocol_error" | "timeout" | "failed" | "blocked" | "skipped" | "not_run";

/** A response as measured: sizes from the raw result, text already redacted. */
export interface ProbeResponse {
  /** What the model reads: text blocks and embedded text resources joined by newlines (redacted). */
  text: string;
  /** Characters the estimate counts: the compact JSON of the larger view a client forwards (`resultChars`). */
  chars: number;
  /** Estimated tokens (4 characters per token), rounded up. */
  tokens: number;
  /** Estimated tokens of the same views with media left out (images, audio, links, binary resources): what a concise mode or a page could shorten. */
  textTokens: number;
  /** Distinct content block types in order of first appearance, plus `structured` when structuredContent came too. */
  contentTypes: string[];
  /** The result's `isError` was true. */
  isError: boolean;
  /** The structuredContent object (redacted), or undefined when none came. */
  structured: unknown;
  /** JSON-RPC error code, for a protocol error. */
  errorCode: number | null;
  /** The response was nested too deep to read through; only its size is known. */
  tooDeep: boolean;
  /** `content` was empty, so `text` is the structuredContent's JSON (a client forwarding only content shows nothing). */
  contentEmpty: boolean;
}

/** Why a probe was not run or failed, as data. */
export type ProbeNote =
  | { code: "server_stopped"; after: string }
  | { code: "server_gone"; how: string }
  | { code: "timed_out"; seconds: number }
  | { code: "call_failed"; detail: string }
  /** The server changed its tool list during the run; the probe was judged again against the new one. */
  | { code: "list_changed" }
  /** The server changed its tool list during the run and the new list could not be read. */
  | { code: "list_unreadable"; detail: string };

/** What one probe did. */
export interface ProbeRecord {
  probe: PlannedProbe;
  status: ProbeStatus;
  /** Milliseconds from sending the call to its answer (or to the timeout); null when not called. */
  latencyMs: number | null;
  response: ProbeResponse | null;
  note: ProbeNote | null;
}
