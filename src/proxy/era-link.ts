/**
 * The proxy's link to a server of either protocol era. The session speaks the legacy protocol
 * (`initialize`; client-era.ts turns a 2026-07-28 client's opening into one), so its handshake is sent as it is and a legacy server answers it; a server that
 * refuses it and answers `server/discover` naming 2026-07-28 is spoken to in that revision: the
 * initialize answer is built from the discover result, every request and notification carries the
 * revision's per-request `_meta`, and list_changed notifications come from a `subscriptions/listen`
 * the link opens itself. To the session the server then looks like a legacy one; a notification
 * from a subscription the link did not open is dropped, never passed on. Over Streamable HTTP the
 * link also copies the arguments a tool declares with `x-mcp-header` into `Mcp-Param-*` headers
 * (and leaves out the tools whose declarations are invalid), as the revision's HTTP binding asks.
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
import { neutralize } from "../text/neutralize.js";
import {
  callHeaders,
  type HeaderScan,
  type InvalidDeclaration,
  PARAM_HEADER_PREFIX,
  type ParamHeaderPolicy,
  scanParamHeaders,
} from "../connect/param-headers.js";

/** The modern revision the link speaks. */
export const MODERN_REVISION = "2026-07-28";

/** The revision's error code for a protocol version the receiver does not support. */
const UNSUPPORTED_VERSION_CODE = -32022;

/** The revision's reserved `_meta` keys. */
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
export const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
export const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
export const SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId";

/** For each capability that can announce a changed list: its listen-filter flag and the notification that announces it. */
export const LISTEN_FLAGS: readonly { capability: string; flag: string; notification: string }[] = [
  { capability: "tools", flag: "toolsListChanged", notification: "notifications/tools/list_changed" },
  { capability: "prompts", flag: "promptsListChanged", notification: "notifications/prompts/list_changed" },
  { capability: "resources", flag: "resourcesListChanged", notification: "notifications/resources/list_changed" },
];

/** What a list or resource subscription delivers: in the revision, only on a subscription. */
export const SUBSCRIPTION_NOTIFICATIONS: readonly string[] = [...LISTEN_FLAGS.map(({ notification }) => notification), "notifications/resources/updated"];

/** Notifications that only a subscription delivers in the revision, its acknowledgement included. */
const SUBSCRIBED = new Set([...SUBSCRIPTION_NOTIFICATIONS, "notifications/subscriptions/acknowledged"]);

/** What the link tells the proxy's log. */
export type EraEvent =
  /** The server refused initialize and speaks this revision: the proxy translates for the client. */
  | { event: "server_era"; era: string }
  /** A list or resource notification from no subscription the proxy opened: never passed on. */
  | { event: "notification_dropped"; method: string; why: "not_subscribed" | "foreign_subscription" }
  /** A tool of a 2026-07-28 server over HTTP whose x-mcp-header declarations are invalid: left out of the list, and its calls refused. */
  | { event: "tool_excluded"; tool: string; why: InvalidDeclaration; header: string | null }
  /** A call not sent: the value for a Mcp-Param header (`header`, the whole name) has the form of a credential. */
  | { event: "header_refused"; tool: string; header: string };

/** Send options with the per-request headers the SDK v2 client transports add to the request's POST. */
export type HeaderSendOptions = TransportSendOptions & { headers?: Readonly<Record<string, string>> };

/** The client's `initialize`, as far as the modern side needs it. */
interface ClientHello {
  id: RequestId;
  message: JSONRPCMessage;
  protocolVersion: unknown;
  clientInfo: unknown;
}

/** The per-request `_meta` a 2026-07-28 request carries. */
export function modernEnvelope(clientInfo: unknown, logLevel: string | null): JsonObject {
  const envelope: JsonObject = {
    [PROTOCOL_VERSION_KEY]: MODERN_REVISION,
    // The proxy cannot carry the revision's input requests (sampling, elicitation, roots) to a
    // 2025 client, so it declares no client capabilities and the server asks for none.
    [CLIENT_CAPABILITIES_KEY]: {},
  };
  if (isJsonObject(clientInfo) && typeof clientInfo.name === "string" && typeof clientInfo.version === "string") {
    envelope[CLIENT_INFO_KEY] = { name: clientInfo.name, version: clientInfo.version };
  }
  if (logLevel !== null) envelope[LOG_LEVEL_KEY] = logLevel;
  return envelope;
}

/** A request or notification with the envelope added under its `_meta` (the sender's own keys win). */
export function withEnvelope<M extends { params?: unknown }>(message: M, envelope: JsonObject): M {
  const params = isJsonObject(message.params) ? message.params : {};
  const own = isJsonObject(params._meta) ? params._meta : {};
  return { ...message, params: { ...params, _meta: { ...envelope, ...own } } };
}

/**
 * The legacy initialize answer for a server that answered `server/discover`: its capabilities,
 * serverInfo (from the result's `_meta`, where the revision puts it) and instructions, in the
 * version the client asked for when the proxy's SDK knows it.
 */
export function initializeFromDiscover(discover: JsonObject, clientVersion: unknown): JsonObject {
  const meta = isJsonObject(discover._meta) ? discover._meta : {};
  const info = isJsonObject(meta[SERVER_INFO_KEY]) ? meta[SERVER_INFO_KEY] : isJsonObject(discover.serverInfo) ? discover.serverInfo : {};
  const version = typeof clientVersion === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(clientVersion) ? clientVersion : LATEST_PROTOCOL_VERSION;
  const answer: JsonObject = {
    protocolVersion: version,
    capabilities: isJsonObject(discover.capabilities) ? discover.capabilities : {},
    serverInfo: info,
  };
  if (typeof discover.instructions === "string") answer.instructions = discover.instructions;
  return answer;
}

/** Whether an error is the revision's "unsupported protocol version" naming the one the link speaks as supported. */
export function refusesVersionOnly(error: unknown): boolean {
  if (!isJsonObject(error) || error.code !== UNSUPPORTED_VERSION_CODE || !isJsonObject(error.data)) return false;
  return Array.isArray(error.data.supported) && error.data.supported.includes(MODERN_REVISION);
}

/** Whether a discover result names the revision the link speaks. */
export function speaksModern(result: unknown): result is JsonObject {
  return isJsonObject(result) && Array.isArray(result.supportedVersions) && result.supportedVersions.includes(MODERN_REVISION);
}

/** The listen filter for what the server's capabilities can announce; null when nothing. */
export function listenFilter(capabilities: unknown): JsonObject | null {
  if (!isJsonObject(capabilities)) return null;
  const filter: JsonObject = {};
  for (const { capability, flag } of LISTEN_FLAGS) {
    const declared = capabilities[capability];
    if (isJsonObject(declared) && declared.listChanged === true) filter[flag] = true;
  }
  return Object.keys(filter).length > 0 ? filter : null;
}

/**
 * What a subscribed notification becomes: "pass" (not a subscription's: progress, logging), the
 * notification without the subscription stamp when it is from `listening`, "own" for the
 * acknowledgement of that subscription, or why it is dropped.
 */
export function routeNotification(
  message: { method: string; params?: unknown },
  listening: RequestId | null,
): "pass" | "own" | { deliver: { method: string; params?: JsonObject } } | { drop: "not_subscribed" | "foreign_subscription" } {
  const params = isJsonObject(message.params) ? message.params : {};
  const meta = isJsonObject(params._meta) ? params._meta : null;
  const subscription = meta?.[SUBSCRIPTION_KEY];
  if (subscription === undefined) return SUBSCRIBED.has(message.method) ? { drop: "not_subscribed" } : "pass";
  if (listening === null || subscription !== listening) return { drop: "foreign_subscription" };
  if (message.method === "notifications/subscriptions/acknowledged") return "own";
  const { [SUBSCRIPTION_KEY]: _stamp, ...rest } = meta as JsonObject;
  const { _meta: _old, ...bare } = params;
  const cleaned = Object.keys(rest).length > 0 ? { ...bare, _meta: rest } : bare;
  return { deliver: { method: message.method, ...(Object.keys(cleaned).length > 0 ? { params: cleaned } : {}) } };
}

/**
 * A modern server's result as a legacy client reads it: `resultType` and the serverInfo stamp
 * removed; an `input_required` result (the revision's way of asking the client) becomes an error,
 * since the proxy declared it cannot carry one.
 */
export function legacyResult(result: JsonObject): { result: JsonObject } | { error: { code: number; message: string } } {
  if (result.resultType !== undefined && result.resultType !== "complete") {
    return {
      error: {
        code: -32603,
        // The type is the server's text: not repeated to the client.
        message:
          "mcp-lint: the server answered with a result that is not complete (it asks the client for more), which the proxy cannot pass to a client of the 2025 protocol",
      },
    };
  }
  const { resultType: _type, ...rest } = result;
  if (isJsonObject(rest._meta) && SERVER_INFO_KEY in rest._meta) {
    const { [SERVER_INFO_KEY]: _info, ...meta } = rest._meta;
    if (Object.keys(meta).length > 0) rest._meta = meta;
    else delete rest._meta;
  }
  return { result: rest };
}

/** How long the link waits for `server/discover` after a refused initialize (a client's own initialize usually waits 60 s). */
export const DISCOVER_TIMEOUT_MS = 30_000;

/** The link: a Transport the proxy session uses as its server, whichever era the server speaks. */
export class EraLink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private era: "unknown" | "legacy" | "modern" = "unknown";
  private hello: ClientHello | null = null;
  /** The initialize error held while `server/discover` is asked. */
  private refused: JSONRPCMessage | null = null;
  private readonly prefix = `mcp-lint-era-${randomBytes(9).toString("base64url")}-`;
  private discoverId: string | null = null;
  /** Every probe id sent, so a late answer to an earlier one never reaches the client. */
  private readonly probeIds = new Set<string>();
  private probes = 0;
  private discoverTimer: ReturnType<typeof setTimeout> | null = null;
  private listenId: string | null = null;
  private logLevel: string | null = null;
  /** Ids of the `tools/list` requests sent on: their answers say which arguments go into headers. */
  private readonly listing = new Set<RequestId>();
  /** Each listed tool's `x-mcp-header` declarations, by name, as its latest listing had them. */
  private readonly declared = new Map<string, HeaderScan>();
  /** Tools reported as left out, so a list read again (the guard's, the client's) reports nothing twice. */
  private readonly excludedReported = new Set<string>();

  private readonly discoverTimeoutMs: number;
  private readonly mirror: ParamHeaderPolicy | null;
  private readonly discoverFirst: boolean;
  private readonly clientIsModern: () => boolean;
  /** Settles when the `server/discover` probe has an outcome (discover-first: the held initialize waits for it). */
  private probed: Promise<void> | null = null;
  private probeDone: () => void = () => undefined;

  constructor(
    private readonly inner: Transport,
    private readonly report: (event: EraEvent) => void,
    options: {
      /** How long a server may take to answer `server/discover` before it is taken for a legacy one. */
      discoverTimeoutMs?: number | undefined;
      /** Over Streamable HTTP: how `x-mcp-header` arguments go into headers (no headers elsewhere). */
      mirror?: ParamHeaderPolicy | null;
      /**
       * Ask `server/discover` before the client's initialize goes out, as the revision asks a client
       * to (over HTTP, where a legacy server only answers the probe with an error). Over stdio the
       * initialize goes first: some legacy servers exit at any request before it.
       */
      discoverFirst?: boolean;
      /**
       * Whether the client speaks 2026-07-28 too (client-era.ts): then a result that asks it for
       * input (`input_required`) is passed on as it is, and the client's retry goes back as sent.
       */
      clientIsModern?: () => boolean;
    } = {},
  ) {
    this.discoverTimeoutMs = options.discoverTimeoutMs ?? DISCOVER_TIMEOUT_MS;
    this.mirror = options.mirror ?? null;
    this.discoverFirst = options.discoverFirst ?? false;
    this.clientIsModern = options.clientIsModern ?? (() => false);
  }

  /** The era the server speaks, once known. */
  get serverEra(): "unknown" | "legacy" | "modern" {
    return this.era;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message) => this.fromServer(message);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async close(): Promise<void> {
    this.stopDiscoverTimer();
    await this.inner.close();
  }

  /** The version the client negotiated; toward a 2026-07-28 server every message says that revision instead. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(this.era === "modern" ? MODERN_REVISION : version);
  }

  async send(message: JSONRPCMessage, options?: HeaderSendOptions): Promise<void> {
    if (this.era !== "modern") {
      if (this.era === "unknown" && this.hello === null && isJSONRPCRequest(message) && message.method === "initialize") {
        const params = isJsonObject(message.params) ? message.params : {};
        this.hello = { id: message.id, message, protocolVersion: params.protocolVersion, clientInfo: params.clientInfo };
        if (this.discoverFirst) {
          // The initialize goes out only to a server that did not answer the probe in the revision.
          this.discover();
          await this.probed;
          if (this.serverEra === "modern") return;
        }
      }
      await this.inner.send(message, options);
      return;
    }
    if (isJSONRPCRequest(message)) {
      // The revision has no ping and no logging/setLevel (the level travels in each request's _meta): answered here.
      if (message.method === "ping" || message.method === "logging/setLevel") {
        if (message.method === "logging/setLevel" && isJsonObject(message.params) && typeof message.params.level === "string") {
          this.logLevel = message.params.level;
        }
        const answer: JSONRPCMessage = { jsonrpc: "2.0", id: message.id, result: {} };
        queueMicrotask(() => this.onmessage?.(answer));
        return;
      }
      let sendOptions = options;
      if (this.mirror !== null && message.method === "tools/list") this.listing.add(message.id);
      if (this.mirror !== null && message.method === "tools/call") {
        const prepared = this.callOptions(this.mirror, message.id, message.params, options);
        if (prepared === "answered") return;
        sendOptions = prepared;
      }
      await this.inner.send(withEnvelope(message, this.envelope()), sendOptions);
      return;
    }
    if (isJSONRPCNotification(message)) {
      // The revision has no handshake to complete.
      if (message.method === "notifications/initialized") return;
      await this.inner.send(withEnvelope(message, this.envelope()), options);
      return;
    }
    await this.inner.send(message, options);
  }

  private envelope(): JsonObject {
    return modernEnvelope(this.hello?.clientInfo, this.logLevel);
  }

  /**
   * A call's send options with its `Mcp-Param-*` headers, or "answered" when the link refused it
   * itself: a tool left out of the list, or a credential bound for a header. A tool never listed is
   * sent without them (the server answers what it misses).
   */
  private callOptions(
    mirror: ParamHeaderPolicy,
    id: RequestId,
    params: unknown,
    options: HeaderSendOptions | undefined,
  ): HeaderSendOptions | undefined | "answered" {
    const call = isJsonObject(params) ? params : {};
    const scan = typeof call.name === "string" ? this.declared.get(call.name) : undefined;
    if (scan === undefined) return options;
    const tool = JSON.stringify(neutralize(call.name as string));
    if (!scan.valid) {
      this.refuseCall(
        id,
        `mcp-lint: the proxy did not send this call: tool ${tool} declares arguments for HTTP headers (x-mcp-header) in a way the proxy refuses over HTTP, so it is left out of the tool list`,
      );
      return "answered";
    }
    const built = callHeaders(scan.headers, call.arguments, mirror.knownSecret);
    if ("refused" in built) {
      const header = `${PARAM_HEADER_PREFIX}${built.refused.name}`;
      this.report({ event: "header_refused", tool: call.name as string, header });
      this.refuseCall(
        id,
        `mcp-lint: the proxy did not send this call: the server asks for argument ${JSON.stringify(neutralize(built.refused.argument.join(".")))} of tool ${tool} ` +
          `in the HTTP header ${neutralize(header)}, which every proxy and log on the way sees, and its value has the form of a credential (a token or key); ` +
          "give the server that credential another way (its own configuration), not as an argument",
      );
      return "answered";
    }
    if (Object.keys(built.headers).length === 0) return options;
    return { ...options, headers: { ...options?.headers, ...built.headers } };
  }

  /** Answer a call the link did not send with a tool error the model reads. */
  private refuseCall(id: RequestId, text: string): void {
    const answer: JSONRPCMessage = { jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], isError: true } };
    queueMicrotask(() => this.onmessage?.(answer));
  }

  /** A `tools/list` page with each tool's declarations remembered, and the tools whose declarations are invalid left out (the revision: a client MUST). */
  private listed(result: JsonObject): JsonObject {
    if (!Array.isArray(result.tools)) return result;
    const kept = result.tools.filter((tool: unknown) => {
      if (!isJsonObject(tool) || typeof tool.name !== "string") return true;
      const scan = scanParamHeaders(tool.inputSchema);
      this.declared.set(tool.name, scan);
      if (scan.valid) return true;
      const key = JSON.stringify([tool.name, scan.why, scan.header]);
      if (!this.excludedReported.has(key)) {
        this.excludedReported.add(key);
        this.report({ event: "tool_excluded", tool: tool.name, why: scan.why, header: scan.header });
      }
      return false;
    });
    return kept.length === result.tools.length ? result : { ...result, tools: kept };
  }

  private fromServer(message: JSONRPCMessage): void {
    // The answer to the link's own probe is never the client's (a late one, after the refusal was passed on, included).
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && typeof message.id === "string" && this.probeIds.has(message.id)) {
      if (this.era === "unknown" && message.id === this.discoverId) this.discovered(message);
      return;
    }
    const hello = this.hello;
    if (this.era === "unknown" && hello !== null && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))) {
      if (message.id === hello.id) {
        if (isJSONRPCResultResponse(message)) {
          this.era = "legacy";
          this.onmessage?.(message);
        } else {
          // A server that refuses initialize may speak the revision: ask it once, holding the refusal.
          this.refused = message;
          this.discover();
        }
        return;
      }
    }
    if (this.era !== "modern") {
      this.onmessage?.(message);
      return;
    }
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      // The subscription's own answer comes when it ends; nothing waits for it.
      if (message.id === this.listenId) return;
      const listing = message.id !== undefined && this.listing.delete(message.id);
      if (isJSONRPCResultResponse(message)) {
        const raw = message.result as JsonObject;
        if (raw.resultType !== undefined && raw.resultType !== "complete" && this.clientIsModern()) {
          this.onmessage?.(message);
          return;
        }
        const legacy = legacyResult(raw);
        if ("result" in legacy) this.onmessage?.({ ...message, result: listing ? this.listed(legacy.result) : legacy.result });
        else this.onmessage?.({ jsonrpc: "2.0", id: message.id, error: legacy.error });
        return;
      }
      this.onmessage?.(message);
      return;
    }
    if (isJSONRPCNotification(message)) {
      const route = routeNotification(message, this.listenId);
      if (route === "own") return;
      if (route === "pass") this.onmessage?.(message);
      else if ("drop" in route) this.report({ event: "notification_dropped", method: message.method, why: route.drop });
      else this.onmessage?.({ jsonrpc: "2.0", ...route.deliver });
      return;
    }
    this.onmessage?.(message);
  }

  private discover(): void {
    this.probed ??= new Promise((done) => {
      this.probeDone = done;
    });
    this.probes += 1;
    this.discoverId = `${this.prefix}discover-${this.probes}`;
    this.probeIds.add(this.discoverId);
    const request = withEnvelope({ jsonrpc: "2.0" as const, id: this.discoverId, method: "server/discover", params: {} }, this.envelope());
    this.inner.send(request).catch(() => this.giveUp());
    // A server that refused initialize and never answers the probe: its refusal reaches the client in bounded time.
    this.discoverTimer = setTimeout(() => {
      if (this.era === "unknown") this.giveUp();
    }, this.discoverTimeoutMs);
    this.discoverTimer.unref?.();
  }

  private stopDiscoverTimer(): void {
    if (this.discoverTimer !== null) clearTimeout(this.discoverTimer);
    this.discoverTimer = null;
  }

  /** The answer to `server/discover`: the revision's handshake, or the held refusal passed on. */
  private discovered(message: JSONRPCMessage): void {
    this.stopDiscoverTimer();
    const hello = this.hello as ClientHello;
    // A server that refuses the probe's version while naming this one as supported is asked once more (the revision's retry).
    if (isJSONRPCErrorResponse(message) && refusesVersionOnly(message.error) && this.probes < 2) {
      this.discover();
      return;
    }
    if (!isJSONRPCResultResponse(message) || !speaksModern(message.result)) {
      this.giveUp();
      return;
    }
    this.era = "modern";
    this.refused = null;
    this.probeDone();
    this.report({ event: "server_era", era: MODERN_REVISION });
    const result = initializeFromDiscover(message.result, hello.protocolVersion);
    this.onmessage?.({ jsonrpc: "2.0", id: hello.id, result });
    this.listen(result.capabilities);
  }

  private giveUp(): void {
    this.stopDiscoverTimer();
    this.era = "legacy";
    this.probeDone();
    const refused = this.refused;
    this.refused = null;
    if (refused !== null) this.onmessage?.(refused);
  }

  /** Open the one subscription whose notifications are passed on, for what the server can announce. */
  private listen(capabilities: unknown): void {
    const filter = listenFilter(capabilities);
    if (filter === null) return;
    this.listenId = `${this.prefix}listen`;
    const request = withEnvelope(
      { jsonrpc: "2.0" as const, id: this.listenId, method: "subscriptions/listen", params: { notifications: filter } },
      this.envelope(),
    );
    this.inner.send(request).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
