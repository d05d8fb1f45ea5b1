// check-config and the known-bad refusal through the built CLI.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.js";

const config = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });

describe("mcp-lint check-config (built CLI)", () => {
  it("exits 1 on an unpinned server, writes the JSON report and never prints env values", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "claude_desktop_config.json"),
      config({
        files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], env: { API_KEY: "sk-live-SECRETVALUE123" } },
        pinned: { command: "npx", args: ["-y", "some-server@1.2.3"] },
      }),
    );
    const result = await runCli(["check-config", "claude_desktop_config.json", "--json", "i1.json"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/warning +I1 unpinned/);
    const report = JSON.parse(readFileSync(join(dir, "i1.json"), "utf8"));
    const files = report.servers.find((server: { name: string }) => server.name === "files");
    expect(files.findings[0]).toMatchObject({ rule: "I1", kind: "unpinned", severity: "warning" });
    expect(report.servers.find((server: { name: string }) => server.name === "pinned").findings).toEqual([]);
    expect(result.stdout + result.stderr + readFileSync(join(dir, "i1.json"), "utf8")).not.toContain("SECRETVALUE");
    expect((await runCli(["check-config", "claude_desktop_config.json", "--fail-on", "error"], { cwd: dir })).code).toBe(0);
  });

  it("a missing file is one line on stderr and exit 2", async () => {
    const result = await runCli(["check-config", "nope.json"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^mcp-lint: .*nope\.json/);
  });
});

describe("known-bad launches are refused before anything starts", () => {
  it("lock refuses npx postmark-mcp@1.0.16 without running the command", async () => {
    const dir = tempDir();
    // If the command ran, this marker would appear: the wrapper is a shell that creates it.
    const marker = join(dir, "ran");
    const result = await runCli(["lock", "--", "sh", "-c", `touch ${marker}; npx -y postmark-mcp@1.0.16`], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to launch the server: .*postmark-mcp@1\.0\.16.*known-bad/);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });

  it("lock --check refuses a known-bad PyPI release and --known-bad adds entries", async () => {
    const dir = tempDir();
    expect((await runCli(["lock", "--check", "--", "uvx", "LiteLLM==1.82.8"], { cwd: dir })).code).toBe(1);
    writeFileSync(
      join(dir, "bad.json"),
      JSON.stringify({ version: 1, entries: [{ ecosystem: "npm", name: "evil-mcp", versions: ["2.0.0"], date: "2026-11-01", source: "internal advisory" }] }),
    );
    const result = await runCli(["lock", "--known-bad", "bad.json", "--", "npx", "-y", "evil-mcp@2.0.0"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("evil-mcp@2.0.0");
  });
});
