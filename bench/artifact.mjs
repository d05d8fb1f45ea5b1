#!/usr/bin/env node
// Benchmark of the artifact pin (issue 40): what it adds to the lock's size and to `lock --check`'s time,
// and how many sequential registry round trips resolving a tree takes.
//
//   npm run build && node bench/artifact.mjs [--runs 5] [--servers pkg@ver,pkg@ver]
//
// Exit status: 0 when it ran, 2 on error. Needs the npm registry (the one npm is configured for).
//
// For each server (default: @modelcontextprotocol/server-memory@2026.8.31, 99 packages, and
// @modelcontextprotocol/server-filesystem@2025.7.1, 138 packages; a 100-package tree and a larger one):
//   size:   `lock` with and without `--no-artifact`; the lock's bytes and lines, both ways.
//   time:   `lock --check` with the artifact and with `--no-artifact`, in turn, round after round, so machine
//           noise hits both alike; medians of --runs fresh processes after one warm-up each. The figure is the
//           added milliseconds and the ratio against the check without it, measured in the same run.
//   trips:  the resolver in this process (dist/artifact/resolve.js) with npm's http log on: every request the
//           registry answered, and the sequential round trips, counted as the waves of requests that start
//           only after every earlier one ended, first cold (no cache, no lock: what `lock` does) and then as
//           `lock --check` does it (a warm cache revalidated, the locked tree known).
// The bundled demo server (examples/demo-server.mjs) runs as `node demo-server.mjs`: local code, so its lock
// gains no artifact (0 bytes), which the bench says rather than measures.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(repo, "dist", "cli.js");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const runs = Number(option("--runs", "5"));
const servers = option("--servers", "@modelcontextprotocol/server-memory@2026.8.31,@modelcontextprotocol/server-filesystem@2025.7.1").split(",");

const { resolveArtifact } = await import(pathToFileURL(join(repo, "dist/artifact/resolve.js")).href);
const { artifactSource } = await import(pathToFileURL(join(repo, "dist/artifact/source.js")).href);
const { npmSettings } = await import(pathToFileURL(join(repo, "dist/artifact/npm-settings.js")).href);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function cliRun(argv, cwd) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, ...argv], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 600_000 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`mcp-lint ${argv.join(" ")} exited ${result.status}: ${result.stderr.trim().split("\n").at(-1)}`);
  return ms;
}

/** Requests the registry answered while `work` ran, from npm's own http log, and the sequential waves among them. */
async function traced(work) {
  const requests = [];
  const listen = (level, kind, text) => {
    if (level !== "http" || kind !== "fetch" || typeof text !== "string") return;
    const match = / (\d+)ms/.exec(text);
    const end = performance.now();
    requests.push({ start: end - Number(match?.[1] ?? 0), end, cached: /\(cache (hit|stale)\)/.test(text) });
  };
  process.on("log", listen);
  const started = performance.now();
  try {
    await work();
  } finally {
    process.off("log", listen);
  }
  const network = requests.filter((request) => !request.cached).sort((a, b) => a.start - b.start);
  let waves = 0;
  let lastEnd = -Infinity;
  for (const request of network) {
    if (request.start >= lastEnd) waves++;
    lastEnd = Math.max(lastEnd, request.end);
  }
  return { ms: performance.now() - started, requests: network.length, waves };
}

const trust = { signature: async () => "unchecked", provenance: async () => null };
console.log(`mcp-lint artifact bench: ${runs} runs per figure; node ${process.version}`);
console.log("demo server (examples/demo-server.mjs, launched as node demo-server.mjs): local code, no artifact, lock unchanged (+0 bytes)");
for (const spec of servers) {
  const work = mkdtempSync(join(tmpdir(), "mcp-lint-bench-artifact-"));
  try {
    const launch = ["--", "npx", "-y", spec, work];
    cliRun(["lock", "--lock", "with.lock", ...launch], work);
    cliRun(["lock", "--no-artifact", "--lock", "without.lock", ...launch], work);
    const withText = readFileSync(join(work, "with.lock"), "utf8");
    const withoutText = readFileSync(join(work, "without.lock"), "utf8");
    const packages = Object.keys(JSON.parse(withText).artifact.tree).length;
    const lines = (text) => text.split("\n").length - 1;
    console.log(
      `${spec}: ${packages} packages; lock ${withoutText.length} -> ${withText.length} bytes (+${withText.length - withoutText.length}, x${(withText.length / withoutText.length).toFixed(2)}), ${lines(withoutText)} -> ${lines(withText)} lines`,
    );

    const withTimes = [];
    const withoutTimes = [];
    cliRun(["lock", "--check", "--lock", "with.lock", ...launch], work);
    cliRun(["lock", "--check", "--lock", "without.lock", "--no-artifact", ...launch], work);
    for (let round = 0; round < runs; round++) {
      withTimes.push(cliRun(["lock", "--check", "--lock", "with.lock", ...launch], work));
      withoutTimes.push(cliRun(["lock", "--check", "--lock", "without.lock", "--no-artifact", ...launch], work));
    }
    const a = median(withTimes);
    const b = median(withoutTimes);
    console.log(`  lock --check: ${b.toFixed(0)} ms without the artifact, ${a.toFixed(0)} ms with it: +${(a - b).toFixed(0)} ms (x${(a / b).toFixed(2)})`);

    const cache = join(work, "npm-cache", "_cacache");
    const npm = { ...(await npmSettings()), cache };
    const source = artifactSource(["npx", "-y", spec]);
    let locked = null;
    const cold = await traced(async () => {
      locked = (await resolveArtifact(source, npm, trust)).artifact;
    });
    const check = await traced(() => resolveArtifact(source, npm, trust, locked));
    const unlocked = await traced(() => resolveArtifact(source, npm, trust, null));
    console.log(
      `  resolver: first lock (cold cache) ${cold.requests} requests in ${cold.waves} round trips, ${cold.ms.toFixed(0)} ms; check (warm cache, locked tree) ${check.requests} requests in ${check.waves} round trip${check.waves === 1 ? "" : "s"}, ${check.ms.toFixed(0)} ms; the same without the locked tree ${unlocked.waves} round trips, ${unlocked.ms.toFixed(0)} ms`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
