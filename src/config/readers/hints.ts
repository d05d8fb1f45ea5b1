/** Which client a file belongs to, guessed from its path: only a label for formats several clients share. */

import type { ClientId } from "../types.js";

const RULES: readonly [RegExp, ClientId][] = [
  [/(^|\/)claude_desktop_config\.json$/, "claude-desktop"],
  [/(^|\/)\.claude\.json$/, "claude-code"],
  [/(^|\/)\.mcp\.json$/, "claude-code"],
  [/(^|\/)managed-mcp\.json$/, "claude-code"],
  [/(^|\/)\.claude-plugin\/plugin\.json$/, "claude-code"],
  [/(^|\/)\.cursor\/mcp\.json$/, "cursor"],
  [/(^|\/)\.vscode\/mcp\.json$/, "vscode"],
  [/(^|\/)(code|code - insiders|vscodium)\/user\/(profiles\/[^/]+\/)?(mcp|settings)\.json$/, "vscode"],
  [/(^|\/)devcontainer\.json$/, "vscode"],
  [/(^|\/)\.codeium\/(windsurf[^/]*\/)?mcp_config\.json$/, "windsurf"],
  [/(^|\/)\.codex\/config\.toml$/, "codex"],
  [/(^|\/)codex\/managed_config\.toml$/, "codex"],
  [/(^|\/)\.gemini\/(settings|extensions\/[^/]+\/gemini-extension)\.json$/, "gemini"],
  [/(^|\/)gemini-?cli\/(settings|system-defaults)\.json$/, "gemini"],
  [/(^|\/)gemini-extension\.json$/, "gemini"],
  [/(^|\/)\.?zed\/settings\.json$/, "zed"],
  [/(^|\/)cline_mcp_settings\.json$/, "cline"],
  [/(^|\/)\.continue\//, "continue"],
  [/(^|\/)goose\/(config\/)?config\.ya?ml$/, "goose"],
  [/(^|\/)(\.lmstudio|lm-studio)\/mcp\.json$/, "lm-studio"],
  [/(^|\/)\.junie\/mcp\/mcp\.json$/, "junie"],
];

/** The client a path suggests, or null. */
export function clientFromPath(path: string): ClientId | null {
  const normal = path.replace(/\\/g, "/").toLowerCase();
  for (const [pattern, client] of RULES) if (pattern.test(normal)) return client;
  return null;
}
