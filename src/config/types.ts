/** Shapes of check-config: a client config read into servers, without any environment or header value. */

/** The MCP clients whose config files check-config reads. */
export type ClientId =
  | "claude-desktop"
  | "claude-code"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "codex"
  | "gemini"
  | "zed"
  | "cline"
  | "continue"
  | "goose"
  | "lm-studio"
  | "junie"
  | "mcp-servers";

/** Names shown in reports. */
export const CLIENT_NAMES = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  windsurf: "Windsurf",
  codex: "Codex",
  gemini: "Gemini CLI",
  zed: "Zed",
  cline: "Cline",
  continue: "Continue",
  goose: "Goose",
  "lm-studio": "LM Studio",
  junie: "Junie",
  "mcp-servers": "mcpServers file",
} as const satisfies Record<ClientId, string>;

/** How the client talks to the server; I1 checks only stdio servers, which it launches. */
export type Transport = "stdio" | "http" | "sse" | "ws" | "extension" | "builtin";

/** How a stdio server is started: an argv, or one command string (a `command` with spaces and no `args`). */
export type Launch = { argv: string[] } | { shell: string };

/** Why an entry could not be checked. */
export interface EntryProblem {
  reason: "entry_not_object" | "command_type" | "args_type" | "no_command_or_url";
  /** The config field at fault (`command`, `cmd`, `args`). */
  field?: string;
}

/** One server entry of a config file. Env and header values are never copied in. */
export interface ConfigServer {
  client: ClientId;
  /** Where in the file, when a file has several scopes (`user`, `project /abs/path`). */
  scope: string | null;
  name: string;
  transport: Transport;
  disabled: boolean;
  /** Set for stdio servers: any entry with a command, whatever its type says. */
  launch: Launch | null;
  /**
   * Scheme and host of the entry's URL (`https://mcp.example.com`), never its path, query or
   * credentials. Kept for an entry that has a command too, since its type may make the client use the URL.
   */
  remote: string | null;
  problem: EntryProblem | null;
  /** Keys (and list indexes) leading to the entry in the parsed file. */
  at: readonly (string | number)[];
  /** The 1-based line where the entry starts in its file, when known. */
  line: number | null;
}

/** Something worth saying about a whole file. */
export type ConfigNoteCode = "strict_json" | "not_recognised" | "servers_in_other_file";

/** A config file read into servers. */
export interface ConfigDocument {
  client: ClientId;
  syntax: "json" | "toml" | "yaml";
  servers: ConfigServer[];
  notes: ConfigNoteCode[];
}
