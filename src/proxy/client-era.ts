/**
 * The proxy's link to a client of either protocol era. A client of the 2025 protocol opens with
 * `initialize` and everything passes as sent. A client of MCP 2026-07-28 opens with
 * `server/discover`: the link turns that into the session's one `initialize` (so the guard reads,
 * compares and answers exactly as for any client) and answers the client from it; every later
 * request has the revision's per-request `_meta` envelope taken off before the session sees it;
 * the client's `subscriptions/listen` is answered here, and the session's list_changed
 * notifications reach the client only on a subscription that asked for them, stamped with it.
 */

import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
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
import { isJsonObject, type JsonObject } from "../lock/snapshot.js";
import {
  CLIENT_INFO_KEY,
  LISTEN_FLAGS,
  LOG_LEVEL_KEY,
  listenFilter,
  MODERN_REVISION,
  PROTOCOL_VERSION_KEY,
  SERVER_INFO_KEY,
  SUBSCRIPTION_KEY,
  SUBSCRIPTION_NOTIFICATIONS,
} from "./era-link.js";

/**
 * The envelope keys a 2026-07-28 request carries for the receiver's protocol layer, taken off
 * before the session sees it. The client's capabilities stay: a server of the revision behind the
 * proxy asks the client for input (`input_required`) only as far as they allow.
 */
const ENVELOPE_KEYS: readonly string[] = [PROTOCOL_VERSION_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY];

/** Which listen-filter flag each list notification answers to. */
const NOTIFICATION_FLAG: ReadonlyMap<string, string> = new Map(LISTEN_FLAGS.map(({ notification, flag }) => [notification, flag]));

/** Notifications that only a subscription may deliver in the revision: never sent to a modern client unasked. */
const SUBSCRIPTION_ONLY = new Set(SUBSCRIPTION_NOTIFICATIONS);

/** What the link tells the proxy's log. */
export type ClientEraEvent =
  /** The client opened in the revision (`server/discover`, or a request in its envelope): the proxy speaks it to the client. */
  | { event: "client_era"; era: string }
  /** A request from the server that a client of the 2026-07-28 revision cannot be asked: refused. */
  | { event: "server_request_refused"; method: string };

/** Whether a request's params carry the 2026-07-28 envelope (its protocol version in `_meta`). */
export function inModernEnvelope(params: unknown): boolean {
  return isJsonObject(params) && isJsonObject(params._meta) && params._meta[PROTOCOL_VERSION_KEY] === MODERN_REVISION;
}

/** A request or notification's params with the envelope keys taken off `_meta` (an emptied `_meta` goes too). */
export function withoutEnvelope(params: unknown): JsonObject | undefined {
  if (!isJsonObject(params)) return undefined;
  if (!isJsonObject(params._meta)) return params;
  const meta: JsonObject = {};
  for (const [key, value] of Object.entries(params._meta)) if (!ENVELOPE_KEYS.includes(key)) meta[key] = value;
  const { _meta: _envelope, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/**
 * The `initialize` a modern client's `server/discover` becomes: its clientInfo from the envelope,
 * and no client capabilities, since the revision has no server-to-client requests for the proxy to
 * carry and a server that asked for one would only be refused.
 */
export function initializeForDiscover(id: RequestId, discoverParams: unknown): JSONRPCMessage {
  const params = isJsonObject(discoverParams) ? discoverParams : {};
  const meta = isJsonObject(params._meta) ? params._meta : {};
  const info = meta[CLIENT_INFO_KEY];
  const clientInfo =
    isJsonObject(info) && typeof info.name === "string" && typeof info.version === "string"
      ? { name: info.name, version: info.version }
      : { name: "unnamed-2026-07-28-client", version: "0" };
  return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo } };
}

/**
 * The capabilities a modern client is told: the session's, less resource subscriptions, which the
 * revision moves into `subscriptions/listen` and the link does not carry.
 */
export function modernCapabilities(capabilities: unknown): JsonObject {
  if (!isJsonObject(capabilities)) return {};
  if (!isJsonObject(capabilities.resources) || !("subscribe" in capabilities.resources)) return capabilities;
  const { subscribe: _subscribe, ...resources } = capabilities.resources;
  return { ...capabilities, resources };
}

/** The `server/discover` answer built from the session's initialize answer. */
export function discoverFromInitialize(initialize: JsonObject): JsonObject {
  const answer: JsonObject = {
    // The proxy also answers `initialize`, so the 2025 revisions are supported as well.
    supportedVersions: [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: modernCapabilities(initialize.capabilities),
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
  };
  if (typeof initialize.instructions === "string") answer.instructions = initialize.instructions;
  if (isJsonObject(initialize.serverInfo)) answer._meta = { [SERVER_INFO_KEY]: initialize.serverInfo };
  return answer;
}

/** The part of a listen filter the link honours: list flags whose list the server says can change. */
export function agreedFilter(requested: unknown, capabilities: JsonObject): JsonObject {
  const filter = isJsonObject(requested) ? requested : {};
  const agreed: JsonObject = {};
  for (const flag of Object.keys(listenFilter(capabilities) ?? {})) if (filter[flag] === true) agreed[flag] = true;
  return agreed;
}

/** The methods whose results the revision lets a client cache, and so must say for how long and for whom. */
const CACHEABLE = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read", "server/discover"]);

/**
 * A result as a 2026-07-28 client expects it: typed `complete` unless it says otherwise, stamped
 * with the server's identity, and for a cacheable method with the cache fields the revision
 * requires: the server's own when valid, else none (0 ms, private), since the guard may withhold
 * tomorrow what it serves today.
 */
export function modernResult(result: JsonObject, serverInfo: JsonObject | null, method: string | null = null): JsonObject {
  const typed: JsonObject = result.resultType === undefined ? { ...result, resultType: "complete" } : { ...result };
  if (method !== null && CACHEABLE.has(method) && typed.resultType === "complete") {
    if (!(typeof typed.ttlMs === "number" && Number.isSafeInteger(typed.ttlMs) && typed.ttlMs >= 0)) typed.ttlMs = 0;
    if (typed.cacheScope !== "public" && typed.cacheScope !== "private") typed.cacheScope = "private";
  }
  if (serverInfo === null) return typed;
  const meta = isJsonObject(typed._meta) ? typed._meta : {};
  if (!(SERVER_INFO_KEY in meta)) typed._meta = { ...meta, [SERVER_INFO_KEY]: serverInfo };
  return typed;
}

/** The link: a Transport the proxy session uses as its client, whichever era the client speaks. */
export class ClientEraLink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private era: "unknown" | "legacy" | "modern" = "unknown";
  private readonly prefix = `mcp-lint-client-era-${randomBytes(9).toString("base64url")}-`;
  /** The client's discover request, while the session's initialize answer is awaited. */
  private discoverId: RequestId | null = null;
  /** The discover answer given (the capabilities and identity the client was told), for a client that asks again. */
  private discoverAnswer: JsonObject | null = null;
  /** Open subscriptions: the listen request's id and what it agreed to deliver. */
  private readonly listens = new Map<RequestId, JsonObject>();
  /** The log level last passed to the session, and the ids of the link's own setLevel requests. */
  private logLevel: string | null = null;
  private readonly ownRequests = new Set<RequestId>();
  private counter = 0;
  /** The method of each modern request whose result needs cache fields, by id. */
  private readonly cacheable = new Map<RequestId, string>();
  /** What a modern client sent before the session answered the initialize sent for it; null once answered. */
  private held: JSONRPCMessage[] | null = [];

  constructor(
    private readonly inner: Transport,
    private readonly report: (event: ClientEraEvent) => void,
  ) {}

  /** The era the client speaks, once known. */
  get clientEra(): "unknown" | "legacy" | "modern" {
    return this.era;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message) => this.fromClient(message);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  /** The capabilities the client was told (none before the discover answer). */
  private capabilities(): JsonObject {
    return isJsonObject(this.discoverAnswer?.capabilities) ? this.discoverAnswer.capabilities : {};
  }

  /** The server's identity as the client was told it, for the stamp on each answer. */
  private serverInfo(): JsonObject | null {
    const meta = this.discoverAnswer?._meta;
    return isJsonObject(meta) && isJsonObject(meta[SERVER_INFO_KEY]) ? meta[SERVER_INFO_KEY] : null;
  }

  private ownId(kind: string): string {
    this.counter += 1;
    return `${this.prefix}${kind}-${this.counter}`;
  }

  private fromClient(message: JSONRPCMessage): void {
    if (this.era === "unknown" && isJSONRPCRequest(message)) {
      if (message.method === "initialize") this.era = "legacy";
      else if (message.method === "server/discover" || inModernEnvelope(message.params)) {
        // The revision has no handshake: a client opens with server/discover, or (the SDK's stdio
        // client probes on a process of its own) with any request in the revision's envelope.
        this.era = "modern";
        this.report({ event: "client_era", era: MODERN_REVISION });
        if (message.method === "server/discover") this.discoverId = message.id;
        else this.held?.push(message);
        this.onmessage?.(initializeForDiscover(`${this.prefix}initialize`, message.params));
        return;
      }
    }
    if (this.era !== "modern") {
      this.onmessage?.(message);
      return;
    }
    // Until the session has answered the initialize the link sent for the client, what it sends waits.
    if (this.held !== null) {
      this.held.push(message);
      return;
    }
    this.modernMessage(message);
  }

  private modernMessage(message: JSONRPCMessage): void {
    if (isJSONRPCRequest(message)) {
      this.modernRequest(message);
      return;
    }
    if (isJSONRPCNotification(message)) {
      // Ending a subscription is the link's business: the session never saw it open.
      if (message.method === "notifications/cancelled" && isJsonObject(message.params) && this.listens.has(message.params.requestId as RequestId)) {
        this.listens.delete(message.params.requestId as RequestId);
        return;
      }
      const params = withoutEnvelope(message.params);
      this.onmessage?.({ jsonrpc: "2.0", method: message.method, ...(params === undefined ? {} : { params }) });
      return;
    }
    this.onmessage?.(message);
  }

  private modernRequest(message: JSONRPCMessage & { id: RequestId; method: string; params?: unknown }): void {
    if (message.method === "server/discover" && this.discoverAnswer !== null) {
      void this.toClient({ jsonrpc: "2.0", id: message.id, result: this.discoverAnswer });
      return;
    }
    if (message.method === "subscriptions/listen") {
      const params = isJsonObject(message.params) ? message.params : {};
      const agreed = agreedFilter(params.notifications, this.capabilities());
      this.listens.set(message.id, agreed);
      void this.toClient({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: agreed, _meta: { [SUBSCRIPTION_KEY]: message.id } },
      });
      return;
    }
    const meta = isJsonObject(message.params) && isJsonObject(message.params._meta) ? message.params._meta : {};
    const level = meta[LOG_LEVEL_KEY];
    // The revision sends the log level with each request; the session knows only logging/setLevel.
    if (typeof level === "string" && level !== this.logLevel && isJsonObject(this.capabilities().logging)) {
      this.logLevel = level;
      const id = this.ownId("level");
      this.ownRequests.add(id);
      this.onmessage?.({ jsonrpc: "2.0", id, method: "logging/setLevel", params: { level } });
    }
    if (CACHEABLE.has(message.method)) this.cacheable.set(message.id, message.method);
    const params = withoutEnvelope(message.params);
    this.onmessage?.({ jsonrpc: "2.0", id: message.id, method: message.method, ...(params === undefined ? {} : { params }) });
  }

  private toClient(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.era !== "modern") {
      await this.toClient(message, options);
      return;
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined && this.ownRequests.delete(message.id)) return;
      if (message.id === `${this.prefix}initialize`) {
        await this.initialized(message);
        return;
      }
      const method = message.id === undefined ? undefined : this.cacheable.get(message.id);
      if (message.id !== undefined) this.cacheable.delete(message.id);
      if (isJSONRPCResultResponse(message)) {
        await this.toClient({ ...message, result: modernResult(message.result as JsonObject, this.serverInfo(), method ?? null) }, options);
        return;
      }
      await this.toClient(message, options);
      return;
    }
    if (isJSONRPCRequest(message)) {
      // The revision has no server-to-client requests: the session is answered here.
      if (message.method !== "ping") this.report({ event: "server_request_refused", method: message.method });
      this.onmessage?.(
        message.method === "ping"
          ? { jsonrpc: "2.0", id: message.id, result: {} }
          : {
              jsonrpc: "2.0",
              id: message.id,
              error: { code: -32601, message: "the client speaks MCP 2026-07-28, which has no requests from the server; the proxy cannot carry this one" },
            },
      );
      return;
    }
    if (isJSONRPCNotification(message)) {
      await this.notify(message, options);
      return;
    }
    await this.toClient(message, options);
  }

  /** The session answered the initialize sent for the client: the client's discover is answered, and what it sent meanwhile goes on. */
  private async initialized(message: JSONRPCMessage): Promise<void> {
    const discoverId = this.discoverId;
    this.discoverId = null;
    const held = this.held ?? [];
    this.held = null;
    if (isJSONRPCErrorResponse(message)) {
      // Refused (a guard that could not compare, a server that failed): every waiting request gets the refusal.
      const waiting = [...(discoverId === null ? [] : [discoverId]), ...held.filter(isJSONRPCRequest).map((request) => request.id)];
      for (const id of waiting) await this.toClient({ jsonrpc: "2.0", id, error: message.error });
      return;
    }
    if (!isJSONRPCResultResponse(message)) return;
    const result = message.result as JsonObject;
    this.discoverAnswer = discoverFromInitialize(result);
    if (discoverId !== null) await this.toClient({ jsonrpc: "2.0", id: discoverId, result: this.discoverAnswer });
    // The revision has no `initialized`; the session waits for one before it sends notifications.
    this.onmessage?.({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (const waiting of held) this.modernMessage(waiting);
  }

  /** A notification from the session: a list change goes once per subscription that asked for it, stamped; others pass. */
  private async notify(message: JSONRPCMessage & { method: string; params?: unknown }, options?: TransportSendOptions): Promise<void> {
    const params = isJsonObject(message.params) ? message.params : {};
    // A subscription is the link's: the server may neither acknowledge one nor end one for it.
    if (message.method.startsWith("notifications/subscriptions/")) return;
    if (message.method === "notifications/cancelled" && this.listens.has(params.requestId as RequestId)) return;
    if (!SUBSCRIPTION_ONLY.has(message.method)) {
      await this.toClient(message, options);
      return;
    }
    const flag = NOTIFICATION_FLAG.get(message.method);
    const meta = isJsonObject(params._meta) ? params._meta : {};
    for (const [id, agreed] of this.listens) {
      if (flag === undefined || agreed[flag] !== true) continue;
      await this.toClient({ jsonrpc: "2.0", method: message.method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_KEY]: id } } }, options);
    }
  }
}
