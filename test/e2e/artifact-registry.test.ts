// Pinning what runs, against a real registry on 127.0.0.1 (Verdaccio): a dependency's new patch release with
// an install script, a swapped tarball under a locked version, and a new release run by an unpinned launch.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";
import { attestationsDocument, makeBundle, makeKeys, registryKeyFor, registrySignature, SLSA_V1, trustedRootFor } from "../fixtures/provenance/attest.js";
import { mcpServerPackage, packument, publish, setDistField, storeFile, type Registry, replaceTarball, startRegistry } from "./registry/verdaccio.js";

const cli = resolve(import.meta.dirname, "../../dist/cli.js");
let registry: Registry;
let work: string;

function mcpLint(args: string[], env: NodeJS.ProcessEnv = registry.env()) {
  const run = spawnSync(process.execPath, [cli, ...args], { cwd: work, env: { ...env, NO_COLOR: "1" }, encoding: "utf8", timeout: 120_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function lockJson(file = "mcp-lint.lock"): { artifact: { version: string; tree: Record<string, string>; integrity: string } } {
  return JSON.parse(readFileSync(join(work, file), "utf8"));
}

beforeAll(async () => {
  registry = await startRegistry();
  work = mkdtempSync(join(tmpdir(), "mcp-lint-artifact-"));
  await publish(registry, { name: "helper", version: "1.0.0", files: { "index.js": "module.exports = 1;\n" } });
  await publish(registry, mcpServerPackage("server", "1.0.0", { helper: "^1.0.0" }));
}, 120_000);

afterAll(async () => {
  await registry?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("lock pins the package and its tree; lock --check catches what the tools do not show", () => {
  it("a dependency's new patch release with a postinstall: identical tools, dependencies_changed naming it", async () => {
    const first = mcpLint(["lock", "--", "npx", "-y", "server@1.0.0"]);
    expect(first.err).toBe("Wrote mcp-lint.lock (2 tools)\n");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^runs: npm server@1\.0\.0, 2 packages \(tree [0-9a-f]{12}\), no provenance, registry signature absent$/m);
    const locked = lockJson();
    expect(locked.artifact.version).toBe("1.0.0");
    expect(locked.artifact.tree["node_modules/helper"]).toMatch(/^helper@1\.0\.0 sha512-/);

    await publish(registry, {
      name: "helper",
      version: "1.0.1",
      scripts: { postinstall: "node -e \"require('fs').writeFileSync('ran-postinstall','')\"" },
      files: { "index.js": "module.exports = 2;\n" },
    });
    const check = mcpLint(["lock", "--check", "--sarif", "check.sarif", "--", "npx", "-y", "server@1.0.0"]);
    expect(check.code).toBe(1);
    // SARIF: the dependencies_changed rule, pointing at the lock's artifact section.
    const sarif = JSON.parse(readFileSync(join(work, "check.sarif"), "utf8")) as {
      runs: { results: { ruleId: string; level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    const result = sarif.runs[0]?.results.find((item) => item.ruleId === "dependencies_changed");
    expect(result?.level).toBe("error");
    const artifactLine =
      readFileSync(join(work, "mcp-lint.lock"), "utf8")
        .split("\n")
        .findIndex((line) => line === '  "artifact": {') + 1;
    expect(result?.locations[0]?.physicalLocation.region.startLine).toBe(artifactLine);
    // The tools are the same; the only changes are in what runs.
    expect(check.out).not.toMatch(/tool_added|description_changed|schema_/);
    expect(check.out).toMatch(
      /error +dependencies_changed +the dependency tree npm installs changed \(1 changed, 0 added, 0 removed\): helper 1\.0\.0 -> 1\.0\.1 \(install script added\)/,
    );
    expect(check.out).toContain("1 error, 0 warnings, 0 info");

    // lock refuses to record it without --accept, and the lock keeps the old tree.
    const refused = mcpLint(["lock", "--", "npx", "-y", "server@1.0.0"]);
    expect(refused.code).toBe(1);
    expect(lockJson().artifact.tree["node_modules/helper"]).toMatch(/^helper@1\.0\.0 /);

    // npx itself now runs helper 1.0.1; proxy --pinned runs the locked tree, helper 1.0.0, with no install script run.
    const cache = join(work, "xdg-cache");
    const env = Object.fromEntries(
      Object.entries(registry.env({ XDG_CACHE_HOME: cache })).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    // A machine whose npx cache does not hold server@1.0.0 yet (npx reuses a complete install it has).
    const freshCache = mkdtempSync(join(tmpdir(), "mcp-lint-npx-cache-"));
    const direct = await connectProxy(["--pass-env", "npm_config_cache", "--", "npx", "-y", "server@1.0.0"], {
      cwd: work,
      env: { ...env, npm_config_cache: freshCache },
    });
    const pinned = await connectProxy(["--lock", join(work, "mcp-lint.lock"), "--pinned", "--", "npx", "-y", "server@1.0.0"], { cwd: work, env });
    try {
      const versions = async (client: typeof pinned.client) => {
        const result = (await client.callTool({ name: "dependency_versions", arguments: {} })) as { content: { text: string }[] };
        return result.content.map((block) => block.text).join("\n");
      };
      expect(await versions(direct.client)).toContain("helper@1.0.1");
      expect(await versions(pinned.client)).toBe("helper@1.0.0");
      expect((await pinned.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["dependency_versions", "echo"]);
    } finally {
      await direct.close();
      await pinned.close();
      rmSync(freshCache, { recursive: true, force: true });
    }
    const installed = readdirSync(join(cache, "mcp-lint", "artifacts")).filter((name) => /^[0-9a-f]{64}$/.test(name));
    expect(installed).toHaveLength(1);
    expect(existsSync(join(cache, "mcp-lint", "artifacts", installed[0] as string, "ran-postinstall"))).toBe(false);
  }, 240_000);

  it("the same version served with another tarball: artifact_changed", async () => {
    rmSync(join(work, "mcp-lint.lock"), { force: true });
    await publish(registry, mcpServerPackage("swapped", "1.0.0", {}));
    expect(mcpLint(["lock", "--lock", "swapped.lock", "--", "npx", "-y", "swapped@1.0.0"]).code).toBe(0);
    const before = lockJson("swapped.lock").artifact.integrity;
    const contents = mcpServerPackage("swapped", "1.0.0", {});
    contents.files["extra.js"] = "// not what was reviewed\n";
    await replaceTarball(registry, contents);
    // A fresh npm cache: npm keys tarballs by integrity, and the old one would be served from the cache.
    const fresh = mkdtempSync(join(tmpdir(), "mcp-lint-npm-cache-"));
    try {
      const check = mcpLint(["lock", "--check", "--lock", "swapped.lock", "--", "npx", "-y", "swapped@1.0.0"], registry.env({ npm_config_cache: fresh }));
      expect(check.code).toBe(1);
      expect(check.out).toMatch(/error +artifact_changed +swapped@1\.0\.0 is another tarball/);
      expect(check.out).toContain(`swapped@1.0.0 is another tarball under the same version: integrity ${before} -> `);
      // The pinned proxy refuses to run the swapped tarball: one line, exit 2, nothing started or left in its cache.
      const xdg = join(fresh, "xdg");
      const proxy = mcpLint(
        ["proxy", "--lock", "swapped.lock", "--pinned", "--", "npx", "-y", "swapped@1.0.0"],
        registry.env({ npm_config_cache: fresh, XDG_CACHE_HOME: xdg }),
      );
      expect(proxy.code).toBe(2);
      expect(proxy.err).toMatch(/^mcp-lint: cannot install the locked tree exactly: swapped@1\.0\.0 .*integrity.*\n$/);
      expect(proxy.err.split("\n")).toHaveLength(2);
      expect(
        existsSync(join(xdg, "mcp-lint", "artifacts")) ? readdirSync(join(xdg, "mcp-lint", "artifacts")).filter((name) => /^[0-9a-f]{64}$/.test(name)) : [],
      ).toEqual([]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 240_000);

  it("an unpinned launch that now resolves to a new release: artifact_changed naming both versions", async () => {
    await publish(registry, mcpServerPackage("moving", "1.0.0", {}));
    expect(mcpLint(["lock", "--lock", "moving.lock", "--", "npx", "-y", "moving"]).code).toBe(0);
    await publish(registry, mcpServerPackage("moving", "1.1.0", {}));
    const check = mcpLint(["lock", "--check", "--lock", "moving.lock", "--", "npx", "-y", "moving"]);
    expect(check.code).toBe(1);
    expect(check.out).toContain("the launch runs moving@1.1.0, not the locked moving@1.0.0");
  }, 240_000);

  it("wrap --pin writes proxy --pinned for an npx entry, and the wrapped entry keeps running the locked tree", async () => {
    await publish(registry, { name: "wrapdep", version: "1.0.0", files: { "index.js": "module.exports = 1;\n" } });
    await publish(registry, mcpServerPackage("wrapsrv", "1.0.0", { wrapdep: "^1.0.0" }));
    const folder = mkdtempSync(join(work, "wrap-"));
    const config = join(folder, "claude_desktop_config.json");
    writeFileSync(config, `${JSON.stringify({ mcpServers: { pinned: { command: "npx", args: ["-y", "wrapsrv@1.0.0"] } } }, null, 2)}\n`);
    const wrapped = spawnSync(process.execPath, [cli, "wrap", "--pin", "--lock-dir", join(folder, "locks"), config], {
      cwd: folder,
      env: { ...registry.env(), NO_COLOR: "1" },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(`${wrapped.stdout}${wrapped.stderr}`).toContain('wrapped server "pinned"');
    const entry = (JSON.parse(readFileSync(config, "utf8")) as { mcpServers: { pinned: { command: string; args: string[] } } }).mcpServers.pinned;
    expect(entry.args.slice(entry.args.indexOf("--") - 1)).toEqual(["--pinned", "--", "npx", "-y", "wrapsrv@1.0.0"]);

    await publish(registry, { name: "wrapdep", version: "1.0.1", files: { "index.js": "module.exports = 2;\n" } });
    const env = Object.fromEntries(
      Object.entries(registry.env({ XDG_CACHE_HOME: join(folder, "xdg") })).filter((item): item is [string, string] => item[1] !== undefined),
    );
    const running = await connectProxy([], { cwd: folder, env, argv: [entry.command, ...entry.args] });
    try {
      const result = (await running.client.callTool({ name: "dependency_versions", arguments: {} })) as { content: { text: string }[] };
      expect(result.content.map((block) => block.text).join("\n")).toBe("wrapdep@1.0.0");
    } finally {
      await running.close();
    }
  }, 240_000);

  it("a new release without the provenance and signature its predecessor had: provenance_changed (fixture trust the check is told to use)", async () => {
    const keys = makeKeys();
    const registryKey = makeKeys();
    const trustDir = mkdtempSync(join(work, "trust-"));
    writeFileSync(join(trustDir, "root.json"), JSON.stringify(trustedRootFor(keys)));
    writeFileSync(join(trustDir, "keys.json"), JSON.stringify({ keys: [registryKeyFor(keys.signerPublic), registryKeyFor(registryKey.signerPublic)] }));
    const trustFlags = ["--registry-keys", join(trustDir, "keys.json"), "--trusted-root", join(trustDir, "root.json")];

    await publish(registry, mcpServerPackage("attested", "1.0.0", {}));
    const integrity = ((await packument(registry, "attested")) as { versions: Record<string, { dist: { integrity: string } }> }).versions["1.0.0"]?.dist
      .integrity as string;
    const build = {
      name: "attested",
      version: "1.0.0",
      sha512Hex: Buffer.from(integrity.slice("sha512-".length), "base64").toString("hex"),
      repository: "https://github.com/owner/attested",
      workflow: ".github/workflows/release.yml",
      ref: "refs/tags/v1.0.0",
      builder: "https://github.com/actions/runner/github-hosted",
    };
    const url = storeFile(registry, "attested", "attestations-1.0.0.json", JSON.stringify(attestationsDocument(makeBundle(keys, build))));
    setDistField(registry, "attested", "1.0.0", "attestations", { url, provenance: { predicateType: SLSA_V1 } });
    setDistField(registry, "attested", "1.0.0", "signatures", [
      registrySignature(registryKey.signer, registryKey.signerPublic, "attested", "1.0.0", integrity),
    ]);

    const locked = mcpLint(["lock", "--lock", "attested.lock", ...trustFlags, "--", "npx", "-y", "attested"]);
    expect(locked.code).toBe(0);
    expect(locked.out).toContain("runs: npm attested@1.0.0, 1 package (tree ");
    expect(locked.out).toContain("built by https://github.com/owner/attested .github/workflows/release.yml, registry signature verified");
    const provenance = (JSON.parse(readFileSync(join(work, "attested.lock"), "utf8")) as { artifact: { provenance: unknown } }).artifact.provenance;
    expect(provenance).toEqual({ builder: build.builder, ref: build.ref, repository: build.repository, workflow: build.workflow });
    // Unchanged: no change.
    expect(mcpLint(["lock", "--check", "--lock", "attested.lock", ...trustFlags, "--", "npx", "-y", "attested"]).code).toBe(0);

    // Published from a stolen token: no provenance, no registry signature.
    await publish(registry, mcpServerPackage("attested", "1.0.1", {}));
    const check = mcpLint(["lock", "--check", "--lock", "attested.lock", ...trustFlags, "--", "npx", "-y", "attested"]);
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/error +artifact_changed +the launch runs attested@1\.0\.1, not the locked attested@1\.0\.0/);
    expect(check.out).toMatch(
      /error +provenance_changed +this release has no provenance; the locked one was built by https:\/\/github\.com\/owner\/attested \.github\/workflows\/release\.yml/,
    );

    // An attestation that does not verify (signed by a key nobody trusts) refuses the run: exit 2, one line.
    const stranger = makeKeys();
    const forged = storeFile(
      registry,
      "attested",
      "attestations-1.0.1.json",
      JSON.stringify(attestationsDocument(makeBundle(stranger, { ...build, version: "1.0.1" }))),
    );
    setDistField(registry, "attested", "1.0.1", "attestations", { url: forged, provenance: { predicateType: SLSA_V1 } });
    const refused = mcpLint(["lock", "--check", "--lock", "attested.lock", ...trustFlags, "--", "npx", "-y", "attested"]);
    expect(refused.code).toBe(2);
    const last = refused.err.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(/^mcp-lint: attested@1\.0\.1.*verif/);
    expect(refused.err).not.toMatch(/\n\s+at /);
  }, 240_000);

  it("--no-artifact neither records nor checks it", () => {
    expect(mcpLint(["lock", "--no-artifact", "--lock", "bare.lock", "--", "npx", "-y", "server@1.0.0"]).code).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(work, "bare.lock"), "utf8")))).not.toContain("artifact");
  }, 120_000);
});
