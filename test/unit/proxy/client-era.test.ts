// The proxy's link to a client of either era, in process: a scripted client end on an in-memory
// transport pair, and the session side recorded and answered by the test as the proxy session would.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  agreedFilter,
  type ClientEraEvent,
  ClientEraLink,
  discoverFromInitialize,
  inModernEnvelope,
  modernResult,
  withoutEnvelope,
} from "../../../src/proxy/client-era.js";
import { eventLine } from "../../../src/proxy/events.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const INFO_KEY = "io.modelcontextprotocol/clientInfo";
const CAPS_KEY = "io.modelcontextprotocol/clientCapabilities";
const LEVEL_KEY = "io.modelcontextprotocol/logLevel";
const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
const SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId";

const ENVELOPE = { [VERSION_KEY]: "2026-07-28", [INFO_KEY]: { name: "desk", version: "9" }, [CAPS_KEY]: { sampling: {} } };

/** The session's answer to the initialize: what a guarded legacy server would give. */
const INITIALIZED = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: false }, logging: {} },
  serverInfo: { name: "fixture", version: "1.2.3" },
  instructions: "Be brief.",
};

/** The i-th message, which the test expects to be there. */
function nth<T>(list: readonly T[], index: number): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`no message at ${index} (${list.length} seen)`);
  return item;
}

type Sent = JSONRPCMessage & { id?: string | number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/** A link over an in-memory pair: what the client end received, and what the session side was given. */
async function linked() {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const toClient: Sent[] = [];
  far.onmessage = (message) => toClient.push(message as Sent);
  await far.start();
  const events: ClientEraEvent[] = [];
  const link = new ClientEraLink(near, (event) => events.push(event));
  const toSession: Sent[] = [];
  link.onmessage = (message) => toSession.push(message as Sent);
  await link.start();
  const settle = () => new Promise((done) => setTimeout(done, 0));
  return { link, client: far, toClient, toSession, events, settle };
}

/** Open a modern session through `server/discover` and have the session answer its initialize. */
async function discovered(initialize: Record<string, unknown> = INITIALIZED) {
  const setup = await linked();
  await setup.client.send({ jsonrpc: "2.0", id: "d1", method: "server/discover", params: { _meta: ENVELOPE } });
  await setup.settle();
  const init = nth(setup.toSession, 0);
  await setup.link.send({ jsonrpc: "2.0", id: init.id as string, result: initialize });
  await setup.settle();
  return setup;
}

describe("a client of the 2025 protocol", () => {
  it("passes initialize, answers and notifications exactly as sent", async () => {
    const { link, client, toClient, toSession, settle, events } = await linked();
    const hello: JSONRPCMessage = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    };
    await client.send(hello);
    await settle();
    expect(toSession).toEqual([hello]);
    await link.send({ jsonrpc: "2.0", id: 1, result: INITIALIZED });
    await link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await link.send({ jsonrpc: "2.0", id: 7, method: "sampling/createMessage", params: {} });
    await settle();
    expect(toClient).toEqual([
      { jsonrpc: "2.0", id: 1, result: INITIALIZED },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", id: 7, method: "sampling/createMessage", params: {} },
    ]);
    expect(link.clientEra).toBe("legacy");
    expect(events).toEqual([]);
  });
});

describe("a client of MCP 2026-07-28", () => {
  it("has its server/discover answered from the session's one initialize", async () => {
    const { toClient, toSession, events, link } = await discovered();
    // The session sees an ordinary handshake: no client capabilities, since the revision has no server requests to carry.
    expect(nth(toSession, 0)).toMatchObject({ method: "initialize", params: { capabilities: {}, clientInfo: { name: "desk", version: "9" } } });
    expect(nth(toSession, 1)).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(toClient).toHaveLength(1);
    expect(nth(toClient, 0).id).toBe("d1");
    const answer = nth(toClient, 0).result as Record<string, unknown>;
    expect(answer.supportedVersions).toContain("2026-07-28");
    expect(answer.instructions).toBe("Be brief.");
    expect(answer._meta).toEqual({ [SERVER_INFO_KEY]: { name: "fixture", version: "1.2.3" } });
    // Resource subscriptions move into subscriptions/listen in the revision, which the link does not carry for them.
    expect(answer.capabilities).toEqual({ tools: { listChanged: true }, resources: { listChanged: false }, logging: {} });
    expect(answer).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    expect(link.clientEra).toBe("modern");
    expect(events).toEqual([{ event: "client_era", era: "2026-07-28" }]);
    expect(eventLine(nth(events, 0), "")).toContain("the client speaks MCP 2026-07-28");
  });

  it("holds a first request in the revision's envelope until the session answered the initialize sent for it, then passes it bare", async () => {
    const { link, client, toClient, toSession, settle } = await linked();
    const meta = { ...ENVELOPE, progressToken: 5 };
    await client.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } });
    await client.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "echo", arguments: { a: 1 }, _meta: ENVELOPE } });
    await settle();
    expect(toSession.map((message) => message.method)).toEqual(["initialize"]);
    await link.send({ jsonrpc: "2.0", id: nth(toSession, 0).id as string, result: INITIALIZED });
    await settle();
    expect(toSession.slice(1)).toEqual([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      // The client's own _meta keys and its capabilities (for a server of the revision behind) stay; the rest of the envelope goes.
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { [CAPS_KEY]: { sampling: {} }, progressToken: 5 } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "echo", arguments: { a: 1 }, _meta: { [CAPS_KEY]: { sampling: {} } } } },
    ]);
    // No discover was asked, so nothing is answered for it.
    expect(toClient).toEqual([]);
  });

  it("passes the session's refusal to the discover and to every request that waited", async () => {
    const { link, client, toClient, toSession, settle } = await linked();
    await client.send({ jsonrpc: "2.0", id: "d", method: "server/discover", params: { _meta: ENVELOPE } });
    await client.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: ENVELOPE } });
    await settle();
    const error = { code: -32603, message: "mcp-lint: could not compare the server with the lock" };
    await link.send({ jsonrpc: "2.0", id: nth(toSession, 0).id as string, error });
    await settle();
    expect(toClient).toEqual([
      { jsonrpc: "2.0", id: "d", error },
      { jsonrpc: "2.0", id: 2, error },
    ]);
    expect(toSession.map((message) => message.method)).toEqual(["initialize"]);
  });

  it("types results and gives a listed page the cache fields the revision requires", async () => {
    const { link, client, toClient, settle } = await discovered();
    await client.send({ jsonrpc: "2.0", id: 10, method: "tools/list", params: { _meta: ENVELOPE } });
    await client.send({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "x", _meta: ENVELOPE } });
    await client.send({ jsonrpc: "2.0", id: 12, method: "prompts/list", params: { _meta: ENVELOPE } });
    await settle();
    await link.send({ jsonrpc: "2.0", id: 10, result: { tools: [] } });
    await link.send({ jsonrpc: "2.0", id: 11, result: { content: [] } });
    await link.send({ jsonrpc: "2.0", id: 12, result: { prompts: [], ttlMs: 5000, cacheScope: "public" } });
    await settle();
    const stamp = { [SERVER_INFO_KEY]: { name: "fixture", version: "1.2.3" } };
    expect(toClient.slice(1)).toEqual([
      { jsonrpc: "2.0", id: 10, result: { tools: [], resultType: "complete", ttlMs: 0, cacheScope: "private", _meta: stamp } },
      { jsonrpc: "2.0", id: 11, result: { content: [], resultType: "complete", _meta: stamp } },
      { jsonrpc: "2.0", id: 12, result: { prompts: [], ttlMs: 5000, cacheScope: "public", resultType: "complete", _meta: stamp } },
    ]);
  });

  it("answers subscriptions/listen itself and delivers list changes only on a subscription that asked, stamped with it", async () => {
    const { link, client, toClient, toSession, settle } = await discovered();
    // Before any subscription, a change goes nowhere.
    await link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await client.send({
      jsonrpc: "2.0",
      id: "L",
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true, resourcesListChanged: true }, _meta: ENVELOPE },
    });
    await settle();
    // Only what the server can announce is agreed: its resources list never changes.
    expect(nth(toClient, 1)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true }, _meta: { [SUBSCRIPTION_KEY]: "L" } },
    });
    await link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await link.send({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" });
    await link.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a" } });
    await link.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } });
    await settle();
    expect(toClient.slice(2)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_KEY]: "L" } } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } },
    ]);
    // The session never hears of the subscription, nor of its end.
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L", _meta: ENVELOPE } });
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99, _meta: ENVELOPE } });
    await settle();
    expect(toSession.map((message) => message.method)).toEqual(["initialize", "notifications/initialized", "notifications/cancelled"]);
    expect(nth(toSession, 2).params).toEqual({ requestId: 99, _meta: { [CAPS_KEY]: { sampling: {} } } });
    await link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await settle();
    expect(toClient).toHaveLength(4);
  });

  it("regression: a hostile server can neither acknowledge nor end the client's subscription", async () => {
    const { link, client, toClient, settle } = await discovered();
    await client.send({ jsonrpc: "2.0", id: "L", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: ENVELOPE } });
    await settle();
    await link.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: { [SUBSCRIPTION_KEY]: "L" } },
    });
    await link.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L" } });
    // A stamp of its own is overwritten by the subscription's.
    await link.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_KEY]: "other" } } });
    await settle();
    expect(toClient.slice(2)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_KEY]: "L" } } }]);
  });

  it("refuses the server's requests for the client (there are none in the revision) and answers its ping", async () => {
    const { link, toClient, toSession, settle, events } = await discovered();
    await link.send({ jsonrpc: "2.0", id: 40, method: "sampling/createMessage", params: { messages: [] } });
    await link.send({ jsonrpc: "2.0", id: 41, method: "ping" });
    await settle();
    expect(toClient).toHaveLength(1);
    expect(toSession.slice(2)).toEqual([
      { jsonrpc: "2.0", id: 40, error: { code: -32601, message: expect.stringContaining("no requests from the server") } },
      { jsonrpc: "2.0", id: 41, result: {} },
    ]);
    expect(events.at(-1)).toEqual({ event: "server_request_refused", method: "sampling/createMessage" });
  });

  it("turns a changed log level in the envelope into one logging/setLevel whose answer the client never sees", async () => {
    const { link, client, toClient, toSession, settle } = await discovered();
    const withLevel = { ...ENVELOPE, [LEVEL_KEY]: "debug" };
    await client.send({ jsonrpc: "2.0", id: 20, method: "tools/list", params: { _meta: withLevel } });
    await client.send({ jsonrpc: "2.0", id: 21, method: "tools/list", params: { _meta: withLevel } });
    await settle();
    const levels = toSession.filter((message) => message.method === "logging/setLevel");
    expect(levels).toHaveLength(1);
    expect(nth(levels, 0).params).toEqual({ level: "debug" });
    await link.send({ jsonrpc: "2.0", id: nth(levels, 0).id as string, result: {} });
    await settle();
    expect(toClient).toHaveLength(1);
  });

  it("answers a second discover from the first, without a second handshake", async () => {
    const { client, toClient, toSession, settle } = await discovered();
    await client.send({ jsonrpc: "2.0", id: "d2", method: "server/discover", params: { _meta: ENVELOPE } });
    await settle();
    expect(nth(toClient, 1)).toEqual({ ...nth(toClient, 0), id: "d2" });
    expect(toSession.filter((message) => message.method === "initialize")).toHaveLength(1);
  });
});

describe("the pure parts", () => {
  it("takes the envelope's keys off _meta, all but the client's capabilities", () => {
    expect(withoutEnvelope({ a: 1, _meta: { [VERSION_KEY]: "2026-07-28", [INFO_KEY]: { name: "x", version: "1" } } })).toEqual({ a: 1 });
    expect(withoutEnvelope({ _meta: { ...ENVELOPE, [LEVEL_KEY]: "info", trace: "t" } })).toEqual({ _meta: { [CAPS_KEY]: { sampling: {} }, trace: "t" } });
    expect(withoutEnvelope(undefined)).toBeUndefined();
  });

  it("recognises the revision's envelope and nothing else", () => {
    expect(inModernEnvelope({ _meta: ENVELOPE })).toBe(true);
    expect(inModernEnvelope({ _meta: { [VERSION_KEY]: "2025-11-25" } })).toBe(false);
    expect(inModernEnvelope({ [VERSION_KEY]: "2026-07-28" })).toBe(false);
    expect(inModernEnvelope(null)).toBe(false);
  });

  it("agrees only to list flags whose list the server says can change", () => {
    const capabilities = { tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } };
    expect(agreedFilter({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] }, capabilities)).toEqual({
      toolsListChanged: true,
    });
    expect(agreedFilter("everything", capabilities)).toEqual({});
  });

  it("keeps a valid cache hint from the server and replaces one a hostile server made up", () => {
    expect(modernResult({ tools: [], ttlMs: -1, cacheScope: "everyone" }, null, "tools/list")).toEqual({
      tools: [],
      ttlMs: 0,
      cacheScope: "private",
      resultType: "complete",
    });
    expect(modernResult({ tools: [], ttlMs: 1.5 }, null, "tools/list")).toMatchObject({ ttlMs: 0 });
    // A result that is not complete gets no cache fields.
    expect(modernResult({ resultType: "input_required" }, null, "tools/call")).toEqual({ resultType: "input_required" });
  });

  it("builds a discover answer without instructions or serverInfo the session did not have", () => {
    expect(discoverFromInitialize({ capabilities: "odd" })).toEqual({
      supportedVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]),
      capabilities: {},
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
    });
  });
});
