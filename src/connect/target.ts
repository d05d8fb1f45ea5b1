/** What to connect to, checked before anything starts: a stdio command or an HTTP endpoint with headers. Pure. */

import { couldBeSecret } from "../text/redact.js";
import { UsageError } from "../errors.js";
import { canonicalSha256 } from "../json/canonical.js";
import type { OAuthSettings } from "./oauth/login.js";

/** A stdio server to launch. */
export interface StdioTarget {
  kind: "stdio";
  command: string;
  args: string[];
  /**
   * Variables passed on top of the SDK's minimal environment, with their values: the --pass-env
   * names, plus the certificate-path variables (CERTIFICATE_VARIABLES) that are set here.
   */
  env: Record<string, string>;
  /** --pass-env names that are not set in this environment (each is worth a warning). */
  unset: string[];
  /** Proxy variables set in this environment but not passed, named when a start-up fails. */
  proxyNotPassed: string[];
  /** False to start it without a PID namespace (--no-pid-namespace); one is used where available otherwise. */
  pidNamespace?: boolean;
}

/** A remote server over Streamable HTTP (or the older SSE transport as a fallback). */
export interface HttpTarget {
  kind: "http";
  /** The endpoint without user info (sent as a Basic Authorization header instead). */
  url: URL;
  headers: [name: string, value: string][];
  /** How to log in when the server asks (the MCP authorization flow); absent or null: never. */
  oauth?: OAuthSettings | null;
}

/** Either kind of target, plus the values that must never be shown or stored. */
export type Target = (StdioTarget | HttpTarget) & { secrets: string[] };

/** Connection flags as given on the command line. */
export interface ConnectionFlags {
  command: string[];
  url: string | null;
  headers: string[];
  headerEnv: string[];
  passEnv: string[];
  /** False for --no-pid-namespace. */
  pidNamespace?: boolean;
}

// RFC 9110 token characters for a header name.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Passed to a launched server whenever they are set: they name certificate files, not secrets, and
 * without them `npx` behind a corporate TLS proxy fails to download, silently.
 */
export const CERTIFICATE_VARIABLES = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"] as const;
/** Proxy variables a download may need; never passed by default (a proxy URL can hold a password). */
export const PROXY_VARIABLES = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy"] as const;
/** Shorter values are not treated as secrets: redacting "1" everywhere would only garble output. */
const MIN_SECRET_LENGTH = 3;
/**
 * A query value shorter than this is taken for a plain parameter (`?format=json`), not a token:
 * redacting "json" would garble every description that mentions it and refuse every lock.
 */
const MIN_QUERY_SECRET_LENGTH = 8;

/** Check connection flags and resolve them against the environment into a target. */
export function resolveTarget(flags: ConnectionFlags, env: Readonly<Record<string, string | undefined>>): Target {
  if (flags.url !== null && flags.command.length > 0) {
    throw new UsageError("give either --url or a server command after --, not both");
  }
  if (flags.url === null) {
    if (flags.headers.length > 0 || flags.headerEnv.length > 0) {
      throw new UsageError("--header and --header-env need --url (a stdio server takes --pass-env instead)");
    }
    const [command, ...args] = flags.command;
    if (command === undefined) throw new UsageError("no server command after --");
    const passed: Record<string, string> = {};
    const unset: string[] = [];
    for (const name of flags.passEnv) {
      if (!ENV_NAME.test(name)) throw new UsageError(`--pass-env takes an environment variable name such as API_TOKEN, not ${JSON.stringify(name)}`);
      const value = env[name];
      if (value !== undefined) passed[name] = value;
      else if (!unset.includes(name)) unset.push(name);
    }
    const certificates: Record<string, string> = {};
    for (const name of CERTIFICATE_VARIABLES) {
      const value = env[name];
      if (value !== undefined && value !== "") certificates[name] = value;
    }
    const proxyNotPassed = PROXY_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== "" && !(name in passed));
    return {
      kind: "stdio",
      command,
      args,
      env: { ...certificates, ...passed },
      unset,
      proxyNotPassed,
      ...(flags.pidNamespace === false ? { pidNamespace: false } : {}),
      secrets: secretList(Object.values(passed).filter(couldBeSecret)),
    };
  }
  if (flags.passEnv.length > 0) throw new UsageError("--pass-env applies to a launched server, not to --url");
  const url = parseEndpoint(flags.url);
  const secrets: string[] = [];
  const headers: [string, string][] = [];
  const seen = new Set<string>();
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    if (seen.has(key)) throw new UsageError(`header ${name} is given more than once; give each header name once`);
    seen.add(key);
    headers.push([name, value]);
  };
  return httpTarget(url, flags, env, { secrets, headers, seen, add });
}

interface HeaderState {
  secrets: string[];
  headers: [string, string][];
  seen: Set<string>;
  add: (name: string, value: string) => void;
}

function httpTarget(
  url: URL,
  flags: Pick<ConnectionFlags, "headers" | "headerEnv">,
  env: Readonly<Record<string, string | undefined>>,
  state: HeaderState,
): Target {
  const { secrets, headers, seen, add } = state;
  for (const raw of flags.headers) {
    const colon = raw.indexOf(":");
    const name = colon < 0 ? "" : raw.slice(0, colon).trim();
    if (!HEADER_NAME.test(name)) throw new UsageError("--header takes 'NAME: VALUE' with a valid header name");
    const value = raw.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header ${name}: the value may not contain line breaks`);
    add(name, value);
  }
  for (const raw of flags.headerEnv) {
    const equals = raw.indexOf("=");
    const name = equals < 0 ? "" : raw.slice(0, equals).trim();
    const variable = raw.slice(equals + 1).trim();
    if (!HEADER_NAME.test(name) || !ENV_NAME.test(variable)) {
      throw new UsageError("--header-env takes NAME=VAR: a header name and an environment variable holding its whole value");
    }
    const value = env[variable];
    if (value === undefined || value === "") throw new UsageError(`--header-env ${name}: environment variable ${variable} is not set`);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`--header-env ${name}: the value of ${variable} contains a line break`);
    if (url.protocol === "http:" && !isLocalHost(url.hostname)) {
      throw new UsageError(`--header-env sends a secret; refusing to send it over plain http:// to ${url.hostname}. Use https://`);
    }
    add(name, value);
    secrets.push(value);
  }
  // User info cannot go in a fetch URL; it becomes Basic auth, and both parts are secrets.
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (user !== "" || password !== "") {
    // The redactor derives the rest from the Basic value: the blob in base64 and base64url, padded
    // or not, the decoded pair and each half, in their JSON and URL forms.
    const basic = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    secrets.push(url.username, url.password, user, password, basic);
    if (!seen.has("authorization")) add("Authorization", basic);
    url.username = "";
    url.password = "";
  }
  if (url.search !== "") {
    secrets.push(url.search, url.search.slice(1));
    const raw = url.search
      .slice(1)
      .split("&")
      .map((part) => part.slice(part.indexOf("=") + 1));
    for (const value of [...url.searchParams.values(), ...raw]) {
      if (value.length >= MIN_QUERY_SECRET_LENGTH) secrets.push(value);
    }
  }
  return { kind: "http", url, headers, secrets: secretList(secrets) };
}

function parseEndpoint(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError("--url is not a valid URL; give the full endpoint such as https://example.com/mcp");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--url must be http:// or https://, not ${url.protocol}//`);
  }
  url.hash = "";
  return url;
}

/** Local hosts, where plain http:// never leaves the machine. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function secretList(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value.length >= MIN_SECRET_LENGTH))];
}

/** A server entry of a client config, with its placeholders already resolved. */
export interface ConfigEntryTarget {
  /** Argv of a stdio server. */
  argv: string[] | null;
  /** Environment the config gives that server (its values are secrets). */
  env: Record<string, string>;
  /** URL of a remote server. */
  url: string | null;
  /** Headers the config sends to that server (their values are secrets). */
  headers: Record<string, string>;
  /** What the entry's placeholders resolved to from the environment, in any field (secrets). */
  resolved?: readonly string[];
}

/**
 * Resolve a config entry into a target. A stdio server gets the SDK's minimal environment plus the
 * certificate paths plus its own `env` (for it alone); a remote server gets its headers. Env and
 * header values, URL user info and query values are secrets: redacted everywhere, never stored.
 */
export function resolveConfigTarget(
  entry: ConfigEntryTarget,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
  launch: { pidNamespace?: boolean } = {},
): Target {
  if (entry.argv !== null && entry.argv.length > 0) {
    const [command, ...args] = entry.argv as [string, ...string[]];
    const certificates: Record<string, string> = {};
    for (const name of CERTIFICATE_VARIABLES) {
      const value = env[name];
      if (value !== undefined && value !== "") certificates[name] = value;
    }
    return {
      kind: "stdio",
      command,
      args,
      env: { ...certificates, ...entry.env },
      unset: [],
      proxyNotPassed: PROXY_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== "" && !(name in entry.env)),
      ...(launch.pidNamespace === false ? { pidNamespace: false } : {}),
      // A config's env values and placeholder expansions are settings until they look like a secret.
      secrets: secretList([...Object.values(entry.env), ...(entry.resolved ?? [])].filter(couldBeSecret)),
    };
  }
  if (entry.url === null) throw new UsageError(`${where}: the entry has neither a command nor a url`);
  let url: URL;
  try {
    url = parseEndpoint(entry.url);
  } catch (error) {
    throw new UsageError(`${where}: ${error instanceof Error ? error.message.replace("--url", "its url") : "its url is not valid"}`);
  }
  const secrets: string[] = [...(entry.resolved ?? [])];
  const headers: [string, string][] = [];
  const seen = new Set<string>();
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    if (seen.has(key)) throw new UsageError(`${where}: header ${name} is given more than once`);
    seen.add(key);
    headers.push([name, value]);
  };
  for (const [name, value] of Object.entries(entry.headers)) {
    if (!HEADER_NAME.test(name)) throw new UsageError(`${where}: ${JSON.stringify(name)} is not a valid header name`);
    if (/[\r\n\0]/.test(value)) throw new UsageError(`${where}: the value of header ${name} contains a line break`);
    if (url.protocol === "http:" && !isLocalHost(url.hostname)) {
      throw new UsageError(`${where}: refusing to send header ${name} over plain http:// to ${url.hostname}; use https://`);
    }
    add(name, value);
    secrets.push(value);
  }
  return httpTarget(url, { headers: [], headerEnv: [] }, env, { secrets, headers, seen, add });
}

/** Whether the target sends its own Authorization header (--header-env Authorization=VAR, a config header): then no OAuth login is attempted. */
export function givesAuthorization(target: HttpTarget): boolean {
  return target.headers.some(([name]) => name.toLowerCase() === "authorization");
}

/** What output may say about a target: the command name or the scheme and host, never arguments, path or query. */
export function describeTarget(target: Target): string {
  if (target.kind === "stdio") return `server "${target.command}"`;
  return `${target.url.protocol}//${target.url.host}`;
}

/**
 * SHA-256 identifying the launch: the whole command for stdio; scheme, host, port and path for
 * HTTP, so rotating a token in the query or a header never changes the lock.
 */
export function targetSha256(target: Target): string {
  if (target.kind === "stdio") return canonicalSha256(["stdio", target.command, ...target.args]);
  const { protocol, hostname, pathname } = target.url;
  const port = target.url.port || (protocol === "https:" ? "443" : "80");
  return canonicalSha256(["http", protocol, hostname.toLowerCase(), port, pathname]);
}
