// The proxy's process lifecycle: the server's whole process group ends when either side goes
// away, a server that dies mid-session ends the proxy with one line, and a known-bad launch is
// refused before anything starts.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killMarked, fixture as liveFixture, waitForFile, waitUnmarked } from "../fixtures/servers/live/harness.js";
import { connectProxy, fixture } from "../fixtures/servers/proxy/harness.js";
import { cliPath, runCli, tempDir } from "./helpers.js";

// Each test's folder, which every process of the fixture's tree has in its argv (inside the
// server's PID namespace its own pids are not the host's).
const markers: string[] = [];
afterEach(() => killMarked(markers.splice(0)));

describe("proxy lifecycle", () => {
  it("ends the server and the child it spawned when the client goes away", async () => {
    const dir = tempDir();
    markers.push(dir);
    const proxied = await connectProxy(["--", process.execPath, liveFixture("spawns-child.mjs"), dir], { cwd: dir });
    expect((await proxied.client.listTools()).tools.length).toBe(2);
    await waitForFile(join(dir, "started"));
    expect(await proxied.close()).toBe(0);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("ends the server and its child when the proxy itself is stopped (SIGTERM)", async () => {
    const dir = tempDir();
    markers.push(dir);
    const proxy = spawn(process.execPath, [cliPath, "proxy", "--", process.execPath, liveFixture("spawns-child.mjs"), dir], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((done) => proxy.once("exit", (code) => done(code)));
    await waitForFile(join(dir, "started"));
    proxy.kill("SIGTERM");
    expect(await exited).toBe(130);
    expect(await waitUnmarked(dir)).toEqual([]);
  });

  it("answers the waiting call and exits 2 with one line when the server dies mid-session", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--", process.execPath, fixture("big.mjs"), dir], { cwd: dir });
    await expect(proxied.client.callTool({ name: "quit", arguments: {} })).rejects.toThrow(/mcp-lint: |Connection closed/);
    expect(await proxied.exited).toBe(2);
    expect(proxied.stderr().trim().split("\n").at(-1)).toBe(
      `mcp-lint: server ${JSON.stringify(process.execPath)} exited with code 4 while the client was connected`,
    );
  });

  it("refuses a known-bad launch before starting anything (exit 1)", async () => {
    const dir = tempDir();
    const result = await runCli(["proxy", "--", "npx", "-y", "postmark-mcp@1.0.16"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^mcp-lint: refusing to launch the server: .*postmark-mcp/);
  });
});
