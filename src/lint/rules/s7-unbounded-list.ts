/** S7: a `list_*` or `get_all_*` tool (also behind a service prefix) with no limit, paging or filter parameter. */

import { isObject, type JsonObject, own } from "../json.js";
import { isVerb, nameSegments } from "../text.js";
import type { Rule } from "./rule.js";

// Segments of parameter names that bound or narrow what a list returns.
const BOUNDING = new Set(
  (
    "limit max maximum page pages paging pagination cursor offset skip top first last count size per num " +
    "token continuation next start end from to after before since until " +
    "filter filters query q search where match pattern glob prefix contains keyword keywords term terms " +
    "tag tags label labels status state type kind category"
  ).split(" "),
);

// A parameter whose name says nothing of the kind can still narrow the list; its description then
// says so ("API group to filter by", "only show namespaced resources").
const BOUNDING_DESCRIPTION =
  /\b(?:filter|filters|filtered|only|limit|limits|maximum|max|page|paginate|cursor|offset|restrict|restricts|narrow|narrows|matching)\b/i;

/** True when a parameter's name or description says it bounds or narrows the result. */
function bounds(name: string, schema: unknown): boolean {
  if (nameSegments(name).some((segment) => BOUNDING.has(segment))) return true;
  const description = isObject(schema) ? own(schema, "description") : undefined;
  return typeof description === "string" && BOUNDING_DESCRIPTION.test(description.slice(0, 500));
}

/** Top-level parameter schemas by name, including those of root combinator branches. */
function parameterSchemas(inputSchema: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isObject(inputSchema)) return out;
  const collect = (schema: unknown) => {
    const properties = isObject(schema) ? own(schema, "properties") : undefined;
    if (!isObject(properties)) return;
    for (const name of Object.keys(properties)) if (!out.has(name)) out.set(name, (properties as JsonObject)[name]);
  };
  collect(inputSchema);
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = own(inputSchema, keyword);
    if (Array.isArray(branches)) for (const branch of branches as unknown[]) collect(branch);
  }
  return out;
}

/**
 * Where the list verb sits in a name's segments, or -1: `list` (or `get` + `all`) first, or after
 * prefix segments that are not verbs themselves (`github_list_issues`), and followed by what is
 * listed (or nothing, for a tool named just `list`). `get_todo_list` and `todo_list` are nouns.
 */
function listVerbAt(segments: readonly string[]): number {
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as string;
    if (segment === "list" && (index + 1 < segments.length || index === 0)) return index;
    if (segment === "get" && segments[index + 1] === "all") return index;
    if (isVerb(segment)) return -1;
  }
  return -1;
}

/** S7 rule. */
export const s7UnboundedList: Rule = {
  id: "S7",
  check(context, report) {
    for (const view of context.tools) {
      if (listVerbAt(view.segments) < 0) continue;
      // A list that takes no input at all lists something the server holds (allowed directories, open
      // sessions), not a collection the caller names; only `*_all_*` says it returns everything.
      if (view.params.length === 0 && !view.segments.includes("all")) continue;
      const bounded = [...parameterSchemas(view.inputSchema)].some(([name, schema]) => bounds(name, schema));
      if (!bounded) report.tool(view, "warning", "/inputSchema", { count: view.params.length });
    }
  },
};
