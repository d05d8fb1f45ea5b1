// The usual config locations per OS (pure paths; existence is checked by config/load.ts).
import { describe, expect, it } from "vitest";
import { type Candidate, configCandidates } from "../../../src/config/locations.js";

function paths(candidates: Candidate[]): string[] {
  return candidates.map((candidate) => ("path" in candidate ? candidate.path : `${candidate.dir} <${candidate.pattern.source}> ${candidate.tail}`));
}

describe("configCandidates", () => {
  it("linux: XDG config home, home dot-folders, project files", () => {
    const list = paths(configCandidates({ platform: "linux", home: "/home/u", cwd: "/work/p", env: { XDG_CONFIG_HOME: "/home/u/.xdg" } }));
    expect(list).toEqual(
      expect.arrayContaining([
        "/home/u/.xdg/Claude/claude_desktop_config.json",
        "/home/u/.claude.json",
        "/work/p/.mcp.json",
        "/etc/claude-code/managed-mcp.json",
        "/home/u/.cursor/mcp.json",
        "/work/p/.cursor/mcp.json",
        "/home/u/.xdg/Code/User/mcp.json",
        "/home/u/.xdg/Code/User/settings.json",
        "/home/u/.xdg/Code - Insiders/User/settings.json",
        "/home/u/.xdg/Code/User/profiles <^[^.]> settings.json",
        "/work/p/.vscode/mcp.json",
        "/home/u/.codeium/windsurf/mcp_config.json",
        "/home/u/.codex/config.toml",
        "/home/u/.gemini/settings.json",
        "/home/u/.xdg/zed/settings.json",
        "/home/u/.xdg/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        "/home/u/.continue/config.yaml",
        "/home/u/.xdg/goose/config.yaml",
        "/home/u/.lmstudio/mcp.json",
        "/home/u/.junie/mcp/mcp.json",
      ]),
    );
  });

  it("macOS: Application Support folders", () => {
    const list = paths(configCandidates({ platform: "darwin", home: "/Users/u", cwd: "/p", env: {} }));
    expect(list).toEqual(
      expect.arrayContaining([
        "/Users/u/Library/Application Support/Claude/claude_desktop_config.json",
        "/Library/Application Support/ClaudeCode/managed-mcp.json",
        "/Users/u/Library/Application Support/Code/User/mcp.json",
        "/Users/u/Library/Application Support/Code/User/settings.json",
        "/Users/u/.config/zed/settings.json",
      ]),
    );
  });

  it("Windows: the MSIX Claude folder first, then %APPDATA%; env overrides", () => {
    const candidates = configCandidates({
      platform: "win32",
      home: "C:\\Users\\u",
      cwd: "C:\\p",
      env: {
        APPDATA: "C:\\Users\\u\\AppData\\Roaming",
        LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local",
        CODEX_HOME: "D:\\codex",
        CLAUDE_CONFIG_DIR: "D:\\claude",
      },
    });
    const list = paths(candidates);
    expect(list[0]).toBe("C:\\Users\\u\\AppData\\Local\\Packages <^Claude_> LocalCache\\Roaming\\Claude\\claude_desktop_config.json");
    expect(list[1]).toBe("C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json");
    expect(list).toEqual(
      expect.arrayContaining([
        "D:\\claude\\.claude.json",
        "D:\\codex\\config.toml",
        "C:\\Users\\u\\AppData\\Roaming\\Zed\\settings.json",
        "C:\\Users\\u\\AppData\\Roaming\\Code\\User\\settings.json",
      ]),
    );
  });
});
