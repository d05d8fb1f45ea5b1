/** The `--oauth-*` flags, checked and resolved against the environment into a login's settings. Pure. */

import { isLocalHost } from "../connect/target.js";
import type { OAuthSettings } from "../connect/oauth/login.js";
import { UsageError } from "../errors.js";

/** The flags as given. */
export interface OAuthFlags {
  /** False for --no-oauth. */
  enabled: boolean;
  clientId: string | null;
  clientSecretEnv: string | null;
  clientCredentials: boolean;
  privateKeyEnv: string | null;
  jwtAlg: string | null;
  clientMetadataUrl: string | null;
  scope: string | null;
  issuer: string | null;
}

export const NO_OAUTH_FLAGS: OAuthFlags = {
  enabled: true,
  clientId: null,
  clientSecretEnv: null,
  clientCredentials: false,
  privateKeyEnv: null,
  jwtAlg: null,
  clientMetadataUrl: null,
  scope: null,
  issuer: null,
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether any flag beyond --no-oauth was given. */
function anyGiven(flags: OAuthFlags): boolean {
  return (
    flags.clientId !== null ||
    flags.clientSecretEnv !== null ||
    flags.clientCredentials ||
    flags.privateKeyEnv !== null ||
    flags.jwtAlg !== null ||
    flags.clientMetadataUrl !== null ||
    flags.scope !== null ||
    flags.issuer !== null
  );
}

function secretFrom(variable: string, flag: string, env: Readonly<Record<string, string | undefined>>): string {
  if (!ENV_NAME.test(variable)) throw new UsageError(`${flag} takes an environment variable name such as OAUTH_SECRET, not ${JSON.stringify(variable)}`);
  const value = env[variable];
  if (value === undefined || value === "") throw new UsageError(`${flag}: environment variable ${variable} is not set`);
  return value;
}

/**
 * The login settings for a run against `url` (null: never log in), and the secrets they hold.
 * Without --url the flags are refused; --no-oauth with another --oauth flag is refused too.
 */
export function resolveOAuth(
  flags: OAuthFlags,
  url: URL | null,
  env: Readonly<Record<string, string | undefined>>,
): { settings: OAuthSettings | null; secrets: string[] } {
  if (url === null) {
    if (anyGiven(flags) || !flags.enabled) throw new UsageError("--oauth-* and --no-oauth apply to a remote server (--url)");
    return { settings: null, secrets: [] };
  }
  if (!flags.enabled) {
    if (anyGiven(flags)) throw new UsageError("--no-oauth turns the login off; drop it or drop the other --oauth flags");
    return { settings: null, secrets: [] };
  }
  if (flags.privateKeyEnv !== null && !flags.clientCredentials) throw new UsageError("--oauth-private-key-env goes with --oauth-client-credentials");
  if (flags.jwtAlg !== null && flags.privateKeyEnv === null) throw new UsageError("--oauth-jwt-alg goes with --oauth-private-key-env");
  if (flags.clientCredentials && flags.clientId === null) throw new UsageError("--oauth-client-credentials needs --oauth-client-id");
  if (flags.clientCredentials && flags.clientSecretEnv === null && flags.privateKeyEnv === null) {
    throw new UsageError("--oauth-client-credentials needs the client's secret (--oauth-client-secret-env VAR) or key (--oauth-private-key-env VAR)");
  }
  if (flags.clientSecretEnv !== null && flags.clientId === null) throw new UsageError("--oauth-client-secret-env goes with --oauth-client-id");
  if (flags.clientMetadataUrl !== null) {
    let metadata: URL | null = null;
    try {
      metadata = new URL(flags.clientMetadataUrl);
    } catch {
      metadata = null;
    }
    if (metadata === null || metadata.protocol !== "https:" || metadata.pathname === "/") {
      throw new UsageError("--oauth-client-metadata-url must be an https:// URL with a path, where the client ID metadata document is served");
    }
  }
  const secrets: string[] = [];
  const settings: OAuthSettings = {};
  if (flags.clientId !== null) settings.clientId = flags.clientId;
  if (flags.clientSecretEnv !== null) {
    settings.clientSecret = secretFrom(flags.clientSecretEnv, "--oauth-client-secret-env", env);
    secrets.push(settings.clientSecret);
  }
  if (flags.privateKeyEnv !== null) {
    settings.privateKey = secretFrom(flags.privateKeyEnv, "--oauth-private-key-env", env);
    secrets.push(settings.privateKey);
  }
  if (flags.jwtAlg !== null) settings.jwtAlgorithm = flags.jwtAlg;
  if (flags.clientCredentials) settings.clientCredentials = true;
  if (flags.clientMetadataUrl !== null) settings.clientMetadataUrl = flags.clientMetadataUrl;
  if (flags.scope !== null) settings.scope = flags.scope;
  if (flags.issuer !== null) {
    if (!flags.clientCredentials) throw new UsageError("--oauth-issuer goes with --oauth-client-credentials");
    try {
      new URL(flags.issuer);
      // As given: the SDK compares it with the authorization server's URL as discovery spells it.
      settings.issuer = flags.issuer;
    } catch {
      throw new UsageError("--oauth-issuer takes the authorization server's issuer URL, such as https://auth.example.com");
    }
  }
  // Tokens and secrets never travel over plain http:// to another machine.
  if (url.protocol === "http:" && !isLocalHost(url.hostname)) {
    if (secrets.length > 0) throw new UsageError(`an OAuth login sends secrets; refusing to log in over plain http:// to ${url.hostname}. Use https://`);
    return { settings: null, secrets };
  }
  return { settings, secrets };
}
