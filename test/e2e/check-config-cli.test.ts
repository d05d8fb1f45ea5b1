// check-config and the known-bad refusal through the built CLI.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sarifErrors } from "../fixtures/sarif/validate.js";
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

  it("--sarif writes SARIF 2.1.0 with each finding at its config file and entry line", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, ".mcp.json"),
      `{\n  "mcpServers": {\n    "pinned": { "command": "npx", "args": ["-y", "some-server@1.2.3"] },\n    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"] }\n  }\n}\n`,
    );
    const result = await runCli(["check-config", ".mcp.json", "--sarif", "i1.sarif"], { cwd: dir });
    expect(result.code).toBe(1);
    const log = JSON.parse(readFileSync(join(dir, "i1.sarif"), "utf8"));
    expect(sarifErrors(log)).toBeNull();
    const results = log.runs[0].results as Array<{
      ruleId: string;
      level: string;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }>;
    }>;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ruleId: "I1/unpinned", level: "warning" });
    expect(results[0]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe(".mcp.json");
    expect(results[0]?.locations[0]?.physicalLocation.region?.startLine).toBe(4);
  });

  it("a malformed file named on the command line is reported, the others are still checked, then one line and exit 2", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "broken.json"), '{\n  "mcpServers": {\n    "a": { "command": "npx" "args": ["SECRET-token-in-file"] }\n  }\n}\n');
    writeFileSync(join(dir, "good.json"), config({ files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem"] } }));
    const result = await runCli(["check-config", "broken.json", "good.json", "--json", "i1.json"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("broken.json  could not be read: invalid JSON at line 3 column 29: expected a comma");
    expect(result.stdout).toMatch(/good\.json {2}\(mcpServers file, 1 server\)\n {2}files\n {4}warning +I1 unpinned/);
    expect(result.stderr.trim().split("\n")).toEqual(["mcp-lint: broken.json: invalid JSON at line 3 column 29: expected a comma"]);
    expect(result.stdout + result.stderr).not.toContain("SECRET");
    const report = JSON.parse(readFileSync(join(dir, "i1.json"), "utf8"));
    expect(report.format_version).toBe(1);
    expect(report.servers.map((server: { name: string; line: number }) => [server.name, server.line])).toEqual([["files", 1]]);
    expect(report.unreadable_files).toEqual([{ file: "broken.json", reason: "invalid JSON at line 3 column 29: expected a comma", named: true }]);
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
    // lock --check needs a lock to exist before it gets as far as the launch.
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [] }));
    expect((await runCli(["lock", "--from", "tools.json"], { cwd: dir })).code).toBe(0);
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
