/** Goose: `extensions.<id>` in config.yaml, spelled `cmd`/`envs`/`uri`; builtin and platform extensions are not launched. */

import { field, isObject, readEntry } from "./entry.js";
import type { ConfigReader } from "./reader.js";

function looksLikeExtensions(value: unknown): boolean {
  if (!isObject(value)) return false;
  const entries = Object.values(value);
  return entries.length === 0 || entries.some((entry) => isObject(entry) && (field(entry, "type") !== undefined || field(entry, "cmd") !== undefined));
}

/** Goose config.yaml. The server's shown name is its `name` field when present, else its id. */
export const gooseReader: ConfigReader = {
  id: "goose",
  detect: (doc) => looksLikeExtensions(field(doc, "extensions")),
  read(doc) {
    const extensions = field(doc, "extensions");
    const servers = isObject(extensions)
      ? Object.keys(extensions).map((id) => {
          const entry = field(extensions, id);
          const name = typeof field(entry, "name") === "string" ? (field(entry, "name") as string) : id;
          return readEntry(name, entry, { client: "goose", scope: null }, ["extensions", id]);
        })
      : [];
    return { client: "goose", servers, notes: [] };
  },
};
