#!/usr/bin/env node
// The linter's figures over a folder of saved tools/list captures: per server the tools, tokens,
// score and findings; over all of them the findings per rule, severity and reason, and the grades.
//
//   npm run build && node bench/lint-servers.mjs DIR [--json OUT] [--against OLD.json]
//
// DIR holds one JSON file per server with a `tools` array (and optionally `instructions`), as
// `check` reads them. The lists are read where they are, never copied. `--json OUT` writes the
// figures as JSON; `--against OLD.json` (an earlier `--json` output, for example from the build
// before a change) prints what moved, server by server and rule by rule.
//
// MCP_LINT_LIB=/path/to/lint/index.js overrides the library (default: <repo>/dist/lint/index.js).
// Exit status: 0 when it ran, 2 on a usage error or a missing build.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { repo } from "./common.mjs";

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const dir = process.argv[2];
if (dir === undefined || dir.startsWith("--") || !existsSync(dir)) {
  console.error("usage: node bench/lint-servers.mjs DIR [--json OUT] [--against OLD.json]");
  process.exit(2);
}
const lib = resolve(process.env.MCP_LINT_LIB ?? join(repo, "dist", "lint", "index.js"));
if (!existsSync(lib)) {
  console.error(`bench: ${lib} not found. Run \`npm run build\` first.`);
  process.exit(2);
}
const { lintServer } = await import(pathToFileURL(lib).href);

const files = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .sort();
const servers = [];
for (const file of files) {
  const doc = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const result = lintServer({ tools: Array.isArray(doc.tools) ? doc.tools : [], instructions: doc.instructions ?? null });
  const rules = {};
  for (const finding of result.findings) {
    const key = `${finding.rule} ${finding.severity}${finding.args.reason === undefined ? "" : ` ${finding.args.reason}`}`;
    rules[key] = (rules[key] ?? 0) + 1;
  }
  servers.push({
    server: basename(file, ".json"),
    tools: result.tools,
    tokens: result.tokens.total,
    score: result.score.server,
    grade: result.score.grade,
    wasted: result.score.wasted,
    errors: result.counts.error,
    warnings: result.counts.warning,
    info: result.counts.info,
    clean: result.counts.cleanTools,
    rules,
  });
}

function totals(list) {
  const rules = {};
  const grades = { A: 0, B: 0, C: 0, D: 0, F: 0 };
  let exit1 = 0;
  let cleanUnderF = 0;
  for (const row of list) {
    grades[row.grade]++;
    if (row.errors > 0) exit1++;
    if (row.tools > 0 && row.clean === row.tools && row.grade === "F") cleanUnderF++;
    for (const [key, count] of Object.entries(row.rules)) rules[key] = (rules[key] ?? 0) + count;
  }
  return { servers: list.length, grades, exit1, cleanUnderF, rules };
}
const summary = totals(servers);

const pad = (value, width) => String(value).padStart(width);
const out = [];
out.push(`${servers.length} servers from ${dir}`, "");
out.push(`${"server".padEnd(52)} ${pad("tools", 5)} ${pad("tokens", 7)} ${pad("score", 8)} ${pad("err", 4)} ${pad("warn", 5)} ${pad("info", 5)} clean`);
for (const row of servers) {
  out.push(
    `${row.server.slice(0, 52).padEnd(52)} ${pad(row.tools, 5)} ${pad(row.tokens, 7)} ${pad(`${row.score} ${row.grade}`, 8)} ${pad(row.errors, 4)} ${pad(row.warnings, 5)} ${pad(row.info, 5)} ${row.clean}/${row.tools}`,
  );
}
out.push("", "Findings per rule, severity and reason:");
for (const [key, count] of Object.entries(summary.rules).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)))
  out.push(`  ${key.padEnd(44)} ${pad(count, 6)}`);
out.push(
  "",
  `Grades: ${Object.entries(summary.grades)
    .map(([letter, count]) => `${letter} ${count}`)
    .join(", ")}`,
);
out.push(`Servers with an error finding (check exits 1): ${summary.exit1}`);
out.push(`Servers with every tool clean and an F: ${summary.cleanUnderF}`);

const againstFile = option("--against");
if (againstFile !== undefined) {
  const old = JSON.parse(readFileSync(againstFile, "utf8"));
  const before = new Map(old.servers.map((row) => [row.server, row]));
  out.push("", `Against ${againstFile} (before -> after):`);
  for (const row of servers) {
    const was = before.get(row.server);
    if (was === undefined) continue;
    const moved = ["score", "grade", "tokens", "errors", "warnings", "info", "clean"].filter((key) => was[key] !== row[key]);
    if (moved.length === 0) continue;
    out.push(`  ${row.server}: ${moved.map((key) => `${key} ${was[key]} -> ${row[key]}`).join(", ")}`);
  }
  out.push("", "Findings per rule, severity and reason (before -> after):");
  const keys = [...new Set([...Object.keys(old.summary.rules), ...Object.keys(summary.rules)])].sort();
  for (const key of keys) {
    const a = old.summary.rules[key] ?? 0;
    const b = summary.rules[key] ?? 0;
    out.push(`  ${key.padEnd(44)} ${pad(a, 6)} -> ${pad(b, 6)}${a === b ? "" : "  *"}`);
  }
  const grades = (g) =>
    Object.entries(g)
      .map(([letter, count]) => `${letter} ${count}`)
      .join(", ");
  out.push("", `Grades: ${grades(old.summary.grades)} -> ${grades(summary.grades)}`);
  out.push(`Servers with an error finding: ${old.summary.exit1} -> ${summary.exit1}`);
  out.push(`Servers with every tool clean and an F: ${old.summary.cleanUnderF} -> ${summary.cleanUnderF}`);
}
console.log(out.join("\n"));

const jsonOut = option("--json");
if (jsonOut !== undefined) writeFileSync(jsonOut, `${JSON.stringify({ servers, summary }, null, 2)}\n`);
