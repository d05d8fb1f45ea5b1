/** Where `wrap` keeps each server's lock: next to a project config, or in the user's config folder for a user-level one. Pure. */

import { createHash } from "node:crypto";
import { posix, win32 } from "node:path";
import { configCandidates, type LocationContext } from "../../config/locations.js";
import type { ConfigServer } from "../../config/types.js";

/** The folder, next to a project config file, that holds its servers' locks. */
export const PROJECT_LOCK_FOLDER = "mcp-lint-locks";

/** The user's config folder: XDG_CONFIG_HOME or ~/.config, ~/Library/Application Support on macOS, %APPDATA% on Windows. */
export function userConfigFolder(context: Omit<LocationContext, "cwd">): string {
  const path = context.platform === "win32" ? win32 : posix;
  const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? null : value);
  if (context.platform === "darwin") return path.join(context.home, "Library", "Application Support");
  if (context.platform === "win32") return nonEmpty(context.env.APPDATA) ?? path.join(context.home, "AppData", "Roaming");
  return nonEmpty(context.env.XDG_CONFIG_HOME) ?? path.join(context.home, ".config");
}

/**
 * Whether a config file is a user-level one (a client's file in the home folder, such as Claude
 * Desktop's or ~/.cursor/mcp.json) rather than a project's: it is one of the user locations the
 * config readers know.
 */
export function isUserLevel(configPath: string, context: Omit<LocationContext, "cwd">): boolean {
  const path = context.platform === "win32" ? win32 : posix;
  // No working folder, so no project file can match.
  const nowhere = path.join(path.sep, "\u0000no-project");
  const target = path.resolve(configPath);
  return configCandidates({ ...context, cwd: nowhere }).some((candidate) => {
    if ("path" in candidate) return !candidate.path.startsWith(nowhere) && path.resolve(candidate.path) === target;
    if (candidate.dir.startsWith(nowhere)) return false;
    const relative = path.relative(candidate.dir, target);
    const [first, ...rest] = relative.split(path.sep);
    return first !== undefined && first !== ".." && candidate.pattern.test(first) && rest.join(path.sep) === candidate.tail;
  });
}

/**
 * The lock of one server entry. Project config: `<config folder>/mcp-lint-locks/<name>.lock`, to
 * commit with the project. User-level config: `<user config folder>/mcp-lint/locks/<client>/<name>.lock`.
 * `lockDir` (the `--lock-dir` flag) replaces both roots: `<lockDir>/<client>/<name>.lock`. Names are
 * made safe for a file name; a scoped entry (a project inside ~/.claude.json) gets a short hash of its scope.
 */
export function lockPathFor(configPath: string, server: ConfigServer, context: Omit<LocationContext, "cwd">, lockDir: string | null): string {
  const path = context.platform === "win32" ? win32 : posix;
  const safe =
    server.name
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .replace(/^\.+/, "_")
      .slice(0, 80) || "_";
  const scoped = server.scope === null ? "" : `-${createHash("sha256").update(server.scope).digest("hex").slice(0, 8)}`;
  const file = `${safe}${scoped}.lock`;
  if (lockDir !== null) return path.join(path.resolve(lockDir), server.client, file);
  if (isUserLevel(configPath, context)) return path.join(userConfigFolder(context), "mcp-lint", "locks", server.client, file);
  return path.join(path.dirname(path.resolve(configPath)), PROJECT_LOCK_FOLDER, file);
}
