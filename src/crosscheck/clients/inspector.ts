/** The MCP Inspector's CLI mode (`@modelcontextprotocol/inspector`): `tools/list` as that client reads it, printed verbatim. */

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isJsonObject, ownField } from "../../json/value.js";
import type { ClientLaunch, OutputClientAdapter, PrepareInput, RenderedTool } from "../types.js";

/** The session config `--config` reads: the Inspector takes the server exactly as a client config names it. */
export function inspectorConfig(input: Pick<PrepareInput, "server" | "serverName">): unknown {
  const { server } = input;
  const entry =
    server.kind === "stdio"
      ? { type: "stdio", command: server.command, args: server.args, env: server.env }
      : { type: "streamable-http", url: server.url, headers: Object.fromEntries(server.headers) };
  return { mcpServers: { [input.serverName]: entry } };
}

async function prepare(input: PrepareInput): Promise<ClientLaunch> {
  const home = join(input.scratch, "home");
  const cwd = join(input.scratch, "work");
  await Promise.all([home, cwd].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  // Values go in a file only this user can read, in a folder removed after the run, not in arguments `ps` shows.
  const configFile = join(input.scratch, "inspector.json");
  await writeFile(configFile, `${JSON.stringify(inspectorConfig(input), null, 2)}\n`, { mode: 0o600 });
  return {
    command: input.bin,
    args: ["--cli", "--config", configFile, "--server", input.serverName, "--method", "tools/list"],
    cwd,
    env: { ...input.baseEnv, HOME: home, MCP_INSPECTOR_SECRET_STORE: "memory" },
  };
}

/** The `{ "tools": [...] }` document the CLI prints; anything before its first `{` is log noise. */
function parseOutput(stdout: string): RenderedTool[] {
  const start = stdout.indexOf("{");
  let document: unknown;
  try {
    document = JSON.parse(start < 0 ? stdout : stdout.slice(start));
  } catch {
    throw new Error("the Inspector printed no tools/list result");
  }
  const tools = isJsonObject(document) ? ownField(document, "tools") : undefined;
  if (!Array.isArray(tools)) throw new Error("the Inspector printed no tools/list result");
  return tools.flatMap((tool): RenderedTool[] => {
    if (!isJsonObject(tool) || typeof tool.name !== "string") return [];
    const description = ownField(tool, "description");
    return [
      {
        name: tool.name,
        description: typeof description === "string" ? description : null,
        inputSchema: ownField(tool, "inputSchema"),
        outputSchema: ownField(tool, "outputSchema") ?? null,
      },
    ];
  });
}

export const inspector: OutputClientAdapter = {
  kind: "output",
  id: "inspector",
  label: "MCP Inspector",
  bin: "mcp-inspector",
  npmPackage: "@modelcontextprotocol/inspector",
  testedVersion: "2.12.0",
  prepare,
  parseOutput,
  // The Inspector shows names as the server sends them.
  serverToolName: (rendered, _serverName, serverTools) => (serverTools.includes(rendered) ? rendered : null),
};
