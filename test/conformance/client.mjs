#!/usr/bin/env node
// The client command the conformance suite runs for a client scenario (test/conformance/run.mjs).
// The suite appends the scenario server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO,
// with what the scenario gives a client (a pre-registered client's ID and secret, a private key)
// in MCP_CONFORMANCE_CONTEXT. The first argument picks the column:
//
//   node client.mjs direct URL   mcp-lint itself is the client, with the scenario's login flags:
//                                `run` (read and lint), or where the scenario judges tool calls,
//                                `init-fixtures` then `run --probe` with every probe on.
//   node client.mjs proxy URL    the SDK v2 client over stdio to `mcp-lint proxy --url URL` (fixes
//                                off, so it forwards): it lists the tools the proxy serves and calls
//                                each (with the arguments a scenario asks for), and answers
//                                elicitation with the form's defaults; at 2026-07-28 it speaks
//                                that revision to the proxy.
//
// Each run has a login store of its own (XDG_CONFIG_HOME) and a BROWSER that follows the login
// page's redirect, as a user clicking "allow" would. Exit 0 when the session ran to its end.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = process.env.MCP_LINT_CLI ?? join(repo, "dist", "cli.js");
const [column] = process.argv.slice(2);
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
/** The revision the row is run at (run.mjs): at 2026-07-28 the proxy's client speaks that revision to the proxy too. */
const revision = process.env.MCP_LINT_CONFORMANCE_REVISION ?? "";

/** The focal tool and the echo tool of json-schema-2020-12-preservation. */
const FOCAL_TOOL = "json_schema_2020_12_tool";
const ECHO_TOOL = "json_schema_echo";
/** The scenarios whose checks look at tool calls (the others judge the handshake, the login and the listing). */
const CALLS_TOOLS = new Set([
  "tools_call",
  "elicitation-sep1034-client-defaults",
  "sse-retry",
  "sep-2322-client-request-state",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-2020-12-preservation",
  "auth/scope-step-up",
]);
/** The client ID metadata document the auth/basic-cimd scenario's authorization server knows (a user gives their own). */
const CIMD_URL = "https://conformance-test.local/client-metadata.json";

const work = mkdtempSync(join(tmpdir(), "mcp-lint-conformance-"));
const env = { ...process.env, XDG_CONFIG_HOME: join(work, "config"), BROWSER: `${process.execPath} ${join(repo, "test/fixtures/browser/follow.mjs")}` };

/** mcp-lint's login flags for what the scenario gives, secrets passed by environment variable. */
function loginFlags() {
  const flags = [];
  if (context.client_id !== undefined) flags.push("--oauth-client-id", context.client_id);
  if (context.client_secret !== undefined) {
    env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
    flags.push("--oauth-client-secret-env", "CONFORMANCE_CLIENT_SECRET");
  }
  if (scenario.startsWith("auth/client-credentials")) {
    flags.push("--oauth-client-credentials");
    if (context.private_key_pem !== undefined) {
      env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
      flags.push("--oauth-private-key-env", "CONFORMANCE_PRIVATE_KEY", "--oauth-jwt-alg", context.signing_algorithm ?? "ES256");
    }
  }
  if (scenario === "auth/basic-cimd") flags.push("--oauth-client-metadata-url", CIMD_URL);
  return flags;
}
const remote = ["--url", url, "--startup-timeout", "20", ...loginFlags()];

function mcpLint(command) {
  return spawnSync(process.execPath, [cli, ...command, ...remote], { env, stdio: "inherit" }).status ?? 1;
}

/** mcp-lint as the client: `run` (it reads and lints); where the scenario judges tool calls, with every tool probed. */
function direct() {
  if (!CALLS_TOOLS.has(scenario)) return mcpLint(["run", "--fail-on", "never"]);
  const fixtures = join(work, "fixtures.json");
  let status = mcpLint(["init-fixtures", fixtures]);
  if (status !== 0) return status;
  const file = JSON.parse(readFileSync(fixtures, "utf8"));
  for (const probe of file.probes) Object.assign(probe, { skip: false, allow_destructive: true });
  // The arguments a scenario asks a client to call with, as a user would write them into the fixtures.
  // A null is left out: the gate holds back arguments the tool's schema refuses, and an argument not
  // given is the same case for what the scenario checks (no header for it).
  for (const call of Array.isArray(context.toolCalls) ? context.toolCalls : []) {
    const probe = file.probes.find((candidate) => candidate.tool === call.name);
    if (probe !== undefined) probe.args = Object.fromEntries(Object.entries(call.arguments ?? {}).filter(([, value]) => value !== null));
  }
  const echo = file.probes.find((probe) => probe.tool === ECHO_TOOL);
  if (echo !== undefined) {
    // What mcp-lint keeps of a schema is its lock: echo the focal tool's input schema as locked.
    const lock = join(work, "mcp-lint.lock");
    status = mcpLint(["lock", "--lock", lock]);
    if (status !== 0) return status;
    echo.args = { schema: JSON.parse(readFileSync(lock, "utf8")).tools[FOCAL_TOOL].definition.inputSchema };
  }
  writeFileSync(fixtures, JSON.stringify(file));
  return mcpLint(["run", "--probe", fixtures, "--fail-on", "never"]);
}

/** A value of the schema's type, for a required argument (a tool's own checks decide the rest). */
function placeholder(schema) {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (schema?.default !== undefined) return schema.default;
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return argumentsFor(schema);
    default:
      return "conformance";
  }
}

function argumentsFor(schema) {
  const args = {};
  for (const name of Array.isArray(schema?.required) ? schema.required : []) args[name] = placeholder(schema.properties?.[name]);
  return args;
}

/** The SDK v2 client through `mcp-lint proxy`: list the tools it serves and call each. */
async function proxied() {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "proxy", "--no-paging", "--no-errors", ...remote],
    env,
    stderr: "inherit",
  });
  const client = new Client(
    { name: "conformance-through-mcp-lint-proxy", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: { applyDefaults: true } } },
      // The SDK speaks 2025 unless asked; at 2026-07-28 it negotiates, so the proxy serves it in that revision.
      ...(revision.startsWith("2026") ? { versionNegotiation: { mode: "auto" } } : {}),
    },
  );
  // An accepted form with no content: the SDK fills in the defaults the request's schema gives.
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: {} }));
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const focal = tools.find((tool) => tool.name === FOCAL_TOOL);
    // The calls a scenario asks for, as given (nulls included: the proxy must send no header for them); placeholders otherwise.
    const asked = Array.isArray(context.toolCalls) ? context.toolCalls : [];
    for (const tool of tools) {
      const given = asked.filter((call) => call.name === tool.name).map((call) => call.arguments ?? {});
      const argsList =
        given.length > 0 ? given : [tool.name === ECHO_TOOL && focal !== undefined ? { schema: focal.inputSchema } : argumentsFor(tool.inputSchema)];
      for (const args of argsList) {
        try {
          await client.callTool({ name: tool.name, arguments: args });
        } catch (error) {
          // One refused call ends nothing: the scenario's checks judge what reached the server.
          process.stderr.write(`tools/call ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
    }
  } finally {
    await client.close();
  }
  return 0;
}

let status;
try {
  if (column === "direct") status = direct();
  else if (column === "proxy") status = await proxied();
  else throw new Error(`unknown column ${column}; give direct or proxy`);
} catch (error) {
  process.stderr.write(`client.mjs: ${error instanceof Error ? error.message : String(error)}\n`);
  status = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
