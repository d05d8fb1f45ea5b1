// Registry signatures and provenance against real registries: the npm registry this machine
// reaches (registry.npmjs.org), and a registry on 127.0.0.1 serving npm's keys and attestations
// endpoints with fixture data. Every npm call gets a temporary cache; the TUF cache is temporary too.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import pacote from "pacote";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AttestedRelease,
  checkRegistrySignature,
  fetchRegistryKeys,
  loadSigstoreTrust,
  type RegistryKey,
  readProvenance,
  type SigstoreTrust,
  trustFromRootJson,
  verifyAttestations,
} from "../../src/artifact/provenance.js";
import type { ProvenanceIdentity } from "../../src/artifact/types.js";
import { ArtifactTrustError, RegistryError } from "../../src/errors.js";
import { acmeBuild, attestationsDocument, integrityOf, makeBundle, makeKeys, registryKeyFor, trustedRootFor } from "../fixtures/provenance/attest.js";
import { tempDir } from "./helpers.js";

const NPM = "https://registry.npmjs.org/";
/** npm's current registry signing key (the one that replaced SHA256:jl3bw... in January 2025). */
const NPM_KEY = "SHA256:DhQ8wR5APBvFHLF/+Tc+AYvPOdTpcIDqOhxsBHRwC7U";

/** A release as the registry's full manifest describes it. */
async function manifestOf(spec: string, cache: string) {
  const manifest = await pacote.manifest(spec, { registry: NPM, cache, fullMetadata: true });
  const dist = manifest.dist as { integrity?: string; signatures?: unknown; attestations?: { url?: string } };
  return {
    name: manifest.name,
    version: manifest.version,
    integrity: dist.integrity ?? null,
    signatures: dist.signatures,
    attestationsUrl: dist.attestations?.url ?? null,
    publishedAt: typeof manifest._time === "string" ? manifest._time : null,
  };
}

describe("the npm registry", () => {
  const cache = tempDir();
  let keys: RegistryKey[] | null = null;
  let trust: SigstoreTrust;

  beforeAll(async () => {
    keys = await fetchRegistryKeys(NPM, { cache, retry: { retries: 1 } });
    trust = await loadSigstoreTrust({ registryKeys: keys, tufCachePath: join(tempDir(), "tuf") });
  });

  it("lists npm's signing keys, or none at all (a mirror that serves no /-/npm/v1/keys)", () => {
    if (keys !== null) expect(keys.map((key) => key.keyid)).toContain(NPM_KEY);
    else expect(keys).toBeNull();
  });

  it("the public-good Sigstore root loads without the TUF repository (the embedded copy when it cannot be reached)", () => {
    expect(["tuf", "embedded"]).toContain(trust.source);
    expect(trust.trustedRoot.tlogs.some((log) => log.baseUrl === "https://rekor.sigstore.dev")).toBe(true);
    expect(trust.trustedRoot.certificateAuthorities.length).toBeGreaterThan(0);
  });

  // What each release says depends on what this registry serves: registry.npmjs.org itself signs
  // every release and serves attestations; a mirror may strip both. Each case checks the outcome
  // that matches what was served, so none passes by default.
  const releases: Array<{ spec: string; builtBy: Pick<ProvenanceIdentity, "repository" | "workflow"> | null }> = [
    // Published from the servers monorepo's release workflow with provenance (trusted publishing).
    {
      spec: "@modelcontextprotocol/server-filesystem@2026.1.14",
      builtBy: { repository: "https://github.com/modelcontextprotocol/servers", workflow: ".github/workflows/release.yml" },
    },
    // An early release, published from a laptop: no provenance.
    { spec: "@modelcontextprotocol/server-filesystem@0.5.1", builtBy: null },
    { spec: "sigstore@0.4.0", builtBy: { repository: "https://github.com/sigstore/sigstore-js", workflow: ".github/workflows/publish.yml" } },
    { spec: "sigstore@4.1.1", builtBy: { repository: "https://github.com/sigstore/sigstore-js", workflow: ".github/workflows/release.yml" } },
  ];

  for (const { spec, builtBy } of releases) {
    it(`${spec}: the registry signature and the provenance are what the registry serves, verified`, async () => {
      const release = await manifestOf(spec, cache);
      expect(release.integrity).toMatch(/^sha512-/);
      const signature = checkRegistrySignature(release, keys);
      expect(signature).toBe(release.signatures === undefined ? "absent" : keys === null ? "unchecked" : "verified");
      const provenance = await readProvenance(
        { ...release, integrity: release.integrity ?? "" },
        { registry: NPM, fetchOptions: { cache, retry: { retries: 1 } }, trust },
      );
      if (release.attestationsUrl === null || builtBy === null) {
        expect(provenance).toBeNull();
        if (builtBy === null) expect(release.attestationsUrl).toBeNull();
      } else {
        expect(provenance).toMatchObject(builtBy);
      }
    });
  }

  it("the stored attestations of sigstore@0.4.0 verify against this registry's tarball integrity and the public-good root", async () => {
    const release = await manifestOf("sigstore@0.4.0", cache);
    const document = JSON.parse(readFileSync(new URL("../fixtures/provenance/real/sigstore-0.4.0.attestations.json", import.meta.url), "utf8")) as unknown;
    expect(verifyAttestations({ ...release, integrity: release.integrity ?? "" }, document, trust)).toEqual({
      repository: "https://github.com/sigstore/sigstore-js",
      workflow: ".github/workflows/publish.yml",
      ref: "refs/tags/v0.4.0",
      builder: "https://github.com/npm/cli@9.2.0",
    });
  });
});

describe("a registry on 127.0.0.1 serving npm's keys and attestations endpoints", () => {
  const keysPair = makeKeys();
  const tarball = integrityOf("tarball of @acme/files-server 1.2.3");
  const build = acmeBuild(tarball.sha512Hex);
  const attestationsPath = "/-/npm/v1/attestations/@acme%2ffiles-server@1.2.3";
  const served = new Map<string, { status: number; body: string }>();
  const requested: string[] = [];
  let server: Server;
  let registry = "";
  const options = () => ({ cache: tempDir(), retry: { retries: 0 } });
  const trust = trustFromRootJson(trustedRootFor(keysPair), [registryKeyFor(keysPair.signerPublic)]);
  const release = (attestationsUrl: string | null): AttestedRelease => ({
    name: build.name,
    version: build.version,
    integrity: tarball.integrity,
    attestationsUrl,
  });

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? "");
      const answer = served.get(request.url ?? "") ?? { status: 404, body: '{"error":"not found"}' };
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(answer.body);
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

  it("reads the keys it lists", async () => {
    const key = registryKeyFor(keysPair.signerPublic);
    served.set("/-/npm/v1/keys", { status: 200, body: JSON.stringify({ keys: [key] }) });
    expect(await fetchRegistryKeys(registry, options())).toEqual([key]);
  });

  it("no keys endpoint (404, 405) is no keys, not an error", async () => {
    served.set("/-/npm/v1/keys", { status: 405, body: "{}" });
    expect(await fetchRegistryKeys(registry, options())).toBeNull();
    served.delete("/-/npm/v1/keys");
    expect(await fetchRegistryKeys(registry, options())).toBeNull();
  });

  it("a failing keys endpoint is a RegistryError naming the host, not a stack", async () => {
    served.set("/-/npm/v1/keys", { status: 500, body: "{}" });
    await expect(fetchRegistryKeys(registry, options())).rejects.toThrow(RegistryError);
    await expect(fetchRegistryKeys(registry, options())).rejects.toThrow(
      /cannot read its signing keys from the registry 127\.0\.0\.1:\d+: it answered HTTP 500/,
    );
  });

  it("an unreachable registry is a RegistryError", async () => {
    const closed = createServer();
    await new Promise<void>((listening) => closed.listen(0, "127.0.0.1", listening));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    await expect(fetchRegistryKeys(`http://127.0.0.1:${port}/`, options())).rejects.toThrow(/it could not be reached \(ECONNREFUSED\)/);
  });

  it("keys that are not npm's shape are refused", async () => {
    served.set("/-/npm/v1/keys", { status: 200, body: '{"keys":[{"keyid":"k"}]}' });
    await expect(fetchRegistryKeys(registry, options())).rejects.toThrow(ArtifactTrustError);
  });

  it("fetches the attestations from the registry in use, even when the metadata names another host", async () => {
    served.set(attestationsPath, { status: 200, body: JSON.stringify(attestationsDocument(makeBundle(keysPair, build))) });
    requested.length = 0;
    const identity = await readProvenance(release(`https://attacker.invalid${attestationsPath}`), { registry, fetchOptions: options(), trust });
    expect(identity).toEqual({ repository: build.repository, workflow: build.workflow, ref: build.ref, builder: build.builder });
    expect(requested).toEqual([attestationsPath]);
  });

  it("a release without attestations asks the registry nothing", async () => {
    requested.length = 0;
    expect(await readProvenance(release(null), { registry, fetchOptions: options(), trust })).toBeNull();
    expect(requested).toEqual([]);
  });

  it("attestations listed but not served fail closed", async () => {
    served.delete(attestationsPath);
    await expect(readProvenance(release(`${registry}${attestationsPath.slice(1)}`), { registry, fetchOptions: options(), trust })).rejects.toThrow(
      /@acme\/files-server@1\.2\.3: the registry lists attestations for it but does not serve them/,
    );
  });

  it("an attestations document larger than the bound is refused before it is parsed", async () => {
    served.set(attestationsPath, { status: 200, body: `{"attestations":[],"padding":"${"x".repeat(1_100_000)}"}` });
    await expect(readProvenance(release(`${registry}${attestationsPath.slice(1)}`), { registry, fetchOptions: options(), trust })).rejects.toThrow(
      /the attestations of @acme\/files-server@1\.2\.3 .*larger than 1048576 bytes/,
    );
  });

  it("a tampered attestation served by the registry is refused", async () => {
    const bundle = makeBundle(keysPair, build, { badSet: true });
    served.set(attestationsPath, { status: 200, body: JSON.stringify(attestationsDocument(bundle)) });
    await expect(readProvenance(release(`${registry}${attestationsPath.slice(1)}`), { registry, fetchOptions: options(), trust })).rejects.toThrow(
      /its provenance attestation does not verify \(TLOG_INCLUSION_PROMISE_ERROR/,
    );
  });
});
