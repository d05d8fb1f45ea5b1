/**
 * The `mcpServers` map shared by Claude Desktop, `.mcp.json`, Cursor, Windsurf, Gemini CLI, Cline, LM Studio and Junie.
 * The client is named from the path, else from client-specific fields (`serverUrl`, `httpUrl`, `autoApprove`).
 */

import type { ClientId, ConfigNoteCode } from "../types.js";
import { field, isObject, readEntryMap } from "./entry.js";
import type { ConfigReader } from "./reader.js";

function clientFromContent(map: Record<string, unknown>): ClientId {
  const entries = Object.values(map).filter(isObject);
  const has = (key: string) => entries.some((entry) => field(entry, key) !== undefined);
  if (has("serverUrl")) return "windsurf";
  if (has("httpUrl") || has("tcp") || has("trust") || has("includeTools")) return "gemini";
  if (has("autoApprove") || has("transportType") || entries.some((entry) => field(entry, "type") === "streamableHttp")) return "cline";
  return "mcp-servers";
}

// Clients whose files have this shape; a path hint naming another client (a misnamed file) is not trusted.
const FAMILY = new Set<ClientId>(["claude-desktop", "claude-code", "cursor", "windsurf", "gemini", "cline", "lm-studio", "junie", "continue"]);

/** Any file with an `mcpServers` object (or, in a Claude Code plugin.json, a path to one). */
export const mcpServersReader: ConfigReader = {
  id: "mcp-servers",
  detect: (doc) => isObject(field(doc, "mcpServers")) || typeof field(doc, "mcpServers") === "string",
  read(doc, hint) {
    const map = field(doc, "mcpServers");
    const notes: ConfigNoteCode[] = [];
    if (!isObject(map)) {
      notes.push("servers_in_other_file");
      return { client: hint !== null && FAMILY.has(hint) ? hint : "claude-code", servers: [], notes };
    }
    const client = hint !== null && FAMILY.has(hint) ? hint : clientFromContent(map);
    // Cline reads an entry with a url and no type as SSE.
    const servers = readEntryMap(map, { client, scope: null, urlDefault: client === "cline" ? "sse" : "http" }, ["mcpServers"]);
    return { client, servers, notes };
  },
};
