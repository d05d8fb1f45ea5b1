/** mcp-header: an `x-mcp-header` on a parameter that holds a secret, or one clients must drop the tool for. */

// MCP 2026-07-28 clients copy such a parameter's value into an `Mcp-Param-{name}` HTTP header, which
// every proxy and load balancer on the way sees and may log. A client must drop a tool whose
// declaration breaks the transport's rules, so those are warnings: the tool silently disappears.

import { inputSchemaNodes } from "../context.js";
import { childPointer } from "../json.js";
import { isHeaderType, isHttpToken, MCP_HEADER_KEY, type McpHeaderSite, mcpHeaderSites, secretHint } from "../mcp-header.js";
import type { Rule } from "./rule.js";

/** The first rule a client enforces that a declaration breaks (it then drops the tool), or null. */
function clientProblem(site: McpHeaderSite, duplicate: boolean): string | null {
  if (site.value === "") return "empty";
  if (!isHttpToken(site.value)) return "not_token";
  if (duplicate) return "duplicate";
  if (!site.reachable) return "unreachable";
  return isHeaderType(site.node) ? null : "type";
}

/** mcp-header rule: per declaring node, an error for a secret, then the first rule a client enforces that it breaks. */
export const mcpHeader: Rule = {
  id: "mcp-header",
  check(context, report) {
    for (const view of context.tools) {
      // Cheap gate: most tools declare no header, and the walk below is already cached per tool.
      if (!inputSchemaNodes(view).some(({ node }) => typeof node === "object" && Object.hasOwn(node, MCP_HEADER_KEY))) continue;
      const seen = new Set<string>();
      for (const site of mcpHeaderSites(view.inputSchema)) {
        const path = childPointer(`/inputSchema${site.path}`, MCP_HEADER_KEY);
        const name = site.name ?? "";
        const hint = secretHint(site.name, site.node);
        if (hint !== null) report.tool(view, "error", path, { reason: `secret_${hint}`, name });
        const header = isHttpToken(site.value) ? site.value.toLowerCase() : null;
        const problem = clientProblem(site, header !== null && seen.has(header));
        if (header !== null) seen.add(header);
        if (problem !== null)
          report.tool(view, "warning", path, { reason: problem, name, value: typeof site.value === "string" ? site.value : JSON.stringify(site.value) });
      }
    }
  },
};
