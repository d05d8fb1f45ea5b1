import { describe, expect, it } from "vitest";
import { configServer } from "./config-server.js";
import { isUserLevel, lockPathFor } from "../../../../src/proxy/wrap/locks.js";

const server = configServer;
const linux = { platform: "linux" as const, home: "/home/me", env: {} };

describe("where wrap keeps locks", () => {
  it("next to a project config, and in the user's config folder for a user-level one", () => {
    expect(lockPathFor("/work/app/.mcp.json", server("api"), linux, null)).toBe("/work/app/mcp-lint-locks/api.lock");
    expect(isUserLevel("/home/me/.config/Claude/claude_desktop_config.json", linux)).toBe(true);
    expect(lockPathFor("/home/me/.config/Claude/claude_desktop_config.json", server("fs"), linux, null)).toBe(
      "/home/me/.config/mcp-lint/locks/claude-desktop/fs.lock",
    );
    expect(lockPathFor("/home/me/.cursor/mcp.json", server("fs"), { ...linux, env: { XDG_CONFIG_HOME: "/xdg" } }, null)).toBe(
      "/xdg/mcp-lint/locks/claude-desktop/fs.lock",
    );
    expect(lockPathFor("/home/me/Library/Application Support/Claude/claude_desktop_config.json", server("fs"), { ...linux, platform: "darwin" }, null)).toBe(
      "/home/me/Library/Application Support/mcp-lint/locks/claude-desktop/fs.lock",
    );
  });

  it("makes names safe for a file, tells scopes apart, and honours --lock-dir", () => {
    expect(lockPathFor("/p/.mcp.json", server("../../etc/passwd"), linux, null)).toBe("/p/mcp-lint-locks/__.._etc_passwd.lock");
    const a = lockPathFor("/home/me/.claude.json", server("db", "project /a"), linux, null);
    const b = lockPathFor("/home/me/.claude.json", server("db", "project /b"), linux, null);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\/home\/me\/\.config\/mcp-lint\/locks\/claude-desktop\/db-[0-9a-f]{8}\.lock$/);
    expect(lockPathFor("/p/.mcp.json", server("api"), linux, "/locks")).toBe("/locks/claude-desktop/api.lock");
  });
});
