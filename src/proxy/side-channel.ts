/** The proxy's own reads over the proxied session: an SDK Client on a transport that shares the server's session without disturbing the client's. */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { randomBytes } from "node:crypto";
import type { JsonObject } from "../lock/snapshot.js";

/**
 * A transport for an SDK Client that reads the server through the session the proxy forwarded.
 * The client's `initialize` is answered here from the server's real answer (the server was
 * initialized once, by the real client); its `notifications/initialized` goes to the server as the
 * session's only one; its requests go to the server under ids of their own (a random prefix the
 * real client cannot pick), and the answers come back through `take`. So `readSession`, which
 * takes an SDK Client, reads the proxied session exactly as it reads a direct one.
 */
export class SideChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly prefix = `mcp-lint-${randomBytes(9).toString("base64url")}-`;
  private counter = 0;
  /** Our id on the wire to the Client's id, and back (for cancellations). */
  private readonly toClientId = new Map<string, RequestId>();
  private readonly toWireId = new Map<RequestId, string>();
  private closed = false;

  constructor(
    private readonly initializeResult: JsonObject,
    private readonly toServer: (message: JSONRPCMessage) => Promise<void>,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("the proxy's reader is closed");
    if (isJSONRPCRequest(message)) {
      if (message.method === "initialize") {
        // The Client accepts only versions it knows; what the real client and server agreed is theirs.
        const version = this.initializeResult.protocolVersion;
        const known = typeof version === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(version);
        const result = known ? this.initializeResult : { ...this.initializeResult, protocolVersion: LATEST_PROTOCOL_VERSION };
        const answer = { jsonrpc: "2.0" as const, id: message.id, result };
        queueMicrotask(() => this.onmessage?.(answer));
        return;
      }
      this.counter += 1;
      const wireId = `${this.prefix}${this.counter}`;
      this.toClientId.set(wireId, message.id);
      this.toWireId.set(message.id, wireId);
      await this.toServer({ ...message, id: wireId });
      return;
    }
    if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
      const params = message.params as JsonObject | undefined;
      const wireId = params === undefined ? undefined : this.toWireId.get(params.requestId as RequestId);
      if (wireId === undefined) return;
      this.forget(wireId);
      await this.toServer({ ...message, params: { ...params, requestId: wireId } });
      return;
    }
    await this.toServer(message);
  }

  /**
   * Deliver the server's answer to one of this channel's requests: "taken", "stale" for an answer
   * under this channel's prefix that nothing waits for (a duplicate, or late after a timeout or a
   * cancellation: dropped, never forwarded), or "other" when the message is not for this channel.
   */
  take(message: JSONRPCMessage): "taken" | "stale" | "other" {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return "other";
    const id = message.id;
    if (typeof id !== "string" || !id.startsWith(this.prefix)) return "other";
    const clientId = this.toClientId.get(id);
    if (clientId === undefined || this.closed) return "stale";
    this.forget(id);
    this.onmessage?.({ ...message, id: clientId });
    return "taken";
  }

  private forget(wireId: string): void {
    const clientId = this.toClientId.get(wireId);
    this.toClientId.delete(wireId);
    if (clientId !== undefined) this.toWireId.delete(clientId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/** An SDK Client reading over a side channel; `initialized` is sent to the server as it connects. */
export async function connectSideClient(channel: SideChannel, version: string): Promise<Client> {
  const client = new Client({ name: "mcp-lint-proxy", version }, { capabilities: {} });
  await client.connect(channel);
  return client;
}
