/** VS Code: `servers` in mcp.json (JSONC, with `inputs`), `mcp.servers` in settings.json, and devcontainer customizations. */

import { field, isObject, readEntryMap } from "./entry.js";
import type { ConfigReader } from "./reader.js";

function serversOf(doc: Record<string, unknown>): { map: unknown; scope: string | null; at: string[] } | null {
  if (isObject(field(doc, "servers"))) return { map: field(doc, "servers"), scope: null, at: ["servers"] };
  // User settings.json: `"mcp": {"servers": ...}`, or the same setting written as one dotted key.
  const settings = field(field(doc, "mcp"), "servers");
  if (isObject(settings)) return { map: settings, scope: "settings mcp.servers", at: ["mcp", "servers"] };
  const dotted = field(doc, "mcp.servers");
  if (isObject(dotted)) return { map: dotted, scope: "settings mcp.servers", at: ["mcp.servers"] };
  const devcontainer = field(field(field(field(doc, "customizations"), "vscode"), "mcp"), "servers");
  if (isObject(devcontainer)) return { map: devcontainer, scope: "devcontainer", at: ["customizations", "vscode", "mcp", "servers"] };
  return null;
}

/** VS Code mcp.json and friends. `${input:...}` and `${env:...}` are left as written. */
export const vscodeReader: ConfigReader = {
  id: "vscode",
  detect: (doc) => serversOf(doc) !== null,
  read(doc) {
    const found = serversOf(doc);
    const servers = found === null ? [] : readEntryMap(found.map, { client: "vscode", scope: found.scope }, found.at);
    return { client: "vscode", servers, notes: [] };
  },
};
