// A stdio entry of a Claude Desktop config, as the readers give it, for the wrap tests.
import type { ConfigServer } from "../../../../src/config/types.js";

export const configServer = (name: string, scope: string | null = null): ConfigServer => ({
  client: "claude-desktop",
  scope,
  name,
  transport: "stdio",
  disabled: false,
  launch: { argv: ["x"] },
  remote: null,
  problem: null,
  at: ["mcpServers", name],
  line: 1,
});
