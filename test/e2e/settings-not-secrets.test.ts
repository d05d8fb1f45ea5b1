// Issue 37 item 1: a passed setting is not a secret. A server that echoes a log level, a boolean or
// a word it was given locks and checks cleanly, and mcp-lint's own words stay whole; a real token
// it echoes is still refused in every form.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repo, runCli, tempDir, writeJson } from "./helpers.js";

const server = [process.execPath, join(repo, "test/fixtures/servers/echo-secret.mjs")];

describe("--pass-env values that cannot be secrets are not redacted", () => {
  for (const value of ["info", "error", "true", "git", "production"]) {
    it(`a server echoing ECHO_SECRET=${value} everywhere is locked and checked, with no [redacted]`, async () => {
      const dir = tempDir();
      const env = { ECHO_SECRET: value, UNUSED_FLAG: "true" };
      const locked = await runCli(["lock", "--pass-env", "ECHO_SECRET", "--pass-env", "UNUSED_FLAG", "--", ...server], { cwd: dir, env });
      expect(locked.code, locked.stderr).toBe(0);
      expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(true);
      expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).not.toContain("[redacted]");
      const check = await runCli(["lock", "--check", "--pass-env", "ECHO_SECRET", "--pass-env", "UNUSED_FLAG", "--", ...server], { cwd: dir, env });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout + check.stderr).not.toContain("[redacted]");
      // mcp-lint's own closing words are never rewritten by a passed value.
      expect(check.stdout).toMatch(/0 errors, 0 warnings, 0 info/);
    });
  }

  it("a config's env value that is a setting (lock --config) is not redacted either", async () => {
    const dir = tempDir();
    writeJson(dir, ".mcp.json", { mcpServers: { echo: { command: process.execPath, args: [server[1]], env: { ECHO_SECRET: "warning", DEBUG: "false" } } } });
    const locked = await runCli(["lock", "--config", ".mcp.json"], { cwd: dir });
    expect(locked.code, locked.stderr).toBe(0);
    expect(readFileSync(join(dir, "mcp-lint.lock"), "utf8")).not.toContain("[redacted]");
  });

  it("an echoed 32-character token is still refused, and no form of it is shown", async () => {
    const dir = tempDir();
    const token = "tok_5f2c9a71d04e4b8e9c3a6f1b2d7e8c90".slice(0, 32);
    const refused = await runCli(["lock", "--pass-env", "ECHO_SECRET", "--", ...server], { cwd: dir, env: { ECHO_SECRET: token } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^mcp-lint: refusing to write .*echoed back a secret/m);
    expect(refused.stdout + refused.stderr).not.toContain(token);
    expect(existsSync(join(dir, "mcp-lint.lock"))).toBe(false);
  });
});
