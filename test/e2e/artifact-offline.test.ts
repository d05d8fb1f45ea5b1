// When the registry cannot be reached, the artifact is read from npm's cache and the result says so;
// with nothing cached, resolution is one clear error. A real registry (Verdaccio), stopped mid-test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveArtifact, resolveOrExplain, type TrustCheck } from "../../src/artifact/resolve.js";
import { artifactSource } from "../../src/artifact/source.js";
import { ArtifactError } from "../../src/errors.js";
import { mcpServerPackage, publish, type Registry, startRegistry } from "./registry/verdaccio.js";

const noTrust: TrustCheck = { signature: async () => "absent", provenance: async () => null };
let registry: Registry | undefined;
const cache = mkdtempSync(join(tmpdir(), "mcp-lint-offline-cache-"));

afterAll(async () => {
  await registry?.stop();
  rmSync(cache, { recursive: true, force: true });
});

describe("an unreachable registry", () => {
  it("falls back to npm's cache and says so; a package never cached is a one-line error", async () => {
    registry = await startRegistry();
    await publish(registry, { name: "dep", version: "1.0.0", files: { "index.js": "module.exports = 1;\n" } });
    await publish(registry, mcpServerPackage("offline-server", "1.0.0", { dep: "^1.0.0" }));
    const npm = { registry: registry.url, cache: join(cache, "_cacache") };
    const source = artifactSource(["npx", "-y", "offline-server@1.0.0"]);
    const online = await resolveArtifact(source, npm, noTrust);
    expect(online.offline).toBe(false);
    await registry.stop();

    const offline = await resolveArtifact(source, npm, noTrust, online.artifact);
    expect(offline.offline).toBe(true);
    expect(offline.artifact).toEqual(online.artifact);

    const missing = resolveArtifact(artifactSource(["npx", "-y", "never-published@1.0.0"]), npm, noTrust);
    await expect(missing).rejects.toBeInstanceOf(ArtifactError);
    await expect(missing).rejects.toThrow(/^cannot resolve never-published@1\.0\.0: the registry cannot be reached and npm's cache does not hold it$/);
    // What lock and lock --check call: nothing pinned, and why.
    expect(await resolveOrExplain(artifactSource(["npx", "-y", "never-published@1.0.0"]), npm, noTrust)).toEqual({
      artifact: null,
      unpinned: "cannot resolve never-published@1.0.0: the registry cannot be reached and npm's cache does not hold it",
      offline: false,
    });
  }, 120_000);
});
