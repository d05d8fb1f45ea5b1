/**
 * The proxy's transport toward a remote server: the SDK v2 client's Streamable HTTP transport (which
 * speaks both protocol eras), falling back to its SSE transport the way `lock --url` does, with
 * messages sent in order, one at a time.
 */

import {
  type FetchLike,
  type JSONRPCMessage as HttpMessage,
  type Transport as HttpTransport,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializedNotification, isJSONRPCErrorResponse, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Login } from "../connect/oauth/login.js";
import type { HttpTarget } from "../connect/target.js";
import type { HeaderSendOptions } from "./era-link.js";

/** Longest a send holds the next one back (a server in JSON mode answers a POST only when its result is ready). */
const ORDER_HOLD_MS = 1000;
/** Longest the link waits for the standalone GET stream to open after `initialized`. */
const STANDALONE_WAIT_MS = 2000;

/**
 * The server's JSON-RPC error answer to request `id`, carried by an HTTP 400 (how a 2026-07-28 server
 * refuses a 2025 `initialize`), or null. The SDK delivers such an answer itself only for a request
 * of the new revision.
 */
function refusalIn(error: unknown, id: RequestId): JSONRPCMessage | null {
  if (!(error instanceof SdkHttpError) || error.status !== 400) return null;
  const text = (error.data as { text?: unknown } | undefined)?.text;
  if (typeof text !== "string") return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  return isJSONRPCErrorResponse(body) && body.id === id ? body : null;
}

/** Resolves after `ms`, without keeping the process alive. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * One link to a remote server. The client's initialize goes out over Streamable HTTP; a server
 * that answers that POST with 404 or 405 speaks only the older HTTP+SSE transport, so the link
 * switches to SSE and sends the same initialize again; one that answers it with a JSON-RPC error
 * in an HTTP 400 refused it, and that answer is passed on as the server's. Redirects stay within
 * the origin. Per-request headers in the send options (`Mcp-Param-*`) go on that request's POST.
 */
export class HttpLink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Which transport is in use, for messages. */
  kind: "streamable-http" | "sse" = "streamable-http";
  private current: HttpTransport;
  private switched = false;
  /** The id of the client's initialize, once sent: a refusal of it is an answer, not a transport error. */
  private helloId: RequestId | null = null;
  private readonly requestInit: RequestInit;
  private readonly fetchImpl: FetchLike;
  /** Where the next send starts: after the previous one was accepted (or held it back long enough). */
  private order: Promise<void> = Promise.resolve();
  /** The latest GET the transport started (its standalone stream), settled either way. */
  private lastGet: Promise<void> | null = null;

  constructor(
    private readonly target: HttpTarget,
    fetchImpl: FetchLike,
    /** Logs in when the server asks (the browser once; the stored token after that). */
    private readonly login: Login | null = null,
  ) {
    this.requestInit = { headers: Object.fromEntries(target.headers) };
    // Watch the GETs the transport makes: the standalone stream opens only after `initialized`.
    this.fetchImpl = (input, init) => {
      const response = fetchImpl(input, init);
      if ((init?.method ?? "GET").toUpperCase() === "GET") {
        this.lastGet = response.then(
          () => undefined,
          () => undefined,
        );
      }
      return response;
    };
    this.current = this.wire(
      new StreamableHTTPClientTransport(target.url, {
        requestInit: this.requestInit,
        fetch: this.fetchImpl,
        redirectPolicy: "same-origin",
        ...(login !== null ? { authProvider: login.provider } : {}),
      }),
    );
  }

  private wire(transport: HttpTransport): HttpTransport {
    transport.onmessage = (message) => this.onmessage?.(message as JSONRPCMessage);
    transport.onerror = (error) => {
      // The transport reports a failed POST before throwing it; a refused initialize is delivered as an answer instead.
      if (this.helloId !== null && refusalIn(error, this.helloId) !== null) return;
      this.onerror?.(error);
    };
    transport.onclose = () => {
      if (transport === this.current) this.onclose?.();
    };
    return transport;
  }

  async start(): Promise<void> {
    await this.current.start();
  }

  /**
   * Send in order: each message goes out once the previous one was accepted by the server, and after
   * `initialized` once the standalone GET stream is open. HTTP requests race each other otherwise: a
   * call posted before `initialized`, or a server request (sampling, elicitation) sent on a stream that
   * is not open yet and so lost. A slow send holds the next one back for ORDER_HOLD_MS at most.
   */
  send(message: JSONRPCMessage, options?: HeaderSendOptions): Promise<void> {
    const initialized = isInitializedNotification(message);
    const sent = this.order.then(() => {
      // Any GET seen from here on is the one the transport opens for this `initialized`.
      if (initialized) this.lastGet = null;
      return this.sendNow(message, options);
    });
    const settled = sent.then(
      () => undefined,
      () => undefined,
    );
    const ready = initialized ? settled.then(() => this.standaloneOpen()) : settled;
    this.order = Promise.race([ready, pause(initialized ? STANDALONE_WAIT_MS : ORDER_HOLD_MS)]);
    return sent;
  }

  /** After `initialized` was accepted: the GET the transport starts for it, once it has an answer (any status). */
  private async standaloneOpen(): Promise<void> {
    // The transport starts the GET a few microtasks after the POST resolves; a macrotask later it has.
    await new Promise((resolve) => setImmediate(resolve));
    await this.lastGet;
  }

  private async sendNow(message: JSONRPCMessage, options?: HeaderSendOptions): Promise<void> {
    const hello = isJSONRPCRequest(message) && message.method === "initialize";
    if (hello) this.helloId = message.id;
    try {
      await this.sendLoggedIn(message, options);
    } catch (error) {
      const refusal = hello ? refusalIn(error, message.id) : null;
      if (refusal !== null) {
        this.onmessage?.(refusal);
        return;
      }
      const fallback = !this.switched && hello && error instanceof SdkHttpError && (error.status === 404 || error.status === 405);
      if (!fallback) throw error;
      this.switched = true;
      const old = this.current;
      this.current = this.wire(
        new SSEClientTransport(this.target.url, {
          requestInit: this.requestInit,
          fetch: this.fetchImpl,
          eventSourceInit: { fetch: this.fetchImpl },
          ...(this.login !== null ? { authProvider: this.login.provider } : {}),
        }),
      );
      this.kind = "sse";
      await old.close().catch(() => undefined);
      await this.current.start();
      await this.sendLoggedIn(message, options);
    }
  }

  /**
   * Send; when the server asked for a login (a 401 the stored token could not answer, or a 403
   * asking for more scopes), finish it in the browser and send again. Login.code stops after
   * MAX_LOGINS logins.
   */
  private async sendLoggedIn(message: JSONRPCMessage, options?: HeaderSendOptions): Promise<void> {
    for (;;) {
      try {
        await this.current.send(message as HttpMessage, options);
        return;
      } catch (error) {
        const login = this.login;
        if (login === null || !login.pending) throw error;
        // The issuer from the redirect goes along, so the transport can check it came from the server it asked (RFC 9207).
        const { code, iss } = await login.code();
        await (this.current as StreamableHTTPClientTransport | SSEClientTransport).finishAuth(code, iss);
      }
    }
  }

  /** Streamable HTTP sends the negotiated protocol version on every request after initialize. */
  setProtocolVersion(version: string): void {
    this.current.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.current.close();
    await this.login?.close();
  }
}
