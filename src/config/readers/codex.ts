/** OpenAI Codex: `[mcp_servers.<name>]` tables in config.toml (command/args, or url for streamable HTTP). */

import { field, isObject, readEntryMap } from "./entry.js";
import type { ConfigReader } from "./reader.js";

/** Codex config.toml. */
export const codexReader: ConfigReader = {
  id: "codex",
  detect: (doc) => isObject(field(doc, "mcp_servers")),
  read: (doc) => ({ client: "codex", servers: readEntryMap(field(doc, "mcp_servers"), { client: "codex", scope: null }, ["mcp_servers"]), notes: [] }),
};
