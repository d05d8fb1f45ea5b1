/** What one `lock` run reads: the servers of a client config or the one source on the command line, and the flags that name tools, paths and client identities. */

import { entryLaunch, rawEntry } from "../config/launch.js";
import { parseConfigText } from "../config/readers/syntax.js";
import { readConfigText } from "../config/readers/index.js";
import type { ConfigServer } from "../config/types.js";
import { resolveConfigTarget, type Target } from "../connect/target.js";
import { UsageError } from "../errors.js";
import { readRequiredText } from "../lock/io.js";
import { neutralize } from "../report/neutralize.js";
import { dirname, basename, resolve as resolvePath } from "node:path";

/** One server a `lock` run reads. */
export interface LockJob {
  /** Its name in a v2 lock (the config's server name, or `--server`); null for a v1 lock. */
  key: string | null;
  /** How messages name it ("server \"files\""), or "" for a single-server run. */
  label: string;
  /** What to launch or connect to; null when the tools come from `--from`. */
  target: Target | null;
  /** The argv install lint checks (stdio only). */
  launch: string[];
}

/** A client identity for `--as-client NAME/VERSION`. */
export interface ClientIdentity {
  name: string;
  version: string;
}

/** Parse `--as-client NAME/VERSION` (the version follows the last `/`, since names may hold spaces but not versions). */
export function parseIdentity(text: string): ClientIdentity {
  const slash = text.lastIndexOf("/");
  const name = slash < 0 ? "" : text.slice(0, slash).trim();
  const version = slash < 0 ? "" : text.slice(slash + 1).trim();
  if (name === "" || version === "" || /[\r\n\0]/.test(text)) {
    throw new UsageError(`--as-client takes NAME/VERSION, such as claude-code/2.0.0, not ${JSON.stringify(neutralize(text))}`);
  }
  return { name, version };
}

/** How a client identity is shown. */
export function identityLabel(identity: ClientIdentity | null): string {
  return identity === null ? "mcp-lint (default)" : `${identity.name}/${identity.version}`;
}

/** A name a flag gives for one server: `SERVER/NAME` with `--config`, a bare `NAME` otherwise. */
export interface ScopedName {
  server: string | null;
  name: string;
}

/** Split `SERVER/NAME` when the run reads a config; a bare name applies to every server. */
export function scopedName(text: string, config: boolean): ScopedName {
  const slash = config ? text.indexOf("/") : -1;
  return slash < 0 ? { server: null, name: text } : { server: text.slice(0, slash), name: text.slice(slash + 1) };
}

/** `--ignore 'TOOL:JSON-PATH'` (or `SERVER/TOOL:JSON-PATH` with `--config`). */
export interface IgnoreRequest extends ScopedName {
  path: string;
}

/** Parse `--ignore`: the JSON Pointer starts at the first `:/` (a pointer always starts with `/`). */
export function parseIgnore(text: string, config: boolean): IgnoreRequest {
  const split = text.indexOf(":/");
  if (split <= 0) throw new UsageError(`--ignore takes TOOL:JSON-PATH such as read_file:/description, not ${JSON.stringify(neutralize(text))}`);
  return { ...scopedName(text.slice(0, split), config), path: text.slice(split + 1) };
}

/**
 * The servers of a client config file, selected by `--server` (all of them by default, disabled
 * entries aside), each resolved into a target with its command, args and env (or URL and
 * headers) and placeholders filled from the environment.
 */
export async function configJobs(file: string, only: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<LockJob[]> {
  const text = await readRequiredText(file, "config file");
  const document = readConfigText(text, file);
  const parsed = parseConfigText(text, file).value;
  const names = new Map<string, ConfigServer>();
  for (const server of document.servers) {
    if (names.has(server.name)) {
      throw new UsageError(`${neutralize(file)}: two servers are named ${JSON.stringify(neutralize(server.name))}; a lock keys servers by name, so rename one`);
    }
    names.set(server.name, server);
  }
  for (const name of only) {
    if (!names.has(name)) throw new UsageError(`--server ${JSON.stringify(neutralize(name))} is not in ${neutralize(file)}`);
  }
  const chosen = only.length > 0 ? only.map((name) => names.get(name) as ConfigServer) : document.servers.filter((server) => !server.disabled);
  if (chosen.length === 0) throw new UsageError(`${neutralize(file)} lists no server to lock`);
  // `${workspaceFolder}` is the project a `.vscode/mcp.json` belongs to, else the config's own folder.
  const folder = dirname(resolvePath(file));
  const workspaceFolder = basename(folder) === ".vscode" ? dirname(folder) : folder;
  return chosen.map((server) => {
    const label = `server ${JSON.stringify(neutralize(server.name))}`;
    const where = `${neutralize(file)}: ${label}`;
    if (server.problem !== null) throw new UsageError(`${where}: the entry cannot be read (${server.problem.reason.replaceAll("_", " ")})`);
    const launch = entryLaunch(server, rawEntry(parsed, server), { env, workspaceFolder }, where);
    const target = resolveConfigTarget(launch, env, where);
    return { key: server.name, label, target, launch: launch.argv ?? [] };
  });
}

/** Run `work` on every item, at most `limit` at a time; the first failure rejects (the others are left to finish). */
export async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
