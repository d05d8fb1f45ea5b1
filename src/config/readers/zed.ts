/** Zed: `context_servers` in settings.json (JSONC); entries are untagged: command, url, or an extension's settings. */

import { field, isObject, readEntryMap } from "./entry.js";
import type { ConfigReader } from "./reader.js";

/** Zed settings.json. */
export const zedReader: ConfigReader = {
  id: "zed",
  detect: (doc) => isObject(field(doc, "context_servers")),
  read: (doc) => ({ client: "zed", servers: readEntryMap(field(doc, "context_servers"), { client: "zed", scope: null }, ["context_servers"]), notes: [] }),
};
