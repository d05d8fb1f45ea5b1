#!/usr/bin/env node
// Live benchmark: `mcp-lint lock --check` against a stdio fixture server with 1,000 tools, next to
// the floor: a bare SDK client script that only connects to the same server, lists every tool
// (permissive result schema, as mcp-lint does) and closes. Both are whole processes, timed the same way.
//
//   npm run build && node bench/live.mjs [--tools 1000] [--runs 7]
//
// Prints the median wall time of each and the ratio; target 1.0x (no slower than the bare client), at most 1.15x.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { numberOption, repo, requireBuilt } from "./common.mjs";
import { generateServerFile } from "./gen-tools.mjs";

// MCP_LINT_CLI=/path/to/cli.js measures another build (default: <repo>/dist/cli.js).
const cli = process.env.MCP_LINT_CLI ? resolve(process.env.MCP_LINT_CLI) : join(repo, "dist", "cli.js");
const server = join(repo, "test", "fixtures", "servers", "from-file.mjs");
const toolCount = numberOption("--tools", 1000);
const runs = numberOption("--runs", 7);
requireBuilt(cli);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-live-"));
const tools = join(work, "server.json");
writeFileSync(tools, JSON.stringify(generateServerFile(toolCount, 1)));
const bare = join(work, "bare-client.mjs");
writeFileSync(
  bare,
  `import { Client } from ${JSON.stringify(join(repo, "node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js"))};
import { StdioClientTransport } from ${JSON.stringify(join(repo, "node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js"))};
import { ResultSchema } from ${JSON.stringify(join(repo, "node_modules/@modelcontextprotocol/sdk/dist/esm/types.js"))};
const client = new Client({ name: "bare", version: "1" }, { capabilities: {} });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(server)}, ${JSON.stringify(tools)}] }));
let cursor, count = 0;
do {
  const page = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, ResultSchema);
  count += page.tools.length;
  cursor = page.nextCursor;
} while (cursor);
await client.close();
if (count !== ${toolCount}) { console.error("listed", count); process.exit(1); }
`,
);

const lockPath = join(work, "mcp-lint.lock");
const serverArgs = ["--", process.execPath, server, tools];
const made = spawnSync(process.execPath, [cli, "lock", "--lock", lockPath, ...serverArgs], { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
if (made.status !== 0) {
  console.error(`bench: lock failed: ${made.stderr}`);
  process.exit(2);
}

function time(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const floor = [];
const ours = [];
time([bare]);
time([cli, "lock", "--check", "--lock", lockPath, ...serverArgs]);
for (let i = 0; i < runs; i++) {
  // Interleaved, so machine noise hits both alike.
  floor.push(time([bare]));
  ours.push(time([cli, "lock", "--check", "--lock", lockPath, ...serverArgs]));
}
const a = median(floor);
const b = median(ours);
const overhead = (b / a - 1) * 100;
console.log(`live benchmark: ${toolCount} tools over stdio, median of ${runs} runs`);
console.log(`  bare SDK client (connect, list, close)   ${a.toFixed(0)} ms`);
console.log(`  mcp-lint lock --check                    ${b.toFixed(0)} ms`);
const ratio = b / a;
console.log(
  `  ratio ${ratio.toFixed(2)}x (overhead ${overhead.toFixed(1)}%)   target 1.0x, at most 1.15x   ${ratio <= 1 ? "ok" : ratio <= 1.15 ? "within the limit" : "MISSED"}`,
);
rmSync(work, { recursive: true, force: true });
