import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  attestationsLocation,
  checkRegistrySignature,
  loadSigstoreTrust,
  MAX_ATTESTATIONS,
  parseRegistryKeys,
  type SigstoreTrust,
  trustFromRootJson,
  verifyAttestations,
} from "../../../src/artifact/provenance.js";
import { ArtifactTrustError, type ArtifactTrustCode } from "../../../src/errors.js";
import {
  acmeBuild,
  attestationsDocument,
  INTEGRATED_TIME,
  integrityOf,
  makeBundle,
  makeKeys,
  registryKeyFor,
  registrySignature,
  SLSA_V1,
  statementFor,
  trustedRootFor,
} from "../../fixtures/provenance/attest.js";

/** The ArtifactTrustError a call throws (failing the test when it throws nothing or something else). */
function trustFailure(call: () => unknown): ArtifactTrustError {
  try {
    call();
  } catch (error) {
    if (error instanceof ArtifactTrustError) return error;
    throw error;
  }
  throw new Error("expected an ArtifactTrustError, but the call returned");
}

function expectFailure(call: () => unknown, code: ArtifactTrustCode, words: RegExp): void {
  const error = trustFailure(call);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(words);
  // One line, as the CLI prints it.
  expect(error.message).not.toMatch(/[\n\r]/);
}

const tarball = integrityOf("the tarball of @acme/files-server 1.2.3");
const build = acmeBuild(tarball.sha512Hex);
const release = { name: build.name, version: build.version, integrity: tarball.integrity };
const keys = makeKeys();
const fixtureTrust: SigstoreTrust = trustFromRootJson(trustedRootFor(keys), [registryKeyFor(keys.signerPublic)]);
const verify = (document: unknown, trust: SigstoreTrust = fixtureTrust, target = release) => verifyAttestations(target, document, trust);

describe("provenance of a key-signed fixture bundle", () => {
  it("verifies and yields the build identity from its SLSA v1 predicate", () => {
    expect(verify(attestationsDocument(makeBundle(keys, build)))).toEqual({
      repository: "https://github.com/acme/files-server",
      workflow: ".github/workflows/release.yml",
      ref: "refs/tags/v1.2.3",
      builder: "https://github.com/actions/runner/github-hosted",
    });
  });

  it("is null when the document holds no provenance (a publish attestation only)", () => {
    const publishOnly = {
      attestations: [{ predicateType: "https://github.com/npm/attestation/tree/main/specs/publish/v0.1", bundle: makeBundle(keys, build) }],
    };
    expect(verify(publishOnly)).toBeNull();
  });

  it("a tampered payload does not verify", () => {
    const bundle = makeBundle(keys, build);
    const envelope = bundle.dsseEnvelope as { payload: string };
    const statement = statementFor({ ...build, repository: "https://github.com/attacker/files-server" });
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString("base64");
    expectFailure(
      () => verify(attestationsDocument(bundle)),
      "attestation_unverified",
      /@acme\/files-server@1\.2\.3: its provenance attestation does not verify/,
    );
  });

  it("a statement about another package is refused", () => {
    const other = makeBundle(keys, { ...build, name: "@acme/other-server" });
    expectFailure(
      () => verify(attestationsDocument(other)),
      "attestation_subject",
      /is about "pkg:npm\/%40acme\/other-server@1\.2\.3", not pkg:npm\/%40acme\/files-server@1\.2\.3/,
    );
  });

  it("a statement about another version is refused", () => {
    const other = makeBundle(keys, { ...build, version: "1.2.4" });
    expectFailure(() => verify(attestationsDocument(other)), "attestation_subject", /is about "pkg:npm\/%40acme\/files-server@1\.2\.4"/);
  });

  it("a statement about another tarball (digest) is refused", () => {
    const other = makeBundle(keys, { ...build, sha512Hex: integrityOf("a different tarball").sha512Hex });
    expectFailure(
      () => verify(attestationsDocument(other)),
      "attestation_subject",
      /signs a tarball with sha512 "[0-9a-f]{16}"\.\.\., not the registry's [0-9a-f]{16}\.\.\./,
    );
  });

  it("a bundle signed by a key the registry does not list does not verify", () => {
    const stranger = makeKeys();
    const bundle = makeBundle({ ...keys, signer: stranger.signer, signerPublic: stranger.signerPublic }, build);
    expectFailure(() => verify(attestationsDocument(bundle)), "attestation_unverified", /does not verify \(PUBLIC_KEY_ERROR: key not found: "SHA256:/);
  });

  it("a key that had expired when the entry was logged does not verify", () => {
    const expired = new Date((INTEGRATED_TIME - 60) * 1000).toISOString();
    const trust = trustFromRootJson(trustedRootFor(keys), [registryKeyFor(keys.signerPublic, expired)]);
    expectFailure(() => verify(attestationsDocument(makeBundle(keys, build)), trust), "attestation_unverified", /PUBLIC_KEY_ERROR: Public key is not valid/);
    const later = new Date((INTEGRATED_TIME + 60) * 1000).toISOString();
    const stillValid = trustFromRootJson(trustedRootFor(keys), [registryKeyFor(keys.signerPublic, later)]);
    expect(verify(attestationsDocument(makeBundle(keys, build)), stillValid)?.repository).toBe(build.repository);
  });

  it("an inclusion promise (SET) not signed by the log does not verify", () => {
    expectFailure(() => verify(attestationsDocument(makeBundle(keys, build, { badSet: true }))), "attestation_unverified", /TLOG_INCLUSION_PROMISE_ERROR/);
  });

  it("an entry logged by a log the trusted root does not name does not verify", () => {
    const otherLog = makeKeys();
    const trust = trustFromRootJson(trustedRootFor(otherLog), [registryKeyFor(keys.signerPublic)]);
    expectFailure(() => verify(attestationsDocument(makeBundle(keys, build)), trust), "attestation_unverified", /does not verify/);
  });

  it("a second provenance bundle claiming another repository fails closed", () => {
    const document = attestationsDocument(makeBundle(keys, build), makeBundle(keys, { ...build, repository: "https://github.com/attacker/files-server" }));
    expectFailure(
      () => verify(document),
      "provenance_mismatch",
      /two provenance attestations name different builds \("https:\/\/github.com\/acme\/files-server".*"https:\/\/github.com\/attacker\/files-server"/,
    );
  });

  it("two provenance bundles naming the same build are one identity", () => {
    expect(verify(attestationsDocument(makeBundle(keys, build), makeBundle(keys, build)))?.workflow).toBe(build.workflow);
  });

  it("a key-signed provenance is refused under the public-good root: only a CI certificate may name a repository there", () => {
    const publicGood: SigstoreTrust = { ...fixtureTrust, source: "embedded" };
    expectFailure(
      () => verify(attestationsDocument(makeBundle(keys, build)), publicGood),
      "attestation_unverified",
      /signed by a key, not by a CI identity certificate/,
    );
  });

  it("an attestation listed under one predicate type but signing another is refused", () => {
    const document = { attestations: [{ predicateType: "https://slsa.dev/provenance/v0.2", bundle: makeBundle(keys, build) }] };
    expectFailure(
      () => verify(document),
      "attestation_malformed",
      /listed as "https:\/\/slsa.dev\/provenance\/v0.2" but signs "https:\/\/slsa.dev\/provenance\/v1"/,
    );
  });

  it("a statement with two subjects is refused (npm attests exactly one)", () => {
    const statement = statementFor(build);
    statement.subject = [...(statement.subject as unknown[]), { name: "pkg:npm/other@1.0.0", digest: { sha512: "00" } }];
    expectFailure(() => verify(attestationsDocument(makeBundle(keys, build, { statement }))), "attestation_malformed", /does not name exactly one subject/);
  });

  it("a signed statement with a repeated key is refused, so no reader can see another subject than this one", () => {
    const text = JSON.stringify(statementFor(build)).replace('"_type"', '"subject":[{"name":"pkg:npm/x@1.0.0","digest":{"sha512":"00"}}],"_type"');
    expectFailure(
      () => verify(attestationsDocument(makeBundle(keys, build, { statement: text }))),
      "attestation_malformed",
      /statement is not JSON \(statement: duplicate key "subject"/,
    );
  });

  it("a document that is not npm's shape is refused", () => {
    expectFailure(() => verify({ attestations: "none" }), "attestation_malformed", /no attestations array/);
    expectFailure(() => verify({ attestations: [{ predicateType: SLSA_V1 }] }), "attestation_malformed", /attestation 1 has no predicateType and bundle/);
    expectFailure(
      () => verify({ attestations: [{ predicateType: SLSA_V1, bundle: { mediaType: "nonsense" } }] }),
      "attestation_malformed",
      /is not a Sigstore bundle/,
    );
  });

  it("a document with more attestations than the bound is refused before any is verified", () => {
    const many = { attestations: Array.from({ length: MAX_ATTESTATIONS + 1 }, () => ({ predicateType: SLSA_V1, bundle: {} })) };
    expectFailure(() => verify(many), "attestation_malformed", new RegExp(`holds ${MAX_ATTESTATIONS + 1} attestations; at most ${MAX_ATTESTATIONS}`));
  });

  it("a build field longer than the bound is refused", () => {
    const long = makeBundle(keys, { ...build, workflow: `.github/workflows/${"x".repeat(3000)}.yml` });
    expectFailure(() => verify(attestationsDocument(long)), "attestation_malformed", /longer than 2048 characters/);
  });

  it("hostile subject text reaches the message escaped and cut short", () => {
    const statement = statementFor(build);
    statement.subject = [{ name: `pkg:npm/evil\u001b[2J\n::error::owned${"y".repeat(500)}`, digest: { sha512: build.sha512Hex } }];
    const error = trustFailure(() => verify(attestationsDocument(makeBundle(keys, build, { statement }))));
    expect(error.code).toBe("attestation_subject");
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.message).toContain("\\u001b[2J\\n::error::owned");
    expect(error.message.length).toBeLessThan(400);
  });

  it("a release with no sha512 integrity cannot match any attestation", () => {
    const sha1Only = { ...release, integrity: "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=" };
    expectFailure(() => verify(attestationsDocument(makeBundle(keys, build)), fixtureTrust, sha1Only), "attestation_subject", /gives no sha512 integrity/);
  });
});

describe("a real npm provenance (sigstore@0.4.0: SLSA v0.2, Fulcio certificate, Rekor)", () => {
  // The public-good trusted root that @sigstore/tuf embeds, used as a file would be: no network.
  const seeds = createRequire(import.meta.url)("@sigstore/tuf/seeds.json") as Record<string, { targets: Record<string, string> }>;
  const encoded = seeds["https://tuf-repo-cdn.sigstore.dev"]?.targets["trusted_root.json"] ?? "";
  const publicGood = trustFromRootJson(JSON.parse(Buffer.from(encoded, "base64").toString("utf8")), null);
  const document = JSON.parse(readFileSync(new URL("../../fixtures/provenance/real/sigstore-0.4.0.attestations.json", import.meta.url), "utf8")) as {
    attestations: Array<{ bundle: { dsseEnvelope: { payload: string } } }>;
  };
  // The registry's dist.integrity of sigstore@0.4.0.
  const real = {
    name: "sigstore",
    version: "0.4.0",
    integrity: "sha512-KCwMX6k20mQyFkNYG2XT3lwK9u1P36wS9YURFd85zCXPrwrSLZCEh7/vMBFNYcJXRiBtGDS+T4/RZZF493zABA==",
  };

  it("verifies, and the certificate and the predicate agree on the build", () => {
    expect(verifyAttestations(real, document, publicGood)).toEqual({
      repository: "https://github.com/sigstore/sigstore-js",
      workflow: ".github/workflows/publish.yml",
      ref: "refs/tags/v0.4.0",
      builder: "https://github.com/npm/cli@9.2.0",
    });
  });

  it("a changed statement no longer verifies", () => {
    const tampered = structuredClone(document);
    const entry = tampered.attestations[0];
    if (entry === undefined) throw new Error("fixture has no provenance");
    const statement = Buffer.from(entry.bundle.dsseEnvelope.payload, "base64").toString("utf8").replace("sigstore/sigstore-js", "attacker/sigstore-js");
    entry.bundle.dsseEnvelope.payload = Buffer.from(statement).toString("base64");
    expectFailure(
      () => verifyAttestations(real, tampered, publicGood),
      "attestation_unverified",
      /sigstore@0\.4\.0: its provenance attestation does not verify/,
    );
  });

  it("is not the provenance of another version", () => {
    expectFailure(
      () => verifyAttestations({ ...real, version: "0.4.1" }, document, publicGood),
      "attestation_subject",
      /is about "pkg:npm\/sigstore@0\.4\.0", not pkg:npm\/sigstore@0\.4\.1/,
    );
  });

  it("does not verify against a root that does not hold Sigstore's CA and log", () => {
    expectFailure(() => verifyAttestations(real, document, fixtureTrust), "attestation_unverified", /does not verify/);
  });
});

describe("registry signatures", () => {
  const registry = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const key = registryKeyFor(registry.publicKey);
  const signed = (integrity = tarball.integrity) => ({
    ...release,
    publishedAt: "2026-03-01T12:00:00.000Z",
    signatures: [registrySignature(registry.privateKey, registry.publicKey, release.name, release.version, integrity)],
  });

  it("verified: a listed key signs name@version:integrity", () => {
    expect(checkRegistrySignature(signed(), [key])).toBe("verified");
  });

  it("absent: the release carries no signatures", () => {
    expect(checkRegistrySignature({ ...signed(), signatures: undefined }, [key])).toBe("absent");
    expect(checkRegistrySignature({ ...signed(), signatures: [] }, [key])).toBe("absent");
  });

  it("unchecked: signatures but no keys known", () => {
    expect(checkRegistrySignature(signed(), null)).toBe("unchecked");
    expect(checkRegistrySignature(signed(), [])).toBe("unchecked");
  });

  it("invalid: the signature is over another integrity", () => {
    const moved = { ...signed(integrityOf("another tarball").integrity), integrity: tarball.integrity };
    expectFailure(
      () => checkRegistrySignature(moved, [key]),
      "signature_invalid",
      /@acme\/files-server@1\.2\.3: its registry signature does not verify with key "SHA256:/,
    );
  });

  it("invalid: a signature that is not ECDSA at all", () => {
    const garbage = { ...signed(), signatures: [{ keyid: key.keyid, sig: Buffer.from("not a signature").toString("base64") }] };
    expectFailure(() => checkRegistrySignature(garbage, [key]), "signature_invalid", /does not verify/);
  });

  it("a signature by a key the registry does not list, while it lists others, is refused", () => {
    const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const foreign = {
      ...release,
      publishedAt: null,
      signatures: [registrySignature(stranger.privateKey, stranger.publicKey, release.name, release.version, release.integrity)],
    };
    expectFailure(() => checkRegistrySignature(foreign, [key]), "signature_key_unknown", /names key "SHA256:.*", which the registry does not list/);
  });

  it("a key that expired before the release was published is refused; one that expired after is fine", () => {
    const expiredBefore = registryKeyFor(registry.publicKey, "2026-01-01T00:00:00.000Z");
    expectFailure(
      () => checkRegistrySignature(signed(), [expiredBefore]),
      "signature_key_expired",
      /expired 2026-01-01T00:00:00.000Z, before the release was published/,
    );
    expect(checkRegistrySignature(signed(), [registryKeyFor(registry.publicKey, "2026-06-01T00:00:00.000Z")])).toBe("verified");
  });

  it("signatures that are not npm's shape are refused", () => {
    expectFailure(() => checkRegistrySignature({ ...signed(), signatures: "sig" }, [key]), "signature_malformed", /are not a list/);
    expectFailure(() => checkRegistrySignature({ ...signed(), signatures: [{ keyid: 1 }] }, [key]), "signature_malformed", /without a keyid and a sig/);
    expectFailure(() => checkRegistrySignature({ ...signed(), integrity: null }, [key]), "signature_malformed", /gives no integrity/);
  });
});

describe("registry keys", () => {
  const good = registryKeyFor(generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey, "2025-01-29T00:00:00.000Z");

  it("reads npm's keys document", () => {
    expect(parseRegistryKeys({ keys: [good, { ...registryKeyFor(makeKeys().signerPublic), expires: null }] })).toHaveLength(2);
    expect(parseRegistryKeys({ keys: [good] })).toEqual([good]);
  });

  it("refuses what is not one", () => {
    expectFailure(() => parseRegistryKeys([]), "signature_malformed", /expected an object with a keys array/);
    expectFailure(() => parseRegistryKeys({ keys: {} }), "signature_malformed", /"keys" is not an array/);
    expectFailure(() => parseRegistryKeys({ keys: [{ ...good, keyid: "" }] }), "signature_malformed", /key 1 has no usable "keyid"/);
    expectFailure(() => parseRegistryKeys({ keys: [{ ...good, expires: "soon" }] }), "signature_malformed", /"expires" that is not a date/);
    expectFailure(() => parseRegistryKeys({ keys: [good, good] }), "signature_malformed", /repeats keyid/);
    expectFailure(() => parseRegistryKeys({ keys: [{ ...good, key: "bm90IGEga2V5" }] }), "signature_malformed", /is not a public key/);
    expectFailure(() => parseRegistryKeys({ keys: Array.from({ length: 33 }, () => good) }), "signature_malformed", /33 keys; at most 32/);
  });
});

describe("trusted roots", () => {
  const dir = mkdtempSync(join(tmpdir(), "mcp-lint-trust-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a trusted root file is read as given", async () => {
    const file = join(dir, "root.json");
    writeFileSync(file, JSON.stringify(trustedRootFor(keys)));
    const trust = await loadSigstoreTrust({ trustedRootFile: file, registryKeys: [registryKeyFor(keys.signerPublic)], tufCachePath: join(dir, "tuf") });
    expect(trust.source).toBe("file");
    expect(verify(attestationsDocument(makeBundle(keys, build)), trust)?.repository).toBe(build.repository);
  });

  it("a missing, non-JSON or empty trusted root is refused with one line", async () => {
    const refused = async (file: string, words: RegExp) => {
      const error = await loadSigstoreTrust({ trustedRootFile: file, registryKeys: null, tufCachePath: join(dir, "tuf") }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ArtifactTrustError);
      expect((error as ArtifactTrustError).code).toBe("trusted_root_invalid");
      expect((error as ArtifactTrustError).message).toMatch(words);
    };
    await refused(join(dir, "absent.json"), /cannot read the trusted root .*absent\.json: ENOENT/);
    writeFileSync(join(dir, "text.json"), "not json");
    await refused(join(dir, "text.json"), /the trusted root is not JSON/);
    writeFileSync(join(dir, "empty.json"), JSON.stringify({ mediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1", tlogs: [] }));
    await refused(join(dir, "empty.json"), /lists no transparency log/);
  });

  it("a log key that is not a key is refused when the root is read", () => {
    const root = trustedRootFor(keys) as { tlogs: Array<{ publicKey: { rawBytes: string } }> };
    const first = root.tlogs[0];
    if (first === undefined) throw new Error("fixture root has no log");
    first.publicKey.rawBytes = Buffer.from("not a key").toString("base64");
    expectFailure(() => trustFromRootJson(root, null), "trusted_root_invalid", /cannot be read/);
  });
});

describe("where attestations are fetched from", () => {
  it("the path npm gave, on the registry in use, never the host the metadata names", () => {
    expect(attestationsLocation("https://registry.npmjs.org/-/npm/v1/attestations/@acme%2ffiles-server@1.2.3", "http://127.0.0.1:4873/")).toBe(
      "http://127.0.0.1:4873/-/npm/v1/attestations/@acme%2ffiles-server@1.2.3",
    );
    expect(attestationsLocation("https://attacker.example/-/npm/v1/attestations/x@1.0.0?redirect=1", "https://registry.npmjs.org")).toBe(
      "https://registry.npmjs.org/-/npm/v1/attestations/x@1.0.0",
    );
    expectFailure(() => attestationsLocation("not a url", "https://registry.npmjs.org/"), "attestation_malformed", /is not a URL/);
  });
});
