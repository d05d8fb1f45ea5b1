/** Installs exactly a locked npm tree into a content-addressed cache, and finds the server's bin in it. */

// Each package is extracted with pacote at the location the lock gives it, with the locked integrity,
// which is what npm ci's reify does once its tree is decided: pacote refuses a tarball whose bytes do
// not match. Nothing resolves versions here, so the tree that runs is never newer than the lock.
//
// The install is built in a temporary sibling folder, marked complete last, and renamed into
// `<cacheRoot>/<treeSha256>` in one step: a crash leaves only a temporary folder (swept once its
// process is gone), and of two concurrent installs one rename wins and the other uses its result.

import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, readlink, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import runScript from "@npmcli/run-script";
import binLinks from "bin-links";
import installChecks from "npm-install-checks";
import pacote from "pacote";
import { ArtifactInstallError, McpLintError } from "../errors.js";
import { neutralize } from "../text/neutralize.js";
import { chooseBin, launchArgv } from "./bin.js";
import { completionMark, described, type InstallPlan, type PlannedPackage, planInstall, refuse } from "./install-plan.js";
import type { NpmArtifact } from "./types.js";

/** How a locked tree is installed. */
export interface PinnedInstallOptions {
  /** Folder holding one install per tree digest. */
  cacheRoot: string;
  /** pacote / npm-registry-fetch options: registry, cache, auth. */
  npmOptions: Record<string, unknown>;
  /** Run the install scripts of the packages the lock records with `installScript: true`; never any other. */
  allowInstallScripts: boolean;
  /** The bin to run (`npx -p pkg <bin>`), or null for npx's own choice. */
  binName: string | null;
}

/** Where a locked tree is installed and which file starts the server. */
export interface PinnedInstall {
  /** The install folder (`<cacheRoot>/<treeSha256>`, with `-scripts` when install scripts ran in it). */
  dir: string;
  /** Absolute path of the server package's bin. */
  bin: string;
  /** The complete install was already there, or a concurrent install of the same tree finished it first. */
  reused: boolean;
}

/** The file written last into a complete install. */
export const COMPLETION_MARK = ".mcp-lint-pinned";
const PARTIAL = ".partial-";
const RETIRED = ".retired-";
/** Extractions at once; pacote also bounds its sockets. */
const EXTRACT_CONCURRENCY = 8;
const SCRIPT_EVENTS_BEFORE_BINS = ["preinstall"] as const;
const SCRIPT_EVENTS_AFTER_BINS = ["install", "postinstall"] as const;

/** Install exactly the locked tree (or reuse its complete install) and return the folder and the server's bin. */
export async function installPinned(artifact: NpmArtifact, options: PinnedInstallOptions): Promise<PinnedInstall> {
  try {
    return await install(artifact, options);
  } catch (error) {
    const code = errorCode(error);
    // A cache folder that cannot be written (EACCES, ENOSPC, a file in the way) is the user's to fix; anything else is a bug.
    if (error instanceof McpLintError || code === undefined) throw error;
    throw new ArtifactInstallError(`cannot install the locked tree into ${neutralize(resolve(options.cacheRoot))}: ${code}`);
  }
}

async function install(artifact: NpmArtifact, options: PinnedInstallOptions): Promise<PinnedInstall> {
  const plan = planInstall(artifact);
  const scriptsRun = options.allowInstallScripts && plan.packages.some((pkg) => pkg.installScript);
  const mark = completionMark(plan, scriptsRun);
  const root = resolve(options.cacheRoot);
  await mkdir(root, { recursive: true });
  // A tree whose scripts ran is other bytes than the same tree without: each has its own folder.
  const dir = join(root, scriptsRun ? `${plan.treeSha256}-scripts` : plan.treeSha256);
  if (await isComplete(dir, mark)) return { dir, bin: await serverBin(dir, plan, options.binName), reused: true };
  await sweepAbandoned(root);
  await retireIncomplete(root, dir, mark);
  const partial = join(root, `${PARTIAL}${process.pid}-${randomBytes(6).toString("hex")}`);
  let reused: boolean;
  try {
    await mkdir(partial);
    await build(partial, plan, options, scriptsRun);
    await writeFile(join(partial, COMPLETION_MARK), mark);
    reused = !(await commit(root, partial, dir, mark));
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return { dir, bin: await serverBin(dir, plan, options.binName), reused };
}

/** The argv that starts a pinned bin: on this Node when it is a Node script (see launchArgv). */
export async function pinnedLaunchArgv(bin: string, args: readonly string[]): Promise<string[]> {
  const handle = await open(bin, "r");
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return launchArgv(bin, args, buffer.subarray(0, bytesRead).toString("utf8"));
  } finally {
    await handle.close();
  }
}

async function build(into: string, plan: InstallPlan, options: PinnedInstallOptions, scriptsRun: boolean): Promise<void> {
  const removed = new Set<string>();
  const manifests = new Map<string, Record<string, unknown>>();
  const isRemoved = (pkg: PlannedPackage) => [...removed].some((gone) => pkg.location === gone || pkg.location.startsWith(`${gone}/`));
  // pacote empties a folder before extracting into it, so a parent goes in before the packages it holds.
  for (const level of byDepth(plan.packages)) {
    await eachLimited(level, EXTRACT_CONCURRENCY, async (pkg) => {
      if (isRemoved(pkg)) return;
      const path = join(into, ...pkg.segments);
      const kept = await extract(pkg, path, options.npmOptions);
      if (!kept) {
        removed.add(pkg.location);
        await rm(path, { recursive: true, force: true });
        return;
      }
      manifests.set(pkg.location, await readManifest(path));
    });
  }
  const installed = plan.packages.filter((pkg) => !isRemoved(pkg));
  const scripted = scriptsRun ? installed.filter((pkg) => pkg.installScript) : [];
  const runEvent = async (event: string) => {
    for (const pkg of scripted) {
      if (isRemoved(pkg)) continue;
      if (!(await runInstallScript(pkg, join(into, ...pkg.segments), manifests.get(pkg.location) ?? {}, event))) removed.add(pkg.location);
    }
  };
  for (const event of SCRIPT_EVENTS_BEFORE_BINS) await runEvent(event);
  // node_modules/.bin, as npm links it: install scripts find their tools there, and a server may start one.
  for (const pkg of installed) {
    if (isRemoved(pkg)) continue;
    await binLinks({ path: join(into, ...pkg.segments), pkg: manifests.get(pkg.location) ?? {}, top: false, global: false, force: true });
  }
  for (const event of SCRIPT_EVENTS_AFTER_BINS) await runEvent(event);
  for (const location of removed) {
    const path = join(into, ...location.split("/"));
    await unlinkBins(path, manifests.get(location) ?? {});
    await rm(path, { recursive: true, force: true });
  }
  if (isRemoved(plan.server)) throw refuse(`${described(plan.server)} was removed as an optional package`);
}

/** Remove the .bin links of a package left out after its bins were linked, unless another package's bin took the name. */
async function unlinkBins(path: string, manifest: Record<string, unknown>): Promise<void> {
  for (const link of binLinks.getPaths({ path, pkg: manifest, top: false, global: false })) {
    const target = await readlink(link).catch(() => null);
    if (target !== null && resolve(dirname(link), target).startsWith(`${path}${sep}`)) await rm(link, { force: true });
  }
}

/** Extract one package with its locked integrity; false when it is an optional package npm would skip here. */
async function extract(pkg: PlannedPackage, path: string, npmOptions: Record<string, unknown>): Promise<boolean> {
  try {
    await pacote.extract(`${pkg.name}@${pkg.version}`, path, { ...npmOptions, integrity: pkg.integrity } as pacote.Options);
  } catch (error) {
    // As npm does: an optional package that cannot be fetched is left out.
    if (pkg.optional) return false;
    throw refuse(`${described(pkg)} ${fetchFailure(error)}`);
  }
  try {
    installChecks.checkPlatform(await readManifest(path));
  } catch (error) {
    if (errorCode(error) !== "EBADPLATFORM") throw error;
    if (pkg.optional) return false;
    throw refuse(`${described(pkg)} does not support this platform (its os, cpu or libc)`);
  }
  return true;
}

/** Run one lifecycle event of a package as npm does, its output kept off every channel; false when it failed in an optional package. */
async function runInstallScript(pkg: PlannedPackage, path: string, manifest: Record<string, unknown>, event: string): Promise<boolean> {
  try {
    await runScript({
      event,
      path,
      pkg: manifest,
      stdio: "pipe",
      env: { npm_package_integrity: pkg.integrity, npm_package_json: join(path, "package.json"), npm_package_optional: pkg.optional ? "1" : "" },
    });
    return true;
  } catch (error) {
    if (pkg.optional) return false;
    const code = (error as { code?: unknown }).code;
    const how = typeof code === "number" ? `exit code ${code}` : "it did not finish";
    throw refuse(`the ${event} script of ${described(pkg)} failed (${how})`);
  }
}

function fetchFailure(error: unknown): string {
  const code = errorCode(error);
  if (code === "EINTEGRITY") return "does not match the integrity the lock records";
  if (code === "ETARGET" || code === "E404") return "is not in the registry";
  if (code === "E401" || code === "E403") return `was refused by the registry (${code})`;
  return `could not be fetched (${code ?? "unknown error"})`;
}

/** An error's code when it is a short identifier; a registry's own message could carry anything. */
function errorCode(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[A-Z0-9_]{1,32}$/.test(code) ? code : undefined;
}

async function readManifest(path: string): Promise<Record<string, unknown>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(path, "package.json"), "utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    // npm reads a package without a readable package.json as one without fields.
    return {};
  }
}

/** The server's bin in a complete install; its real path must stay inside the package folder. */
async function serverBin(dir: string, plan: InstallPlan, binName: string | null): Promise<string> {
  const packageDir = join(dir, ...plan.server.segments);
  const bin = chooseBin(await readManifest(packageDir), plan.server.name, binName, packageDir);
  let real: string;
  let realPackage: string;
  try {
    [real, realPackage] = await Promise.all([realpath(bin), realpath(packageDir)]);
  } catch {
    throw new ArtifactInstallError(`the bin of ${described(plan.server)} is missing from its package`);
  }
  if (!real.startsWith(`${realPackage}${sep}`) || !(await stat(real)).isFile()) {
    throw new ArtifactInstallError(`the bin of ${described(plan.server)} is not a file inside its package`);
  }
  return bin;
}

async function isComplete(dir: string, mark: string): Promise<boolean> {
  try {
    return (await readFile(join(dir, COMPLETION_MARK), "utf8")) === mark;
  } catch {
    return false;
  }
}

/** Move a folder at the install's place that is not this complete install out of the way, then delete it. */
async function retireIncomplete(root: string, dir: string, mark: string): Promise<void> {
  const retired = join(root, `${RETIRED}${process.pid}-${randomBytes(6).toString("hex")}`);
  // Checked again right before the move: another process may have just completed it.
  if (await isComplete(dir, mark)) return;
  try {
    await rename(dir, retired);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  await rm(retired, { recursive: true, force: true });
}

/** Rename the finished folder into place; false when a concurrent install got there first with the same tree. */
async function commit(root: string, partial: string, dir: string, mark: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(partial, dir);
      return true;
    } catch (error) {
      const code = errorCode(error);
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      if (await isComplete(dir, mark)) return false;
      if (attempt > 0) throw error;
      await retireIncomplete(root, dir, mark);
    }
  }
}

/** Delete temporary folders left by installs whose process is gone (a crash, a kill). */
async function sweepAbandoned(root: string): Promise<void> {
  for (const name of await readdir(root)) {
    const prefix = name.startsWith(PARTIAL) ? PARTIAL : name.startsWith(RETIRED) ? RETIRED : null;
    if (prefix === null) continue;
    const pid = Number(name.slice(prefix.length).split("-", 1)[0]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    await rm(join(root, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user.
    return errorCode(error) === "EPERM";
  }
}

function byDepth(packages: readonly PlannedPackage[]): PlannedPackage[][] {
  // The plan is sorted by depth, so the levels come out shallowest first.
  const levels = new Map<number, PlannedPackage[]>();
  for (const pkg of packages) {
    const level = levels.get(pkg.depth);
    if (level === undefined) levels.set(pkg.depth, [pkg]);
    else level.push(pkg);
  }
  return [...levels.values()];
}

/** Run `work` over `items`, `limit` at a time; on a failure, start no more and wait for those running before rethrowing the first. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
