/** Continue: `mcpServers` is a YAML (or JSON) list of entries, each with its `name`; `uses:` blocks come from the hub. */

import { field, readEntry } from "./entry.js";
import type { ConfigReader } from "./reader.js";

/** Continue config.yaml and `.continue/mcpServers/*.yaml` blocks. */
export const continueReader: ConfigReader = {
  id: "continue",
  detect: (doc) => Array.isArray(field(doc, "mcpServers")),
  read(doc) {
    const list = field(doc, "mcpServers") as unknown[];
    const servers = list.map((entry, index) => {
      const name = field(entry, "name");
      const uses = field(entry, "uses");
      const shown = typeof name === "string" ? name : typeof uses === "string" ? uses : `#${index + 1}`;
      return readEntry(shown, entry, { client: "continue", scope: null }, ["mcpServers", index]);
    });
    return { client: "continue", servers, notes: [] };
  },
};
