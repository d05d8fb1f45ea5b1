// Servers that write log lines to stdout (issue 37): the SDK clients skip lines that are not
// JSON-RPC messages, so mcp-lint does too, in every command and in the proxy (which never passes
// them on), with one warning that says how many. And a start failure's quoted stderr keeps the
// error line above a long stack, without terminal colours.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectOneLineError, fixture } from "../fixtures/servers/live/harness.js";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

const node = process.execPath;
const noisy = fixture("stdout-noise.mjs");

/** How many noise lines the fixture wrote (it appends one line per noise line to the count file). */
const written = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).length;
const warning = (count: number) =>
  `mcp-lint: warning: skipped ${count} lines the server wrote to stdout that are not JSON-RPC messages, as MCP clients skip them (a stdio server should write its log to stderr)`;

describe("a server that logs to stdout before and between messages", () => {
  it("lock, run and lock --check read it, each with one warning that counts the lines skipped", async () => {
    const dir = tempDir();
    const counts = ["lock", "run", "check"].map((name) => join(dir, `${name}.count`));
    const lock = await runCli(["lock", "--", node, noisy, counts[0] as string], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).toContain("Get the weather forecast for a city.");
    // Banner, JSON log record, and two lines before each of the three answers (the error to the
    // server/discover probe that tells a legacy server, initialize, tools/list).
    expect(written(counts[0] as string)).toBe(8);
    expect(lock.stderr.split("\n").filter((line) => line.startsWith("mcp-lint:"))).toEqual([warning(8)]);

    const run = await runCli(["run", "--", node, noisy, counts[1] as string], { cwd: dir });
    expect(run.code, run.stderr).toBeLessThan(2);
    expect(run.stdout).toContain("get_weather");
    expect(run.stderr).toContain(warning(written(counts[1] as string)));

    const check = await runCli(["lock", "--check", "--", node, noisy, counts[2] as string], { cwd: dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stderr).toContain(warning(written(counts[2] as string)));
  });

  it("the proxy serves its tools and calls, passes no noise to the client, and warns once at the end", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", "--", node, noisy], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const count = join(dir, "proxy.count");
    // The test client frames with the SDK's ReadBuffer, which throws on a line that is not JSON:
    // a noise line passed on would fail the client, not just this assertion.
    const proxied = await connectProxy(["--lock", join(dir, "mcp-lint.lock"), "--", node, noisy, count], { cwd: dir });
    const listed = await proxied.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["get_weather"]);
    const called = await proxied.client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    expect(called.content).toEqual([{ type: "text", text: "Sunny in Oslo." }]);
    expect(await proxied.close()).toBe(0);
    const warnings = proxied
      .stderr()
      .split("\n")
      .filter((line) => line.includes("not JSON-RPC messages"));
    expect(warnings).toEqual([warning(written(count))]);
  });
});

describe("a start failure's stderr", () => {
  it("keeps the error line above a long stack, and drops colour codes", async () => {
    const dir = tempDir();
    const result = await runCli(["lock", "--", node, fixture("fails-with-stack.mjs")], { cwd: dir });
    expect(result.code).toBe(2);
    const line = expectOneLineError(result.stderr);
    expect(line).toContain("Error: SERVER_ENVIRONMENT is not set; set it to your environment's URL");
    expect(line).toContain("Node.js v20.20.0");
    expect(line).not.toMatch(/\[33m|\[39m|\?\[/);
    expect(line.length).toBeLessThan(1400);
  });
});
