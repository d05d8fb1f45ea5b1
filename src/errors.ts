/** Expected failures: each maps to one `mcp-lint: ...` line and exit code 2 in the CLI. */

/** Base class for every failure the user can fix; the message is shown as is. */
export class McpLintError extends Error {
  override name = "McpLintError";
}

/** A file could not be read, or a path is wrong. */
export class InputFileError extends McpLintError {
  override name = "InputFileError";
}

/** JSON text that does not parse, has a duplicate key, or nests too deep. */
export class JsonInputError extends McpLintError {
  override name = "JsonInputError";
}

/** A lockfile that is not a valid mcp-lint lock (wrong shape, unknown version, bad hash). */
export class LockFormatError extends McpLintError {
  override name = "LockFormatError";
}

/** A tools/list payload or tool definition that cannot be locked. */
export class ToolListError extends McpLintError {
  override name = "ToolListError";
}

/** The server could not be started, reached, or answered wrongly. */
export class ConnectionError extends McpLintError {
  override name = "ConnectionError";
}

/** Bad flags or a bad flag combination. */
export class UsageError extends McpLintError {
  override name = "UsageError";
}

/** A server echoed a secret into what would be written to a file. */
export class SecretEchoError extends McpLintError {
  override name = "SecretEchoError";
}

/** A launch refused because it would run a known-bad release; already explained on stderr, exit 1. */
export class KnownBadRefusal extends Error {
  override name = "KnownBadRefusal";
}

/** A comparison with a lock found more than MAX_CHANGES changes; it stops instead of building a report of that size. */
export class TooManyChangesError extends McpLintError {
  override name = "TooManyChangesError";
}

/** A lint run found more than the bound on findings (MAX_FINDINGS); it stops instead of building a report of that size. */
export class TooManyFindingsError extends McpLintError {
  override name = "TooManyFindingsError";
}

/** The code a server runs could not be resolved or read (the registry, the npm cache or an install). */
export class ArtifactError extends McpLintError {
  override name = "ArtifactError";
}

/** A locked npm tree that cannot be installed exactly as the lock records it (a bad location, a missing version, an integrity mismatch). */
export class ArtifactInstallError extends McpLintError {
  override name = "ArtifactInstallError";
}

/** Why a package's registry signature or provenance could not be trusted (see ArtifactTrustError). */
export type ArtifactTrustCode =
  /** The registry's keys or a release's signatures are not what the registry protocol describes. */
  | "signature_malformed"
  /** A registry signature does not verify over `name@version:integrity`. */
  | "signature_invalid"
  /** A registry signature names a key the registry does not list. */
  | "signature_key_unknown"
  /** A registry signature was made with a key that had expired when the release was published. */
  | "signature_key_expired"
  /** The attestations document or a bundle in it is not what npm publishes. */
  | "attestation_malformed"
  /** Sigstore verification of a provenance bundle failed (signature, certificate, transparency log). */
  | "attestation_unverified"
  /** A provenance statement is about another package, version or tarball. */
  | "attestation_subject"
  /** The certificate and the provenance predicate (or two provenance bundles) name different builds. */
  | "provenance_mismatch"
  /** A trusted root that cannot be read as a Sigstore trusted root. */
  | "trusted_root_invalid";

/** A release whose registry signature or provenance fails verification: pinning it would pin something unproven. */
export class ArtifactTrustError extends McpLintError {
  override name = "ArtifactTrustError";
  constructor(
    readonly code: ArtifactTrustCode,
    message: string,
  ) {
    super(message);
  }
}

/** The package registry could not be reached, or answered with something other than what was asked. */
export class RegistryError extends McpLintError {
  override name = "RegistryError";
}
