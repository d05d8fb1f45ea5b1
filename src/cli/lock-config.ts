/** The servers of a client config as lock jobs; loaded only by `lock --config`, since the config parsers (YAML, TOML, JSONC) are not small. */

import { basename, dirname, resolve as resolvePath } from "node:path";
import { entryLaunch, rawEntry } from "../config/launch.js";
import { readConfigText } from "../config/readers/index.js";
import { parseConfigText } from "../config/readers/syntax.js";
import type { ConfigServer } from "../config/types.js";
import { resolveConfigTarget } from "../connect/target.js";
import { UsageError } from "../errors.js";
import { readRequiredText } from "../lock/io.js";
import { neutralize } from "../text/neutralize.js";
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
 * launch serves). A placeholder that cannot be resolved throws a UsageError naming it.
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
  const target = resolveConfigTarget(launch, env, where, launchOptions);
  // A remote entry logs in when its server asks, as the client itself would (lock --no-oauth turns it off).
  if (target.kind === "http") target.oauth = {};
  return { key: server.name, label, target, launch: launch.argv ?? [] };
}

/** What `${workspaceFolder}` means: the project a `.vscode/mcp.json` belongs to, else the config's own folder. */
function workspaceFolderOf(file: string): string {
  const folder = dirname(resolvePath(file));
  return basename(folder) === ".vscode" ? dirname(folder) : folder;
}
