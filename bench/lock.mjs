#!/usr/bin/env node
// Benchmark of `mcp-lint lock` on large tool lists, against plain JSON.parse.
//
//   npm run build && node bench/lock.mjs [--sizes 100,1000,10000] [--runs 5] [--keep] [--strict]
//
// Exit status: 0 when it ran (targets missed or not; --strict makes a missed target exit 1), 2 on error.
//
// For each n: generate a from-file document with bench/gen-tools.mjs in a temp dir, then time
//   (a) lock:     `node dist/cli.js lock --from FILE --lock L`          (first write; L removed before each run),
//   (b) baseline: `node -e` that reads the file and JSON.parses it; both files read and parsed
//       (the list and the lock); and the check, `node dist/cli.js lock --check --from FILE --lock L`,
//       these three in turn, round after round, so machine noise hits them alike.
// Every run is a fresh spawned process; the figure is the median wall time of --runs runs
// (after one untimed warm-up run each, so the file is in the page cache). Targets are ratios
// against the baseline measured in the same run, never absolute times.
// Then times `node dist/cli.js --version` against `node -e 0` (median of 10, in turn).
//
// Peak memory: each command is run under `/usr/bin/time -f %M -o FILE` (GNU time; max RSS of the
// child in KiB). If /usr/bin/time is missing, node is started with `--import <preload>`, a
// module that writes `process.resourceUsage().maxRSS` on exit. Both add the same small
// overhead to the baseline and to the CLI, so ratios stay fair.
//
// MCP_LINT_CLI=/path/to/cli.js overrides the CLI under test (default: <repo>/dist/cli.js).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { generateServerFile } from "./gen-tools.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = process.env.MCP_LINT_CLI ? resolve(process.env.MCP_LINT_CLI) : join(repo, "dist", "cli.js");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const sizes = option("--sizes", "100,1000,10000").split(",").map(Number);
const runs = Number(option("--runs", "5"));
const keep = process.argv.includes("--keep");
const strict = process.argv.includes("--strict");
if (sizes.some((n) => !Number.isInteger(n) || n < 0) || !Number.isInteger(runs) || runs < 1) {
  console.error("usage: node bench/lock.mjs [--sizes 100,1000,10000] [--runs 5] [--keep] [--strict]");
  process.exit(2);
}

if (!existsSync(cli)) {
  console.error(`bench: ${cli} not found. Run \`npm run build\` first (or \`npm run bench\`).`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "mcp-lint-bench-"));
const rssFile = join(work, "rss.txt");
const gnuTime = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const preload = join(work, "rss-preload.mjs");
if (!gnuTime) {
  writeFileSync(
    preload,
    'import { writeFileSync } from "node:fs";\n' +
      'process.on("exit", () => { try { writeFileSync(process.env.MCP_LINT_BENCH_RSS, String(process.resourceUsage().maxRSS)); } catch {} });\n',
  );
}

/**
 * Spawns `node ...nodeArgs` once; returns { ms, rssMb, status, stderr }.
 * `expect` is the exit status that counts as success.
 */
function runNode(nodeArgs, expect = 0) {
  try {
    unlinkSync(rssFile);
  } catch {}
  let command = process.execPath;
  let args = nodeArgs;
  const env = { ...process.env };
  if (gnuTime) {
    command = gnuTime;
    args = ["-f", "%M", "-o", rssFile, process.execPath, ...nodeArgs];
  } else {
    args = ["--import", pathToFileURL(preload).href, ...nodeArgs];
    env.MCP_LINT_BENCH_RSS = rssFile;
  }
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd: work, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  if (r.status !== expect) {
    const shown = nodeArgs.map((a) => (a.length > 80 ? `${a.slice(0, 77)}...` : a)).join(" ");
    throw new Error(`\`node ${shown}\` exited ${r.status} (expected ${expect}):\n${r.stderr.toString().slice(0, 2000)}`);
  }
  let rssMb = NaN;
  try {
    const text = readFileSync(rssFile, "utf8").trim().split("\n").pop();
    rssMb = Number(text) / 1024; // KiB (GNU time %M and resourceUsage().maxRSS) -> MiB
  } catch {}
  return { ms, rssMb };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** One warm-up run, then `count` timed runs; `before` runs before each (untimed). */
function measure(nodeArgs, count, before) {
  return measureTogether([{ nodeArgs, before }], count)[0];
}

/**
 * Several commands timed in turn, round after round, so a noisy spell of the machine hits each of
 * them alike; one untimed warm-up of each first (the files are then in the page cache).
 */
function measureTogether(commands, count) {
  for (const { nodeArgs, before } of commands) {
    before?.();
    runNode(nodeArgs);
  }
  const times = commands.map(() => []);
  const rss = commands.map(() => []);
  for (let i = 0; i < count; i++) {
    commands.forEach(({ nodeArgs, before }, k) => {
      before?.();
      const r = runNode(nodeArgs);
      times[k].push(r.ms);
      rss[k].push(r.rssMb);
    });
  }
  return commands.map((_, k) => ({ ms: median(times[k]), rssMb: Math.max(...rss[k]) }));
}

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join("  ");
  console.log(line(headers));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

const BASELINE = "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))";
// The floor of a check: it must parse both the list and the lock (which holds the same tools, pretty-printed).
const TWO_PARSES =
  "const fs = require('node:fs'); globalThis.kept = [JSON.parse(fs.readFileSync(process.argv[1], 'utf8')), JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))]";
// And what its integrity check adds, done once: every locked definition's hash recomputed (the
// native JSON.stringify of the sorted definition, then SHA-256), as the check does for each entry.
const PARSES_AND_HASHES =
  "const fs = require('node:fs'); const { hash } = require('node:crypto'); const list = JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); const lock = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')); let ok = 0; for (const entry of Object.values(lock.tools)) if (hash('sha256', JSON.stringify(entry.definition), 'hex') === entry.sha256) ok++; if (ok !== Object.keys(lock.tools).length) process.exit(3); globalThis.kept = [list, lock];";

console.log(`mcp-lint bench — node ${process.version}, ${cpus()[0]?.model ?? "unknown cpu"} x${cpus().length}`);
console.log(`cli: ${cli}`);
console.log(`median of ${runs} runs per cell; peak RSS via ${gnuTime ? "/usr/bin/time -f %M" : "--import preload (process.resourceUsage().maxRSS)"}\n`);

const results = [];
let failed = false;
try {
  const rows = [];
  for (const n of sizes) {
    const file = join(work, `tools-${n}.json`);
    const lock = join(work, `tools-${n}.lock`);
    writeFileSync(file, JSON.stringify(generateServerFile(n, 42)));
    const mb = statSync(file).size / (1024 * 1024);
    process.stderr.write(`n=${n}: lock... `);
    const removeLock = () => rmSync(lock, { force: true });
    const lockRun = measure([cli, "lock", "--from", file, "--lock", lock], runs, removeLock);
    // leave a fresh lock for the check runs
    runNode([cli, "lock", "--from", file, "--lock", lock]);
    process.stderr.write("one parse, two parses, parses and hashes, check...\n");
    const [base, floor, hashed, check] = measureTogether(
      [
        { nodeArgs: ["-e", BASELINE, file] },
        { nodeArgs: ["-e", TWO_PARSES, file, lock] },
        { nodeArgs: ["-e", PARSES_AND_HASHES, file, lock] },
        { nodeArgs: [cli, "lock", "--check", "--from", file, "--lock", lock] },
      ],
      runs,
    );
    const ratio = check.ms / base.ms;
    const floorRatio = check.ms / floor.ms;
    results.push({ n, base, check, ratio, floor, floorRatio, hashed });
    rows.push([
      n,
      fmt(mb, 2),
      fmt(base.ms),
      fmt(floor.ms),
      fmt(lockRun.ms),
      fmt(check.ms),
      `${fmt(ratio, 2)}x`,
      `${fmt(floorRatio, 2)}x`,
      `${fmt(base.rssMb)}/${fmt(floor.rssMb)}/${fmt(lockRun.rssMb)}/${fmt(check.rssMb)}`,
    ]);
  }
  console.log();
  table(
    ["n", "file MB", "1 parse ms", "2 parses ms", "lock ms", "check ms", "check/1 parse", "check/2 parses", "peak RSS MB (1 parse/2 parses/lock/check)"],
    rows,
  );

  const tenK = results.find((r) => r.n === 10000);
  console.log();
  if (tenK) {
    // A check must read and parse the list (the baseline) and the lock, which holds the same tools
    // pretty-printed: twice the baseline is the target, 2.5x the most allowed.
    const okRatio = tenK.ratio <= 2.5;
    failed ||= !okRatio;
    console.log(
      `10,000 tools: check / one parse of the list   ${fmt(tenK.check.ms)} ms / ${fmt(tenK.base.ms)} ms = ${fmt(tenK.ratio, 2)}x   target 2.0x, at most 2.5x   ${tenK.ratio <= 2 ? "ok" : okRatio ? "within the limit" : "MISSED"}`,
    );
    console.log(`10,000 tools: check / parses of both files    ${fmt(tenK.check.ms)} ms / ${fmt(tenK.floor.ms)} ms = ${fmt(tenK.floorRatio, 2)}x`);
    console.log(
      `10,000 tools: check / parses + lock hashes     ${fmt(tenK.check.ms)} ms / ${fmt(tenK.hashed.ms)} ms = ${fmt(tenK.check.ms / tenK.hashed.ms, 2)}x   (parses + hashes / one parse = ${fmt(tenK.hashed.ms / tenK.base.ms, 2)}x)`,
    );
    const okMemory = tenK.check.rssMb < 150;
    console.log(
      `10,000 tools: check peak RSS                  ${fmt(tenK.check.rssMb)} MB (one parse ${fmt(tenK.base.rssMb)} MB, both files ${fmt(tenK.floor.rssMb)} MB)   target under 150 MB   ${okMemory ? "ok" : "MISSED"}`,
    );
    failed ||= !okMemory;
  } else {
    console.log("targets for 10,000 tools not evaluated (n=10000 not in --sizes)");
  }

  // Startup cost.
  process.stderr.write("startup: node -e 0 / --version...\n");
  const [empty, version] = measureTogether([{ nodeArgs: ["-e", "0"] }, { nodeArgs: [cli, "--version"] }], 10);
  const startRatio = version.ms / empty.ms;
  const okStart = startRatio <= 1.3;
  failed ||= !okStart;
  console.log(
    `startup: --version / node -e 0               ${fmt(version.ms)} ms / ${fmt(empty.ms)} ms = ${fmt(startRatio, 2)}x   at most 1.3x   ${okStart ? "ok" : "MISSED"}` +
      `   (peak RSS ${fmt(version.rssMb)} MB vs ${fmt(empty.rssMb)} MB)`,
  );
} catch (err) {
  console.error(`\nbench: ${err.message}`);
  process.exitCode = 2;
} finally {
  if (keep) console.log(`\n(kept ${work})`);
  else rmSync(work, { recursive: true, force: true });
}
if (failed && process.exitCode === undefined) {
  console.log("\nsome targets were missed (see above).");
  if (strict) process.exitCode = 1;
}
