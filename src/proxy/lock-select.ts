/** Which lock the proxy enforces: the one server a lockfile holds for this launch, or a refusal before anything starts. Pure. */

import { LockFormatError } from "../errors.js";
import { LOCKFILE_VERSION, type LockDocument, type Lockfile } from "../lock/format.js";

/**
 * Pick the server's lock from a parsed lockfile: a v1 file holds one server; a v2 file holds
 * servers by name, and `name` chooses (or the only one, when there is one). The lock is bound to
 * the entry, not to the launch command's bytes: a new path or a bumped version pin is a
 * `server_changed` the comparison reports, as `lock --check` does. Whether the lock holds another
 * server altogether is decided once the server has answered (see `anotherServer` in guard.ts).
 */
export function selectLock(document: LockDocument, name: string | null, source: string): Lockfile {
  let lock: Lockfile;
  if (document.version === LOCKFILE_VERSION) {
    if (name !== null)
      throw new LockFormatError(`${source} holds one server (a version 1 lock); --server ${JSON.stringify(name)} applies to a lock with several`);
    lock = document.lock;
  } else if (name !== null) {
    const found = document.servers.get(name);
    if (found === undefined) {
      const names = [...document.servers.keys()].map((key) => JSON.stringify(key)).join(", ");
      throw new LockFormatError(`${source} does not hold a server named ${JSON.stringify(name)} (it holds ${names || "none"})`);
    }
    lock = found;
  } else if (document.servers.size === 1) {
    lock = [...document.servers.values()][0] as Lockfile;
  } else {
    throw new LockFormatError(`${source} holds ${document.servers.size} servers; name the one to enforce with --server NAME`);
  }
  return lock;
}
