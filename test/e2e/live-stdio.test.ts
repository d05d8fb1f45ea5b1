// End to end through the built CLI against the live stdio fixtures in test/fixtures/servers/live/:
// --pass-env, --timeout, stderr on failure, process-tree cleanup, paging bounds, message size.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, runCli, tempDir, writeJson } from "./helpers.js";
import { expectOneLineError, fixture, killMarked, waitForFile, waitUnmarked } from "../fixtures/servers/live/harness.js";

const node = process.execPath;
const changing = fixture("changing.mjs");
const spec = {
  serverInfo: { name: "changing", version: "1.0.0" },
  tools: [
    { name: "read_file", description: "Read a text file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
    { name: "list_dir", description: "List a folder.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
  ],
};

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

// Processes a failing test may leave behind; killed after each test.
// Each process-tree test's folder, which every process of its fixture's tree has in its argv.
const markers: string[] = [];
afterEach(() => {
  killMarked(markers.splice(0));
});

describe("--pass-env", () => {
  it("a variable not passed never reaches the server, even when set in the CLI's environment", async () => {
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    const env = { FIXTURE_VARIANT: "b" };
    const lock = await runCli(["lock", "--", node, changing, tools], { cwd: dir, env });
    expect(lock.code, lock.stderr).toBe(0);
    const text = readFileSync(join(dir, "mcp-lint.lock"), "utf8");
    expect(text).toContain("Read a text file.");
    expect(text).not.toContain("aws");
    const check = await runCli(["lock", "--check", "--", node, changing, tools], { cwd: dir, env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it("a passed variable reaches the server: --check reports description_changed", async () => {
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    expect((await runCli(["lock", "--", node, changing, tools], { cwd: dir })).code).toBe(0);
    const check = await runCli(["lock", "--check", "--json", "report.json", "--pass-env", "FIXTURE_VARIANT", "--", node, changing, tools], {
      cwd: dir,
      env: { FIXTURE_VARIANT: "b" },
    });
    expect(check.code, check.stderr).toBe(1);
    expect(check.stdout).toMatch(/error +description_changed/);
    expect(check.stdout).toContain("~/.aws/credentials");
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.server.transport).toBe("stdio");
    expect(report.changes.filter((change: { kind: string }) => change.kind === "description_changed")).toHaveLength(2);
  });

  it("reports server_changed (info) when the launch command changes", async () => {
    const dir = tempDir();
    const tools = writeJson(dir, "tools.json", spec);
    expect((await runCli(["lock", "--", node, changing, tools], { cwd: dir })).code).toBe(0);
    const lock = JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8"));
    expect(lock.server.command_sha256).toMatch(/^[0-9a-f]{64}$/);
    const moved = join(dir, "moved.json");
    copyFileSync(tools, moved);
    const check = await runCli(["lock", "--check", "--json", "report.json", "--", node, changing, moved], { cwd: dir });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/info +server_changed/);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(report.server.command_sha256).not.toBe(lock.server.command_sha256);
    expect((await runCli(["lock", "--check", "--fail-on", "info", "--", node, changing, moved], { cwd: dir })).code).toBe(1);
  });
});

describe("--timeout", () => {
  for (const name of ["hang.mjs", "hang-list.mjs"]) {
    it(`${name}: exit 2 with one line naming the timeout it was given`, async () => {
      const dir = tempDir();
      const result = await runCli(["lock", "--timeout", "2", "--", node, fixture(name)], { cwd: dir });
      expect(result.code).toBe(2);
      const line = expectOneLineError(result.stderr);
      // The 2 s it was given, not the default: the flag decided when the run stopped.
      expect(line).toMatch(/no answer to [a-z/]+ within 2 s; .*raise --(startup-)?timeout SECONDS/);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    });
  }
});

describe("server stderr", () => {
  it("flood-stderr: one short line, cut, without the secret the server printed", async () => {
    const dir = tempDir();
    const secret = "flood-secret-9f8e7d6c";
    const result = await runCli(["lock", "--timeout", "10", "--pass-env", "FIXTURE_SECRET", "--", node, fixture("flood-stderr.mjs")], {
      cwd: dir,
      env: { FIXTURE_SECRET: secret },
    });
    expect(result.code).toBe(2);
    expectOneLineError(result.stderr);
    expect(result.stderr.length).toBeLessThan(1_000);
    expect(result.stderr).not.toContain(secret);
    expect(result.stdout).not.toContain(secret);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });
});

describe("process tree", () => {
  it("spawns-child: after lock, the server and the child it spawned are gone", async () => {
    const dir = tempDir();
    markers.push(dir);
    const result = await runCli(["lock", "--timeout", "10", "--", node, fixture("spawns-child.mjs"), dir], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "started"))).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).tools)).toEqual(["get_time", "get_weather"]);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("spawns-child-hang with --timeout 1: exit 2, and no orphan survives", async () => {
    const dir = tempDir();
    markers.push(dir);
    const result = await runCli(["lock", "--timeout", "1", "--", node, fixture("spawns-child-hang.mjs"), dir], { cwd: dir });
    expect(existsSync(join(dir, "started"))).toBe(true);
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(/time(d)?[ -]?out/i);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("Ctrl-C (SIGINT) while the server hangs: the CLI exits and no orphan survives", async () => {
    const dir = tempDir();
    markers.push(dir);
    const cli = spawn(node, [cliPath, "lock", "--timeout", "60", "--", node, fixture("spawns-child-hang.mjs"), dir], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    cli.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    cli.stdout.resume();
    const exited = new Promise<number | null>((done) => cli.on("close", (code, signal) => done(code ?? (signal ? 128 : null))));
    try {
      await waitForFile(join(dir, "started"));
      cli.kill("SIGINT");
      const code = await exited;
      expect(code).not.toBe(0);
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(await waitUnmarked(dir)).toEqual([]);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
    } finally {
      if (cli.exitCode === null) cli.kill("SIGKILL");
    }
  });
});

describe("tools/list paging bounds", () => {
  it("paging-loop: a repeated cursor is exit 2, and no lock is written", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "10", "--", node, fixture("paging-loop.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    expect(expectOneLineError(result.stderr)).toMatch(/cursor/i);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });

  it("paging-endless: the 100-page cap is exit 2, and no lock is written", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "10", "--", node, fixture("paging-endless.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/page/i);
    expect(line).toMatch(/\b100\b/);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });

  it("paging-endless: an existing lock is left byte for byte, in lock and --check", async () => {
    const dir = tempDir();
    const from = writeJson(dir, "tools.json", spec);
    expect((await runCli(["lock", "--from", from], { cwd: dir })).code).toBe(0);
    const before = readFileSync(join(dir, "mcp-lint.lock"));
    for (const mode of [[], ["--check"]]) {
      const result = await runCli(["lock", ...mode, "--timeout", "10", "--", node, fixture("paging-endless.mjs")], { cwd: dir });
      expect(result.code).toBe(2);
      expectOneLineError(result.stderr);
      expect(readFileSync(join(dir, "mcp-lint.lock")).equals(before)).toBe(true);
    }
  });
});

describe("message size bound", () => {
  it("huge-output: a 50 MB tools/list message is refused with a size error, exit 2", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--timeout", "20", "--", node, fixture("huge-output.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toMatch(/size|large|bytes|MB|MiB|limit|exceed/i);
    expect(line.length).toBeLessThan(1_000);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });
});
