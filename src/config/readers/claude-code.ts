/** Claude Code's `~/.claude.json`: user servers in `mcpServers`, local-scope servers in `projects.<path>.mcpServers`. */

import { field, isObject, readEntryMap } from "./entry.js";
import type { ConfigReader } from "./reader.js";

/** ~/.claude.json (the project `.mcp.json` has the plain mcpServers shape). */
export const claudeCodeReader: ConfigReader = {
  id: "claude-code",
  detect: (doc) => isObject(field(doc, "projects")),
  read(doc) {
    const servers = readEntryMap(field(doc, "mcpServers"), { client: "claude-code", scope: "user" }, ["mcpServers"]);
    const projects = field(doc, "projects");
    if (isObject(projects)) {
      for (const path of Object.keys(projects)) {
        servers.push(
          ...readEntryMap(field(field(projects, path), "mcpServers"), { client: "claude-code", scope: `local ${path}` }, ["projects", path, "mcpServers"]),
        );
      }
    }
    return { client: "claude-code", servers, notes: [] };
  },
};
