#!/usr/bin/env node
// A stdio MCP server published to the local test registry as a package's bin. It speaks newline-delimited
// JSON-RPC itself (the registry holds only fixtures, so no SDK) and tells which dependency versions it runs.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const manifest = require("./package.json");

const tools = [
  {
    name: "echo",
    description: "Returns the text it is given.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "dependency_versions",
    description: "Names each dependency with the version this server runs with, one per line.",
    inputSchema: { type: "object", properties: {} },
  },
];

// Resolved from the installed tree at call time, so a test sees which version npm put beside the server.
function dependencyVersions() {
  return Object.keys(manifest.dependencies ?? {})
    .map((name) => `${name}@${require(`${name}/package.json`).version}`)
    .join("\n");
}

function callTool(params) {
  if (params?.name === "echo") return { content: [{ type: "text", text: String(params.arguments?.text ?? "") }] };
  if (params?.name === "dependency_versions") return { content: [{ type: "text", text: dependencyVersions() }] };
  return { content: [{ type: "text", text: `unknown tool ${params?.name}` }], isError: true };
}

function result(method, params) {
  if (method === "initialize") {
    const protocolVersion = typeof params?.protocolVersion === "string" ? params.protocolVersion : "2025-06-18";
    return { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: manifest.name, version: manifest.version } };
  }
  if (method === "ping") return {};
  if (method === "tools/list") return { tools };
  if (method === "tools/call") return callTool(params);
  return undefined;
}

function send(message) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    send({ id: null, error: { code: -32700, message: "Parse error" } });
    return;
  }
  // Notifications (no id) need no answer.
  if (message.id === undefined) return;
  const answer = result(message.method, message.params);
  if (answer === undefined) send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  else send({ id: message.id, result: answer });
});
