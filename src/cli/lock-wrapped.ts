/**
 * `lock --config` over a config whose entries `wrap` put behind the proxy: each wrapped entry is read
 * as the server its proxy runs, against the lock its proxy reads (its `--lock`), in a run of its own;
 * the other entries share the config's lock as usual.
 */

import { McpLintError, UsageError } from "../errors.js";
import { neutralize } from "../text/neutralize.js";
import type { LockFlags } from "./lock.js";
import { type LockJob, parseIgnore, scopedName } from "./lock-jobs.js";
import type { Output } from "./source.js";

/** One run of `lock` (the caller's own runLock, passed in so this module does not import it). */
type LockRun = (flags: LockFlags, output: Output) => Promise<number>;

/**
 * Run `lock` once for the entries that are not wrapped (into `--lock`) and once for each wrapped
 * one (into its proxy's lock, a v1 lock unless the proxy names a v2 entry with --server). Returns
 * the highest exit code. A report written to one file (--json, --sarif) is of one run: with several,
 * it is refused before any server starts.
 */
export async function lockWithWrapped(flags: LockFlags, output: Output, jobs: readonly LockJob[], run: LockRun): Promise<number> {
  const wrapped = jobs.filter((job) => job.wrapped !== undefined);
  const plain = jobs.filter((job) => job.wrapped === undefined);
  const first = wrapped[0] as LockJob;
  const runs = wrapped.length + (plain.length > 0 ? 1 : 0);
  if (runs > 1 && (flags.json != null || flags.sarif != null)) {
    throw new UsageError(
      `--json and --sarif report on one lock, and ${serverLabel(first)} is wrapped: its proxy reads a lock of its own; give --server NAME for one server at a time`,
    );
  }
  // An ignore rule and a client identity are recorded in a v2 lock; a wrapped entry's is its proxy's (a v1 lock, as wrap writes it).
  const plainNames = new Set(plain.map((job) => job.key));
  const ignoresWrapped = (flags.ignores ?? []).some((text) => !plainNames.has(parseIgnore(text, true).server));
  if (ignoresWrapped || (flags.asClients ?? []).length > 0) {
    throw new UsageError(
      `--ignore and --as-client record into the config's v2 lock, and ${serverLabel(first)} is wrapped: its proxy reads a lock of its own; give --ignore SERVER/TOOL:PATH for a server that is not wrapped, or lock this one with --lock and --server NAME`,
    );
  }
  const accepted = (flags.acceptTools ?? []).map((text) => scopedName(text, true));
  let code = 0;
  if (plain.length > 0) {
    code = await run(
      {
        ...flags,
        servers: plain.map((job) => job.key as string),
        acceptTools: (flags.acceptTools ?? []).filter((_, index) => {
          const server = accepted[index]?.server ?? null;
          return server === null || plainNames.has(server);
        }),
      },
      output,
    );
  }
  for (const job of wrapped) {
    const { lock, server } = job.wrapped as NonNullable<LockJob["wrapped"]>;
    output.err(`mcp-lint: ${serverLabel(job)} is wrapped: reading the server its proxy runs, against the lock the proxy reads (${neutralize(lock)})\n`);
    // A name without SERVER/ applies to every server, as with --config it does.
    const acceptTools = accepted.filter((item) => item.server === null || item.server === job.key).map((item) => item.name);
    const { wrapped: _wrapped, ...inner } = job;
    try {
      const { jobs: _jobs, ...single } = flags;
      const sub = await run({ ...single, config: null, servers: server === null ? [] : [server], lock, acceptTools, job: inner }, output);
      code = Math.max(code, sub);
    } catch (error) {
      if (!(error instanceof McpLintError)) throw error;
      // Each run names no server (it reads one); which one failed is said here.
      const named = new (error.constructor as typeof McpLintError)(`${serverLabel(job)}: ${error.message}`);
      throw named;
    }
  }
  return code;
}

function serverLabel(job: LockJob): string {
  return `server ${JSON.stringify(neutralize(job.key ?? ""))}`;
}
