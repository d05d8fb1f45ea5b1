/** The reader registry and the one entry point: config text in, servers out, the format recognised from content. */

import type { ConfigDocument } from "../types.js";
import { claudeCodeReader } from "./claude-code.js";
import { codexReader } from "./codex.js";
import { continueReader } from "./continue.js";
import { isObject } from "./entry.js";
import { gooseReader } from "./goose.js";
import { clientFromPath } from "./hints.js";
import { mcpServersReader } from "./mcp-servers.js";
import type { ConfigReader } from "./reader.js";
import { parseConfigText } from "./syntax.js";
import { vscodeReader } from "./vscode.js";
import { zedReader } from "./zed.js";

/** Every reader, most specific first: ~/.claude.json also has `mcpServers`, so it is tried before the plain map. */
export const READERS: readonly ConfigReader[] = [claudeCodeReader, vscodeReader, zedReader, codexReader, gooseReader, continueReader, mcpServersReader];

/**
 * Read a client config file's text. `path` names it in messages and suggests the client for
 * formats several clients share; the format itself is recognised from the content.
 * Throws JsonInputError on a syntax error.
 */
export function readConfigText(text: string, path: string): ConfigDocument {
  const parsed = parseConfigText(text, path);
  const hint = clientFromPath(path);
  const doc = parsed.value;
  const reader = isObject(doc) ? READERS.find((candidate) => candidate.detect(doc)) : undefined;
  if (reader === undefined || !isObject(doc)) {
    return { client: hint ?? "mcp-servers", syntax: parsed.syntax, servers: [], notes: ["not_recognised"] };
  }
  const result = reader.read(doc, hint);
  const notes = [...result.notes];
  // Claude Desktop ignores a file that is not strict JSON.
  if (result.client === "claude-desktop" && parsed.syntax === "json" && !parsed.strictJson) notes.unshift("strict_json");
  const servers = result.servers.map((server) => ({ ...server, line: parsed.lineOf(server.at) }));
  return { client: result.client, syntax: parsed.syntax, servers, notes };
}

export { clientFromPath } from "./hints.js";
