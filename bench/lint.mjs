#!/usr/bin/env node
// Benchmark of the linter on large generated tool lists, against a JSON.parse floor.
//
//   npm run build && node bench/lint.mjs [--sizes 1000,10000] [--runs 5] [--cli] [--strict]
//
// Exit status: 0 when it ran (targets missed or not; --strict makes a missed target exit 1), 2 on error.
//
// For each n: generate a from-file document with bench/gen-tools.mjs in a temp dir, then time, each
// in a fresh node process (median of --runs runs after one untimed warm-up):
//   (a) floor: read the file and JSON.parse it;
//   (b) lint:  read, JSON.parse, lintServer() from the built library, and build every message and
//              fix line, as a report would. With --cli, `node dist/cli.js check FILE --json <tmp>`
//              instead, once the CLI has the command.
// Peak memory of each process comes from process.resourceUsage().maxRSS, written at exit.
//
// MCP_LINT_LIB=/path/to/lint/index.js overrides the library (default: <repo>/dist/lint/index.js);
// MCP_LINT_CLI=/path/to/cli.js overrides the CLI for --cli (default: <repo>/dist/cli.js).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateServerFile } from "./gen-tools.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const lib = process.env.MCP_LINT_LIB ? resolve(process.env.MCP_LINT_LIB) : join(repo, "dist", "lint", "index.js");
const cli = process.env.MCP_LINT_CLI ? resolve(process.env.MCP_LINT_CLI) : join(repo, "dist", "cli.js");

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const sizes = option("--sizes", "1000,10000").split(",").map(Number);
const runs = Number(option("--runs", "5"));
const useCli = process.argv.includes("--cli");
const strict = process.argv.includes("--strict");
if (sizes.some((n) => !Number.isInteger(n) || n < 0) || !Number.isInteger(runs) || runs < 1) {
  console.error("usage: node bench/lint.mjs [--sizes 1000,10000] [--runs 5] [--cli] [--strict]");
  process.exit(2);
}
const target = useCli ? cli : lib;
if (!existsSync(target)) {
  console.error(`bench: ${target} not found. Run \`npm run build\` first.`);
  process.exit(2);
}

// Targets from issue 12, end to end (process start included).
const TARGET_MS = { 1000: 300, 10000: 2000 };

const work = mkdtempSync(join(tmpdir(), "mcp-lint-bench-lint-"));
const rssFile = join(work, "rss.txt");
const rssPreload = join(work, "rss-preload.mjs");
writeFileSync(
  rssPreload,
  'import { writeFileSync } from "node:fs";\n' +
    'process.on("exit", () => { try { writeFileSync(process.env.MCP_LINT_BENCH_RSS, String(process.resourceUsage().maxRSS)); } catch {} });\n',
);

const FLOOR = "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))";
const LINT = [
  "const { readFileSync } = await import('node:fs');",
  "const lint = await import(process.argv[2]);",
  "const doc = JSON.parse(readFileSync(process.argv[1], 'utf8'));",
  "const result = lint.lintServer({ tools: doc.tools, instructions: doc.instructions ?? null });",
  "let chars = 0;",
  "for (const finding of result.findings) chars += lint.message(finding).length + lint.fix(finding).length;",
  "if (chars < 0 || result.tools !== doc.tools.length) process.exit(3);",
].join("\n");

/** Spawns `node ...args` once; returns wall time and peak RSS. Exit codes in `ok` count as success. */
function runNode(args, ok = [0]) {
  rmSync(rssFile, { force: true });
  const start = performance.now();
  const result = spawnSync(process.execPath, ["--import", pathToFileURL(rssPreload).href, ...args], {
    cwd: work,
    env: { ...process.env, MCP_LINT_BENCH_RSS: rssFile, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - start;
  if (result.error) throw result.error;
  if (!ok.includes(result.status)) {
    throw new Error(`\`node ${args.slice(0, 3).join(" ")}\` exited ${result.status}:\n${result.stderr.toString().slice(0, 2000)}`);
  }
  let rssMb = Number.NaN;
  try {
    rssMb = Number(readFileSync(rssFile, "utf8").trim()) / 1024;
  } catch {}
  return { ms, rssMb };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function measure(args, ok) {
  runNode(args, ok);
  const times = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const run = runNode(args, ok);
    times.push(run.ms);
    rss.push(run.rssMb);
  }
  return { ms: median(times), rssMb: Math.max(...rss) };
}

const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
function table(headers, rows) {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => cells.map((cell, i) => String(cell).padStart(widths[i])).join("  ");
  console.log(line(headers));
  console.log(widths.map((width) => "-".repeat(width)).join("  "));
  for (const row of rows) console.log(line(row));
}

console.log(`mcp-lint lint bench — node ${process.version}, ${cpus()[0]?.model ?? "unknown cpu"} x${cpus().length}`);
console.log(`${useCli ? "cli" : "library"}: ${target}`);
console.log(`median of ${runs} fresh processes per cell; peak RSS from process.resourceUsage().maxRSS\n`);

let missed = false;
try {
  const rows = [];
  const verdicts = [];
  for (const n of sizes) {
    const file = join(work, `tools-${n}.json`);
    writeFileSync(file, JSON.stringify(generateServerFile(n, 42)));
    const mb = statSync(file).size / (1024 * 1024);
    process.stderr.write(`n=${n}: floor... `);
    const floor = measure(["-e", FLOOR, file]);
    process.stderr.write("lint...\n");
    const lint = useCli
      ? measure([cli, "check", file, "--json", join(work, "report.json")], [0, 1])
      : measure(["--input-type=module", "-e", LINT, file, pathToFileURL(lib).href]);
    rows.push([n, fmt(mb, 2), fmt(floor.ms), fmt(lint.ms), `${fmt(lint.ms / floor.ms, 2)}x`, `${fmt(floor.rssMb)}/${fmt(lint.rssMb)}`]);
    const limit = TARGET_MS[n];
    if (limit !== undefined) {
      const ok = lint.ms < limit;
      missed ||= !ok;
      verdicts.push(`target: ${n.toLocaleString("en-US")} tools under ${limit} ms end to end   ${fmt(lint.ms)} ms   ${ok ? "ok" : "MISSED"}`);
    }
  }
  console.log();
  table(["n", "file MB", "floor ms", "lint ms", "lint/floor", "peak RSS MB (floor/lint)"], rows);
  console.log();
  for (const verdict of verdicts) console.log(verdict);
} catch (error) {
  console.error(`\nbench: ${error.message}`);
  process.exitCode = 2;
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (missed && process.exitCode === undefined) {
  console.log("\nsome targets were missed (see above).");
  if (strict) process.exitCode = 1;
}
