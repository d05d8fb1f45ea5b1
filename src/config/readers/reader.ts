/** The reader interface: each client format recognises its own content and reads it into servers. */

import type { ClientId, ConfigNoteCode, ConfigServer } from "../types.js";

/** What a reader returns for one file. */
export interface ReaderResult {
  client: ClientId;
  servers: ConfigServer[];
  notes: ConfigNoteCode[];
}

/** One client format. Pure: a parsed document in, servers out. */
export interface ConfigReader {
  id: string;
  /** True when the document is in this format (decided from content). */
  detect(doc: Record<string, unknown>): boolean;
  /** Read the servers; `hint` is the client the file path suggests, if any. */
  read(doc: Record<string, unknown>, hint: ClientId | null): ReaderResult;
}
