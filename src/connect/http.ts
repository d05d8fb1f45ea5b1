/**
 * Connect to a remote MCP server over Streamable HTTP (falling back to the older SSE transport) with
 * the SDK v2 client and its transports, which speak both eras, and read it.
 */

import { exportsOf } from "../interop.js";
import { type Client, type FetchLike, SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { ConnectionError } from "../errors.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import { type Bound, type ConnectOptions, DEFAULT_DEADLINE_MS, isTimeout, RunClock, timeoutText } from "./bounds.js";
import { eraClient, eraListing } from "./client.js";
import { firstLine, type OpenSession, readSession } from "./session.js";
import type { Login } from "./oauth/login.js";
import { describeTarget, givesAuthorization, type HttpTarget, type Target, targetSha256 } from "./target.js";

/** Largest response body (or, in an event stream, single event) read from a server; a bigger one is cut off with an error. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Connect over HTTP, read discover or initialize and every tools/list page, then close the session. */
export async function snapshotFromHttp(target: HttpTarget & Target, options: ConnectOptions): Promise<ServerSnapshot> {
  const session = await openHttpSession(target, options);
  try {
    return session.snapshot;
  } finally {
    await session.close();
  }
}

/**
 * Like snapshotFromHttp, but the session stays open for further requests (the probe runner calls
 * tools on it); the caller must `close()` it. On a failure before it is returned it is closed already.
 */
export async function openHttpSession(target: HttpTarget & Target, options: ConnectOptions): Promise<OpenSession> {
  // A token given in a header (--header-env Authorization=VAR) wins: no login is attempted.
  const login = options.login !== undefined && !givesAuthorization(target) ? await startLogin(target, options) : null;
  try {
    if (login?.needsRefresh()) await refreshAhead(target, login);
    for (;;) {
      const attempt: Attempt = { transport: null };
      try {
        const session = await openHttpSessionOnce(target, options, login, attempt);
        const close = session.close;
        return {
          ...session,
          close: async () => {
            await close();
            await login?.close();
          },
        };
      } catch (error) {
        // A login was started (a 401, or a 403 asking for more scopes): finish it, then connect again.
        if (login === null || !login.pending || attempt.transport === null) throw error;
        const { code, iss } = await login.code();
        try {
          await attempt.transport.finishAuth(code, iss);
        } catch (finishError) {
          throw new ConnectionError(`could not log in to ${describeTarget(target)}: ${loginFailure(finishError, options)}`);
        }
      }
    }
  } catch (error) {
    await login?.close();
    throw error;
  }
}

/** Make `transport` finish a login a send started (Login.code stops after MAX_LOGINS) and send again. */
function loginOnSend(transport: StreamableHTTPClientTransport | SSEClientTransport, login: Login): void {
  const target = transport as Transport;
  const send = target.send.bind(target);
  target.send = async (message, options) => {
    for (;;) {
      try {
        return await send(message, options);
      } catch (error) {
        if (!login.pending) throw error;
        const { code, iss } = await login.code();
        await transport.finishAuth(code, iss);
      }
    }
  };
}

/** The transport of one connection attempt, kept so that a login it started can be finished on it. */
interface Attempt {
  transport: { finishAuth(code: string, iss?: string): Promise<void> } | null;
}

async function startLogin(target: HttpTarget & Target, options: ConnectOptions): Promise<Login | null> {
  const context = options.login as NonNullable<ConnectOptions["login"]>;
  const { Login } = await import("./oauth/login.js");
  return Login.start(target.url, { ...context, redactor: options.redactor });
}

/** Refresh a stored token that expires within a minute, before it is sent; a failure leaves it to the connect to log in again. */
async function refreshAhead(target: HttpTarget & Target, login: Login): Promise<void> {
  const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const fetchImpl = await boundedFetch(target.url, () => undefined);
  try {
    await auth(login.provider, { serverUrl: target.url, fetchFn: fetchImpl });
  } catch {
    // The first request finds out, and logs in again if it must.
  }
}

/** What went wrong finishing a login, in one redacted, printable line. */
function loginFailure(error: unknown, options: ConnectOptions): string {
  return printable(options.redactor.text(originsOnly(firstLine(error))));
}

async function openHttpSessionOnce(target: HttpTarget & Target, options: ConnectOptions, login: Login | null, attempt: Attempt): Promise<OpenSession> {
  const where = describeTarget(target);
  const clock = new RunClock(options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  let oversize: Error | undefined;
  let client: Client;
  // The SDK reports a broken response stream only to onerror and may retry; an oversized answer
  // must end the run at once, so closing the client fails the waiting request.
  const fetchImpl = await boundedFetch(target.url, (error) => {
    oversize ??= error;
    void client?.close().catch(() => undefined);
  });
  const requestInit: RequestInit = { headers: Object.fromEntries(target.headers) };
  const failure = (error: unknown, step: string, bound: Bound) => {
    if (oversize !== undefined) return oversize.message;
    if (isTimeout(error)) return timeoutText(step, bound, clock.deadlineMs);
    // Redacted before anything is cut or replaced, so no part of a secret survives a rewrite.
    // mcp-lint's own refusals (a login's) name origins only already.
    if (error instanceof ConnectionError) return printable(options.redactor.text(firstLine(error)));
    const cause = printable(options.redactor.text(networkCause(error, target.url) ?? originsOnly(firstLine(error))));
    return login?.explain(cause.length > 160 ? `${cause.slice(0, 157)}...` : cause) ?? cause;
  };

  const streamable = new StreamableHTTPClientTransport(target.url, {
    requestInit,
    fetch: fetchImpl,
    redirectPolicy: "same-origin",
    ...(login !== null ? { authProvider: login.provider } : {}),
  });
  attempt.transport = streamable;
  client = eraClient(options);
  let transportName: "streamable-http" | "sse" = "streamable-http";
  let bound = clock.bound(options.timeoutMs);
  try {
    // server/discover first; a legacy server's answer to it (an error, or 4xx) leads to initialize.
    await client.connect(streamable, { timeout: bound.ms });
  } catch (error) {
    await client.close().catch(() => undefined);
    if (login?.pending === true) throw error;
    // A server that only speaks the older HTTP+SSE transport answers the POST with 404 or 405.
    if (!(error instanceof SdkHttpError && (error.status === 404 || error.status === 405))) {
      throw new ConnectionError(`could not connect to ${where}: ${failure(error, "initialize", bound)}`);
    }
    // No 2026-07-28 server speaks the old transport: initialize alone, without a probe.
    client = eraClient(options, "legacy");
    const sse = new SSEClientTransport(target.url, {
      requestInit,
      fetch: fetchImpl,
      eventSourceInit: { fetch: fetchImpl },
      ...(login !== null ? { authProvider: login.provider } : {}),
    });
    attempt.transport = sse;
    transportName = "sse";
    bound = clock.bound(options.timeoutMs);
    try {
      await client.connect(sse, { timeout: bound.ms });
    } catch (sseError) {
      await client.close().catch(() => undefined);
      throw new ConnectionError(`could not connect to ${where} over Streamable HTTP or SSE: ${failure(sseError, "initialize", bound)}`);
    }
  }
  // Connected: a later request that makes the server ask for a login (a 403 for more scopes when a
  // probe calls a tool) finishes it in the browser and is sent again.
  if (login !== null && attempt.transport !== null) loginOnSend(attempt.transport as StreamableHTTPClientTransport | SSEClientTransport, login);
  const close = async () => {
    await client.close().catch(() => undefined);
  };
  try {
    const reading = {
      where,
      timeoutMs: options.timeoutMs,
      clock,
      transport: transportName,
      commandSha256: targetSha256(target),
      failure,
      catalog: options.catalog === true,
    } as const;
    const listing = eraListing(client);
    const snapshot = await readSession(listing, reading);
    return {
      client,
      snapshot,
      reread: () => readSession(listing, reading),
      explain: (error, step) => failure(error, step, { ms: options.timeoutMs, byDeadline: false }),
      ended: () => null,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Load undici now: a run that also launched a server must not read it from disk afterwards. */
export async function preloadProxyFetch(): Promise<void> {
  await loadUndici();
}

/** undici's exports, whether the module arrives as Node loads it or as a bundle chunk (a CommonJS module there is its default export only). */
async function loadUndici(): Promise<typeof import("undici")> {
  return exportsOf((await import("undici")) as typeof import("undici") & { default?: typeof import("undici") }, "EnvHttpProxyAgent");
}

/**
 * The fetch every request goes through. Plain http:// uses Node's fetch, which ignores proxy
 * variables, so a local server's secrets never pass through a proxy in cleartext; https:// goes
 * through undici's EnvHttpProxyAgent, which honours HTTPS_PROXY, ALL_PROXY and NO_PROXY. Every
 * response body is counted before the SDK parses it and cut off past MAX_RESPONSE_BYTES.
 */
async function boundedFetch(url: URL, onOversize: (error: Error) => void): Promise<FetchLike> {
  let base: FetchLike = (input, init) => fetch(input, init);
  if (url.protocol === "https:") {
    const { EnvHttpProxyAgent, fetch: undiciFetch } = await loadUndici();
    // EnvHttpProxyAgent reads HTTPS_PROXY and NO_PROXY itself; ALL_PROXY is the fallback curl users expect.
    const allProxy = process.env.ALL_PROXY ?? process.env.all_proxy;
    const httpsProxy = process.env.HTTPS_PROXY ?? process.env.https_proxy ?? allProxy;
    const dispatcher = new EnvHttpProxyAgent(httpsProxy === undefined ? {} : { httpsProxy });
    base = (input, init) => undiciFetch(input as string, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
  }
  return async (input, init) => limitBody(await base(input, init), onOversize);
}

/** Messages may quote a URL (a redirect target, say); show only its scheme and host. */
function originsOnly(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (match) => {
    try {
      const url = new URL(match);
      return `${url.protocol}//${url.host}`;
    } catch {
      return "(url)";
    }
  });
}

/** Server-controlled text in an error (a response body the SDK quotes) as printable ASCII. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, "?");
}

const TLS_CODES =
  /^(ERR_TLS_|ERR_SSL_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$|ERR_TLS_CERT_ALTNAME_INVALID$)/;

/**
 * The cause of a failed fetch in plain words ("fetch failed" says nothing): connection refused,
 * DNS lookup failed, a TLS or certificate error, a timeout. Walks `error.cause` for the system or
 * undici code; null when there is none.
 */
function networkCause(error: unknown, url: URL): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    // The v1 SDK's HTTP errors carry the status as their code; the v2 SDK's (SdkHttpError) as `status`.
    if (code === 401 || code === 403) return authorizationText(code);
    const status = (current as { data?: { status?: unknown } }).data?.status;
    if (status === 401 || status === 403) return authorizationText(status);
    if (typeof code === "string") {
      const text = describeCode(code, current.message, url);
      if (text !== null) return text;
    }
    // fetch refuses the ports browsers block (1, 25, 6667, ...) before connecting, with no code.
    if (current.message === "bad port") {
      return `fetch refuses to connect to port ${url.port}, one of the ports it blocks for safety (such as 1, 25 and 6667); serve the endpoint on another port`;
    }
    // AggregateError (happy eyeballs over IPv4 and IPv6) holds the per-address failures.
    const inner = current instanceof AggregateError ? current.errors[0] : undefined;
    current = (current as { cause?: unknown }).cause ?? inner;
  }
  return null;
}

/** Why a server refused the connection for want of a login or token; `wrap` leaves such entries alone too. */
export function authorizationText(status: number): string {
  return (
    `the server answered HTTP ${status}: it needs a login or a token that was not given (mcp-lint logs in where the server supports ` +
    "the MCP authorization flow, unless --no-oauth; or pass a token in a header with --header-env Authorization=VAR)"
  );
}

function describeCode(code: string, message: string, url: URL): string | null {
  const host = url.hostname;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused: nothing is listening on ${host} port ${port} (is the server running, and is the port right?)`;
    case "ENOTFOUND":
    case "EAI_NONAME":
    case "EAI_NODATA":
    case "EAI_FAIL":
      return `DNS lookup failed: the host name ${host} was not found`;
    case "EAI_AGAIN":
      return `DNS lookup failed for ${host} (temporary failure: is this machine offline, or is DNS blocked?)`;
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return `connecting to ${host} port ${port} timed out (a firewall, or a proxy that is needed: HTTPS_PROXY)`;
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return `${host} accepted the connection but did not answer in time`;
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return `the connection to ${host} was closed before an answer (by the server or a proxy)`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} is unreachable from this machine (${code})`;
    default:
      break;
  }
  if (TLS_CODES.test(code)) {
    const what = printable(message.split("\n")[0] ?? "").slice(0, 200);
    const wrongProtocol = /wrong version number|packet length too long|http request/i.test(message);
    if (wrongProtocol) return `TLS handshake with ${host} failed (${code}: ${what}); is the server speaking https:// on this port?`;
    return `TLS certificate error from ${host} (${code}: ${what}); if a private or corporate CA signs its certificate, point NODE_EXTRA_CA_CERTS at that CA's certificate file`;
  }
  return null;
}

function limitBody(response: Response, onOversize: (error: Error) => void): Response {
  // Null-body statuses cannot be rebuilt with a body; they carry nothing to bound.
  if (response.body === null || [101, 204, 205, 304].includes(response.status)) return response;
  // An event stream may stay open for many messages: there each event is bounded (the count
  // restarts after every blank line); any other body is bounded as a whole.
  const events = /^\s*text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  const what = events ? "message" : "response";
  /** Bytes of the current event (or body) so far. */
  let seen = 0;
  /** Bytes of the line not yet ended, from earlier chunks, and its last byte. */
  let carry = 0;
  let carryLast = -1;
  const limited = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const refuse = () => {
          const error = new Error(`the server sent a ${what} larger than ${MAX_RESPONSE_BYTES / 1048576} MiB`);
          controller.error(error);
          onOversize(error);
        };
        let eventFrom = 0;
        if (events) {
          // Only line ends are visited (indexOf), so a long event costs no more than its bytes.
          let from = 0;
          for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, newline + 1)) {
            const length = carry + (newline - from);
            const last = newline > from ? chunk[newline - 1] : carryLast;
            carry = 0;
            carryLast = -1;
            from = newline + 1;
            if (length === 0 || (length === 1 && last === 13)) {
              if (seen + (newline + 1 - eventFrom) > MAX_RESPONSE_BYTES) return refuse();
              seen = 0;
              eventFrom = newline + 1;
            }
          }
          if (from < chunk.length) {
            carry += chunk.length - from;
            carryLast = chunk[chunk.length - 1] as number;
          }
        }
        seen += chunk.byteLength - eventFrom;
        if (seen > MAX_RESPONSE_BYTES) return refuse();
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The bounded, proxy-aware fetch and the failure wording, for the proxy's own HTTP link (src/proxy/http-link.ts). */
export { boundedFetch, networkCause, originsOnly, printable };
