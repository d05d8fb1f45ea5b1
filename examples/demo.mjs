#!/usr/bin/env node
// mcp-lint demo: lock a server, check it, then catch a rug pull.
//
//   npm run build && node examples/demo.mjs [--keep]
//
// Works in a fresh temporary directory (removed at the end unless --keep is given)
// and runs the built CLI three times against examples/demo-server.mjs:
//   1. `mcp-lint lock -- node demo-server.mjs`             records mcp-lint.lock      (expect exit 0)
//   2. `mcp-lint lock --check -- node demo-server.mjs`     same server, no changes    (expect exit 0)
//   3. the same check with MCP_LINT_DEMO_RUGPULL=1 given to the server, which now
//      hides an instruction in a description, adds a required parameter and
//      claims a write tool is read-only                                          (expect exit 1)
// mcp-lint starts the server with a minimal environment, so step 3 passes the
// variable through with `--pass-env MCP_LINT_DEMO_RUGPULL`.
//
// Exit status: 0 when every step exited as expected, 1 otherwise, 2 if the CLI is not built.
// MCP_LINT_CLI=/path/to/cli.js overrides the CLI used (default: <repo>/dist/cli.js).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cli = process.env.MCP_LINT_CLI ? resolve(process.env.MCP_LINT_CLI) : join(repo, "dist", "cli.js");
const demoServer = join(repo, "examples", "demo-server.mjs");
const keep = process.argv.includes("--keep");

if (!existsSync(cli)) {
  console.error(`mcp-lint demo: ${cli} not found. Run \`npm run build\` first (or \`npm run demo\`).`);
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), "mcp-lint-demo-"));
const serverCommand = ["--", process.execPath, demoServer];

function heading(text) {
  const line = "─".repeat(Math.max(8, text.length + 4));
  console.log(`\n${line}\n  ${text}\n${line}`);
}

/** Runs the CLI in the work dir with the given extra env, echoing the command and its exit code. */
function run(args, extraEnv = {}) {
  const shown = args.map((a) => (a === process.execPath ? "node" : a === demoServer ? "demo-server.mjs" : a));
  const envShown = Object.entries(extraEnv).map(([k, v]) => `${k}=${v} `).join("");
  console.log(`$ ${envShown}mcp-lint ${shown.join(" ")}\n`);
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: work,
    stdio: "inherit",
    env: { ...process.env, ...extraEnv },
  });
  if (result.error) throw result.error;
  const code = result.status ?? 2;
  console.log(`\n[exit ${code}${result.signal ? `, signal ${result.signal}` : ""}]`);
  return code;
}

const outcomes = [];
function expect(step, code, wanted) {
  outcomes.push({ step, code, wanted, ok: code === wanted });
}

try {
  heading("1. Lock the demo server");
  expect("lock", run(["lock", ...serverCommand]), 0);
  const lockPath = join(work, "mcp-lint.lock");
  if (existsSync(lockPath)) {
    const size = readFileSync(lockPath).length;
    console.log(`wrote ${lockPath} (${size} bytes)`);
  }

  heading("2. Check the unchanged server against the lock");
  expect("check (clean)", run(["lock", "--check", ...serverCommand]), 0);

  heading("3. The server changes under us (MCP_LINT_DEMO_RUGPULL=1): check again");
  expect(
    "check (rug pull)",
    run(["lock", "--check", "--pass-env", "MCP_LINT_DEMO_RUGPULL", ...serverCommand], {
      MCP_LINT_DEMO_RUGPULL: "1",
    }),
    1,
  );
} finally {
  if (keep) console.log(`\n(kept ${work})`);
  else rmSync(work, { recursive: true, force: true });
}

heading("Summary");
for (const o of outcomes) {
  console.log(`${o.ok ? "ok  " : "FAIL"}  ${o.step.padEnd(18)} exit ${o.code} (expected ${o.wanted})`);
}
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
