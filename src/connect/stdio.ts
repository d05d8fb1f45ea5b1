/** Launch a stdio MCP server with the SDK client and read what it tells a model, exactly as sent. */

import { ConnectionError, ToolListError } from "../errors.js";
import { canonicalSha256 } from "../json/canonical.js";
import { isJsonObject, type ServerSnapshot, validateToolList } from "../lock/snapshot.js";

/** How to launch and talk to a stdio server. */
export interface StdioOptions {
  command: string;
  args: string[];
  /** Names of environment variables passed on top of the SDK's minimal safe set. */
  passEnv: string[];
  /** Bound on start-up and on every request, in milliseconds. */
  timeoutMs: number;
  clientVersion: string;
}

/** Most `tools/list` pages followed before giving up: a server that never ends its list is an error. */
export const MAX_PAGES = 100;
const STDERR_KEEP = 2000;

/** SHA-256 of a launch command, so the lock can notice a new command without storing it. */
export function stdioCommandSha256(command: string, args: readonly string[]): string {
  return canonicalSha256(["stdio", command, ...args]);
}

/** Connect, read `initialize` and every page of `tools/list`, then close the server. */
export async function snapshotFromStdio(options: StdioOptions): Promise<ServerSnapshot> {
  // Loaded here, not at start-up: `--version`, `--help` and `--from` runs never pay for the SDK.
  const [{ Client }, { StdioClientTransport, getDefaultEnvironment }, { ResultSchema }] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  const env = getDefaultEnvironment();
  for (const name of options.passEnv) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    env,
    stderr: "pipe",
  });
  let stderrTail = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_KEEP);
  });
  const client = new Client({ name: "mcp-lint", version: options.clientVersion }, { capabilities: {} });
  const where = `server "${options.command}"`;
  try {
    try {
      await client.connect(transport, { timeout: options.timeoutMs });
    } catch (error) {
      throw new ConnectionError(`could not start or initialize ${where}: ${reason(error)}${stderrHint(stderrTail)}`);
    }
    const info = client.getServerVersion();
    const instructions = client.getInstructions();
    const tools: unknown[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      if (page > MAX_PAGES) {
        throw new ToolListError(`${where} sent more than ${MAX_PAGES} pages of tools/list; refusing to lock a list that may not end`);
      }
      let result: Record<string, unknown>;
      try {
        // A permissive result schema: the list is taken as sent, not validated tool by tool.
        result = await client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          ResultSchema,
          { timeout: options.timeoutMs },
        );
      } catch (error) {
        throw new ConnectionError(`tools/list failed on ${where}: ${reason(error)}${stderrHint(stderrTail)}`);
      }
      const pageTools = result.tools;
      if (!Array.isArray(pageTools)) throw new ToolListError(`${where} answered tools/list without a "tools" array`);
      tools.push(...pageTools);
      const next = result.nextCursor;
      if (next === undefined || next === null) break;
      if (typeof next !== "string") throw new ToolListError(`${where} sent a nextCursor that is not a string`);
      if (seen.has(next)) throw new ToolListError(`${where} repeated a tools/list cursor; the list would never end`);
      seen.add(next);
      cursor = next;
    }
    return {
      tools: validateToolList(tools, where),
      instructions: { known: true, text: typeof instructions === "string" && instructions !== "" ? instructions : null },
      name: isJsonObject(info) && typeof info.name === "string" ? info.name : null,
      version: isJsonObject(info) && typeof info.version === "string" ? info.version : null,
      commandSha256: stdioCommandSha256(options.command, options.args),
      transport: "stdio",
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}

function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? "unknown error";
}

function stderrHint(tail: string): string {
  const lastLine = tail.trim().split("\n").pop()?.trim();
  return lastLine ? ` (server stderr: ${JSON.stringify(lastLine.slice(-200))})` : "";
}
