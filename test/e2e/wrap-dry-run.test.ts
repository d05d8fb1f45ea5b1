// `wrap --dry-run` on a one-line config (issue 20): the diff shows only the entries it changes,
// with every env and header value of the file, wrapped or not, as [redacted].
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repo, runCli, tempDir } from "./helpers.js";

const TOKEN = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";
const HEADER = "Bearer sk-remote-9876543210fedcba";

describe("wrap --dry-run", () => {
  it("on a one-line config prints no env token, no header value and no other entry", async () => {
    const dir = tempDir();
    const server = join(repo, "test/fixtures/servers/from-file.mjs");
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "t", description: "A tool.", inputSchema: { type: "object" } }] }));
    const config = {
      mcpServers: {
        fs: { command: process.execPath, args: [server, join(dir, "tools.json")], env: { GITHUB_TOKEN: TOKEN } },
        remote: { url: "https://remote.example/mcp", headers: { Authorization: HEADER } },
      },
    };
    const path = join(dir, "mcp.json");
    writeFileSync(path, JSON.stringify(config));
    const before = readFileSync(path, "utf8");
    const result = await runCli(["wrap", "--dry-run", "--lock-dir", join(dir, "locks"), path], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('would wrap server "fs"');
    expect(result.stdout).toContain("[redacted]");
    for (const text of [result.stdout, result.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain("sk-remote");
      expect(text).not.toContain("remote.example");
    }
    expect(readFileSync(path, "utf8")).toBe(before);
  });
});

describe("wrap's backup", () => {
  it("is no more readable than the config it copies (a private config's env tokens stay private)", async () => {
    const dir = tempDir();
    const server = join(repo, "test/fixtures/servers/from-file.mjs");
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools: [{ name: "t", description: "A tool.", inputSchema: { type: "object" } }] }));
    const path = join(dir, "mcp.json");
    writeFileSync(
      path,
      JSON.stringify({ mcpServers: { fs: { command: process.execPath, args: [server, join(dir, "tools.json")], env: { GITHUB_TOKEN: TOKEN } } } }),
    );
    chmodSync(path, 0o600);
    const result = await runCli(["wrap", "--lock-dir", join(dir, "locks"), path], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(`${path}.mcp-lint.bak`).mode & 0o777).toBe(0o600);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
