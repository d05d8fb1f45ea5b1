// proxy --pinned's install, against the real npm registry: exactly the locked tree, content-addressed,
// refused whole when any package is not what the lock says, and safe when two installs race.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COMPLETION_MARK, installPinned, pinnedLaunchArgv } from "../../src/artifact/install.js";
import type { NpmArtifact, TreePackage } from "../../src/artifact/types.js";
import { ArtifactInstallError } from "../../src/errors.js";
import { tempDir } from "./helpers.js";
import { artifactOf, installedVersion, treePackage } from "./npm-trees.js";

// One temporary npm cache for the file: the user's ~/.npm is never read or written.
const npmOptions = { cache: join(tempDir(), "npm-cache"), registry: "https://registry.npmjs.org/" };
const options = (cacheRoot: string) => ({ cacheRoot, npmOptions, allowInstallScripts: false, binName: null });

// which@2.0.2 depends on isexe ^2.0.0, whose only 2.x release is 2.0.0; which has one bin, a Node script without an extension.
let which: TreePackage;
let isexe: TreePackage;
let flat: NpmArtifact;

beforeAll(async () => {
  which = await treePackage("which@2.0.2", npmOptions);
  isexe = await treePackage("isexe@^2.0.0", npmOptions);
  flat = artifactOf("which", [
    ["node_modules/which", which],
    ["node_modules/isexe", isexe],
  ]);
});

async function refusal(artifact: NpmArtifact, cacheRoot: string): Promise<string> {
  const error = await installPinned(artifact, options(cacheRoot)).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ArtifactInstallError);
  return (error as Error).message;
}

describe("installPinned against the npm registry", () => {
  it("installs exactly the locked versions, runs the bin from there, and reuses the install without asking the registry", async () => {
    expect(isexe.version).toBe("2.0.0");
    const cacheRoot = join(tempDir(), "pinned");
    const first = await installPinned(flat, options(cacheRoot));
    expect(first).toEqual({ dir: join(cacheRoot, flat.treeSha256), bin: join(first.dir, "node_modules/which/bin/node-which"), reused: false });
    expect(installedVersion(first.dir, "node_modules/which")).toBe("2.0.2");
    expect(installedVersion(first.dir, "node_modules/isexe")).toBe("2.0.0");
    expect(readFileSync(join(first.dir, COMPLETION_MARK), "utf8")).toContain(flat.treeSha256);
    expect(lstatSync(join(first.dir, "node_modules/.bin/node-which")).isSymbolicLink()).toBe(true);
    expect(readdirSync(cacheRoot)).toEqual([flat.treeSha256]);

    const argv = await pinnedLaunchArgv(first.bin, ["node"]);
    expect(argv).toEqual([process.execPath, first.bin, "node"]);
    const run = spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/node$/);

    // A registry that cannot be reached: the second call must not need it.
    const offline = {
      cacheRoot,
      npmOptions: { cache: join(tempDir(), "npm-cache"), registry: "http://127.0.0.1:9/" },
      allowInstallScripts: false,
      binName: null,
    };
    expect(await installPinned(flat, offline)).toEqual({ ...first, reused: true });
  });

  it("puts a nested package where the lock puts it, after its parent (pacote empties a folder it extracts into)", async () => {
    const nested = artifactOf("which", [
      ["node_modules/which", which],
      ["node_modules/which/node_modules/isexe", isexe],
    ]);
    const { dir, bin } = await installPinned(nested, options(join(tempDir(), "pinned")));
    expect(installedVersion(dir, "node_modules/which/node_modules/isexe")).toBe("2.0.0");
    expect(existsSync(join(dir, "node_modules/isexe"))).toBe(false);
    const argv = await pinnedLaunchArgv(bin, ["node"]);
    expect(spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8" }).status).toBe(0);
  });

  it("refuses the whole tree when one integrity does not match, and leaves nothing in the cache", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const forged = artifactOf("which", [
      ["node_modules/which", which],
      ["node_modules/isexe", { ...isexe, integrity: which.integrity }],
    ]);
    expect(await refusal(forged, cacheRoot)).toBe(
      "cannot install the locked tree exactly: isexe@2.0.0 (node_modules/isexe) does not match the integrity the lock records",
    );
    expect(readdirSync(cacheRoot)).toEqual([]);
  });

  it("refuses a version the registry does not have, and leaves nothing in the cache", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const missing = artifactOf("which", [
      ["node_modules/which", which],
      ["node_modules/isexe", { ...isexe, version: "2.0.99" }],
    ]);
    expect(await refusal(missing, cacheRoot)).toBe("cannot install the locked tree exactly: isexe@2.0.99 (node_modules/isexe) is not in the registry");
    expect(readdirSync(cacheRoot)).toEqual([]);
  });

  it("refuses a ../ location before writing anything, inside the cache or beside it", async () => {
    const parent = tempDir();
    const cacheRoot = join(parent, "pinned");
    const escaping = artifactOf("which", [
      ["node_modules/which", which],
      ["node_modules/../../escaped", isexe],
    ]);
    expect(await refusal(escaping, cacheRoot)).toMatch(/node_modules\/\.\.\/\.\.\/escaped is not a node_modules location inside the install folder$/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it("lets two concurrent installs of one tree both succeed, with one complete folder and no leftovers", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const results = await Promise.all([installPinned(flat, options(cacheRoot)), installPinned(flat, options(cacheRoot))]);
    expect(results.map((result) => result.dir)).toEqual([join(cacheRoot, flat.treeSha256), join(cacheRoot, flat.treeSha256)]);
    expect(results.map((result) => result.reused).sort()).toEqual([false, true]);
    expect(readdirSync(cacheRoot)).toEqual([flat.treeSha256]);
    expect(installedVersion(join(cacheRoot, flat.treeSha256), "node_modules/isexe")).toBe("2.0.0");
  });

  it("removes and redoes a folder without the completion mark", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const stale = join(cacheRoot, flat.treeSha256, "node_modules/which");
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, "package.json"), JSON.stringify({ name: "which", version: "6.6.6" }));
    const result = await installPinned(flat, options(cacheRoot));
    expect(result.reused).toBe(false);
    expect(installedVersion(result.dir, "node_modules/which")).toBe("2.0.2");
    expect(readdirSync(cacheRoot)).toEqual([flat.treeSha256]);
  });

  it("never reuses a folder filed under a digest its tree does not have (a lock that lies about its digest)", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    const liar = artifactOf(
      "which",
      [
        ["node_modules/which", which],
        ["node_modules/which/node_modules/isexe", isexe],
      ],
      flat.treeSha256,
    );
    await installPinned(liar, options(cacheRoot));
    const honest = await installPinned(flat, options(cacheRoot));
    expect(honest.reused).toBe(false);
    expect(installedVersion(honest.dir, "node_modules/isexe")).toBe("2.0.0");
    expect(existsSync(join(honest.dir, "node_modules/which/node_modules"))).toBe(false);
  });

  it("says in one line when the cache folder cannot be written", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    writeFileSync(cacheRoot, "a file where the cache folder should be");
    expect(await refusal(flat, cacheRoot)).toBe(`cannot install the locked tree into ${cacheRoot}: EEXIST`);
  });

  it("sweeps the temporary folder of an install whose process is gone", async () => {
    const cacheRoot = join(tempDir(), "pinned");
    // Above Linux's largest pid (2^22): no process has it.
    const abandoned = join(cacheRoot, ".partial-4194305-0123456789ab", "node_modules/which");
    mkdirSync(abandoned, { recursive: true });
    await installPinned(flat, options(cacheRoot));
    expect(readdirSync(cacheRoot)).toEqual([flat.treeSha256]);
  });
});
