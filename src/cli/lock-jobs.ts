/** What one `lock` run reads: the servers of a client config or the one source on the command line, and the flags that name tools, paths and client identities. */

import type { Target } from "../connect/target.js";
import { UsageError } from "../errors.js";
import { neutralize } from "../text/neutralize.js";

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
  /** Set for a config entry that runs mcp-lint's proxy with a lock: the target is the server the proxy runs. */
  wrapped?: WrappedEntry;
}

/** What a wrapped config entry's proxy enforces: the lock it reads, instead of the config's lock. */
export interface WrappedEntry {
  /** The lock the proxy reads (absolute). */
  lock: string;
  /** The proxy's `--server`: the entry it enforces in a v2 lock; null for a v1 lock. */
  server: string | null;
  /** The proxy's `--fail-on`, as written; null when not given. */
  failOn: string | null;
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
