/** The descriptions fix (seed 003): tool descriptions replaced from a hand-written file. Pure. */

import { UsageError } from "../../errors.js";
import { isJsonObject, type JsonObject } from "../../lock/snapshot.js";

/** Tool name to the description served instead of the server's. */
export type Descriptions = ReadonlyMap<string, string>;

/**
 * Read a parsed `--descriptions` file: `{"tool_name": "description", ...}`, or the same map under
 * `"tools"` (`{"tools": {...}}`). Names are compared exactly; every value must be a non-empty string.
 */
export function parseDescriptions(value: unknown, source: string): Map<string, string> {
  if (!isJsonObject(value)) throw new UsageError(`${source}: expected a JSON object of tool name to description`);
  const keys = Object.keys(value);
  const nested = keys.length === 1 && keys[0] === "tools" && isJsonObject(value.tools) ? value.tools : value;
  const map = new Map<string, string>();
  for (const name of Object.keys(nested)) {
    const text = nested[name];
    if (typeof text !== "string" || text.trim() === "") {
      throw new UsageError(`${source}: the description for ${JSON.stringify(name)} must be a non-empty string`);
    }
    map.set(name, text);
  }
  return map;
}

/** The tool with its description replaced when the file names it; otherwise the same object. */
export function withDescription(tool: JsonObject, descriptions: Descriptions): JsonObject {
  const name = tool.name;
  if (typeof name !== "string") return tool;
  const text = descriptions.get(name);
  return text === undefined ? tool : { ...tool, description: text };
}
