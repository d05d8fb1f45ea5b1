// The pure parts of the OAuth login (issue 26): the --oauth-* flags, the origin rule for the
// authorization server's endpoints, what may be opened and how, and the one-shot loopback redirect,
// including what a hostile server or page would try.
import { describe, expect, it } from "vitest";
import { NO_OAUTH_FLAGS, type OAuthFlags, resolveOAuth } from "../../../../src/cli/oauth-flags.js";
import { openableUrl, openerCommand } from "../../../../src/connect/oauth/browser.js";
import { checkEndpointOrigins } from "../../../../src/connect/oauth/login.js";
import { LoopbackRedirect } from "../../../../src/connect/oauth/loopback.js";

const flags = (extra: Partial<OAuthFlags>): OAuthFlags => ({ ...NO_OAUTH_FLAGS, ...extra });
const remote = new URL("https://mcp.example.com/mcp");

describe("resolveOAuth", () => {
  it("logs in by default on a remote server, never without one, and not with --no-oauth", () => {
    expect(resolveOAuth(NO_OAUTH_FLAGS, remote, {})).toEqual({ settings: {}, secrets: [] });
    expect(resolveOAuth(NO_OAUTH_FLAGS, null, {})).toEqual({ settings: null, secrets: [] });
    expect(resolveOAuth(flags({ enabled: false }), remote, {})).toEqual({ settings: null, secrets: [] });
  });

  it("reads secrets from the environment and lists them for redaction", () => {
    const resolved = resolveOAuth(flags({ clientId: "ci", clientSecretEnv: "S", clientCredentials: true, issuer: "https://auth.example.com" }), remote, {
      S: "s3cret-value",
    });
    expect(resolved).toEqual({
      settings: { clientId: "ci", clientSecret: "s3cret-value", clientCredentials: true, issuer: "https://auth.example.com" },
      secrets: ["s3cret-value"],
    });
  });

  it("refuses flags that do not fit together, one line each", () => {
    const cases: Array<[Partial<OAuthFlags>, URL | null, RegExp]> = [
      [{ clientId: "x" }, null, /apply to a remote server/],
      [{ enabled: false, clientId: "x" }, remote, /--no-oauth turns the login off/],
      [{ clientCredentials: true }, remote, /needs --oauth-client-id/],
      [{ clientCredentials: true, clientId: "x" }, remote, /needs the client's secret/],
      [{ privateKeyEnv: "K" }, remote, /goes with --oauth-client-credentials/],
      [{ jwtAlg: "ES256" }, remote, /goes with --oauth-private-key-env/],
      [{ clientSecretEnv: "S" }, remote, /goes with --oauth-client-id/],
      [{ clientMetadataUrl: "http://example.com/c.json" }, remote, /must be an https:\/\/ URL with a path/],
      [{ clientMetadataUrl: "https://example.com/" }, remote, /must be an https:\/\/ URL with a path/],
      [{ issuer: "https://a.example.com" }, remote, /--oauth-issuer goes with --oauth-client-credentials/],
      [{ clientId: "x", clientSecretEnv: "UNSET" }, remote, /environment variable UNSET is not set/],
      [{ clientId: "x", clientSecretEnv: "S" }, new URL("http://mcp.example.com/mcp"), /refusing to log in over plain http:\/\//],
    ];
    for (const [given, url, message] of cases) expect(() => resolveOAuth(flags(given), url, { S: "secret" })).toThrow(message);
  });

  it("does not log in over plain http:// to another machine, but does to this one", () => {
    expect(resolveOAuth(NO_OAUTH_FLAGS, new URL("http://mcp.example.com/mcp"), {}).settings).toBeNull();
    expect(resolveOAuth(NO_OAUTH_FLAGS, new URL("http://127.0.0.1:8080/mcp"), {}).settings).toEqual({});
  });
});

describe("checkEndpointOrigins", () => {
  const state = (metadata: Record<string, string>) => ({
    authorizationServerUrl: "https://auth.example.com",
    authorizationServerMetadata: { issuer: "https://auth.example.com", response_types_supported: ["code"], ...metadata } as never,
  });

  it("accepts endpoints on the authorization server's origin", () => {
    expect(() =>
      checkEndpointOrigins(
        state({
          authorization_endpoint: "https://auth.example.com/a",
          token_endpoint: "https://auth.example.com/t",
          registration_endpoint: "https://auth.example.com/r",
        }),
      ),
    ).not.toThrow();
  });

  it("refuses a token or registration endpoint elsewhere, and a login page that is not https://", () => {
    expect(() => checkEndpointOrigins(state({ authorization_endpoint: "https://auth.example.com/a", token_endpoint: "https://evil.example/t" }))).toThrow(
      "the authorization server https://auth.example.com names its token_endpoint on another origin (https://evil.example); refusing to send credentials there",
    );
    expect(() =>
      checkEndpointOrigins(state({ authorization_endpoint: "https://auth.example.com/a", token_endpoint: "https://auth.example.com:8443/t" })),
    ).toThrow(/another origin/);
    expect(() =>
      checkEndpointOrigins(state({ authorization_endpoint: "https://auth.example.com/a", registration_endpoint: "http://auth.example.com/r" })),
    ).toThrow(/registration_endpoint on another origin/);
    for (const page of ["file:///etc/passwd", "javascript:alert(1)", "http://auth.example.com/a"]) {
      expect(() => checkEndpointOrigins(state({ authorization_endpoint: page, token_endpoint: "https://auth.example.com/t" }))).toThrow(/not https:\/\//);
    }
  });
});

describe("the browser", () => {
  it("opens only https:// pages and http:// ones on this machine", () => {
    expect(openableUrl(new URL("https://auth.example.com/authorize?x=1"))).toBe(true);
    expect(openableUrl(new URL("http://127.0.0.1:9/authorize"))).toBe(true);
    for (const page of ["http://auth.example.com/a", "file:///etc/passwd", "javascript:alert(1)", "vscode://x/y"])
      expect(openableUrl(new URL(page))).toBe(false);
  });

  it("takes BROWSER as a command and its arguments, never as shell text", () => {
    expect(openerCommand({ BROWSER: "firefox --new-window" }, "linux")).toEqual(["firefox", "--new-window"]);
    expect(openerCommand({ BROWSER: "'/opt/My Browser/run' -x" }, "linux")).toEqual(["/opt/My Browser/run", "-x"]);
    expect(openerCommand({ BROWSER: "curl x; rm -rf ~" }, "linux")).toBeNull();
    expect(openerCommand({ BROWSER: "open $(id)" }, "linux")).toBeNull();
    expect(openerCommand({ DISPLAY: ":0" }, "linux")).toEqual(["xdg-open"]);
    expect(openerCommand({}, "linux")).toBeNull();
    expect(openerCommand({}, "darwin")).toEqual(["open"]);
  });
});

describe("the loopback redirect", () => {
  it("takes only the callback with the expected state, once; others get 400 and change nothing", async () => {
    const redirect = new LoopbackRedirect();
    await redirect.listen();
    try {
      const base = redirect.redirectUri;
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      redirect.expect("good-state");
      const waiting = redirect.wait(5000);
      expect((await fetch(`${base}?code=forged&state=guessed`)).status).toBe(400);
      expect((await fetch(`${base.replace("/callback", "/other")}?code=x&state=good-state`)).status).toBe(400);
      expect((await fetch(`${base}?code=the-code&state=good-state`)).status).toBe(200);
      expect(await waiting).toEqual({ code: "the-code" });
      // Used once: the same state again is not taken.
      expect((await fetch(`${base}?code=again&state=good-state`)).status).toBe(400);
    } finally {
      await redirect.close();
    }
  });

  // Regression: the login dropped the redirect's iss, so the SDK refused every login to an
  // authorization server that advertises it (RFC 9207), and could not catch a mixed-up one.
  it("gives the iss of the redirect with its code, verbatim, and none when the redirect has none", async () => {
    const redirect = new LoopbackRedirect();
    await redirect.listen();
    try {
      redirect.expect("s1");
      const waiting = redirect.wait(5000);
      const iss = "https://Evil.example.com:443/\u001b[31m";
      await fetch(`${redirect.redirectUri}?code=c1&state=s1&iss=${encodeURIComponent(iss)}`);
      expect(await waiting).toEqual({ code: "c1", iss });
      redirect.expect("s2");
      const plain = redirect.wait(5000);
      await fetch(`${redirect.redirectUri}?code=c2&state=s2`);
      expect(Object.keys((await plain) ?? {})).toEqual(["code"]);
    } finally {
      await redirect.close();
    }
  });

  it("gives the authorization server's error, and null when nobody comes in time", async () => {
    const redirect = new LoopbackRedirect();
    await redirect.listen();
    try {
      redirect.expect("s1");
      const waiting = redirect.wait(5000);
      await fetch(`${redirect.redirectUri}?error=access_denied&error_description=no&state=s1`);
      expect(await waiting).toEqual({ error: "access_denied", description: "no" });
      redirect.expect("s2");
      expect(await redirect.wait(50)).toBeNull();
    } finally {
      await redirect.close();
    }
  });
});
