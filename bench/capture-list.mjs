// Capturing what a real MCP server lists: launch an installed npm package over stdio with the MCP SDK
// client, read initialize as sent and every tools/list page, and end everything it started. Shared by
// bench/s8-servers.mjs and test/fixtures/upgrades/capture.mjs.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * The file to run for an installed package: the entry's `entry`, its named `bin`, the only bin, or
 * the bin named like the package. Shared by the captures of real servers.
 */
export function packageEntry(dir, server) {
  const pkgDir = join(dir, "node_modules", ...server.package.split("/"));
  if (server.entry !== undefined) return join(pkgDir, server.entry);
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  let bin = pkg.bin;
  if (typeof bin === "object" && bin !== null) {
    const names = Object.keys(bin);
    const name = server.bin ?? (names.length === 1 ? names[0] : names.find((n) => n === server.package.split("/").pop()));
    if (name === undefined) throw new Error(`${server.package}@${pkg.version} has several bins (${names.join(", ")}); set "bin"`);
    bin = bin[name];
  }
  if (typeof bin !== "string") throw new Error(`${server.package}@${pkg.version} has no bin; set "entry"`);
  return join(pkgDir, bin);
}

/** Every descendant pid of a process, read from ps, so nothing a captured server started outlives the capture. */
export function descendants(pid) {
  let table;
  try {
    table = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" });
  } catch {
    return [];
  }
  const children = new Map();
  for (const line of table.trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(child);
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Kill these processes, ignoring any already gone. */
export function killPids(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** `promise`, or a rejection naming `what` after `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Launch one server (`command args` in `cwd`, the SDK's safe environment plus `env`) and return
 * `{serverInfo, instructions?, tools}` as it sent them, every page read; throws with the last line of
 * its stderr when it fails. Bounded by `startMs` to start, `requestMs` a page and `maxPages` pages.
 */
export async function captureTools({ command, args, cwd, env, clientName, startMs, requestMs, maxPages }) {
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: "pipe" });
  let stderrTail = "";
  transport.stderr?.on("data", (chunk) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  // Keep initialize's result exactly as sent (the SDK's parsed copy may drop or reorder keys).
  let initializeResult;
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (next) => {
      handler = (message, extra) => {
        if (initializeResult === undefined && message?.result?.serverInfo !== undefined) initializeResult = message.result;
        next?.(message, extra);
      };
    },
  });
  const client = new Client({ name: clientName, version: "1.0.0" }, { capabilities: {} });
  let pids = [];
  try {
    await withTimeout(client.connect(transport, { timeout: startMs }), startMs, "start-up");
    const tools = [];
    const seen = new Set();
    let cursor;
    for (let page = 1; ; page++) {
      if (page > maxPages) throw new Error(`more than ${maxPages} pages of tools/list`);
      const request = client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, ResultSchema, { timeout: requestMs });
      const result = await withTimeout(request, requestMs, "tools/list");
      if (!Array.isArray(result.tools)) throw new Error("tools/list answered without a tools array");
      tools.push(...result.tools);
      if (result.nextCursor === undefined || result.nextCursor === null) break;
      if (seen.has(result.nextCursor)) throw new Error("tools/list repeated a cursor");
      seen.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    const init = initializeResult ?? { serverInfo: client.getServerVersion(), instructions: client.getInstructions() };
    const list = { serverInfo: init.serverInfo };
    if (typeof init.instructions === "string" && init.instructions !== "") list.instructions = init.instructions;
    list.tools = tools;
    return list;
  } catch (error) {
    const last = stderrTail.trim().split("\n").pop() ?? "";
    throw new Error(`${error instanceof Error ? error.message : String(error)}${last ? ` (stderr: ${last.slice(0, 300)})` : ""}`);
  } finally {
    // Note what the server started, let the SDK end the server (stdin closed, then TERM, then KILL), then kill
    // whatever it started that is still there.
    if (transport.pid) pids = descendants(transport.pid);
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    killPids(pids);
  }
}
