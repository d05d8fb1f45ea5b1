#!/usr/bin/env node
// Proxy benchmark: an SDK client calling a local stdio fixture directly, and the same fixture
// through `mcp-lint proxy --lock` (the guard: every call is judged against the comparison).
//
//   npm run build && node bench/proxy.mjs [--calls 10000] [--rounds 10] [--tools 1000] [--connects 7]
//
// 1. Added latency per tools/call: the calls run in rounds that alternate direct and proxied
//    sessions (so a busy shared machine slows both alike); p50 and p99 of each, and the difference.
//    Targets: p50 under 1 ms and p99 under 5 ms added.
// 2. Memory: the proxy process's resident set after each round of the proxied session; target:
//    flat over 10,000 calls (under 10 MiB from round 2, once V8 has sized its heap, to the last).
// 3. Connect: time from spawn to a connected client (initialize answered) for a 1,000-tool server:
//    direct, through the proxy without a lock (no comparison), and with --lock (the whole list is
//    read and compared before the client's initialize is answered). Target: the comparison (lock
//    minus no lock) under 100 ms.
// Every figure is printed with the load average, since the machine may be shared.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { numberOption, repo, requireBuilt } from "./common.mjs";

const cli = join(repo, "dist", "cli.js");
const server = join(repo, "test", "fixtures", "servers", "proxy", "bench-server.mjs");
const calls = numberOption("--calls", 10_000);
const rounds = numberOption("--rounds", 10);
const toolCount = numberOption("--tools", 1000);
const connects = numberOption("--connects", 7);
requireBuilt(cli);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-proxy-bench-"));
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };

function lockFor(tools) {
  const lock = join(work, `server-${tools}.lock`);
  const result = spawnSync(process.execPath, [cli, "lock", "--lock", lock, "--", process.execPath, server, String(tools)], { encoding: "utf8" });
  if (result.status !== 0) {
    console.error(`bench: could not lock the fixture: ${result.stderr}`);
    process.exit(2);
  }
  return lock;
}

async function connect(args) {
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "bench", version: "1" }, { capabilities: {} });
  const started = performance.now();
  await client.connect(transport);
  const compared = /read and compared in (\d+) ms/.exec(stderr);
  return { client, transport, ms: performance.now() - started, compareMs: compared === null ? null : Number(compared[1]) };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return Number.NaN;
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const ms = (value) => `${value.toFixed(3)} ms`;

// ---- 1 and 2: latency and memory --------------------------------------------------------------
const smallLock = lockFor(1);
const direct = await connect([server, "1"]);
const proxied = await connect([cli, "proxy", "--lock", smallLock, "--", process.execPath, server, "1"]);
const proxyPid = proxied.transport.pid;
const call = (client) => client.callTool({ name: "echo", arguments: { text: "hi" } });
for (let i = 0; i < 500; i++) {
  await call(direct.client);
  await call(proxied.client);
}
const times = { direct: [], proxied: [] };
const warm = rssMiB(proxyPid);
const memory = [];
const perRound = Math.ceil(calls / rounds);
const loadBefore = load();
for (let round = 0; round < rounds; round++) {
  for (const [name, session] of [
    ["direct", direct],
    ["proxied", proxied],
  ]) {
    for (let i = 0; i < perRound; i++) {
      const started = performance.now();
      await call(session.client);
      times[name].push(performance.now() - started);
    }
  }
  memory.push(rssMiB(proxyPid));
}
await direct.client.close();
await proxied.client.close();
const sorted = (list) => [...list].sort((a, b) => a - b);
const d = sorted(times.direct);
const p = sorted(times.proxied);
console.log(`tools/call, ${times.proxied.length} calls each (${rounds} alternating rounds); load average before ${loadBefore}, after ${load()}`);
console.log(`  direct   p50 ${ms(percentile(d, 50))}  p99 ${ms(percentile(d, 99))}`);
console.log(`  proxied  p50 ${ms(percentile(p, 50))}  p99 ${ms(percentile(p, 99))}`);
console.log(`  added    p50 ${ms(percentile(p, 50) - percentile(d, 50))} (target < 1 ms)  p99 ${ms(percentile(p, 99) - percentile(d, 99))} (target < 5 ms)`);
const last = memory[memory.length - 1];
console.log(
  `proxy resident memory (MiB) after the 500 warm-up calls ${warm.toFixed(1)}, then after each round of ${perRound} calls: ${memory.map((value) => value.toFixed(1)).join(" ")}`,
);
// V8 grows its young generation to the allocation rate over the first thousands of calls; after
// that a leak shows as growth from round to round.
const steady = memory[Math.min(1, memory.length - 1)];
console.log(
  `  growth from round 2 to round ${memory.length}: ${(last - steady).toFixed(1)} MiB (target: flat, < 10 MiB); over all ${calls} calls, heap sizing included: ${(last - warm).toFixed(1)} MiB`,
);

// ---- 3: connect with the initial comparison ---------------------------------------------------
const bigLock = lockFor(toolCount);
const median = (list) => sorted(list)[Math.floor(list.length / 2)];
const connectTimes = { direct: [], noLock: [], lock: [] };
const compareTimes = [];
const loadConnect = load();
for (let i = 0; i < connects; i++) {
  for (const [name, args] of [
    ["direct", [server, String(toolCount)]],
    ["noLock", [cli, "proxy", "--no-paging", "--no-errors", "--", process.execPath, server, String(toolCount)]],
    ["lock", [cli, "proxy", "--lock", bigLock, "--", process.execPath, server, String(toolCount)]],
  ]) {
    const session = await connect(args);
    connectTimes[name].push(session.ms);
    if (session.compareMs !== null) compareTimes.push(session.compareMs);
    await session.client.close();
  }
}
console.log(`connect to a ${toolCount}-tool server, median of ${connects}; load average before ${loadConnect}, after ${load()}`);
console.log(`  direct                 ${ms(median(connectTimes.direct))}`);
console.log(
  `  proxy, no lock         ${ms(median(connectTimes.noLock))}  (the proxy process itself: ${ms(median(connectTimes.noLock) - median(connectTimes.direct))})`,
);
console.log(`  proxy --lock           ${ms(median(connectTimes.lock))}`);
console.log(
  `  initial comparison     ${ms(median(connectTimes.lock) - median(connectTimes.noLock))} added to connect (target < 100 ms): reading and validating the lock before the launch, then the read and comparison`,
);
console.log(`    of which the read and comparison, as the proxy reports it: median ${median(compareTimes)} ms (${sorted(compareTimes).join(", ")})`);
rmSync(work, { recursive: true, force: true });
