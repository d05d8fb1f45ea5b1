// Smoke test of test/fixtures/servers/live/oauth-server.mjs, driven by the MCP SDK's own OAuth
// client (Client + StreamableHTTPClientTransport with an authProvider): the fixture that the
// end-to-end tests of mcp-lint's OAuth support stand on does what its header says.
import { randomUUID } from "node:crypto";
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { describe, expect, it } from "vitest";
import { type OAuthFixture, seen, startOAuthFixture } from "../fixtures/servers/live/oauth-harness.js";

/**
 * An in-memory OAuthClientProvider whose "browser" fetches the authorization URL without following
 * the redirect and keeps the code from its Location (the fixture redirects at once, no login page).
 */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  expectedState = "";
  code: string | undefined;
  authorizationUrls: URL[] = [];

  constructor(
    readonly redirectUrl: string,
    private readonly authMethod: "none" | "client_secret_basic" = "none",
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "oauth-fixture-test",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.authMethod,
    };
  }
  state(): string {
    this.expectedState = randomUUID();
    return this.expectedState;
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    const response = await fetch(url, { redirect: "manual" });
    if (response.status !== 302) throw new Error(`/authorize answered ${response.status}: ${await response.text()}`);
    const location = new URL(response.headers.get("location") ?? "");
    if (`${location.origin}${location.pathname}` !== this.redirectUrl) throw new Error(`redirected to ${location.href}`);
    if (location.searchParams.get("state") !== this.expectedState) throw new Error("state was not returned");
    this.code = location.searchParams.get("code") ?? undefined;
  }
}

const REDIRECT = "http://127.0.0.1:43117/callback";
const clientInfo = { name: "oauth-fixture-test", version: "1.0.0" };

async function connect(url: string, authProvider: OAuthClientProvider): Promise<Client> {
  const client = new Client(clientInfo);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider }));
  return client;
}

/** The documented SDK pattern: connect fails with UnauthorizedError, finishAuth(code), connect again. */
async function authorizeThenConnect(server: OAuthFixture, provider: MemoryProvider): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await expect(new Client(clientInfo).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.code).toMatch(/^code-[0-9a-f]{32}$/);
  await transport.finishAuth(provider.code!);
  return connect(server.url, provider);
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
const postMcp = (server: OAuthFixture, token: string) =>
  fetch(server.url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
const postToken = (endpoint: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(endpoint, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}` });

describe("oauth-server.mjs with the SDK's OAuth client", () => {
  it("authorization code flow: 401 + UnauthorizedError, then registration, authorization and one code exchange", async () => {
    const server = await startOAuthFixture(["--scope", "mcp:tools"]);
    const unauthenticated = await fetch(server.url, { method: "POST" });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`,
    );
    expect(await unauthenticated.json()).toMatchObject({ error: { message: expect.stringMatching(/Unauthorized/) } });

    const provider = new MemoryProvider(REDIRECT);
    const client = await authorizeThenConnect(server, provider);
    expect(await toolNames(client)).toEqual(["get_weather", "get_time"]);
    expect(client.getInstructions()).toBe("Use get_weather for forecasts and get_time for clocks.");
    await client.close();

    const [authorizationUrl] = provider.authorizationUrls;
    expect(authorizationUrl?.searchParams.get("resource")).toBe(server.url);
    expect(authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.client?.client_id).toMatch(/^client-[0-9a-f]{32}$/);
    expect(provider.client).not.toHaveProperty("client_secret");
    expect(provider.saved).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp:tools" });
    expect(provider.saved?.access_token).toMatch(/^at-[0-9a-f]{32}$/);
    expect(provider.saved?.refresh_token).toMatch(/^rt-[0-9a-f]{32}$/);

    const counts = await seen(server);
    expect(counts).toMatchObject({
      register: 1,
      authorize: 1,
      token: { authorization_code: 1, refresh_token: 0, client_credentials: 0 },
      foreignTokenEndpointHits: 0,
      lastScope: "mcp:tools",
    });
    expect(counts.mcp401).toBeGreaterThanOrEqual(1);
    // initialize, notifications/initialized and tools/list at least.
    expect(counts.mcpWithValidToken).toBeGreaterThanOrEqual(3);

    const forged = await postMcp(server, "at-00000000000000000000000000000000");
    expect(forged.status).toBe(401);
    expect(forged.headers.get("www-authenticate")).toMatch(/, error="invalid_token"$/);
    expect(server.stderr()).not.toContain(provider.saved!.access_token);
  });

  it("--expires-in 2: after 3 s the resource answers 401 and a new connect refreshes (rotating the refresh token)", async () => {
    const server = await startOAuthFixture(["--expires-in", "2"]);
    const provider = new MemoryProvider(REDIRECT, "client_secret_basic");
    const client = await authorizeThenConnect(server, provider);
    expect(await toolNames(client)).toEqual(["get_weather", "get_time"]);
    await client.close();
    expect(provider.client?.client_secret).toMatch(/^cs-[0-9a-f]{32}$/);
    const first = provider.saved!;
    expect(first.expires_in).toBe(2);
    expect((await postMcp(server, first.access_token)).status).toBe(200);

    await new Promise((done) => setTimeout(done, 3_000));
    expect((await postMcp(server, first.access_token)).status).toBe(401);
    const again = await connect(server.url, provider);
    expect(await toolNames(again)).toEqual(["get_weather", "get_time"]);
    await again.close();

    const counts = await seen(server);
    expect(counts).toMatchObject({ register: 1, authorize: 1, token: { authorization_code: 1, refresh_token: 1, client_credentials: 0 } });
    expect(provider.saved?.access_token).not.toBe(first.access_token);
    expect(provider.saved?.refresh_token).not.toBe(first.refresh_token);
    // The rotated-out refresh token is dead.
    const replay = await postToken(
      `${server.origin}/token`,
      { grant_type: "refresh_token", refresh_token: first.refresh_token! },
      basic(provider.client!.client_id, provider.client!.client_secret!),
    );
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("client_credentials with ClientCredentialsProvider against --client-id/--client-secret", async () => {
    const server = await startOAuthFixture(["--client-id", "fixture-client", "--client-secret", "cs-fixture-secret-5b1e", "--scope", "mcp:tools"]);
    const provider = new ClientCredentialsProvider({ clientId: "fixture-client", clientSecret: "cs-fixture-secret-5b1e", expectedIssuer: server.origin });
    const client = await connect(server.url, provider);
    expect(await toolNames(client)).toEqual(["get_weather", "get_time"]);
    await client.close();
    expect(provider.tokens()?.access_token).toMatch(/^at-[0-9a-f]{32}$/);
    expect(provider.tokens()).not.toHaveProperty("refresh_token");
    expect(await seen(server)).toMatchObject({ register: 0, authorize: 0, token: { authorization_code: 0, refresh_token: 0, client_credentials: 1 } });

    const wrong = await postToken(`${server.origin}/token`, { grant_type: "client_credentials" }, basic("fixture-client", "not-the-secret"));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const post = await postToken(`${server.origin}/token`, {
      grant_type: "client_credentials",
      client_id: "fixture-client",
      client_secret: "cs-fixture-secret-5b1e",
    });
    expect(await post.json()).toMatchObject({ token_type: "Bearer", scope: "mcp:tools" });
    expect(server.stderr()).not.toContain("cs-fixture-secret-5b1e");
  });

  it("--echo-token puts the access token in every tool description", async () => {
    const server = await startOAuthFixture(["--echo-token", "--client-id", "echo-client", "--client-secret", "cs-echo-0c4d"]);
    const provider = new ClientCredentialsProvider({ clientId: "echo-client", clientSecret: "cs-echo-0c4d", expectedIssuer: server.origin });
    const client = await connect(server.url, provider);
    const { tools } = await client.listTools();
    await client.close();
    const token = provider.tokens()!.access_token;
    expect(tools).toHaveLength(2);
    for (const tool of tools) expect(tool.description).toContain(`[token: ${token}]`);
  });

  it("--as-origin other: the authorization server is another origin, and the SDK flow still completes", async () => {
    const server = await startOAuthFixture(["--as-origin", "other"]);
    const metadata = (await (await fetch(`${server.origin}/.well-known/oauth-protected-resource/mcp`)).json()) as { authorization_servers: string[] };
    const issuer = metadata.authorization_servers[0]!;
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(issuer).not.toBe(server.origin);
    expect((await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    expect(await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()).toMatchObject({ issuer, token_endpoint: `${issuer}/token` });

    const provider = new MemoryProvider(REDIRECT);
    const client = await authorizeThenConnect(server, provider);
    expect(await toolNames(client)).toEqual(["get_weather", "get_time"]);
    await client.close();
    expect(provider.authorizationUrls[0]?.origin).toBe(issuer);
    expect(await seen(server)).toMatchObject({ register: 1, authorize: 1, token: { authorization_code: 1 } });
  });

  it("--token-origin other --no-dcr: metadata names a third-origin token endpoint that counts its hits, and no registration", async () => {
    const server = await startOAuthFixture(["--token-origin", "other", "--no-dcr", "--client-id", "c1", "--client-secret", "s1"]);
    const metadata = (await (await fetch(`${server.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(server.origin);
    expect(metadata).not.toHaveProperty("registration_endpoint");
    expect((await fetch(`${server.origin}/register`, { method: "POST", body: "{}" })).status).toBe(404);
    const tokenEndpoint = new URL(String(metadata.token_endpoint));
    expect(tokenEndpoint.origin).not.toBe(server.origin);
    expect(tokenEndpoint.pathname).toBe("/token");
    expect((await seen(server)).foreignTokenEndpointHits).toBe(0);
    const answer = await postToken(tokenEndpoint.href, { grant_type: "client_credentials" }, basic("c1", "s1"));
    expect(answer.status).toBe(200);
    expect(await seen(server)).toMatchObject({ foreignTokenEndpointHits: 1, token: { client_credentials: 1 } });
  });

  it("/authorize and /token refuse what they should", async () => {
    const server = await startOAuthFixture();
    const registered = await fetch(`${server.origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const verifier = "v".repeat(43);
    const challenge = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
    const good = {
      client_id,
      redirect_uri: "http://127.0.0.1:5555/cb",
      response_type: "code",
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: server.url,
      state: "st-1",
    };
    const authorize = (params: Record<string, string>) => fetch(`${server.origin}/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });

    const bad: Record<string, string>[] = [
      { ...good, client_id: "client-unknown" },
      { ...good, redirect_uri: "http://evil.example/cb" },
      { ...good, redirect_uri: "http://127.0.0.1:5555/other" },
      { ...good, response_type: "token" },
      { ...good, code_challenge_method: "plain" },
      { ...good, resource: `${server.origin}/elsewhere` },
    ];
    for (const params of bad) expect((await authorize(params)).status, JSON.stringify(params)).toBe(400);
    const { code_challenge: _, ...noChallenge } = good;
    expect((await authorize(noChallenge)).status).toBe(400);

    // A loopback redirect_uri registered without a port matches any port (RFC 8252).
    const ok = await authorize(good);
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:5555/cb");
    expect(location.searchParams.get("state")).toBe("st-1");
    const code = location.searchParams.get("code")!;

    const exchange = { grant_type: "authorization_code", client_id, code, redirect_uri: good.redirect_uri, code_verifier: verifier };
    const wrongVerifier = await postToken(`${server.origin}/token`, { ...exchange, code_verifier: "w".repeat(43) });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: "invalid_grant" });
    // A failed exchange used the code up; a fresh one exchanges once, then never again.
    const fresh = new URL((await authorize(good)).headers.get("location")!).searchParams.get("code")!;
    const once = await postToken(`${server.origin}/token`, { ...exchange, code: fresh });
    expect(once.status).toBe(200);
    expect(await once.json()).toMatchObject({ token_type: "Bearer", access_token: expect.stringMatching(/^at-/) });
    expect((await postToken(`${server.origin}/token`, { ...exchange, code: fresh })).status).toBe(400);
    expect(await seen(server)).toMatchObject({ register: 1, authorize: 9, token: { authorization_code: 3 } });
  });
});
