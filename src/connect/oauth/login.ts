/**
 * The MCP authorization flow for one remote server, on the SDK's client auth (`auth()` with an
 * OAuthClientProvider): the SDK discovers the metadata, registers (a client ID metadata document,
 * else dynamic registration, else the pre-registered client), runs PKCE, exchanges and refreshes;
 * this module supplies the provider (kept in the login store), the browser and the loopback
 * redirect, and the client-credentials grant for CI. Every token and secret is given to the
 * redactor the moment it is known.
 */

import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { ConnectionError } from "../../errors.js";
import { neutralize } from "../../text/neutralize.js";
import type { Redactor } from "../../text/redact.js";
import { openableUrl, openInBrowser } from "./browser.js";
import { LoopbackRedirect } from "./loopback.js";
import { LoginStore, type StoredLogin, serverKey } from "./store.js";

/** How to log in, from the command line (`--oauth-*`). */
export interface OAuthSettings {
  /** A client registered beforehand with the authorization server. */
  clientId?: string;
  /** Its secret (from --oauth-client-secret-env). */
  clientSecret?: string;
  /** Use the client-credentials grant (machine to machine, no browser). */
  clientCredentials?: boolean;
  /** A PEM private key for private_key_jwt client authentication (from --oauth-private-key-env). */
  privateKey?: string;
  /** Its JWS algorithm (ES256, RS256, ...). */
  jwtAlgorithm?: string;
  /** An https:// client ID metadata document URL, used where the authorization server supports them. */
  clientMetadataUrl?: string;
  /** Scopes to ask for when the server names none. */
  scope?: string;
  /** The authorization server that alone may receive the client's credentials (--oauth-issuer). */
  issuer?: string;
}

/** What a login needs from its run. */
export interface LoginContext {
  settings: OAuthSettings;
  redactor: Redactor;
  /** Where the login's lines go (stderr). */
  say: (line: string) => void;
  /** How long to wait for the browser's redirect. */
  waitMs: number;
  /** The store; null keeps the login in memory only (client credentials). */
  store?: LoginStore | null;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Logins started in one run at most: a server that keeps asking for another is not followed forever. */
export const MAX_LOGINS = 3;

/** Tokens are refreshed when they expire within this. */
const REFRESH_MARGIN_MS = 60_000;

/** Secrets in an OAuth object: tokens, client secrets, assertions. */
function secretsOf(value: Partial<OAuthTokens> & Partial<{ client_secret: string }>): string[] {
  return [value.access_token, value.refresh_token, value.id_token, value.client_secret].filter(
    (item): item is string => typeof item === "string" && item !== "",
  );
}

/**
 * Refuse an authorization server whose endpoints that receive credentials (token, registration)
 * lie on another origin than the server itself: the client secret, codes and refresh tokens
 * would go elsewhere than where discovery led.
 */
export function checkEndpointOrigins(state: OAuthDiscoveryState): void {
  const issuer = new URL(state.authorizationServerUrl);
  const metadata = state.authorizationServerMetadata;
  if (metadata === undefined) return;
  for (const [field, value] of [
    ["token_endpoint", metadata.token_endpoint],
    ["registration_endpoint", metadata.registration_endpoint],
  ] as const) {
    if (value === undefined) continue;
    let endpoint: URL;
    try {
      endpoint = new URL(value);
    } catch {
      throw new ConnectionError(`the authorization server ${issuer.origin} names a ${field} that is not a URL; refusing to log in`);
    }
    if (endpoint.origin !== issuer.origin) {
      throw new ConnectionError(
        `the authorization server ${issuer.origin} names its ${field} on another origin (${endpoint.origin}); refusing to send credentials there`,
      );
    }
  }
  const authorize = metadata.authorization_endpoint;
  if (authorize !== undefined && !openableUrl(new URL(authorize))) {
    throw new ConnectionError(`the authorization server ${issuer.origin} names an authorization page that is not https://; refusing to open it`);
  }
}

/** The provider for the authorization-code flow, with its state in the login store. */
class BrowserLoginProvider implements OAuthClientProvider {
  private login: StoredLogin;
  private verifier: string | null = null;
  /** The page the last flow asked the user to open, until its code is taken. */
  pendingPage: URL | null = null;
  clientMetadataUrl?: string;

  constructor(
    private readonly server: string,
    private readonly context: LoginContext,
    readonly redirect: LoopbackRedirect,
    stored: StoredLogin | null,
  ) {
    this.login = stored ?? { server };
    if (context.settings.clientMetadataUrl !== undefined) this.clientMetadataUrl = context.settings.clientMetadataUrl;
    if (stored !== null) context.redactor.learn([...secretsOf(stored.tokens ?? {}), ...secretsOf((stored.client ?? {}) as { client_secret?: string })]);
  }

  get redirectUrl(): string {
    return this.redirect.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.context;
    return {
      client_name: "mcp-lint",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: settings.clientSecret !== undefined ? "client_secret_basic" : "none",
      ...(settings.scope !== undefined ? { scope: settings.scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(24).toString("base64url");
    this.redirect.expect(state);
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.context.settings;
    if (clientId !== undefined) {
      const issuer = (this.login.client as { issuer?: string } | undefined)?.issuer;
      return { client_id: clientId, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}), ...(issuer !== undefined ? { issuer } : {}) };
    }
    const client = this.login.client;
    // A client registered with another redirect port is registered again, unless the
    // authorization server takes any loopback port (it cannot be told which it does).
    if (client === undefined) return undefined;
    const uris = (client as { redirect_uris?: unknown }).redirect_uris;
    if (Array.isArray(uris) && uris.length > 0 && !uris.includes(this.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.context.redactor.learn(secretsOf(client as { client_secret?: string }));
    // A pre-registered client's secret comes from the environment each run; it is not stored.
    const { client_secret: _secret, ...kept } = client as OAuthClientInformationMixed & { client_secret?: string };
    this.login.client = this.context.settings.clientId !== undefined ? (kept as OAuthClientInformationMixed) : client;
    this.login.redirectUri = this.redirectUrl;
    await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.login.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.context.redactor.learn(secretsOf(tokens));
    this.login.tokens = tokens;
    this.rediscover = true;
    if (typeof tokens.expires_in === "number" && Number.isFinite(tokens.expires_in)) this.login.expiresAt = Date.now() + tokens.expires_in * 1000;
    else delete this.login.expiresAt;
    await this.persist();
  }

  redirectToAuthorization(page: URL): void {
    if (!openableUrl(page)) throw new ConnectionError(`the authorization server asked to open a page that is not https:// (${page.protocol}); refusing`);
    this.pendingPage = page;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === null) throw new ConnectionError("the login has no PKCE verifier (no flow was started)");
    return this.verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all" || scope === "client") delete this.login.client;
    if (scope === "all" || scope === "tokens") {
      delete this.login.tokens;
      delete this.login.expiresAt;
    }
    if (scope === "all" || scope === "discovery") delete this.login.discovery;
    if (scope === "all" || scope === "verifier") this.verifier = null;
    await this.persist();
  }

  /** Null until the flow starts in this run; then whether discovery found OAuth metadata (or had it stored). */
  discovered: "metadata" | "none" | null = null;

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    if (state.resourceMetadata !== undefined || state.authorizationServerMetadata !== undefined) this.discovered = "metadata";
    checkEndpointOrigins(state);
    this.login.discovery = state;
    await this.persist();
  }

  /**
   * Set when a token arrives: a flow after that means the server refused a token this run got, so
   * its metadata may name another authorization server now (SEP-2352), and discovery runs again.
   */
  private rediscover = false;

  discoveryState(): OAuthDiscoveryState | undefined {
    // The SDK asks for this first whenever it starts the flow (and again on its callback leg,
    // which must see the state its start saved).
    if (this.rediscover) {
      this.rediscover = false;
      return undefined;
    }
    const stored = this.login.discovery;
    this.discovered ??= stored?.authorizationServerMetadata !== undefined || stored?.resourceMetadata !== undefined ? "metadata" : "none";
    return stored;
  }

  /** Whether the stored access token is gone or about to expire, and a refresh token could renew it. */
  needsRefresh(): boolean {
    const tokens = this.login.tokens;
    if (tokens?.refresh_token === undefined || this.login.expiresAt === undefined) return false;
    return this.login.expiresAt - Date.now() < REFRESH_MARGIN_MS;
  }

  private async persist(): Promise<void> {
    const store = this.context.store;
    if (store == null) return;
    const { client, tokens, discovery } = this.login;
    const found = discovery?.authorizationServerMetadata !== undefined || discovery?.resourceMetadata !== undefined;
    // Nothing worth keeping (credentials invalidated, or a server with no OAuth metadata): no file for it.
    if (client === undefined && tokens === undefined && !found) await store.forget(this.server);
    else await store.write(this.login);
  }
}

/** Run `make` with console.warn silenced (the SDK's constructors warn there). */
function quietly<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

/** Wraps one of the SDK's client-credentials providers so that its tokens are redacted the moment they arrive. */
function redactingTokens(provider: OAuthClientProvider, redactor: Redactor): OAuthClientProvider {
  const save = provider.saveTokens.bind(provider);
  provider.saveTokens = (tokens: OAuthTokens) => {
    redactor.learn(secretsOf(tokens));
    return save(tokens);
  };
  return provider;
}

/** The login of one connection: the provider to give the transport, and the wait for a browser's redirect. */
export class Login {
  private logins = 0;

  private constructor(
    readonly provider: OAuthClientProvider,
    private readonly browser: BrowserLoginProvider | null,
    private readonly context: LoginContext,
    private readonly where: string,
  ) {}

  /** A login for `url`, loaded from the store (client credentials keep theirs in memory). */
  static async start(url: URL, context: LoginContext): Promise<Login> {
    const { settings, redactor } = context;
    const where = `${url.protocol}//${url.host}`;
    if (settings.clientCredentials === true) {
      if (settings.clientId === undefined) throw new ConnectionError("--oauth-client-credentials needs --oauth-client-id");
      // The v2 SDK's providers: they hold no client information to stamp with the issuer, so its
      // auth() (which the v2 transports call) has no unstamped credential to warn about on the console.
      const { ClientCredentialsProvider, PrivateKeyJwtProvider } = await import("@modelcontextprotocol/client");
      const common = {
        ...(settings.scope !== undefined ? { scope: settings.scope } : {}),
        ...(settings.issuer !== undefined ? { expectedIssuer: settings.issuer } : {}),
      };
      if (settings.issuer === undefined) {
        context.say(
          `mcp-lint: warning: --oauth-client-credentials without --oauth-issuer: ${where} decides which authorization server gets the client's credentials; give --oauth-issuer URL to pin it\n`,
        );
      }
      const clientId = settings.clientId;
      // The SDK says the same on the console in words of its own; the warning above is the one shown.
      const provider = quietly((): OAuthClientProvider => {
        if (settings.privateKey !== undefined) {
          return new PrivateKeyJwtProvider({ clientId, privateKey: settings.privateKey, algorithm: settings.jwtAlgorithm ?? "RS256", ...common });
        }
        if (settings.clientSecret === undefined) {
          throw new ConnectionError("--oauth-client-credentials needs --oauth-client-secret-env or --oauth-private-key-env");
        }
        redactor.learn([settings.clientSecret]);
        return new ClientCredentialsProvider({ clientId, clientSecret: settings.clientSecret, ...common });
      });
      return new Login(redactingTokens(provider, redactor), null, context, where);
    }
    if (settings.clientSecret !== undefined) redactor.learn([settings.clientSecret]);
    const server = serverKey(url);
    const store = context.store === undefined ? new LoginStore() : context.store;
    const stored = store === null ? null : await store.read(server);
    const redirect = new LoopbackRedirect();
    const preferred = stored?.redirectUri === undefined ? undefined : Number(new URL(stored.redirectUri).port) || undefined;
    await redirect.listen(preferred);
    const browser = new BrowserLoginProvider(server, { ...context, store }, redirect, stored);
    return new Login(browser, browser, context, where);
  }

  /** Whether the stored token should be refreshed before it is used. */
  needsRefresh(): boolean {
    return this.browser?.needsRefresh() ?? false;
  }

  /**
   * Why a connection that went through the login failed, with the flag that would help; null when
   * no login was tried in this run (the failure is not the login's).
   */
  explain(cause: string): string | null {
    const found = this.browser?.discovered ?? null;
    if (found === null) return null;
    if (found === "none") {
      return `it asked for a login but serves no OAuth metadata (RFC 9728 resource metadata or RFC 8414 server metadata), so the login failed (${cause}); pass a token with --header-env Authorization=VAR, or --no-oauth`;
    }
    return `the login failed (${cause}); run mcp-lint logout ${this.where} and try again, or give --oauth-client-id if the server only takes a registered client`;
  }

  /** Whether the last attempt started a login in the browser that has not been finished. */
  get pending(): boolean {
    return this.browser?.pendingPage != null;
  }

  /**
   * Show the pending login's page (in the browser, else as a line to open by hand), wait for its
   * redirect, and give the authorization code with the `iss` the redirect carried. Throws a one-line ConnectionError when the user
   * does not finish in time, the server refuses, or the run has started too many logins.
   */
  async code(): Promise<{ code: string; iss?: string }> {
    const browser = this.browser;
    const page = browser?.pendingPage;
    if (browser === null || page == null) throw new ConnectionError(`${this.where} asked for a login, but none was started`);
    browser.pendingPage = null;
    this.logins++;
    if (this.logins > MAX_LOGINS) {
      throw new ConnectionError(`${this.where} asked for a login ${this.logins} times in one run (each with more scopes?); stopping`);
    }
    const seconds = Math.round(this.context.waitMs / 1000);
    const waiting = browser.redirect.wait(this.context.waitMs);
    const opened = await openInBrowser(page, this.context.env ?? process.env);
    if (opened) this.context.say(`mcp-lint: log in to ${this.where} in the browser; waiting up to ${seconds} s\n`);
    else this.context.say(`mcp-lint: to log in to ${this.where}, open this address in a browser (waiting up to ${seconds} s): ${neutralize(page.href)}\n`);
    const callback = await waiting;
    if (callback === null) {
      throw new ConnectionError(
        `the login to ${this.where} was not finished within ${seconds} s; run again and log in in the browser, or raise --startup-timeout`,
      );
    }
    if ("error" in callback) {
      const detail = callback.description === "" ? "" : `: ${neutralize(this.context.redactor.text(callback.description)).slice(0, 200)}`;
      throw new ConnectionError(`the authorization server refused the login to ${this.where} (${neutralize(callback.error).slice(0, 60)}${detail})`);
    }
    this.context.redactor.learn([callback.code]);
    return callback;
  }

  async close(): Promise<void> {
    await this.browser?.redirect.close();
  }
}
