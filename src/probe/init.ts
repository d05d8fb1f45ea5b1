/** The starter fixtures file of `init-fixtures`: one skipped probe per tool with placeholder arguments from its input schema. Pure. */

import { isJsonObject, type JsonObject, ownField } from "../lock/snapshot.js";
import { FIXTURES_VERSION } from "./fixtures.js";
import { requiredSample } from "./samples.js";
import { indexTools, isReadOnly } from "./tools.js";

/**
 * One probe per served tool name, in list order, each `"skip": true` with its required arguments
 * filled with placeholders. A tool that is not read-only gets `"allow_destructive": false`, so
 * the file says which probes will be held back until someone opts in.
 */
export function starterProbes(tools: readonly JsonObject[]): JsonObject[] {
  const index = indexTools(tools);
  return index.names.map((name) => {
    const tool = index.copies(name)[0] as JsonObject;
    const schema = ownField(tool, "inputSchema");
    const probe: JsonObject = { tool: name, args: isJsonObject(schema) ? requiredSample(schema, schema) : {} };
    if (!index.copies(name).every(isReadOnly)) probe.allow_destructive = false;
    probe.skip = true;
    return probe;
  });
}

/** The fixtures file as text: one probe per line for easy editing, non-ASCII as `\uXXXX` so hidden characters show. */
export function fixturesText(probes: readonly JsonObject[]): string {
  const lines = probes.map((probe, index) => `    ${inline(probe)}${index < probes.length - 1 ? "," : ""}`);
  return `{\n  "version": ${FIXTURES_VERSION},\n  "probes": [\n${lines.join("\n")}\n  ]\n}\n`;
}

/** Compact JSON with a space after each colon and comma, ASCII only. */
function inline(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (isJsonObject(value))
    return `{${Object.keys(value)
      .map((key) => `${ascii(JSON.stringify(key))}: ${inline(value[key])}`)
      .join(", ")}}`;
  return ascii(JSON.stringify(value) ?? "null");
}

function ascii(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
