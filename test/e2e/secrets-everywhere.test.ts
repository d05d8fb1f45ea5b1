// Issue 20: a secret a server echoes back, in any encoding and in any field (tools, prompts,
// resources, templates, instructions, serverInfo, stderr, tool results), never reaches a file or a
// stream mcp-lint writes: lock files of both formats (a write that would store one is refused,
// naming where), reports (terminal, JSON, SARIF), stderr including the server's own, --audit,
// probe output, wrap's diff and the Action's files. The secret comes from every source there is:
// --pass-env, a config's env, and a config placeholder in args.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";
import { runAction } from "./action-harness.js";
import { repo, runCli, tempDir } from "./helpers.js";

const SECRET = "sk-live-Zq8mB2xR7tW4nY6pL1vC9dF3";
const fixture = join(repo, "test/fixtures/servers/echo-secret.mjs");
const server = [process.execPath, fixture];

/** The secret as the fixture encodes it, computed here on its own; and every 12 characters of it. */
function forms(): string[] {
  const bytes = Buffer.from(SECRET, "utf8");
  const shifted = Buffer.concat([Buffer.from("x"), bytes]).toString("base64");
  const list = [
    SECRET,
    bytes.toString("base64"),
    bytes.toString("base64").replace(/=+$/, ""),
    bytes.toString("base64url"),
    shifted.slice(4, -4),
    bytes.toString("hex"),
    bytes.toString("hex").toUpperCase(),
    encodeURIComponent(SECRET),
  ];
  for (let at = 0; at + 12 <= SECRET.length; at += 3) list.push(SECRET.slice(at, at + 12));
  return list;
}

function expectNoSecret(text: string, where: string): void {
  for (const form of forms()) expect(text.includes(form), `${where} holds ${form.length} characters of a form of the secret`).toBe(false);
}

/** Every file in `dir` mcp-lint may have written, by name. */
function written(dir: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((name) => existsSync(join(dir, name))).map((name) => [name, readFileSync(join(dir, name), "utf8")]));
}

const env = { ECHO_SECRET: SECRET, TOKEN: SECRET };

describe("an echoed secret never leaves mcp-lint", () => {
  it("lock (v1 and v2) refuses to write, exit 2, naming where the secret was and never the value", async () => {
    const dir = tempDir();
    const v1 = await runCli(["lock", "--pass-env", "ECHO_SECRET", "--json", "r.json", "--", ...server], { cwd: dir, env });
    expect(v1.code).toBe(2);
    expect(v1.stderr).toMatch(/refusing to write mcp-lint\.lock: a server echoed back a secret .* in tool "lookup" at \/\w+/);
    const v2 = await runCli(["lock", "--server", "echo", "--pass-env", "ECHO_SECRET", "--", ...server], { cwd: dir, env });
    expect(v2.code).toBe(2);
    // The v2 lock reads prompts, resources and templates too; with them clean it would still refuse.
    expect(v2.stderr).toContain("refusing to write");
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    for (const [name, text] of Object.entries({ ...written(dir, ["r.json"]), v1: v1.stdout + v1.stderr, v2: v2.stdout + v2.stderr }))
      expectNoSecret(text, name);
  });

  it("lock --config: a secret from the entry's env, and one from a ${VAR} in its args, are refused alike", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          byenv: { command: process.execPath, args: [fixture], env: { ECHO_SECRET: "${TOKEN}" } },
          byargs: { command: process.execPath, args: [fixture, "--token=${TOKEN}"] },
        },
      }),
    );
    for (const name of ["byenv", "byargs"]) {
      const result = await runCli(["lock", "--config", "mcp.json", "--server", name, "--lock", `${name}.lock`, "--json", `${name}.json`], { cwd: dir, env });
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`server "${name}": tool "lookup" at /`);
      expect(existsSync(join(dir, `${name}.lock`))).toBe(false);
      for (const [file, text] of Object.entries({ ...written(dir, [`${name}.json`]), output: result.stdout + result.stderr }))
        expectNoSecret(text, `${name} ${file}`);
    }
  });

  it("lock --check, run and run --probe: stdout, stderr, JSON and SARIF show [redacted]", async () => {
    const dir = tempDir();
    // Locked while the secret is empty, so the check has changes to report.
    const locked = await runCli(["lock", "--pass-env", "ECHO_SECRET", "--", ...server], { cwd: dir, env: { ECHO_SECRET: "" } });
    expect(locked.code, locked.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--pass-env", "ECHO_SECRET", "--json", "c.json", "--sarif", "c.sarif", "--", ...server], { cwd: dir, env });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("[redacted]");
    const run = await runCli(["run", "--pass-env", "ECHO_SECRET", "--json", "l.json", "--sarif", "l.sarif", "--", ...server], { cwd: dir, env });
    writeFileSync(join(dir, "probes.json"), JSON.stringify({ version: 1, probes: [{ tool: "lookup", args: {} }] }));
    const probe = await runCli(["run", "--probe", "probes.json", "--include-responses", "--pass-env", "ECHO_SECRET", "--json", "p.json", "--", ...server], {
      cwd: dir,
      env,
    });
    expect(probe.stdout).toContain("Probes");
    const files = written(dir, ["c.json", "c.sarif", "l.json", "l.sarif", "p.json", "mcp-lint.lock"]);
    expect(Object.keys(files)).toHaveLength(6);
    for (const [name, text] of Object.entries({
      ...files,
      check: check.stdout + check.stderr,
      run: run.stdout + run.stderr,
      probe: probe.stdout + probe.stderr,
    })) {
      expectNoSecret(text, name);
    }
  });

  it("proxy: the server's stderr (split over lines, past a long line's cut) and --audit hold no form of the secret", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--pass-env", "ECHO_SECRET", "--audit", join(dir, "audit.jsonl"), "--", ...server], { cwd: dir, env });
    await proxied.client.callTool({ name: "lookup", arguments: {} });
    expect(await proxied.close()).toBe(0);
    const stderr = proxied.stderr();
    expect(stderr).toContain("as the key");
    expect(stderr).toContain("[redacted]");
    expectNoSecret(stderr, "proxy stderr");
    if (existsSync(join(dir, "audit.jsonl"))) expectNoSecret(readFileSync(join(dir, "audit.jsonl"), "utf8"), "audit");
  });

  it("the Action: log, summary and reports", () => {
    const workspace = tempDir();
    const command = `node "${fixture}"`;
    writeFileSync(join(workspace, "mcp-lint.lock"), readFileSync(join(lockedFor(workspace), "mcp-lint.lock"), "utf8"));
    const result = runAction({ command, "pass-env": "ECHO_SECRET", json: "report.json", sarif: "report.sarif" }, { ECHO_SECRET: SECRET }, workspace);
    expect(result.status, result.stdout).toBe(1);
    for (const [name, text] of Object.entries({ log: result.stdout, summary: result.summary, ...written(workspace, ["report.json", "report.sarif"]) })) {
      expectNoSecret(text, name);
    }
  });
});

/** A folder with a lock of the fixture, made while the secret was empty. */
function lockedFor(workspace: string): string {
  const dir = `${workspace}-lock`;
  mkdirSync(dir);
  const result = spawnSync(process.execPath, [join(repo, "dist/cli.js"), "lock", "--pass-env", "ECHO_SECRET", "--", ...server], {
    cwd: dir,
    env: { ...process.env, ECHO_SECRET: "" },
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return dir;
}
