#!/usr/bin/env node
// S8 (hidden text and tool poisoning) measured on data nobody on the project wrote: a labelled attack benchmark, and
// the current tools/list of real npm MCP servers.
//
//   npm run build && node bench/s8.mjs BENCH.json [BENCH2.json ...] [--misses]
//   npm run build && node bench/s8.mjs --clean [--capture]
//
// BENCH.json is {"tools": [{"name", "description", "inputSchema", "paradigm", ...}]}. For each paradigm it prints how
// many tools S8 flags at warning or above and at error; --misses lists the tools it does not flag at warning or above.
// Only the definition (name, description, inputSchema, annotations) reaches the scan, never the labels beside it.
//
// --clean runs S8 on every tool and the instructions of every list captured by bench/s8-servers.mjs (--capture
// captures first; lists already there are kept), prints every finding, a table per server and the totals: on
// well-known servers every finding is a false alarm until read and shown otherwise.
//
// Exit 0 when it ran, whatever it found; 2 with one line `bench: ...` when an input is missing or unreadable.
// MCP_LINT_DIST=/path/to/dist measures another build (default: <repo>/dist), e.g. one of HEAD beside a work tree.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { requireBuilt, repo } from "./common.mjs";

const dist = process.env.MCP_LINT_DIST ? resolve(process.env.MCP_LINT_DIST) : join(repo, "dist");
requireBuilt(join(dist, "index.js"));
const { scanInstructionsHiddenText, scanToolHiddenText } = await import(pathToFileURL(join(dist, "index.js")).href);
// Server text reaches the terminal only through the project's one neutralizing function.
const { neutralize } = await import(pathToFileURL(join(dist, "text", "neutralize.js")).href);

const RANK = { info: 1, warning: 2, error: 3 };
const EXCERPT = 100;
const MISS_EXCERPT = 160;

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

function readJson(file) {
  if (!existsSync(file)) fail(`${file} not found`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    fail(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The highest severity among findings (0 when none). */
function worst(findings) {
  return findings.reduce((max, finding) => Math.max(max, RANK[finding.severity] ?? 0), 0);
}

/** One line of server text, inert, cut to `max` characters. */
function excerpt(text, max) {
  const flat = String(text ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return neutralize(flat.length > max ? `${flat.slice(0, max)}...` : flat);
}

function percent(part, whole) {
  return whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Rows of plain text in columns; `align` has one letter per column, "l" or "r". */
function table(rows, align) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const cell = (value, i) => (align[i] === "r" ? String(value).padStart(widths[i]) : String(value).padEnd(widths[i]));
  return rows.map((row) => row.map(cell).join("  ").trimEnd());
}

/** The tool as a client would pass it on: the benchmark's labels (paradigm, category, index) stay out of the scan. */
function definitionOf(tool) {
  const definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  return definition;
}

function benchMode(files, showMisses) {
  for (const file of files) {
    const data = readJson(file);
    if (!Array.isArray(data?.tools)) fail(`${file}: no "tools" array`);
    const byParadigm = new Map();
    const misses = [];
    data.tools.forEach((tool, index) => {
      const paradigm = typeof tool?.paradigm === "string" ? tool.paradigm : "(none)";
      const level = worst(scanToolHiddenText(definitionOf(tool), index));
      const counts = byParadigm.get(paradigm) ?? { count: 0, warning: 0, error: 0 };
      counts.count++;
      if (level >= RANK.warning) counts.warning++;
      if (level >= RANK.error) counts.error++;
      byParadigm.set(paradigm, counts);
      if (level < RANK.warning) misses.push({ tool, paradigm });
    });
    const rows = [["paradigm", "tools", "warning+", "%", "error", "%"]];
    const total = { count: 0, warning: 0, error: 0 };
    for (const [paradigm, c] of [...byParadigm].sort(([a], [b]) => a.localeCompare(b))) {
      rows.push([paradigm, c.count, c.warning, percent(c.warning, c.count), c.error, percent(c.error, c.count)]);
      total.count += c.count;
      total.warning += c.warning;
      total.error += c.error;
    }
    rows.push(["total", total.count, total.warning, percent(total.warning, total.count), total.error, percent(total.error, total.count)]);
    console.log(`${file}: ${data.tools.length} tools`);
    console.log(table(rows, "lrrrrr").join("\n"));
    if (showMisses) {
      console.log(`\nmissed (below warning): ${misses.length}`);
      for (const { tool, paradigm } of misses) {
        console.log(`  ${excerpt(tool?.name, 80)} [${neutralize(paradigm)}] ${excerpt(tool?.description, MISS_EXCERPT)}`);
      }
    }
    console.log("");
  }
}

async function cleanMode(capture) {
  const { LISTS, captureServers, summaryTable } = await import("./s8-servers.mjs");
  if (capture) console.log(`${summaryTable(await captureServers()).join("\n")}\n`);
  const names = existsSync(LISTS)
    ? readdirSync(LISTS)
        .filter((name) => name.endsWith(".json"))
        .sort()
    : [];
  if (names.length === 0) fail(`no captured lists in ${LISTS}; run node bench/s8-servers.mjs (or add --capture)`);
  const perServer = [];
  const lines = [];
  for (const name of names) {
    const list = readJson(join(LISTS, name));
    if (!Array.isArray(list?.tools)) fail(`${join(LISTS, name)}: no "tools" array`);
    const server = `${list.package}@${list.version}`;
    const row = { server, tools: list.tools.length, warnings: 0, errors: 0, instructions: "-" };
    const show = (tool, finding) =>
      lines.push([finding.severity, excerpt(server, 70), excerpt(tool, 50), neutralize(String(finding.args?.kind)), excerpt(finding.args?.text, EXCERPT)]);
    list.tools.forEach((tool, index) => {
      const findings = scanToolHiddenText(tool, index);
      for (const finding of findings) show(finding.tool, finding);
      const level = worst(findings);
      if (level === RANK.warning) row.warnings++;
      if (level === RANK.error) row.errors++;
    });
    const instructionFindings = scanInstructionsHiddenText(list.instructions);
    for (const finding of instructionFindings) show("(instructions)", finding);
    if (instructionFindings.length > 0) row.instructions = instructionFindings.reduce((a, f) => (RANK[f.severity] > RANK[a] ? f.severity : a), "info");
    perServer.push(row);
  }
  console.log(`findings: ${lines.length}`);
  if (lines.length > 0)
    console.log(
      table([["severity", "server", "tool", "kind", "text"], ...lines], "lllll")
        .map((line) => `  ${line}`)
        .join("\n"),
    );
  console.log("");
  const rows = [["server", "tools", "warning", "error", "instructions"]];
  for (const row of perServer) rows.push([excerpt(row.server, 70), row.tools, row.warnings, row.errors, row.instructions]);
  console.log(table(rows, "lrrrl").join("\n"));
  const tools = perServer.reduce((sum, row) => sum + row.tools, 0);
  const flagged = perServer.reduce((sum, row) => sum + row.warnings + row.errors, 0);
  const errors = perServer.reduce((sum, row) => sum + row.errors, 0);
  const per200 = (n) => (tools === 0 ? "-" : ((200 * n) / tools).toFixed(2));
  console.log("");
  console.log(`servers: ${perServer.length}`);
  console.log(`tools: ${tools}`);
  console.log(`tools with a warning or error: ${flagged} (${percent(flagged, tools)}), ${per200(flagged)} per 200 tools`);
  console.log(`tools with an error: ${errors} (${percent(errors, tools)}), ${per200(errors)} per 200 tools`);
  const instructionsFlagged = perServer.filter((row) => row.instructions === "warning" || row.instructions === "error").length;
  console.log(`servers whose instructions have a warning or error: ${instructionsFlagged}`);
}

const argv = process.argv.slice(2);
const flags = argv.filter((arg) => arg.startsWith("--"));
const files = argv.filter((arg) => !arg.startsWith("--"));
const known = new Set(["--clean", "--capture", "--misses"]);
const unknown = flags.find((flag) => !known.has(flag));
if (unknown !== undefined) fail(`unknown option ${unknown}`);
if (flags.includes("--clean")) {
  if (files.length > 0 || flags.includes("--misses")) fail("--clean takes no benchmark file and no --misses");
  await cleanMode(flags.includes("--capture"));
} else {
  if (files.length === 0 || flags.includes("--capture")) fail("usage: node bench/s8.mjs BENCH.json [...] [--misses] | --clean [--capture]");
  benchMode(files, flags.includes("--misses"));
}
