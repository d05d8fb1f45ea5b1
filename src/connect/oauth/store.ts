/**
 * Where OAuth logins are kept: one file per server (its origin and path) in the user's config
 * folder, `<config>/mcp-lint/oauth/<key>.json`, beside `wrap`'s user-level locks. The folder is
 * made 0700 and each file 0600; a folder or file that others may read, or that another user owns,
 * is refused rather than read, because it holds tokens. Writes are atomic.
 */

import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { InputFileError } from "../../errors.js";
import { writeFileSafely } from "../../lock/io.js";
import { userConfigFolder } from "../../proxy/wrap/locks.js";

/** What is kept for one server. The SDK's objects are stored as it gave them (with their `issuer` stamp). */
export interface StoredLogin {
  /** The server it belongs to: origin and path, never a query. */
  server: string;
  client?: OAuthClientInformationMixed;
  /** The redirect URI the client was registered with (its loopback port is tried again first). */
  redirectUri?: string;
  tokens?: OAuthTokens;
  /** When the access token expires, in milliseconds since the epoch (from `expires_in` when saved). */
  expiresAt?: number;
  discovery?: OAuthDiscoveryState;
}

const STORE_VERSION = 1;

/** The server a login belongs to: scheme, host, port and path, so a token rotated in the query never splits it. */
export function serverKey(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The folder logins live in, for this environment. */
export function loginFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return join(userConfigFolder({ env, home: homedir(), platform: process.platform }), "mcp-lint", "oauth");
}

function fileName(server: string): string {
  return `${createHash("sha256").update(server).digest("hex").slice(0, 32)}.json`;
}

/** Refuse a path that others may read or write, or that is not this user's: it holds tokens. */
async function checkPrivate(path: string, kind: "folder" | "file"): Promise<boolean> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new InputFileError(`cannot read the OAuth login store ${path}: ${(error as Error).message}`);
  }
  if (info.isSymbolicLink()) throw new InputFileError(`the OAuth login store ${path} is a symbolic link; remove it (mcp-lint logout) and log in again`);
  if (kind === "folder" ? !info.isDirectory() : !info.isFile()) throw new InputFileError(`the OAuth login store ${path} is not a ${kind}; remove it`);
  // Windows has no POSIX modes to check; the folder sits in the user's own profile there.
  if (process.platform === "win32") return true;
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw new InputFileError(`the OAuth login store ${path} belongs to another user; remove it`);
  if ((info.mode & 0o077) !== 0) {
    const mode = kind === "folder" ? "700" : "600";
    throw new InputFileError(
      `the OAuth login store ${path} may be read by other users (mode ${(info.mode & 0o777).toString(8)}); run chmod ${mode} ${path}, or mcp-lint logout`,
    );
  }
  return true;
}

/** The logins of one user: read, write and forget the login of a server. */
export class LoginStore {
  constructor(readonly folder: string = loginFolder()) {}

  async read(server: string): Promise<StoredLogin | null> {
    if (!(await checkPrivate(this.folder, "folder"))) return null;
    const path = join(this.folder, fileName(server));
    if (!(await checkPrivate(path, "file"))) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, "utf8"));
    } catch {
      // A damaged login is as good as none: the flow runs again and rewrites it.
      return null;
    }
    if (typeof parsed !== "object" || parsed === null) return null;
    const record = parsed as { version?: unknown; login?: StoredLogin };
    if (record.version !== STORE_VERSION || typeof record.login !== "object" || record.login === null || record.login.server !== server) return null;
    return record.login;
  }

  async write(login: StoredLogin): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await checkPrivate(this.folder, "folder");
    const path = join(this.folder, fileName(login.server));
    await checkPrivate(path, "file");
    await writeFileSafely(path, `${JSON.stringify({ version: STORE_VERSION, login }, null, 2)}\n`, { mode: 0o600 });
  }

  /** Forget one server's login (true when there was one), or every login when `server` is null (how many). */
  async forget(server: string | null): Promise<number> {
    if (!(await checkPrivate(this.folder, "folder"))) return 0;
    const names = server === null ? (await readdir(this.folder)).filter((name) => /^[0-9a-f]{32}\.json$/.test(name)) : [fileName(server)];
    let forgotten = 0;
    for (const name of names) {
      const path = join(this.folder, name);
      try {
        await lstat(path);
      } catch {
        continue;
      }
      await rm(path, { force: true });
      forgotten++;
    }
    return forgotten;
  }
}
