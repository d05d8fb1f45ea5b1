/** `proxy --pinned`: run the locked package tree instead of whatever the package runner would fetch today. */

import { homedir } from "node:os";
import { join } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe } from "../artifact/compare.js";
import { artifactSource } from "../artifact/source.js";
import type { NpmArtifact } from "../artifact/types.js";
import type { StdioTarget, Target } from "../connect/target.js";
import { UsageError } from "../errors.js";
import type { KnownBadList } from "../install/bad-list.js";
import { matchVersion } from "../install/bad-match.js";
import type { Lockfile } from "../lock/format.js";
import { neutralize } from "../text/neutralize.js";

/** Where pinned trees live: one folder per tree digest, shared by every lock that pins the same tree. */
export function pinnedCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "mcp-lint", "artifacts");
}

/**
 * Check that a pinned run can replace the launch: the lock pins an npm package, the launch is that
 * package through a runner called directly, and no locked package is a known-bad release. Pure.
 */
export function pinnedPlan(lock: Lockfile, command: readonly string[], knownBad: KnownBadList): { artifact: NpmArtifact; bin: string | null; args: string[] } {
  const artifact = lock.artifact;
  if (artifact === null || artifact.type !== "npm") {
    const what = artifact === null ? "no package" : `${artifact.type} ${neutralize(describe(artifact))}`;
    throw new UsageError(
      `--pinned runs the npm package tree the lock pins, and this lock pins ${what}; lock the server again with this mcp-lint (lock --accept) or drop --pinned`,
    );
  }
  const source = artifactSource(command);
  if (source.type !== "npm" || source.runs === null) {
    throw new UsageError(
      "--pinned replaces an npm package runner launch (npx -y pkg@version ..., pnpm dlx, yarn dlx, bunx, npm exec) given directly after --, not inside a shell or wrapper",
    );
  }
  if (source.name !== artifact.name) {
    throw new UsageError(`--pinned: the launch runs ${neutralize(source.name)}, but the lock pins ${neutralize(artifact.name)}`);
  }
  for (const item of artifact.tree.values()) {
    const bad = matchVersion(knownBad, "npm", item.name, item.version);
    if (bad !== null) {
      throw new UsageError(
        `--pinned: the locked tree holds ${neutralize(item.name)}@${neutralize(item.version)}, a known-bad release (${neutralize(bad.entry.id ?? "on the known-bad list")}); refusing to run it`,
      );
    }
  }
  return { artifact, bin: source.runs.bin, args: source.runs.args };
}

/** Install the locked tree (or reuse it) and give the target that starts its bin directly. */
export async function pinnedTarget(
  target: Target & StdioTarget,
  lock: Lockfile,
  knownBad: KnownBadList,
  allowInstallScripts: boolean,
): Promise<Target & StdioTarget> {
  const plan = pinnedPlan(lock, [target.command, ...target.args], knownBad);
  const [{ installPinned, pinnedLaunchArgv }, { npmSettings }] = await Promise.all([import("../artifact/install.js"), import("../artifact/npm-settings.js")]);
  const npm = await npmSettings({ ...getDefaultEnvironment(), ...target.env });
  const installed = await installPinned(plan.artifact, { cacheRoot: pinnedCacheRoot(), npmOptions: npm, allowInstallScripts, binName: plan.bin });
  const [command, ...args] = await pinnedLaunchArgv(installed.bin, plan.args);
  return { ...target, command: command as string, args };
}
