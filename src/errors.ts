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
