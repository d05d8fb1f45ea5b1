// proxy --pinned's install, against a local registry with packages of our own: install scripts run only
// when allowed and locked, optional packages for other platforms are left out as npm leaves them, and
// the server's bin starts from the pinned tree.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installPinned, pinnedLaunchArgv } from "../../src/artifact/install.js";
import type { TreePackage } from "../../src/artifact/types.js";
import { ArtifactInstallError } from "../../src/errors.js";
import { tempDir } from "./helpers.js";
import { publishFolder, type Registry, startRegistry } from "./registry/verdaccio.js";
import { artifactOf, installedVersion, treePackage } from "./npm-trees.js";

const fixtures = resolve(import.meta.dirname, "../fixtures/pinned-packages");
let registry: Registry;
let npmOptions: Record<string, unknown>;
const packages: Record<string, TreePackage> = {};

beforeAll(async () => {
  registry = await startRegistry();
  npmOptions = { registry: registry.url, cache: join(tempDir(), "npm-cache") };
  for (const name of ["server", "scripted", "elsewhere", "failing"]) {
    await publishFolder(registry, join(fixtures, name));
    packages[name] = await treePackage(`pin-fixture-${name}@1.0.0`, npmOptions);
  }
});

afterAll(async () => {
  await registry?.stop();
});

function tree(options: { scripted?: Partial<TreePackage>; elsewhere?: Partial<TreePackage>; failing?: Partial<TreePackage> } = {}) {
  const entries: Array<[string, TreePackage]> = [
    ["node_modules/pin-fixture-server", packages.server as TreePackage],
    ["node_modules/pin-fixture-scripted", { ...(packages.scripted as TreePackage), installScript: true, ...options.scripted }],
  ];
  if (options.elsewhere !== undefined) entries.push(["node_modules/pin-fixture-elsewhere", { ...(packages.elsewhere as TreePackage), ...options.elsewhere }]);
  if (options.failing !== undefined) entries.push(["node_modules/pin-fixture-failing", { ...(packages.failing as TreePackage), ...options.failing }]);
  return artifactOf("pin-fixture-server", entries);
}

const ranMark = (dir: string) => join(dir, "node_modules/pin-fixture-scripted/postinstall-ran");
const install = (artifact: ReturnType<typeof tree>, allowInstallScripts: boolean, binName: string | null = null) =>
  installPinned(artifact, { cacheRoot: join(tempDir(), "pinned"), npmOptions, allowInstallScripts, binName });

describe("installPinned and install scripts", () => {
  it("does not run a locked postinstall by default", async () => {
    const { dir } = await install(tree(), false);
    expect(installedVersion(dir, "node_modules/pin-fixture-scripted")).toBe("1.0.0");
    expect(existsSync(ranMark(dir))).toBe(false);
  });

  it("runs it, the way npm does, when allowed and the lock records it, in a folder of its own", async () => {
    const artifact = tree();
    const { dir } = await install(artifact, true);
    expect(dir.endsWith(`${artifact.treeSha256}-scripts`)).toBe(true);
    expect(readFileSync(ranMark(dir), "utf8")).toBe("postinstall\n");
  });

  it("does not run a script the lock does not record, even when scripts are allowed", async () => {
    const { dir } = await install(tree({ scripted: { installScript: false } }), true);
    expect(existsSync(ranMark(dir))).toBe(false);
  });

  it("refuses the tree when a locked install script fails, and leaves nothing in the cache", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const error = await installPinned(tree({ failing: { installScript: true } }), { cacheRoot, npmOptions, allowInstallScripts: true, binName: null }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ArtifactInstallError);
    expect((error as Error).message).toBe(
      "cannot install the locked tree exactly: the postinstall script of pin-fixture-failing@1.0.0 (node_modules/pin-fixture-failing) failed (exit code 3)",
    );
    expect(readdirSync(cacheRoot)).toEqual([]);
  });

  it("leaves out an optional package whose failing install script npm would skip", async () => {
    const { dir } = await install(tree({ failing: { installScript: true, optional: true } }), true);
    expect(existsSync(join(dir, "node_modules/pin-fixture-failing"))).toBe(false);
    // Its bin was linked before its postinstall ran; the link goes with it.
    expect(readdirSync(join(dir, "node_modules/.bin"))).toEqual(["pin-fixture-server"]);
    expect(existsSync(ranMark(dir))).toBe(true);
  });
});

describe("installPinned and platforms", () => {
  it("leaves out an optional package built for another cpu, as npm does", async () => {
    const { dir } = await install(tree({ elsewhere: { optional: true } }), false);
    expect(existsSync(join(dir, "node_modules/pin-fixture-elsewhere"))).toBe(false);
    expect(installedVersion(dir, "node_modules/pin-fixture-server")).toBe("1.0.0");
  });

  it("refuses a required package built for another cpu", async () => {
    await expect(install(tree({ elsewhere: { optional: false } }), false)).rejects.toThrow(
      "cannot install the locked tree exactly: pin-fixture-elsewhere@1.0.0 (node_modules/pin-fixture-elsewhere) does not support this platform (its os, cpu or libc)",
    );
  });
});

describe("the server's bin in the pinned tree", () => {
  it("links node_modules/.bin and starts the bin on this Node, loading its dependencies from the tree", async () => {
    const { dir, bin } = await install(tree({ elsewhere: { optional: true } }), false);
    expect(bin).toBe(join(dir, "node_modules/pin-fixture-server/bin/server.js"));
    expect(lstatSync(join(dir, "node_modules/.bin/pin-fixture-server")).isSymbolicLink()).toBe(true);
    const argv = await pinnedLaunchArgv(bin, ["--stdio"]);
    expect(argv).toEqual([process.execPath, bin, "--stdio"]);
    const run = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8" });
    expect(JSON.parse(run.stdout)).toEqual({ loaded: { "pin-fixture-scripted": "1.0.0", "pin-fixture-elsewhere": null }, args: ["--stdio"] });
  });

  it("refuses a bin name the package does not have, naming the bins it has", async () => {
    await expect(install(tree(), false, "other")).rejects.toThrow("pin-fixture-server has no bin named other; its bins: pin-fixture-server");
  });
});
