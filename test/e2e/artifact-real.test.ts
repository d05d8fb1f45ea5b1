// Pinning what runs, on a real server from the npm registry: the whole tree is recorded, the identity of
// its provenance where the registry serves one, and a second check of the same release finds nothing.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const cli = resolve(import.meta.dirname, "../../dist/cli.js");
const work = mkdtempSync(join(tmpdir(), "mcp-lint-artifact-real-"));
const PACKAGE = "@modelcontextprotocol/server-filesystem";
const VERSION = "2025.7.1";

afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: work, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8", timeout: 240_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function registryView(field: string): unknown {
  const view = spawnSync("npm", ["view", `${PACKAGE}@${VERSION}`, field, "--json"], { encoding: "utf8", timeout: 60_000 });
  return view.stdout.trim() === "" ? undefined : JSON.parse(view.stdout);
}

describe(`a real server: ${PACKAGE}@${VERSION}`, () => {
  it("is locked with its whole tree and checked again unchanged", () => {
    const launch = ["--", "npx", "-y", `${PACKAGE}@${VERSION}`, work];
    const locked = run(["lock", ...launch]);
    expect(locked.err).toContain("Wrote mcp-lint.lock");
    expect(locked.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(work, "mcp-lint.lock"), "utf8")) as {
      artifact: { name: string; version: string; integrity: string; provenance: { repository: string; workflow: string } | null; tree: Record<string, string> };
    };
    expect(lock.artifact.name).toBe(PACKAGE);
    expect(lock.artifact.version).toBe(VERSION);
    expect(lock.artifact.integrity).toBe(registryView("dist.integrity"));
    // The tree npm installs: the server, the SDK and everything under them, each with its integrity.
    const tree = Object.entries(lock.artifact.tree);
    expect(tree.length).toBeGreaterThan(50);
    expect(lock.artifact.tree[`node_modules/${PACKAGE}`]).toBe(`${PACKAGE}@${VERSION} ${lock.artifact.integrity}`);
    expect(tree.find(([location]) => location === "node_modules/@modelcontextprotocol/sdk")?.[1]).toMatch(/^@modelcontextprotocol\/sdk@1\.\d+\.\d+ sha512-/);
    expect(tree.every(([, line]) => / sha(?:1|512)-/.test(line))).toBe(true);
    // Provenance where the registry serves it (registry.npmjs.org does for this release; a mirror may strip it).
    if (registryView("dist.attestations") === undefined) expect(lock.artifact.provenance).toBeNull();
    else expect(lock.artifact.provenance).toMatchObject({ repository: "https://github.com/modelcontextprotocol/servers" });
    expect(locked.out).toMatch(new RegExp(`^runs: npm ${PACKAGE.replace("/", "\\/")}@${VERSION}, ${tree.length} packages \\(tree [0-9a-f]{12}\\)`, "m"));

    const checked = run(["lock", "--check", ...launch]);
    expect(checked.out).toContain("No changes.");
    expect(checked.code).toBe(0);
  }, 600_000);
});
