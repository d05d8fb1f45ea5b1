/** The proxy's transport toward a remote server: the SDK's Streamable HTTP transport, falling back to its SSE transport the way `lock --url` does. */

import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { HttpTarget } from "../connect/target.js";

/**
 * One link to a remote server. The client's initialize goes out over Streamable HTTP; a server
 * that answers that POST with 404 or 405 speaks only the older HTTP+SSE transport, so the link
 * switches to SSE and sends the same initialize again. Redirects stay within the origin.
 */
export class HttpLink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Which transport is in use, for messages. */
  kind: "streamable-http" | "sse" = "streamable-http";
  private current: Transport;
  private switched = false;
  private readonly requestInit: RequestInit;

  constructor(
    private readonly target: HttpTarget,
    private readonly fetchImpl: FetchLike,
  ) {
    this.requestInit = { headers: Object.fromEntries(target.headers) };
    this.current = this.wire(new StreamableHTTPClientTransport(target.url, { requestInit: this.requestInit, fetch: fetchImpl, redirectPolicy: "same-origin" }));
  }

  private wire(transport: Transport): Transport {
    transport.onmessage = (message) => this.onmessage?.(message);
    transport.onerror = (error) => this.onerror?.(error);
    transport.onclose = () => {
      if (transport === this.current) this.onclose?.();
    };
    return transport;
  }

  async start(): Promise<void> {
    await this.current.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.current.send(message, options);
    } catch (error) {
      const fallback =
        !this.switched &&
        isJSONRPCRequest(message) &&
        message.method === "initialize" &&
        error instanceof StreamableHTTPError &&
        (error.code === 404 || error.code === 405);
      if (!fallback) throw error;
      this.switched = true;
      const old = this.current;
      this.current = this.wire(
        new SSEClientTransport(this.target.url, { requestInit: this.requestInit, fetch: this.fetchImpl, eventSourceInit: { fetch: this.fetchImpl } }),
      );
      this.kind = "sse";
      await old.close().catch(() => undefined);
      await this.current.start();
      await this.current.send(message, options);
    }
  }

  /** Streamable HTTP sends the negotiated protocol version on every request after initialize. */
  setProtocolVersion(version: string): void {
    this.current.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.current.close();
  }
}
