/** Where each client keeps its MCP config on this OS: pure paths from the home folder, environment and working folder. */

import { posix, win32 } from "node:path";

/** What the search depends on. */
export interface LocationContext {
  platform: NodeJS.Platform;
  home: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** A place to look: one file, or files matching `pattern` in `dir` (then `tail` joined under each match). */
export type Candidate = { path: string } | { dir: string; pattern: RegExp; tail: string };

/** Every usual config location for this user and the working folder (project files), in a stable order. */
export function configCandidates(context: LocationContext): Candidate[] {
  const { platform, home, cwd, env } = context;
  const path = platform === "win32" ? win32 : posix;
  const join = (...parts: string[]) => path.join(...parts);
  const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? null : value);
  const xdg = nonEmpty(env.XDG_CONFIG_HOME) ?? join(home, ".config");
  const appData = nonEmpty(env.APPDATA) ?? join(home, "AppData", "Roaming");
  const localAppData = nonEmpty(env.LOCALAPPDATA) ?? join(home, "AppData", "Local");
  const out: Candidate[] = [];
  const file = (...parts: string[]) => out.push({ path: join(...parts) });

  // Claude Desktop (Windows: the MSIX package's virtualised folder is the live one since Feb 2026).
  if (platform === "darwin") file(home, "Library", "Application Support", "Claude", "claude_desktop_config.json");
  else if (platform === "win32") {
    out.push({ dir: join(localAppData, "Packages"), pattern: /^Claude_/, tail: join("LocalCache", "Roaming", "Claude", "claude_desktop_config.json") });
    file(appData, "Claude", "claude_desktop_config.json");
  } else file(xdg, "Claude", "claude_desktop_config.json");

  // Claude Code: user and local scopes, the project file, managed servers.
  file(nonEmpty(env.CLAUDE_CONFIG_DIR) ?? home, ".claude.json");
  file(cwd, ".mcp.json");
  if (platform === "darwin") file("/Library/Application Support/ClaudeCode/managed-mcp.json");
  else if (platform === "win32") file(nonEmpty(env.ProgramFiles) ?? "C:\\Program Files", "ClaudeCode", "managed-mcp.json");
  else file("/etc/claude-code/managed-mcp.json");

  // Cursor.
  file(home, ".cursor", "mcp.json");
  file(cwd, ".cursor", "mcp.json");

  // VS Code (stable and Insiders): the user mcp.json and settings.json (`mcp.servers`), the same in
  // each profile; Cline's VS Code extension storage; the workspace file.
  const codeRoot = platform === "darwin" ? join(home, "Library", "Application Support") : platform === "win32" ? appData : xdg;
  for (const product of ["Code", "Code - Insiders"]) {
    file(codeRoot, product, "User", "mcp.json");
    file(codeRoot, product, "User", "settings.json");
    out.push({ dir: join(codeRoot, product, "User", "profiles"), pattern: /^[^.]/, tail: "mcp.json" });
    out.push({ dir: join(codeRoot, product, "User", "profiles"), pattern: /^[^.]/, tail: "settings.json" });
    file(codeRoot, product, "User", "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json");
  }
  file(cwd, ".vscode", "mcp.json");
  file(home, ".cline", "data", "settings", "cline_mcp_settings.json");

  // Windsurf (and its JetBrains plugin).
  file(home, ".codeium", "windsurf", "mcp_config.json");
  file(home, ".codeium", "windsurf-next", "mcp_config.json");
  file(home, ".codeium", "mcp_config.json");

  // Codex.
  file(nonEmpty(env.CODEX_HOME) ?? join(home, ".codex"), "config.toml");
  file(cwd, ".codex", "config.toml");

  // Gemini CLI: user, project, system.
  file(home, ".gemini", "settings.json");
  file(cwd, ".gemini", "settings.json");
  const geminiSystem = nonEmpty(env.GEMINI_CLI_SYSTEM_SETTINGS_PATH);
  if (geminiSystem !== null) file(geminiSystem);
  else if (platform === "darwin") file("/Library/Application Support/GeminiCli/settings.json");
  else if (platform === "win32") file("C:\\ProgramData\\gemini-cli\\settings.json");
  else file("/etc/gemini-cli/settings.json");

  // Zed.
  if (platform === "win32") file(appData, "Zed", "settings.json");
  else file(platform === "darwin" ? join(home, ".config") : xdg, "zed", "settings.json");
  file(cwd, ".zed", "settings.json");

  // Continue: the user file and workspace blocks.
  file(home, ".continue", "config.yaml");
  out.push({ dir: join(cwd, ".continue", "mcpServers"), pattern: /\.(ya?ml|json)$/i, tail: "" });

  // Goose.
  if (platform === "win32") file(appData, "Block", "goose", "config", "config.yaml");
  else file(platform === "darwin" ? join(home, ".config") : xdg, "goose", "config.yaml");

  // LM Studio and Junie.
  file(home, ".lmstudio", "mcp.json");
  file(home, ".cache", "lm-studio", "mcp.json");
  file(home, ".junie", "mcp", "mcp.json");
  file(cwd, ".junie", "mcp", "mcp.json");
  return out;
}
