/** Who built a release, read from a verified provenance attestation: its SLSA predicate and its Fulcio certificate, cross-checked. Pure. */

import core from "@sigstore/core";
import { ArtifactTrustError } from "../errors.js";
import { isJsonObject, ownField } from "../json/value.js";
import type { ProvenanceIdentity } from "./types.js";

/** SLSA provenance predicate types npm publishes (v1 since mid 2023, v0.2 before and from GitLab). */
export const SLSA_PROVENANCE_V1 = "https://slsa.dev/provenance/v1";
export const SLSA_PROVENANCE_V02 = "https://slsa.dev/provenance/v0.2";

/** Longest identity string kept (repository, workflow, ref, builder); real ones are under 200 characters. */
export const MAX_IDENTITY_FIELD = 2048;

/** The issuer of GitHub Actions' OIDC tokens, the only one that may vouch for a github.com repository. */
const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";
const GITHUB_RUNNER_BUILDER = "https://github.com/actions/runner/";

// Fulcio's certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md).
// The first ones hold raw strings; from 1.8 on each value is a DER-encoded UTF8String.
const OID = {
  issuerV1: "1.3.6.1.4.1.57264.1.1",
  githubRepositoryV1: "1.3.6.1.4.1.57264.1.5",
  githubRefV1: "1.3.6.1.4.1.57264.1.6",
  issuer: "1.3.6.1.4.1.57264.1.8",
  runnerEnvironment: "1.3.6.1.4.1.57264.1.11",
  sourceRepositoryUri: "1.3.6.1.4.1.57264.1.12",
  sourceRepositoryRef: "1.3.6.1.4.1.57264.1.14",
  buildConfigUri: "1.3.6.1.4.1.57264.1.18",
} as const;

const UTF8_STRING_TAG = 0x0c;

/** What a verified Fulcio certificate says: its SAN and its extensions' raw values by dotted OID. */
export interface CertificateClaims {
  subjectAlternativeName: string | null;
  extensions: ReadonlyMap<string, Buffer>;
}

/** What a provenance predicate says about the build; null where it says nothing usable. */
export interface PredicateClaims {
  repository: string | null;
  /** Workflow file path in the repository; null when the predicate names no path (GitLab's v0.2 names a job). */
  workflow: string | null;
  ref: string | null;
  builder: string | null;
}

/** Read the build claims of a SLSA v1 or v0.2 predicate as npm writes them. Throws ArtifactTrustError on a malformed one. */
export function predicateClaims(predicateType: string, predicate: unknown, label: string): PredicateClaims {
  if (!isJsonObject(predicate)) throw malformed(label, "its predicate is not an object");
  if (predicateType === SLSA_PROVENANCE_V1) {
    const workflow = path(predicate, ["buildDefinition", "externalParameters", "workflow"]);
    return {
      repository: field(workflow, "repository", label),
      workflow: field(workflow, "path", label),
      ref: field(workflow, "ref", label),
      builder: field(path(predicate, ["runDetails", "builder"]), "id", label),
    };
  }
  // v0.2: configSource.uri is `git+<repository>[@<ref>]`; on GitHub the entry point is the workflow
  // ref `<owner>/<repo>/<path>@<ref>`, on GitLab a job name (not a path, so not compared).
  const source = path(predicate, ["invocation", "configSource"]);
  const uri = field(source, "uri", label);
  const entryPoint = field(source, "entryPoint", label);
  const builder = field(path(predicate, ["builder"]), "id", label);
  if (uri === null) return { repository: null, workflow: null, ref: null, builder };
  const location = uri.startsWith("git+") ? uri.slice(4) : uri;
  const at = location.indexOf("@", location.indexOf("://") + 3);
  const repository = at === -1 ? location : location.slice(0, at);
  const ref = at === -1 ? null : location.slice(at + 1);
  let workflow: string | null = null;
  const repositoryPath = pathOfUrl(repository);
  if (entryPoint !== null && repositoryPath !== null && entryPoint.startsWith(`${repositoryPath}/`)) {
    const rest = entryPoint.slice(repositoryPath.length + 1);
    const refAt = rest.lastIndexOf("@");
    workflow = refAt === -1 ? rest : rest.slice(0, refAt);
  }
  return { repository, workflow, ref, builder };
}

/** The identity of a key-signed provenance (no certificate): the predicate alone, which must name repository and workflow. */
export function identityFromPredicate(claims: PredicateClaims, label: string): ProvenanceIdentity {
  if (claims.repository === null) throw malformed(label, "its predicate names no source repository");
  if (claims.workflow === null) throw malformed(label, "its predicate names no workflow");
  return { repository: claims.repository, workflow: claims.workflow, ref: claims.ref, builder: claims.builder };
}

/**
 * The identity of a certificate-signed provenance: repository, workflow and ref from the Fulcio
 * certificate (which the CI's OIDC token vouched for), checked against what the predicate claims.
 * Any disagreement throws ArtifactTrustError (provenance_mismatch): fail closed.
 */
export function identityFromCertificate(certificate: CertificateClaims, predicate: PredicateClaims, label: string): ProvenanceIdentity {
  const cert = certificateBuild(certificate, label);
  if (predicate.repository === null) throw malformed(label, "its predicate names no source repository");
  if (predicate.repository !== cert.repository) {
    throw mismatch(label, `the certificate names repository ${shown(cert.repository)} but the predicate ${shown(predicate.repository)}`);
  }
  if (predicate.workflow !== null && predicate.workflow !== cert.workflow) {
    throw mismatch(label, `the certificate names workflow ${shown(cert.workflow)} but the predicate ${shown(predicate.workflow)}`);
  }
  if (cert.ref !== null && predicate.ref !== null && predicate.ref !== cert.ref) {
    throw mismatch(label, `the certificate names ref ${shown(cert.ref)} but the predicate ${shown(predicate.ref)}`);
  }
  if (cert.runnerEnvironment !== null && predicate.builder?.startsWith(GITHUB_RUNNER_BUILDER)) {
    const expected = `${GITHUB_RUNNER_BUILDER}${cert.runnerEnvironment}`;
    if (predicate.builder !== expected) {
      throw mismatch(label, `the certificate says the runner was ${shown(cert.runnerEnvironment)} but the predicate names builder ${shown(predicate.builder)}`);
    }
  }
  return { repository: cert.repository, workflow: cert.workflow, ref: cert.ref ?? predicate.ref, builder: predicate.builder };
}

/** The build a Fulcio certificate names. */
interface CertificateBuild {
  repository: string;
  workflow: string;
  ref: string | null;
  runnerEnvironment: string | null;
}

function certificateBuild(certificate: CertificateClaims, label: string): CertificateBuild {
  const issuer = derText(certificate, OID.issuer, label) ?? rawText(certificate, OID.issuerV1, label);
  let repository = derText(certificate, OID.sourceRepositoryUri, label);
  // Certificates from before Fulcio's v2 extensions (early 2023) name a GitHub repository as `owner/repo`.
  const githubRepository = rawText(certificate, OID.githubRepositoryV1, label);
  if (repository === null && githubRepository !== null && issuer === GITHUB_ACTIONS_ISSUER) repository = `https://github.com/${githubRepository}`;
  if (repository === null) throw mismatch(label, "the certificate names no source repository");
  if (repository.startsWith("https://github.com/") && issuer !== GITHUB_ACTIONS_ISSUER) {
    throw mismatch(label, `the certificate names a GitHub repository but was issued for ${shown(issuer ?? "no issuer")}`);
  }
  // The build config URI is `<repository>/<workflow path>@<ref>` (GitLab puts `//` after the
  // repository). It names the calling workflow even when a reusable workflow signed (the SAN).
  const buildConfig = derText(certificate, OID.buildConfigUri, label) ?? bounded(certificate.subjectAlternativeName, label);
  if (buildConfig === null || !buildConfig.startsWith(`${repository}/`)) {
    throw mismatch(label, `the certificate's build config ${shown(buildConfig ?? "(none)")} is not in its repository ${shown(repository)}`);
  }
  let rest = buildConfig.slice(repository.length + 1);
  if (rest.startsWith("/")) rest = rest.slice(1);
  const at = rest.lastIndexOf("@");
  const workflow = at === -1 ? rest : rest.slice(0, at);
  const configRef = at === -1 ? null : rest.slice(at + 1);
  if (workflow === "") throw mismatch(label, `the certificate's build config ${shown(buildConfig)} names no workflow`);
  const ref = derText(certificate, OID.sourceRepositoryRef, label) ?? rawText(certificate, OID.githubRefV1, label) ?? configRef;
  if (configRef !== null && ref !== null && configRef !== ref) {
    throw mismatch(label, `the certificate's build config ref ${shown(configRef)} is not its source ref ${shown(ref)}`);
  }
  return { repository, workflow, ref, runnerEnvironment: derText(certificate, OID.runnerEnvironment, label) };
}

/** An extension whose value is a DER UTF8String (Fulcio's v2 extensions), decoded; null when absent. */
function derText(certificate: CertificateClaims, oid: string, label: string): string | null {
  const value = certificate.extensions.get(oid);
  if (value === undefined) return null;
  let text: string | null = null;
  try {
    const parsed = core.ASN1Obj.parseBuffer(Buffer.from(value));
    if (parsed.tag.number === UTF8_STRING_TAG && parsed.tag.isUniversal() && !parsed.tag.constructed) text = parsed.value.toString("utf8");
  } catch {
    text = null;
  }
  if (text === null) throw malformed(label, `its certificate extension ${oid} is not a UTF8String`);
  return bounded(text, label);
}

/** An extension whose value is the string itself (Fulcio's v1 extensions); null when absent. */
function rawText(certificate: CertificateClaims, oid: string, label: string): string | null {
  const value = certificate.extensions.get(oid);
  return value === undefined ? null : bounded(value.toString("utf8"), label);
}

/** The object at a key path, or undefined. */
function path(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isJsonObject(current)) return undefined;
    current = ownField(current, key);
  }
  return current;
}

/** A string field of an object; null when the object or the field is absent; malformed when it is not a bounded string. */
function field(object: unknown, key: string, label: string): string | null {
  if (!isJsonObject(object)) return null;
  const value = ownField(object, key);
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw malformed(label, `its predicate's "${key}" is not a string`);
  return bounded(value, label);
}

function bounded(text: string | null, label: string): string | null {
  if (text !== null && text.length > MAX_IDENTITY_FIELD) throw malformed(label, `it holds a build field longer than ${MAX_IDENTITY_FIELD} characters`);
  return text;
}

/** `owner/repo` of `https://host/owner/repo`, or null when the text is not such a URL. */
function pathOfUrl(repository: string): string | null {
  try {
    const pathname = new URL(repository).pathname.replace(/^\/+|\/+$/g, "");
    return pathname === "" ? null : pathname;
  } catch {
    return null;
  }
}

/** A claim as shown in a message: quoted, escapes visible, and cut short. */
export function shown(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text);
}

function malformed(label: string, what: string): ArtifactTrustError {
  return new ArtifactTrustError("attestation_malformed", `${label}: the provenance attestation is malformed: ${what}`);
}

function mismatch(label: string, what: string): ArtifactTrustError {
  return new ArtifactTrustError(
    "provenance_mismatch",
    `${label}: the provenance does not hold together: ${what}; do not pin this release until its publisher explains it`,
  );
}
