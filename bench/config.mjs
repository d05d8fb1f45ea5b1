#!/usr/bin/env node
// Config benchmark: `mcp-lint lock --config` over a client config of 10 stdio fixture servers with
// 100 tools each, against the sum of 10 single-server runs (`mcp-lint lock -- <server>`) of the same
// servers, for a first lock and for --check. Both are whole processes, timed the same way.
//
//   npm run build && node bench/config.mjs [--servers 10] [--tools 100] [--runs 3] [--jobs 4]
//
// Prints the median wall time of each and the ratio; target: the config run at most 40% of the sum.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { generateServerFile } from "./gen-tools.mjs";
import { numberOption, repo, requireBuilt } from "./common.mjs";

const cli = join(repo, "dist", "cli.js");
const server = join(repo, "test", "fixtures", "servers", "catalog.mjs");
const servers = numberOption("--servers", 10);
const tools = numberOption("--tools", 100);
const runs = numberOption("--runs", 3);
const jobs = numberOption("--jobs", 4);
requireBuilt(cli);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-config-bench-"));
const entries = {};
for (let index = 0; index < servers; index++) {
  const spec = join(work, `server-${index}.json`);
  writeFileSync(spec, JSON.stringify({ ...generateServerFile(tools, index + 1), serverInfo: { name: `bench-${index}`, version: "1.0.0" } }));
  entries[`server-${index}`] = { command: process.execPath, args: [server, spec] };
}
writeFileSync(join(work, ".mcp.json"), JSON.stringify({ mcpServers: entries }));

/** Wall time of one CLI process, in ms; throws when it exits other than `expect`. */
function time(args, expect = 0) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: work, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const elapsed = performance.now() - started;
  if (result.status !== expect) throw new Error(`mcp-lint ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const mode of ["lock", "check"]) {
  const config = [];
  const singles = [];
  for (let run = 0; run < runs; run++) {
    const check = mode === "check" ? ["--check"] : [];
    if (mode === "lock") rmSync(join(work, "config.lock"), { force: true });
    config.push(
      time(
        ["lock", ...check, "--config", ".mcp.json", "--jobs", String(jobs), "--lock", "config.lock", "--accept"].filter(
          (arg) => !(mode === "check" && arg === "--accept"),
        ),
      ),
    );
    let sum = 0;
    for (let index = 0; index < servers; index++) {
      const lock = `single-${index}.lock`;
      if (mode === "lock") rmSync(join(work, lock), { force: true });
      sum += time([
        "lock",
        ...check,
        "--lock",
        lock,
        ...(mode === "lock" ? ["--accept"] : []),
        "--",
        process.execPath,
        server,
        join(work, `server-${index}.json`),
      ]);
    }
    singles.push(sum);
  }
  rows.push({ mode, config: median(config), singles: median(singles) });
}

console.log(
  `${servers} servers x ${tools} tools, --jobs ${jobs}, median of ${runs} runs; load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")}`,
);
console.log("mode    config ms   sum of singles ms   ratio");
for (const row of rows) {
  const ratio = row.config / row.singles;
  console.log(
    `${row.mode.padEnd(6)}  ${row.config.toFixed(0).padStart(9)}   ${row.singles.toFixed(0).padStart(17)}   ${(ratio * 100).toFixed(0).padStart(4)}%  ${ratio <= 0.4 ? "ok" : "MISSED (target 40%)"}`,
  );
}
rmSync(work, { recursive: true, force: true });
