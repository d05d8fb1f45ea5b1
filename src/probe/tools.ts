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

// Parameters that ask for a shorter or narrower answer without paging through it.
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

/** True when the tool has a way to ask for less: a `response_format`/`verbosity`/`fields`-style parameter or a concise/detailed enum. */
export function hasConciseMode(tool: JsonObject): boolean {
  return parametersOf(tool).some((param) => {
    const squashed = squash(param.name);
    if (CONCISE_NAMES.has(squashed) || squashed.startsWith("include") || squashed.startsWith("exclude")) return true;
    const values = ownField(param.schema, "enum");
    return Array.isArray(values) && values.some((value) => typeof value === "string" && CONCISE_VALUES.test(value));
  });
}
