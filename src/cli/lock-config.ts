/** The servers of a client config as lock jobs; loaded only by `lock --config`, since the config parsers (YAML, TOML, JSONC) are not small. */

import { basename, dirname, resolve as resolvePath } from "node:path";
import { type EntryLaunch, entryLaunch, rawEntry } from "../config/launch.js";
import { readConfigText } from "../config/readers/index.js";
import { parseConfigText } from "../config/readers/syntax.js";
import type { ConfigServer } from "../config/types.js";
import { resolveConfigTarget, resolveTarget, type Target } from "../connect/target.js";
import { UsageError } from "../errors.js";
import { readRequiredText } from "../lock/io.js";
import { type ProxyArgs, proxyArgs, unwrapArgv } from "../proxy/wrap/argv.js";
import { neutralize } from "../text/neutralize.js";
import { couldBeSecret } from "../text/redact.js";
import type { LockJob } from "./lock-jobs.js";

/**
 * The servers of a client config file, selected by `--server` (all of them by default, disabled
 * entries aside), each resolved into a target with its command, args and env (or URL and
 * headers) and placeholders filled from the environment.
 */
export async function configJobs(
  file: string,
  only: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  launchOptions: { pidNamespace?: boolean } = {},
): Promise<LockJob[]> {
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
  return chosen.map((server) => entryJob(file, parsed, server, env, launchOptions));
}

/**
 * One entry as the client launches it: argv, env and headers with every placeholder resolved
 * (`wrap` locks each entry this way too, so the first proxied session serves what the client's
 * launch serves). A placeholder that cannot be resolved throws a UsageError naming it. An entry
 * that runs mcp-lint's proxy (wrapped) is the server behind it, launched as that proxy launches
 * it; with a `--lock`, the job says which lock the proxy reads.
 */
export function entryJob(
  file: string,
  parsed: unknown,
  server: ConfigServer,
  env: Readonly<Record<string, string | undefined>>,
  launchOptions: { pidNamespace?: boolean } = {},
): LockJob {
  const label = `server ${JSON.stringify(neutralize(server.name))}`;
  const where = `${neutralize(file)}: ${label}`;
  if (server.problem !== null) throw new UsageError(`${where}: the entry cannot be read (${server.problem.reason.replaceAll("_", " ")})`);
  const launch = entryLaunch(server, rawEntry(parsed, server), { env, workspaceFolder: workspaceFolderOf(file) }, where);
  const proxy = launch.argv === null ? null : proxyArgs(launch.argv);
  if (proxy !== null) return wrappedJob(file, launch, proxy, env, { key: server.name, label, where }, launchOptions);
  const target = resolveConfigTarget(launch, env, where, launchOptions);
  // A remote entry logs in when its server asks, as the client itself would (lock --no-oauth turns it off).
  if (target.kind === "http") target.oauth = {};
  return { key: server.name, label, target, launch: launch.argv ?? [] };
}

/**
 * The server a wrapped entry's proxy runs: the command after `--` (or its `--url` with the
 * `--header` and `--header-env` headers), with the environment the proxy gives it (the `--pass-env`
 * names, from the entry's env or else this shell's, as a client gives the proxy both). Its lock is
 * the proxy's `--lock`, a relative path taken from the project folder.
 */
function wrappedJob(
  file: string,
  launch: EntryLaunch,
  proxy: ProxyArgs,
  env: Readonly<Record<string, string | undefined>>,
  names: { key: string; label: string; where: string },
  launchOptions: { pidNamespace?: boolean },
): LockJob {
  const parts = unwrapArgv(launch.argv ?? []);
  const original = parts === null || parts.remote ? [] : parts.original;
  let target: Target;
  try {
    target = resolveTarget(
      {
        command: original,
        url: original.length === 0 ? proxy.url : null,
        headers: proxy.headers,
        headerEnv: proxy.headerEnv,
        passEnv: original.length === 0 ? [] : proxy.passEnv,
        ...(launchOptions.pidNamespace === false ? { pidNamespace: false } : {}),
      },
      { ...env, ...launch.env },
    );
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${names.where}: its proxy's arguments cannot be read: ${neutralize(error.message)}`);
    throw error;
  }
  target.secrets.push(...launch.resolved.filter(couldBeSecret));
  if (target.kind === "http") target.oauth = {};
  const job: LockJob = { key: names.key, label: names.label, target, launch: original };
  if (proxy.lock === null) return job;
  return {
    ...job,
    wrapped: { lock: wrappedLockPath(file, proxy.lock), server: proxy.server, failOn: proxy.failOn },
  };
}

/** The lock a wrapped entry's proxy reads: its `--lock`, a relative one taken from the project folder. */
export function wrappedLockPath(file: string, lock: string): string {
  return resolvePath(workspaceFolderOf(file), lock);
}

/** What `${workspaceFolder}` means: the project a `.vscode/mcp.json` belongs to, else the config's own folder. */
function workspaceFolderOf(file: string): string {
  const folder = dirname(resolvePath(file));
  return basename(folder) === ".vscode" ? dirname(folder) : folder;
}
