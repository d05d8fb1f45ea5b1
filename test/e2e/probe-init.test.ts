// End to end: `init-fixtures` writes a starter fixtures file from a live server (stdio or HTTP), refuses
// to overwrite or to write through a link, and the file it writes runs (every probe skipped).
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { calls, type HttpProbeServer, probeLaunch, readCallLog, startHttpProbeServer } from "../fixtures/servers/probe/harness.js";
import { cliPath, runCli, tempDir } from "./helpers.js";

let http: HttpProbeServer | null = null;
beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});
afterEach(() => {
  http?.stop();
  http = null;
});

describe("mcp-lint init-fixtures", () => {
  it("writes one skipped probe per tool with placeholders, and the file runs without calling anything", async () => {
    const dir = tempDir();
    const result = await runCli(["init-fixtures", "fixtures.json", "--", ...probeLaunch], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Wrote 18 probes to fixtures.json, each "skip": true; 3 tools are not marked read-only and also need "allow_destructive": true (sandbox only).',
    );
    const text = readFileSync(join(dir, "fixtures.json"), "utf8");
    const file = JSON.parse(text) as { version: number; probes: Record<string, unknown>[] };
    expect(file.version).toBe(1);
    expect(file.probes[0]).toEqual({ tool: "read_big_file", args: { path: "<path>" }, skip: true });
    expect(file.probes.find((probe) => probe.tool === "append_note")).toEqual({
      tool: "append_note",
      args: { record_id: "<record_id>", note: "<note>" },
      allow_destructive: false,
      skip: true,
    });
    expect(text.split("\n")[3]).toBe('    {"tool": "read_big_file", "args": {"path": "<path>"}, "skip": true},');

    const callLog = join(dir, "calls.log");
    const run = await runCli(["run", "--probe", "fixtures.json", "--pass-env", "PROBE_CALL_LOG", "--fail-on", "never", "--", ...probeLaunch], {
      cwd: dir,
      env: { PROBE_CALL_LOG: callLog },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("0 called, 0 blocked, 18 skipped");
    expect(calls(readCallLog(callLog))).toEqual([]);
  });

  it("refuses to overwrite a file (exit 1) unless --force, and never writes through a symbolic link", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "fixtures.json"), "mine\n");
    const refused = await runCli(["init-fixtures", "fixtures.json", "--", ...probeLaunch], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("mcp-lint: refusing to overwrite fixtures.json: it exists; edit it, or add --force to replace it with a new starter file\n");
    expect(readFileSync(join(dir, "fixtures.json"), "utf8")).toBe("mine\n");

    const forced = await runCli(["init-fixtures", "fixtures.json", "--force", "--", ...probeLaunch], { cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "fixtures.json"), "utf8")).probes).toHaveLength(18);

    writeFileSync(join(dir, "target.txt"), "keep\n");
    symlinkSync(join(dir, "target.txt"), join(dir, "link.json"));
    const linked = await runCli(["init-fixtures", "link.json", "--force", "--", ...probeLaunch], { cwd: dir });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/^mcp-lint: refusing to write link\.json: it is a symbolic link/);
    expect(readFileSync(join(dir, "target.txt"), "utf8")).toBe("keep\n");
  });

  it("reads a remote server with --url", async () => {
    http = await startHttpProbeServer();
    const dir = tempDir();
    const result = await runCli(["init-fixtures", "remote.json", "--url", http.url], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "remote.json"), "utf8")).probes).toHaveLength(18);
  });

  it("needs a server", async () => {
    const result = await runCli(["init-fixtures", "f.json"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^mcp-lint: nothing to read: give a server command after -- \(mcp-lint init-fixtures fixtures\.json -- npx -y some-server\) or --url URL\n$/,
    );
  });
});
