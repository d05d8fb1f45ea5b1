/** Shared reading of `_meta.ui`, the MCP Apps link from a tool to its UI resource. */

import type { ToolView } from "../context.js";
import { isObject, own } from "../json.js";

/** `_meta.ui` when the tool declares it (any value), or undefined. */
export function metaUi(view: ToolView): { value: unknown } | undefined {
  const meta = own(view.definition, "_meta");
  if (!isObject(meta) || !Object.hasOwn(meta, "ui")) return undefined;
  return { value: own(meta, "ui") };
}
