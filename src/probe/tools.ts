/** What probing reads from a tool definition: its copies by name, the read-only claim, its parameters and what they let an agent ask for. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import { resolveLocalRef } from "../lint/params.js";

/** Every served copy of each tool name, with the position of the first. */
export interface ToolIndex {
  copies: (name: string) => JsonObject[];
  firstIndex: (name: string) => number | null;
  /** Names in list order, each once. */
  names: string[];
}

/** Index a served tool list by name (a name served twice keeps both copies). */
export function indexTools(tools: readonly JsonObject[]): ToolIndex {
  const byName = new Map<string, { index: number; copies: JsonObject[] }>();
  tools.forEach((tool, index) => {
    const name = ownField(tool, "name");
    if (typeof name !== "string") return;
    const entry = byName.get(name);
    if (entry === undefined) byName.set(name, { index, copies: [tool] });
    else entry.copies.push(tool);
  });
  return {
    copies: (name) => byName.get(name)?.copies ?? [],
    firstIndex: (name) => byName.get(name)?.index ?? null,
    names: [...byName.keys()],
  };
}

/**
 * True only when the tool says `"readOnlyHint": true`, as a JSON boolean. No annotations, a hint
 * that is merely truthy ("true", 1), and `destructiveHint: false` (which means "only adds") all
 * read as "may change data": probing then needs `allow_destructive`.
 */
export function isReadOnly(tool: JsonObject): boolean {
  const annotations = ownField(tool, "annotations");
  return isJsonObject(annotations) && ownField(annotations, "readOnlyHint") === true;
}

/** True when every served copy of a name is read-only (a client could reach any of them). */
export function allReadOnly(copies: readonly JsonObject[]): boolean {
  return copies.length > 0 && copies.every(isReadOnly);
}

/** One top-level parameter of an input schema, its schema resolved through local references. */
export interface Parameter {
  name: string;
  schema: JsonObject;
  required: boolean;
}

/** Most `$ref` hops followed to reach a parameter's schema. */
const MAX_REF_HOPS = 8;

/** A schema with its local `$ref` chain followed (bounded); the original when it leads nowhere. */
export function resolveSchema(schema: unknown, root: unknown): JsonObject | null {
  let node: unknown = schema;
  for (let hop = 0; hop < MAX_REF_HOPS && isJsonObject(node); hop++) {
    const ref = ownField(node, "$ref");
    if (typeof ref !== "string") return node;
    const target = resolveLocalRef(root, ref);
    if (!isJsonObject(target)) return node;
    node = target;
  }
  return isJsonObject(node) ? node : null;
}

/** Top-level parameters of a tool's input schema, required ones first, each group in schema order. */
export function parametersOf(tool: JsonObject): Parameter[] {
  const root = ownField(tool, "inputSchema");
  if (!isJsonObject(root)) return [];
  const properties = ownField(root, "properties");
  if (!isJsonObject(properties)) return [];
  const requiredList = ownField(root, "required");
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((item): item is string => typeof item === "string") : []);
  const out: Parameter[] = [];
  for (const name of Object.keys(properties)) {
    const schema = resolveSchema(properties[name], root);
    if (schema !== null) out.push({ name, schema, required: required.has(name) });
  }
  return [...out.filter((param) => param.required), ...out.filter((param) => !param.required)];
}

/** A parameter name lower-cased without separators (`max_results`, `maxResults` -> `maxresults`). */
export function squash(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, "");
}

// Names of parameters that bound or page a result. A probe that sets one asked for the size it got.
const PAGING_NAMES = new Set([
  "limit",
  "offset",
  "cursor",
  "page",
  "pagesize",
  "perpage",
  "pagetoken",
  "pagenumber",
  "pagecursor",
  "startcursor",
  "nextcursor",
  "after",
  "before",
  "head",
  "tail",
  "skip",
  "take",
  "top",
  "first",
  "last",
  "start",
  "end",
  "startline",
  "endline",
  "startindex",
  "endindex",
  "fromline",
  "toline",
  "lines",
  "length",
  "count",
  "depth",
]);

/** True for a parameter that limits or pages what a call returns (`limit`, `cursor`, `max_length`, `head`, ...). */
export function isPagingParameter(name: string): boolean {
  const squashed = squash(name);
  return PAGING_NAMES.has(squashed) || squashed.startsWith("max") || squashed.endsWith("limit") || squashed.endsWith("cursor");
}

/** True when the tool has at least one paging or limit parameter. */
export function hasPagingParameters(tool: JsonObject): boolean {
  return parametersOf(tool).some((param) => isPagingParameter(param.name));
}

// Parameters that ask for a shorter or narrower answer: a format or projection, not a filter on which records come back.
const CONCISE_NAMES = new Set([
  "responseformat",
  "verbosity",
  "verbose",
  "detail",
  "details",
  "detaillevel",
  "fields",
  "select",
  "concise",
  "summary",
  "summarize",
  "brief",
  "compact",
  "view",
  "projection",
  "columns",
]);
const CONCISE_VALUES = /^(concise|detailed|summary|brief|compact|minimal|full|verbose|short|long|simple|standard|basic)$/i;

// Parameters that bound how much one call returns (`head: 100`, `limit: 20`, `max_lines: 50`). A
// cursor, an offset or a page number only says where to start, so it is not among them.
const SIZE_NAMES = new Set([
  "limit",
  "head",
  "tail",
  "lines",
  "count",
  "top",
  "first",
  "last",
  "take",
  "length",
  "pagesize",
  "perpage",
  "depth",
  "endline",
  "toline",
]);

/** The JSON types a schema names (`type` as a string or a list), empty when it names none. */
function typesOf(schema: JsonObject): string[] {
  const type = ownField(schema, "type");
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

/** True for a parameter that caps the size of an answer: a size name (or `max*`, `*limit`) that takes a number, or says nothing of its type. */
function isSizeParameter(param: Parameter): boolean {
  const squashed = squash(param.name);
  if (!SIZE_NAMES.has(squashed) && !squashed.startsWith("max") && !squashed.endsWith("limit")) return false;
  // `first: "Ada"` is a name, not a count.
  const types = typesOf(param.schema);
  return types.length === 0 || types.includes("integer") || types.includes("number");
}

/**
 * True for an `include*` or `exclude*` parameter that leaves parts of every record out: a boolean
 * flag that can be set to drop something (not `include_x` defaulting to false, which only adds), or
 * a list of fields. A filter on which records come back (`excludePatterns`, `include_paths`) is not
 * a shorter answer: each record left is as long as before.
 */
function dropsParts(param: Parameter): boolean {
  const squashed = squash(param.name);
  const include = squashed.startsWith("include");
  if (!include && !squashed.startsWith("exclude")) return false;
  if (squashed.endsWith("fields") || squashed.endsWith("columns")) return true;
  if (!typesOf(param.schema).includes("boolean")) return false;
  const fallback = ownField(param.schema, "default");
  return include ? fallback !== false : fallback !== true;
}

/**
 * True when the tool has a way to ask for less: a `response_format`/`verbosity`/`fields`-style
 * parameter, a concise/detailed enum, a flag that drops parts of the answer, or a parameter that
 * caps its size (`limit`, `head`, `tail`, `lines`, `max_lines`, ...).
 */
export function hasConciseMode(tool: JsonObject): boolean {
  return parametersOf(tool).some((param) => {
    if (CONCISE_NAMES.has(squash(param.name)) || dropsParts(param) || isSizeParameter(param)) return true;
    const values = ownField(param.schema, "enum");
    return Array.isArray(values) && values.some((value) => typeof value === "string" && CONCISE_VALUES.test(value));
  });
}
