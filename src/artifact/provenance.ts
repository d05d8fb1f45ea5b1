/** Is a release signed by its registry, and who built it: npm's registry signatures and Sigstore provenance, verified with npm's own libraries. */

// What npm does (pacote's registry fetcher, `npm audit signatures`), as data for the lock:
// - The registry signs `name@version:integrity` with an ECDSA key it lists at /-/npm/v1/keys.
// - A release built in CI carries `dist.attestations`: a document of Sigstore bundles, one of them
//   an in-toto statement with a SLSA provenance predicate, signed with a short-lived Fulcio
//   certificate that names the CI's repository and workflow, logged in Rekor.
// The Sigstore side (bundle parsing, certificate chain, SCTs, transparency log, DSSE signature) is
// @sigstore/verify with its default thresholds; this module picks the bundle, checks its subject
// is this tarball, and reads the identity (provenance-identity.ts).

import { createPublicKey, createVerify, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import sigstoreBundle from "@sigstore/bundle";
import protobufSpecs, { type TrustedRoot } from "@sigstore/protobuf-specs";
import tuf from "@sigstore/tuf";
import sigstoreVerify, { type Signer, type TrustMaterial } from "@sigstore/verify";
import npa from "npm-package-arg";
import npmFetch from "npm-registry-fetch";
import ssri from "ssri";
import { ArtifactTrustError, type ArtifactTrustCode, JsonInputError, RegistryError } from "../errors.js";
import { decodeUtf8Strict, parseJsonStrict } from "../json/parse.js";
import { isJsonObject, ownField } from "../json/value.js";
import {
  type CertificateClaims,
  identityFromCertificate,
  identityFromPredicate,
  MAX_IDENTITY_FIELD,
  predicateClaims,
  SLSA_PROVENANCE_V1,
  SLSA_PROVENANCE_V02,
  shown,
} from "./provenance-identity.js";
import type { ProvenanceIdentity, RegistrySignature } from "./types.js";

/** A registry signing key, as npm's `/-/npm/v1/keys` serves it. */
export interface RegistryKey {
  keyid: string;
  keytype: string;
  scheme: string;
  /** Base64 of the public key's SPKI DER. */
  key: string;
  /** When the key stopped signing (ISO 8601); null while it is current. */
  expires: string | null;
}

/** npm-registry-fetch's options (registry, cache, auth, proxy...), passed through as npm would. */
export type RegistryFetchOptions = npmFetch.Options;

/** A release as its registry manifest describes it, for the registry signature. */
export interface SignedRelease {
  name: string;
  version: string;
  /** `dist.integrity` (SRI). */
  integrity: string | null;
  /** `dist.signatures` as served, unchecked. */
  signatures: unknown;
  /** `time[version]` of the packument; null when the registry gives none. */
  publishedAt: string | null;
}

/** A release as its registry manifest describes it, for the provenance. */
export interface AttestedRelease {
  name: string;
  version: string;
  /** `dist.integrity` (SRI); the attestation's subject must carry its sha512. */
  integrity: string;
  /** `dist.attestations.url`, or null when the release has no attestations. */
  attestationsUrl: string | null;
}

/** Where a trusted root came from: a file given by the user, the TUF repository (or its verified cache), or the copy @sigstore/tuf embeds. */
export type TrustedRootSource = "file" | "tuf" | "embedded";

/** What a provenance bundle is verified against. */
export interface SigstoreTrust {
  trustedRoot: TrustedRoot;
  source: TrustedRootSource;
  /** Keys for key-signed bundles, matched by the bundle's key hint (only under a root from a file). */
  keys: RegistryKey[];
}

/** Largest keys document read (npm's is under 1 KB). */
export const MAX_KEYS_BYTES = 64 * 1024;
/** Most keys a registry may list. */
export const MAX_REGISTRY_KEYS = 32;
/** Most signatures one release may carry (npm gives one). */
export const MAX_SIGNATURES = 16;
/** Largest attestations document read (npm's are about 12 KB). */
export const MAX_ATTESTATIONS_BYTES = 1024 * 1024;
/** Most attestations one document may hold (npm publishes two). */
export const MAX_ATTESTATIONS = 16;
/** Largest trusted root file read (the public-good one is about 7 KB). */
export const MAX_TRUSTED_ROOT_BYTES = 1024 * 1024;

/** Releases without a publish time are dated like this, as pacote does, when checking a key's expiry. */
const MISSING_TIME_CUTOFF = "2015-01-01T00:00:00.000Z";
const INTOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";
const INTOTO_STATEMENT_TYPES = new Set(["https://in-toto.io/Statement/v0.1", "https://in-toto.io/Statement/v1"]);
const PROVENANCE_TYPES = new Set([SLSA_PROVENANCE_V1, SLSA_PROVENANCE_V02]);
/** How long the TUF client may wait for the Sigstore TUF repository before the embedded root is used. */
const TUF_TIMEOUT_MS = 5000;

/** The registry's signing keys; null when it serves none (400, 404, 405, as npm treats them). Throws RegistryError when it cannot be read. */
export async function fetchRegistryKeys(registry: string, fetchOptions: RegistryFetchOptions): Promise<RegistryKey[] | null> {
  const url = new URL("-/npm/v1/keys", withTrailingSlash(registry)).href;
  const text = await fetchText(url, fetchOptions, MAX_KEYS_BYTES, "its signing keys");
  if (text === null) return null;
  let json: unknown;
  try {
    json = parseJsonStrict(text, "keys");
  } catch (error) {
    if (error instanceof JsonInputError) throw keysMalformed(`they are not JSON (${error.message})`);
    throw error;
  }
  return parseRegistryKeys(json);
}

/** Check a keys document (`{ keys: [...] }`) and return its keys. Throws ArtifactTrustError (signature_malformed). Pure. */
export function parseRegistryKeys(json: unknown): RegistryKey[] {
  if (!isJsonObject(json)) throw keysMalformed("expected an object with a keys array");
  const list = ownField(json, "keys");
  if (!Array.isArray(list)) throw keysMalformed('"keys" is not an array');
  if (list.length > MAX_REGISTRY_KEYS) throw keysMalformed(`${list.length} keys; at most ${MAX_REGISTRY_KEYS} are read`);
  const seen = new Set<string>();
  return list.map((entry: unknown, index) => {
    const where = `key ${index + 1}`;
    if (!isJsonObject(entry)) throw keysMalformed(`${where} is not an object`);
    const text = (name: string, limit: number): string => {
      const value = ownField(entry, name);
      if (typeof value !== "string" || value === "" || value.length > limit) throw keysMalformed(`${where} has no usable "${name}"`);
      return value;
    };
    const key: RegistryKey = {
      keyid: text("keyid", 256),
      keytype: text("keytype", 64),
      scheme: text("scheme", 64),
      key: text("key", 4096),
      expires: null,
    };
    const expires = ownField(entry, "expires");
    if (expires !== null && expires !== undefined) {
      if (typeof expires !== "string" || !Number.isFinite(Date.parse(expires))) throw keysMalformed(`${where} has an "expires" that is not a date`);
      key.expires = expires;
    }
    if (seen.has(key.keyid)) throw keysMalformed(`${where} repeats keyid ${shown(key.keyid)}`);
    seen.add(key.keyid);
    publicKeyOf(key);
    return key;
  });
}

/**
 * How the registry's signature over `name@version:integrity` stands: absent (the release has
 * none), unchecked (no keys are known), or verified (every signature verifies with a listed key
 * that had not expired at publish). Anything else throws ArtifactTrustError: an invalid
 * signature, or one by a key the registry does not list. Pure.
 */
export function checkRegistrySignature(release: SignedRelease, keys: RegistryKey[] | null): RegistrySignature {
  const label = `${release.name}@${release.version}`;
  const signatures = readSignatures(release.signatures, label);
  if (signatures.length === 0) return "absent";
  if (keys === null || keys.length === 0) return "unchecked";
  if (release.integrity === null) throw trust("signature_malformed", `${label}: the registry signed it but gives no integrity to check the signature against`);
  const publishedAt = Date.parse(release.publishedAt ?? MISSING_TIME_CUTOFF);
  if (!Number.isFinite(publishedAt)) throw trust("signature_malformed", `${label}: its publish time ${shown(release.publishedAt ?? "")} is not a date`);
  const message = `${label}:${release.integrity}`;
  for (const signature of signatures) {
    const key = keys.find((candidate) => candidate.keyid === signature.keyid);
    if (key === undefined) {
      throw trust(
        "signature_key_unknown",
        `${label}: its registry signature names key ${shown(signature.keyid)}, which the registry does not list; the release may not come from this registry`,
      );
    }
    if (key.expires !== null && publishedAt >= Date.parse(key.expires)) {
      throw trust(
        "signature_key_expired",
        `${label}: its registry signature uses key ${shown(key.keyid)}, which expired ${key.expires}, before the release was published`,
      );
    }
    const verifier = createVerify("SHA256");
    verifier.update(message);
    if (!verifier.verify(publicKeyOf(key), Buffer.from(signature.sig, "base64"))) {
      throw trust(
        "signature_invalid",
        `${label}: its registry signature does not verify with key ${shown(key.keyid)}; the tarball or its metadata was changed after the registry signed it`,
      );
    }
  }
  return "verified";
}

/** Load what provenance is verified against: the trusted root from a file, else Sigstore's public-good root. */
export async function loadSigstoreTrust(options: {
  trustedRootFile?: string;
  registryKeys: RegistryKey[] | null;
  tufCachePath: string;
}): Promise<SigstoreTrust> {
  const keys = options.registryKeys ?? [];
  if (options.trustedRootFile !== undefined) {
    const bytes = await readFile(options.trustedRootFile).catch((error: unknown) => {
      throw trust("trusted_root_invalid", `cannot read the trusted root ${options.trustedRootFile}: ${errorCode(error)}; check the path`);
    });
    if (bytes.length > MAX_TRUSTED_ROOT_BYTES)
      throw trust("trusted_root_invalid", `the trusted root ${options.trustedRootFile} is larger than ${MAX_TRUSTED_ROOT_BYTES} bytes`);
    let json: unknown;
    try {
      json = parseJsonStrict(decodeUtf8Strict(bytes, options.trustedRootFile), options.trustedRootFile);
    } catch (error) {
      if (error instanceof JsonInputError) throw trust("trusted_root_invalid", `the trusted root is not JSON: ${error.message}`);
      throw error;
    }
    return trustFromRootJson(json, keys);
  }
  return publicGoodTrust(keys, options.tufCachePath);
}

/** A trust from a trusted root in Sigstore's JSON form (`tlogs`, `certificateAuthorities`, `ctlogs`, ...). Throws ArtifactTrustError when it is not one. */
export function trustFromRootJson(json: unknown, keys: RegistryKey[] | null): SigstoreTrust {
  if (!isJsonObject(json)) throw trust("trusted_root_invalid", "the trusted root is not a JSON object");
  let trustedRoot: TrustedRoot;
  try {
    trustedRoot = protobufSpecs.TrustedRoot.fromJSON(json);
    // Builds every key and certificate once, so a broken one is reported here rather than at the first bundle.
    sigstoreVerify.toTrustMaterial(trustedRoot);
  } catch (error) {
    throw trust("trusted_root_invalid", `the trusted root cannot be read: ${errorMessage(error)}`);
  }
  if (trustedRoot.tlogs.length === 0) throw trust("trusted_root_invalid", "the trusted root lists no transparency log, so no bundle could verify");
  return { trustedRoot, source: "file", keys: keys ?? [] };
}

/**
 * Sigstore's public-good root as npm reads it (@sigstore/tuf, forceCache): from the TUF cache when
 * it holds verified metadata, else from the TUF repository. A cold cache cannot work offline
 * (forceCache still fetches the timestamp when none is cached), so when the repository cannot be
 * reached the root embedded in @sigstore/tuf is used: it ships inside the installed, integrity-
 * checked package like the verifier itself. It may be older than the live root; a key added since
 * then makes verification fail, never pass.
 */
async function publicGoodTrust(keys: RegistryKey[], tufCachePath: string): Promise<SigstoreTrust> {
  try {
    const trustedRoot = await tuf.getTrustedRoot({ cachePath: tufCachePath, forceCache: true, retry: { retries: 0 }, timeout: TUF_TIMEOUT_MS });
    return { trustedRoot, source: "tuf", keys };
  } catch (error) {
    if (!(error instanceof tuf.TUFError)) throw error;
  }
  return { trustedRoot: embeddedTrustedRoot(), source: "embedded", keys };
}

/** The trusted root that @sigstore/tuf seeds its cache with (its seeds.json). */
function embeddedTrustedRoot(): TrustedRoot {
  const seeds: unknown = createRequire(import.meta.url)("@sigstore/tuf/seeds.json");
  const seed = isJsonObject(seeds) ? ownField(seeds, tuf.DEFAULT_MIRROR_URL) : undefined;
  const targets = isJsonObject(seed) ? ownField(seed, "targets") : undefined;
  const encoded = isJsonObject(targets) ? ownField(targets, "trusted_root.json") : undefined;
  if (typeof encoded !== "string") throw trust("trusted_root_invalid", "the installed @sigstore/tuf embeds no trusted root; reinstall mcp-lint");
  return protobufSpecs.TrustedRoot.fromJSON(JSON.parse(Buffer.from(encoded, "base64").toString("utf8")));
}

/** The attestations URL pacote fetches: the path npm gave, on the registry in use (never the host the metadata names). Pure. */
export function attestationsLocation(attestationsUrl: string, registry: string): string {
  let pathname: string;
  try {
    pathname = new URL(attestationsUrl).pathname;
  } catch {
    throw trust("attestation_malformed", `the attestations URL ${shown(attestationsUrl)} is not a URL`);
  }
  return new URL(pathname, withTrailingSlash(registry)).href;
}

/**
 * The verified build identity of a release, or null when it has no provenance. Fetches the
 * attestations document from the registry and verifies it (verifyAttestations). Throws
 * ArtifactTrustError when anything fails to verify, RegistryError when the registry cannot be read.
 */
export async function readProvenance(
  release: AttestedRelease,
  options: { registry: string; fetchOptions: RegistryFetchOptions; trust: SigstoreTrust },
): Promise<ProvenanceIdentity | null> {
  if (release.attestationsUrl === null) return null;
  const label = `${release.name}@${release.version}`;
  const url = attestationsLocation(release.attestationsUrl, options.registry);
  const text = await fetchText(url, options.fetchOptions, MAX_ATTESTATIONS_BYTES, `the attestations of ${label}`);
  if (text === null) throw trust("attestation_malformed", `${label}: the registry lists attestations for it but does not serve them`);
  let document: unknown;
  try {
    document = parseJsonStrict(text, "attestations");
  } catch (error) {
    if (error instanceof JsonInputError) throw trust("attestation_malformed", `${label}: its attestations are not JSON (${error.message})`);
    throw error;
  }
  return verifyAttestations(release, document, options.trust);
}

/**
 * Verify an attestations document (`{ attestations: [{ predicateType, bundle }] }`) for a release:
 * every SLSA provenance bundle in it must verify against the trust, be about this exact tarball,
 * and name one and the same build. Returns that build, or null when the document holds no
 * provenance (a publish attestation alone). No IO.
 */
export function verifyAttestations(
  release: Omit<AttestedRelease, "attestationsUrl">,
  document: unknown,
  sigstoreTrust: SigstoreTrust,
): ProvenanceIdentity | null {
  const label = `${release.name}@${release.version}`;
  const subject = expectedSubject(release, label);
  const entries = readAttestations(document, label);
  const provenance = entries.filter((entry) => PROVENANCE_TYPES.has(entry.predicateType));
  if (provenance.length === 0) return null;
  const verifier = new sigstoreVerify.Verifier(trustMaterial(sigstoreTrust));
  let identity: ProvenanceIdentity | null = null;
  for (const entry of provenance) {
    const found = verifyProvenanceBundle(entry, subject, verifier, sigstoreTrust.source, label);
    if (identity !== null && !sameIdentity(identity, found)) {
      throw trust(
        "provenance_mismatch",
        `${label}: two provenance attestations name different builds (${shown(identity.repository)} ${shown(identity.workflow)} and ${shown(found.repository)} ${shown(found.workflow)}); do not pin this release until its publisher explains it`,
      );
    }
    identity = found;
  }
  return identity;
}

/** One entry of an attestations document. */
interface AttestationEntry {
  predicateType: string;
  bundle: unknown;
}

/** The subject a provenance statement must name: the package URL and the tarball's sha512 in hex. */
interface ExpectedSubject {
  purl: string;
  sha512: string;
}

function expectedSubject(release: { name: string; version: string; integrity: string }, label: string): ExpectedSubject {
  let purl: string;
  try {
    purl = toPurl(`${release.name}@${release.version}`);
  } catch {
    throw trust("attestation_subject", `${label}: is not an exact npm name and version, so no attestation can name it`);
  }
  const digest = ssri.parse(release.integrity, { single: false }).sha512?.[0]?.digest;
  if (digest === undefined) throw trust("attestation_subject", `${label}: the registry gives no sha512 integrity, which a provenance attestation signs`);
  return { purl, sha512: Buffer.from(digest, "base64").toString("hex") };
}

// npm-package-arg's own package URL (what pacote compares); its type declarations predate toPurl.
const toPurl = (npa as unknown as { toPurl(spec: string): string }).toPurl;

function readAttestations(document: unknown, label: string): AttestationEntry[] {
  const list = isJsonObject(document) ? ownField(document, "attestations") : undefined;
  if (!Array.isArray(list)) throw trust("attestation_malformed", `${label}: its attestations document has no attestations array`);
  if (list.length > MAX_ATTESTATIONS)
    throw trust("attestation_malformed", `${label}: its attestations document holds ${list.length} attestations; at most ${MAX_ATTESTATIONS} are read`);
  return list.map((entry: unknown, index) => {
    const predicateType = isJsonObject(entry) ? ownField(entry, "predicateType") : undefined;
    const bundle = isJsonObject(entry) ? ownField(entry, "bundle") : undefined;
    if (typeof predicateType !== "string" || predicateType.length > MAX_IDENTITY_FIELD || !isJsonObject(bundle)) {
      throw trust("attestation_malformed", `${label}: attestation ${index + 1} has no predicateType and bundle`);
    }
    return { predicateType, bundle };
  });
}

function verifyProvenanceBundle(
  entry: AttestationEntry,
  subject: ExpectedSubject,
  verifier: InstanceType<typeof sigstoreVerify.Verifier>,
  source: TrustedRootSource,
  label: string,
): ProvenanceIdentity {
  let bundle: ReturnType<typeof sigstoreBundle.bundleFromJSON>;
  try {
    bundle = sigstoreBundle.bundleFromJSON(entry.bundle);
  } catch (error) {
    throw trust("attestation_malformed", `${label}: its provenance bundle is not a Sigstore bundle (${errorMessage(error)})`);
  }
  if (bundle.content.$case !== "dsseEnvelope") throw trust("attestation_malformed", `${label}: its provenance bundle signs no DSSE envelope`);
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== INTOTO_PAYLOAD_TYPE)
    throw trust("attestation_malformed", `${label}: its provenance bundle carries ${shown(envelope.payloadType)}, not an in-toto statement`);
  // npm signs provenance with a Fulcio certificate; only a root the user supplied may vouch for a key-signed one.
  if (bundle.verificationMaterial.content.$case === "publicKey" && source !== "file") {
    throw trust(
      "attestation_unverified",
      `${label}: its provenance is signed by a key, not by a CI identity certificate, which the public Sigstore root cannot vouch for`,
    );
  }
  let signer: Signer;
  try {
    signer = verifier.verify(sigstoreVerify.toSignedEntity(bundle));
  } catch (error) {
    throw trust(
      "attestation_unverified",
      `${label}: its provenance attestation does not verify (${errorMessage(error)}); the release may have been tampered with`,
    );
  }
  const statement = readStatement(envelope.payload, label);
  if (statement.predicateType !== entry.predicateType) {
    throw trust("attestation_malformed", `${label}: its attestation is listed as ${shown(entry.predicateType)} but signs ${shown(statement.predicateType)}`);
  }
  if (statement.subjectName !== subject.purl) {
    throw trust("attestation_subject", `${label}: its provenance attestation is about ${shown(statement.subjectName)}, not ${subject.purl}`);
  }
  if (statement.subjectSha512 !== subject.sha512) {
    throw trust(
      "attestation_subject",
      `${label}: its provenance attestation signs a tarball with sha512 ${shown(statement.subjectSha512.slice(0, 16))}..., not the registry's ${subject.sha512.slice(0, 16)}...`,
    );
  }
  const claims = predicateClaims(statement.predicateType, statement.predicate, label);
  return signer.identity === undefined ? identityFromPredicate(claims, label) : identityFromCertificate(certificateClaims(signer), claims, label);
}

/** The parts of an in-toto statement that are checked. */
interface Statement {
  predicateType: string;
  subjectName: string;
  subjectSha512: string;
  predicate: unknown;
}

function readStatement(payload: Buffer, label: string): Statement {
  const bad = (what: string) => trust("attestation_malformed", `${label}: its provenance statement ${what}`);
  let json: unknown;
  try {
    json = parseJsonStrict(decodeUtf8Strict(payload, "statement"), "statement");
  } catch (error) {
    if (error instanceof JsonInputError) throw bad(`is not JSON (${error.message})`);
    throw error;
  }
  if (!isJsonObject(json)) throw bad("is not an object");
  const type = ownField(json, "_type");
  if (typeof type !== "string" || !INTOTO_STATEMENT_TYPES.has(type)) throw bad("is not an in-toto statement");
  const predicateType = ownField(json, "predicateType");
  if (typeof predicateType !== "string") throw bad("has no predicateType");
  const subjects = ownField(json, "subject");
  // npm attests exactly one subject, the tarball (libnpmpublish refuses more).
  if (!Array.isArray(subjects) || subjects.length !== 1) throw bad("does not name exactly one subject");
  const subject: unknown = subjects[0];
  const name = isJsonObject(subject) ? ownField(subject, "name") : undefined;
  const digest = isJsonObject(subject) ? ownField(subject, "digest") : undefined;
  const sha512 = isJsonObject(digest) ? ownField(digest, "sha512") : undefined;
  if (typeof name !== "string" || typeof sha512 !== "string") throw bad("has a subject without a name and a sha512 digest");
  return { predicateType, subjectName: name, subjectSha512: sha512, predicate: ownField(json, "predicate") };
}

/** The verified certificate's SAN and extensions, as @sigstore/verify hands them over. */
function certificateClaims(signer: Signer): CertificateClaims {
  const extensions = new Map<string, Buffer>();
  for (const pair of signer.identity?.oids ?? []) {
    const oid = pair.oid?.id.join(".");
    if (oid !== undefined) extensions.set(oid, pair.value);
  }
  return { subjectAlternativeName: signer.identity?.subjectAlternativeName ?? null, extensions };
}

/** The trust as @sigstore/verify takes it; a key-signed bundle's hint is looked up among the registry keys, valid until each expires. */
function trustMaterial(sigstoreTrust: SigstoreTrust): TrustMaterial {
  return sigstoreVerify.toTrustMaterial(sigstoreTrust.trustedRoot, (hint: string) => {
    const key = sigstoreTrust.keys.find((candidate) => candidate.keyid === hint);
    if (key === undefined) {
      throw new sigstoreVerify.VerificationError({ code: "PUBLIC_KEY_ERROR", message: `key not found: ${shown(hint)}` });
    }
    const expires = key.expires === null ? Number.POSITIVE_INFINITY : Date.parse(key.expires);
    return { publicKey: publicKeyOf(key), validFor: (date: Date) => date.getTime() < expires };
  });
}

function sameIdentity(a: ProvenanceIdentity, b: ProvenanceIdentity): boolean {
  return a.repository === b.repository && a.workflow === b.workflow && a.ref === b.ref && a.builder === b.builder;
}

/** A registry signature entry of `dist.signatures`. */
interface RegistrySignatureEntry {
  keyid: string;
  sig: string;
}

function readSignatures(signatures: unknown, label: string): RegistrySignatureEntry[] {
  if (signatures === undefined || signatures === null) return [];
  const bad = (what: string) => trust("signature_malformed", `${label}: its registry signatures ${what}`);
  if (!Array.isArray(signatures)) throw bad("are not a list");
  if (signatures.length > MAX_SIGNATURES) throw bad(`number ${signatures.length}; at most ${MAX_SIGNATURES} are read`);
  return signatures.map((entry: unknown) => {
    const keyid = isJsonObject(entry) ? ownField(entry, "keyid") : undefined;
    const sig = isJsonObject(entry) ? ownField(entry, "sig") : undefined;
    if (typeof keyid !== "string" || typeof sig !== "string" || keyid.length > 256 || sig.length > 4096) throw bad("hold an entry without a keyid and a sig");
    return { keyid, sig };
  });
}

function publicKeyOf(key: RegistryKey): KeyObject {
  try {
    return createPublicKey({ key: Buffer.from(key.key, "base64"), format: "der", type: "spki" });
  } catch {
    throw keysMalformed(`key ${shown(key.keyid)} is not a public key`);
  }
}

/** GET a registry document, bounded; null when the registry says it has none (400, 404, 405). */
async function fetchText(url: string, fetchOptions: RegistryFetchOptions, limit: number, what: string): Promise<string | null> {
  const origin = new URL(url).host;
  let response: Awaited<ReturnType<typeof npmFetch>>;
  try {
    response = await npmFetch(url, fetchOptions);
  } catch (error) {
    const status = isJsonObject(error) ? ownField(error, "statusCode") : undefined;
    if (status === 400 || status === 404 || status === 405) return null;
    const reason = typeof status === "number" ? `it answered HTTP ${status}` : `it could not be reached (${errorCode(error)})`;
    throw new RegistryError(`cannot read ${what} from the registry ${origin}: ${reason}; check the registry setting and the network`);
  }
  const tooLarge = () => new RegistryError(`cannot read ${what} from the registry ${origin}: the answer is larger than ${limit} bytes`);
  if (Number(response.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  const body = response.body;
  await new Promise<void>((done, fail) => {
    body.on("data", (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        body.removeAllListeners("data");
        // Stop reading: the rest of an oversized answer is never buffered.
        (body as { destroy?: () => void }).destroy?.();
        fail(tooLarge());
        return;
      }
      chunks.push(bytes);
    });
    body.on("end", () => done());
    body.on("error", (error: unknown) =>
      fail(new RegistryError(`cannot read ${what} from the registry ${origin}: the answer broke off (${errorCode(error)})`)),
    );
  });
  try {
    return decodeUtf8Strict(Buffer.concat(chunks), what);
  } catch (error) {
    if (error instanceof JsonInputError) throw new RegistryError(`cannot read ${what} from the registry ${origin}: ${error.message}`);
    throw error;
  }
}

function withTrailingSlash(registry: string): string {
  return registry.endsWith("/") ? registry : `${registry}/`;
}

function keysMalformed(what: string): ArtifactTrustError {
  return trust("signature_malformed", `the registry's signing keys cannot be used: ${what}`);
}

function trust(code: ArtifactTrustCode, message: string): ArtifactTrustError {
  return new ArtifactTrustError(code, message);
}

/** A library error in one short line: its code and message, never a stack. */
function errorMessage(error: unknown): string {
  const code = isJsonObject(error) ? ownField(error, "code") : undefined;
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s+/g, " ").slice(0, 300);
  return typeof code === "string" ? `${code}: ${line}` : line;
}

/** A system error's code (ENOTFOUND, EACCES...), or a generic word. */
function errorCode(error: unknown): string {
  const code = isJsonObject(error) ? ownField(error, "code") : undefined;
  return typeof code === "string" ? code.slice(0, 40) : "unknown error";
}
