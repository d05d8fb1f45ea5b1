#!/usr/bin/env node
// The client the conformance suite runs for its auth scenarios (bench/conformance-auth.mjs): the
// suite appends the server's URL and says what the scenario gives the client in
// MCP_CONFORMANCE_CONTEXT (a pre-registered client's ID and secret, a private key). This turns
// that into mcp-lint's own flags, as a user would give them, and runs `mcp-lint lock --url` with a
// BROWSER that follows the login page's redirect and a login store of its own.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = process.env.MCP_LINT_CLI ?? join(repo, "dist", "cli.js");
const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};

const args = [];
const env = { ...process.env };
if (context.client_id !== undefined) args.push("--oauth-client-id", context.client_id);
if (context.client_secret !== undefined) {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  args.push("--oauth-client-secret-env", "CONFORMANCE_CLIENT_SECRET");
}
if (scenario.startsWith("auth/client-credentials")) {
  args.push("--oauth-client-credentials");
  if (context.private_key_pem !== undefined) {
    env.CONFORMANCE_PRIVATE_KEY = context.private_key_pem;
    args.push("--oauth-private-key-env", "CONFORMANCE_PRIVATE_KEY", "--oauth-jwt-alg", context.signing_algorithm ?? "ES256");
  }
}
// The client ID metadata document the scenario's authorization server knows (a user gives their own).
if (scenario === "auth/basic-cimd") args.push("--oauth-client-metadata-url", "https://conformance-test.local/client-metadata.json");

const work = mkdtempSync(join(tmpdir(), "mcp-lint-conformance-auth-"));
env.XDG_CONFIG_HOME = join(work, "config");
env.BROWSER = `${process.execPath} ${join(repo, "test", "fixtures", "browser", "follow.mjs")}`;
const mcpLint = (command) =>
  spawnSync(process.execPath, [cli, ...command, "--url", url, "--startup-timeout", "20", ...args], { env, stdio: "inherit" }).status ?? 1;
let status;
if (scenario === "auth/scope-step-up") {
  // The server asks for more scopes only when a tool is called: list the tools into a fixtures
  // file (logging in), let its probe run, and probe (the call steps up).
  const fixtures = join(work, "fixtures.json");
  status = mcpLint(["init-fixtures", fixtures]);
  if (status === 0) {
    const file = JSON.parse(readFileSync(fixtures, "utf8"));
    for (const probe of file.probes) Object.assign(probe, { skip: false, allow_destructive: true });
    writeFileSync(fixtures, JSON.stringify(file));
    status = mcpLint(["run", "--probe", fixtures, "--fail-on", "never"]);
  }
} else {
  status = mcpLint(["lock", "--lock", join(work, "mcp-lint.lock")]);
}
rmSync(work, { recursive: true, force: true });
process.exit(status);
