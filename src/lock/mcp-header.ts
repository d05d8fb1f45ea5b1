/**
 * `x-mcp-header` changes between a locked and a served input schema: the header a client sends is a
 * channel to every proxy on the way, so it is its own change, not text. Pure.
 */

import { jsonEqual } from "../json/equal.js";
import { MCP_HEADER_KEY, mcpHeaderSites, secretHint } from "../lint/mcp-header.js";
import type { Change } from "./kinds.js";

/** Pointers (below the input schema) of every `x-mcp-header` value on either side, for precedence over text findings. */
export function mcpHeaderPaths(before: unknown, after: unknown): Set<string> {
  const paths = new Set<string>();
  for (const schema of [before, after]) for (const site of mcpHeaderSites(schema)) paths.add(`${site.path}/${MCP_HEADER_KEY}`);
  return paths;
}

/**
 * One `mcp_header_changed` per schema node whose `x-mcp-header` was added, removed or changed: an
 * error when added, or when changed on a parameter that looks like it holds a secret; otherwise (a
 * header removed, which stops the copy) a warning.
 */
export function mcpHeaderChanges(tool: string, before: unknown, after: unknown): Change[] {
  const old = new Map(mcpHeaderSites(before).map((site) => [site.path, site]));
  const now = new Map(mcpHeaderSites(after).map((site) => [site.path, site]));
  const changes: Change[] = [];
  for (const path of new Set([...now.keys(), ...old.keys()])) {
    const was = old.get(path);
    const is = now.get(path);
    if (was !== undefined && is !== undefined && jsonEqual(was.value, is.value)) continue;
    const reason = was === undefined ? "added" : is === undefined ? "removed" : "changed";
    const site = (is ?? was) as NonNullable<typeof is>;
    const secret = is === undefined ? null : secretHint(is.name, is.node);
    const detail: Record<string, string> = {};
    if (site.name !== null) detail.name = site.name;
    if (secret !== null) detail.secret = secret;
    changes.push({
      kind: "mcp_header_changed",
      severity: reason === "added" || secret !== null ? "error" : "warning",
      tool,
      path: `/inputSchema${path}/${MCP_HEADER_KEY}`,
      args: { reason, before: was?.value, after: is?.value, detail },
    });
  }
  return changes;
}
