/** The seed's fixes as pure transforms of messages: a tools/list result, a tools/call's arguments, a tools/call result. */

import { isJsonObject, type JsonObject, ownField } from "../../lock/snapshot.js";
import { type Descriptions, withDescription } from "./descriptions.js";
import { flagErrorResult } from "./errors.js";
import { type PageRequest, pageResult, takePagingArguments, withPagingParameters } from "./paging.js";

export { type Descriptions, parseDescriptions } from "./descriptions.js";
export { looksLikeError } from "./errors.js";
export { hasOwnPaging, outputSchemaOf, PAGE_CHARS, PAGE_TOKENS, type PageRequest, pageResult } from "./paging.js";

/** Which fixes are on. */
export interface FixOptions {
  paging: boolean;
  errors: boolean;
  descriptions: Descriptions | null;
}

/** No fix at all: what a guard serves unless fixes are named. */
export const NO_FIXES: FixOptions = { paging: false, errors: false, descriptions: null };

/** Whether any fix is on. */
export function anyFix(fixes: FixOptions): boolean {
  return fixes.paging || fixes.errors || fixes.descriptions !== null;
}

/** The tools a client is shown: descriptions replaced, then `offset`/`limit` added. */
export function fixTools(tools: readonly JsonObject[], fixes: FixOptions): JsonObject[] {
  return tools.map((tool) => {
    let fixed = fixes.descriptions === null ? tool : withDescription(tool, fixes.descriptions);
    if (fixes.paging) fixed = withPagingParameters(fixed);
    return fixed;
  });
}

/** A tools/list result with its tools fixed; anything else in it is kept. */
export function fixListResult(result: JsonObject, fixes: FixOptions): JsonObject {
  const tools = ownField(result, "tools");
  if (!anyFix(fixes) || !Array.isArray(tools)) return result;
  const fixed = tools.map((tool: unknown) => (isJsonObject(tool) ? (fixTools([tool], fixes)[0] as JsonObject) : tool));
  return { ...result, tools: fixed };
}

/** What the proxy does with a call: forward these params (and page the answer with `paging`), or answer with an error itself. */
export type PreparedCall = { params: JsonObject; paging: PageRequest | null } | { error: string };

/**
 * Prepare a tools/call's params: with paging on, `offset` and `limit` are taken out of the
 * arguments unless the tool has parameters of those names itself (`pagesItself`).
 */
export function prepareCall(params: JsonObject, fixes: FixOptions, pagesItself: boolean): PreparedCall {
  if (!fixes.paging || pagesItself) return { params, paging: null };
  const taken = takePagingArguments(ownField(params, "arguments"));
  if ("error" in taken) return taken;
  const next: JsonObject = { ...params };
  if (Object.hasOwn(params, "arguments")) next.arguments = taken.args;
  return { params: next, paging: taken.request };
}

/**
 * A tools/call result after the fixes: flagged as an error when it reads as one, then paged (when
 * `paging` is set) on every surface, `structuredContent` checked against the tool's `outputSchema`.
 */
export function fixCallResult(result: JsonObject, fixes: FixOptions, paging: PageRequest | null, outputSchema: JsonObject | null = null): JsonObject {
  let fixed = result;
  // Errors are judged on the whole text, before a page could cut an error message in two.
  if (fixes.errors) fixed = flagErrorResult(fixed);
  if (paging !== null) fixed = pageResult(fixed, paging, outputSchema);
  return fixed;
}

/** A tool error result, as the proxy answers a call it will not forward. */
export function toolError(text: string): JsonObject {
  return { content: [{ type: "text", text }], isError: true };
}
