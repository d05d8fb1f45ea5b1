#!/usr/bin/env node
// What the real clients send their model for the schema constructs the portability and client
// rules report: the evidence behind those rules' severities (docs/rules/<rule>.md).
//
//   npm run build && node bench/client-constructs.mjs [FIXTURE.json ...]
//
// Each fixture (default: every file in test/fixtures/crosscheck/constructs/) is served by
// test/fixtures/servers/from-file.mjs, and each client of test/clients/node_modules/.bin is run
// against it through crosscheck's own capture (the loopback model endpoint; no network, no model).
// For every tool it prints how many tools each client showed and the tool's parameters as each
// client sent them, so a dropped keyword or a rewritten schema can be read next to the served one.
// Exit status: 0 when it ran, 2 without a build or without the clients.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { repo } from "./common.mjs";

const dist = join(repo, "dist", "crosscheck");
const bins = join(repo, "test", "clients", "node_modules", ".bin");
if (!existsSync(join(dist, "capture.js")) || !existsSync(bins)) {
  console.error("bench: needs `npm run build` and test/clients installed (npm ci --prefix test/clients).");
  process.exit(2);
}
const { captureClient } = await import(pathToFileURL(join(dist, "capture.js")).href);
const { CLIENT_ADAPTERS } = await import(pathToFileURL(join(dist, "clients", "index.js")).href);

const BIN = { "claude-code": "claude", codex: "codex", "gemini-cli": "gemini", inspector: "mcp-inspector" };
const folder = join(repo, "test", "fixtures", "crosscheck", "constructs");
const fixtures =
  process.argv.length > 2
    ? process.argv.slice(2).map((file) => resolve(file))
    : readdirSync(folder)
        .filter((file) => file.endsWith(".json"))
        .sort()
        .map((file) => join(folder, file));
const serverScript = join(repo, "test", "fixtures", "servers", "from-file.mjs");
const SERVER_NAME = "target";

for (const fixture of fixtures) {
  const served = JSON.parse(readFileSync(fixture, "utf8")).tools;
  console.log(`\n## ${fixture.slice(repo.length + 1)}`);
  const server = { kind: "stdio", command: process.execPath, args: [serverScript, fixture], env: {} };
  const rendered = {};
  for (const adapter of CLIENT_ADAPTERS) {
    const bin = join(bins, BIN[adapter.id]);
    const capture = await captureClient(adapter, bin, server, SERVER_NAME, {
      timeoutMs: 120_000,
      pidNamespace: true,
      redact: (text) => text,
      warn: () => {},
      learnSecret: () => {},
    });
    if (capture.status === "failed") {
      console.log(`${adapter.id}: failed: ${capture.reason}`);
      continue;
    }
    const names = served.map((tool) => tool.name);
    const byServedName = new Map();
    for (const tool of capture.tools) {
      const name = adapter.serverToolName(tool.name, SERVER_NAME, names);
      if (name !== null) byServedName.set(name, tool);
    }
    rendered[adapter.id] = byServedName;
    console.log(`${adapter.id} ${capture.version ?? "?"}: ${byServedName.size} of ${served.length} tools shown`);
  }
  for (const tool of served) {
    console.log(`- ${tool.name} served:    ${JSON.stringify(tool.inputSchema)}`);
    for (const [client, tools] of Object.entries(rendered)) {
      const shown = tools.get(tool.name);
      const schema = shown === undefined ? "(not shown)" : JSON.stringify(shown.inputSchema);
      console.log(`  ${client.padEnd(11)} ${schema === JSON.stringify(tool.inputSchema) ? "(as served)" : schema}`);
    }
  }
}
