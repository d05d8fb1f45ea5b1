#!/usr/bin/env node
// Parallel benchmark: `mcp-lint lock --check --url` run by many clients at once (the conformance
// auth suite starts 14 together), against one run alone, on the same loopback HTTP fixture server.
//
//   npm run build && node bench/parallel.mjs [--clients 14] [--runs 5]
//
// Prints the median wall time of a run alone, the median and slowest of the clients started
// together, their ratio (target: each under 2x a run alone), and the CPU time one run costs. The
// CPU floor is printed beside it: N runs that each need C seconds of CPU cannot all end sooner
// than N x C / cores, whatever they do, so a ratio near that floor means no run waits on anything
// but the processor.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { numberOption, repo, requireBuilt } from "./common.mjs";

// MCP_LINT_CLI=/path/to/cli.js measures another build (default: <repo>/dist/cli.js).
const cli = process.env.MCP_LINT_CLI ? resolve(process.env.MCP_LINT_CLI) : join(repo, "dist", "cli.js");
const fixture = join(repo, "test", "fixtures", "servers", "live", "http-server.mjs");
const clients = numberOption("--clients", 14);
const runs = numberOption("--runs", 5);
requireBuilt(cli);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-parallel-"));
const lockPath = join(work, "mcp-lint.lock");
const server = spawn(process.execPath, [fixture], { stdio: ["ignore", "pipe", "ignore"] });
const url = await new Promise((done, fail) => {
  let text = "";
  server.stdout.on("data", (chunk) => {
    text += chunk;
    const match = /LISTENING (\S+)/.exec(text);
    if (match) done(match[1]);
  });
  server.once("exit", () => fail(new Error("the fixture server exited before listening")));
});

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const args = ["lock", "--check", "--lock", lockPath, "--url", url];

/** One run as a child process: wall time, and CPU time (user + system) from /usr/bin/time when present. */
function runOnce() {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const timeFile = join(work, `cpu-${started}.txt`);
    const gnuTime = existsSync("/usr/bin/time");
    const child = gnuTime
      ? spawn("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, process.execPath, cli, ...args], { stdio: "ignore" })
      : spawn(process.execPath, [cli, ...args], { stdio: "ignore" });
    child.once("exit", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return fail(new Error(`lock --check exited ${code}`));
      let cpuMs = Number.NaN;
      if (gnuTime) {
        const [user, system] = readFileSync(timeFile, "utf8").trim().split(/\s+/).map(Number);
        cpuMs = ((user ?? 0) + (system ?? 0)) * 1000;
      }
      done({ ms, cpuMs });
    });
  });
}

try {
  const made = spawnSync(process.execPath, [cli, "lock", "--lock", lockPath, "--url", url], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (made.status !== 0) throw new Error(`lock failed: ${made.stderr}`);
  await runOnce();
  const alone = [];
  for (let i = 0; i < runs; i++) alone.push(await runOnce());
  const together = await Promise.all(Array.from({ length: clients }, () => runOnce()));
  const single = median(alone.map((r) => r.ms));
  const cpu = median(alone.map((r) => r.cpuMs));
  const each = together.map((r) => r.ms);
  const mid = median(each);
  const slowest = Math.max(...each);
  const cores = availableParallelism();
  const floor = (clients * cpu) / cores;
  console.log(`parallel benchmark: ${clients} lock --check --url runs at once on ${cores} cores, against one alone (median of ${runs})`);
  console.log(`  one run alone                 ${single.toFixed(0)} ms wall, ${Number.isFinite(cpu) ? cpu.toFixed(0) : "n/a"} ms CPU`);
  console.log(`  ${clients} at once                    median ${mid.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms`);
  console.log(
    `  ratio ${(mid / single).toFixed(2)}x (slowest ${(slowest / single).toFixed(2)}x)   target under 2x   ${slowest / single < 2 ? "ok" : "MISSED"}` +
      (Number.isFinite(floor)
        ? `   (CPU floor: ${clients} x ${cpu.toFixed(0)} ms / ${cores} cores = ${floor.toFixed(0)} ms, ${(floor / single).toFixed(2)}x)`
        : ""),
  );
} catch (error) {
  console.error(`bench: ${error.message}`);
  process.exitCode = 2;
} finally {
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
