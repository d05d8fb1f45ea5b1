// The proxy's link to a server of either era, in process: a scripted server end on an in-memory
// transport pair records what the link sends and answers as a legacy or a 2026-07-28 server would.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  EraLink,
  type EraEvent,
  initializeFromDiscover,
  legacyResult,
  listenFilter,
  modernEnvelope,
  routeNotification,
  withEnvelope,
} from "../../../src/proxy/era-link.js";
import { auditLine, eventLine } from "../../../src/proxy/events.js";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
const SUBSCRIPTION_KEY = "io.modelcontextprotocol/subscriptionId";

const INITIALIZE: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: { sampling: {} }, clientInfo: { name: "desk", version: "3" } },
};

const REFUSED = { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } };

const DISCOVERED = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true } },
  instructions: "Be brief.",
  resultType: "complete",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2.0.0" } },
};

type Answer = (message: JSONRPCMessage & { method: string; id: string | number; params?: Record<string, unknown> }) => JSONRPCMessage | null;

/** A link over an in-memory pair whose server end answers each request with `answer`; what it saw and what the link delivered. */
async function linked(answer: Answer, discoverTimeoutMs?: number, discoverFirst = false, clientIsModern = () => false) {
  const [near, far] = InMemoryTransport.createLinkedPair();
  const seen: JSONRPCMessage[] = [];
  far.onmessage = (message) => {
    seen.push(message);
    if ("method" in message && "id" in message) {
      const reply = answer(message as Parameters<Answer>[0]);
      if (reply !== null) void far.send(reply);
    }
  };
  await far.start();
  const events: EraEvent[] = [];
  const link = new EraLink(near, (event) => events.push(event), { discoverTimeoutMs, discoverFirst, clientIsModern });
  const delivered: JSONRPCMessage[] = [];
  link.onmessage = (message) => delivered.push(message);
  await link.start();
  return { link, far, seen, delivered, events };
}

const settle = () => new Promise((done) => setTimeout(done, 0));

/** A 2026-07-28 server: refuses initialize, answers discover, echoes other requests with resultType. */
const modernServer: Answer = (message) => {
  if (message.method === "initialize") return { jsonrpc: "2.0", id: message.id, error: REFUSED };
  if (message.method === "server/discover") return { jsonrpc: "2.0", id: message.id, result: DISCOVERED };
  if (message.method === "subscriptions/listen") return null;
  return { jsonrpc: "2.0", id: message.id, result: { content: [], resultType: "complete" } };
};

describe("EraLink", () => {
  it("passes a result that asks for input to a client of the revision as it is, and turns it into an error for a 2025 client", async () => {
    const asking = {
      resultType: "input_required",
      inputRequests: { confirm: { method: "elicitation/create", params: { message: "Sure?" } } },
      requestState: "s1",
    };
    const server: Answer = (message) => (message.method === "tools/call" ? { jsonrpc: "2.0", id: message.id, result: asking } : modernServer(message));
    for (const modernClient of [true, false]) {
      const { link, delivered } = await linked(server, undefined, false, () => modernClient);
      await link.send(INITIALIZE);
      await settle();
      await settle();
      await link.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } });
      await settle();
      const answer = delivered.find((message) => "id" in message && message.id === 5);
      if (modernClient) expect(answer).toEqual({ jsonrpc: "2.0", id: 5, result: asking });
      else expect(answer).toMatchObject({ id: 5, error: { code: -32603 } });
    }
  });

  describe("discover-first (over HTTP, as the revision asks a client)", () => {
    const methods = (seen: JSONRPCMessage[]) => seen.map((message) => ("method" in message ? message.method : null));

    it("never sends a 2026-07-28 server the client's initialize", async () => {
      const { link, seen, delivered } = await linked(modernServer, undefined, true);
      await link.send(INITIALIZE);
      await settle();
      expect(methods(seen)).toEqual(["server/discover", "subscriptions/listen"]);
      expect(delivered[0]).toMatchObject({ id: 1, result: { serverInfo: { name: "modern", version: "2.0.0" } } });
      expect(link.serverEra).toBe("modern");
    });

    it("sends the initialize, once, to a server that answers the probe with an error, and passes its answer as it is", async () => {
      const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "old", version: "1" } };
      const { link, seen, delivered } = await linked(
        (message) =>
          message.method === "initialize"
            ? { jsonrpc: "2.0", id: message.id, result }
            : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } },
        undefined,
        true,
      );
      await link.send(INITIALIZE);
      await settle();
      expect(methods(seen)).toEqual(["server/discover", "initialize"]);
      expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, result }]);
      expect(link.serverEra).toBe("legacy");
    });

    it("asks once more when the probe's version is refused with the revision named as supported, and never twice more", async () => {
      let probes = 0;
      const refusing: Answer = (message) => {
        if (message.method === "server/discover" && probes++ === 0) return { jsonrpc: "2.0", id: message.id, error: REFUSED };
        return modernServer(message);
      };
      const { link, seen } = await linked(refusing, undefined, true);
      await link.send(INITIALIZE);
      await settle();
      expect(methods(seen)).toEqual(["server/discover", "server/discover", "subscriptions/listen"]);
      expect(link.serverEra).toBe("modern");

      // A server that refuses every probe so gets the initialize after the second.
      const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "old", version: "1" } };
      const stubborn = await linked(
        (message) => (message.method === "initialize" ? { jsonrpc: "2.0", id: message.id, result } : { jsonrpc: "2.0", id: message.id, error: REFUSED }),
        undefined,
        true,
      );
      await stubborn.link.send(INITIALIZE);
      await settle();
      expect(methods(stubborn.seen)).toEqual(["server/discover", "server/discover", "initialize"]);
      expect(stubborn.delivered).toEqual([{ jsonrpc: "2.0", id: 1, result }]);
    });

    it("sends the initialize to a server that never answers the probe, after the bound", async () => {
      const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "mute", version: "1" } };
      const { link, seen, delivered } = await linked(
        (message) => (message.method === "initialize" ? { jsonrpc: "2.0", id: message.id, result } : null),
        20,
        true,
      );
      await link.send(INITIALIZE);
      await settle();
      expect(methods(seen)).toEqual(["server/discover", "initialize"]);
      expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, result }]);
    });
  });

  it("passes a legacy server's initialize answer as it is and never asks server/discover", async () => {
    const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "old", version: "1" } };
    const { link, seen, delivered } = await linked((message) => ({ jsonrpc: "2.0", id: message.id, result }));
    await link.send(INITIALIZE);
    await link.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await settle();
    expect(seen.map((message) => ("method" in message ? message.method : null))).toEqual(["initialize", "tools/list"]);
    expect(seen[1]).toEqual({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    expect(delivered[0]).toEqual({ jsonrpc: "2.0", id: 1, result });
    expect(link.serverEra).toBe("legacy");
  });

  it("passes the initialize refusal on when server/discover does not name 2026-07-28", async () => {
    const refused = { code: -32602, message: "bad version" };
    const { link, delivered } = await linked((message) =>
      message.method === "initialize"
        ? { jsonrpc: "2.0", id: message.id, error: refused }
        : { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } },
    );
    await link.send(INITIALIZE);
    await settle();
    await settle();
    expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, error: refused }]);
    expect(link.serverEra).toBe("legacy");
  });

  it("answers the client's initialize from server/discover and sends every later request with the revision's _meta", async () => {
    const { link, seen, delivered, events } = await linked(modernServer);
    await link.send(INITIALIZE);
    await settle();
    await settle();
    expect(delivered[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-06-18",
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "modern", version: "2.0.0" },
        instructions: "Be brief.",
      },
    });
    expect(events).toEqual([{ event: "server_era", era: "2026-07-28" }]);
    // The proxy's subscription, opened for what the capabilities can announce.
    const listen = seen.find((message) => "method" in message && message.method === "subscriptions/listen") as { params: Record<string, unknown> };
    expect(listen.params.notifications).toEqual({ toolsListChanged: true });

    await link.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await link.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x", _meta: { progressToken: 9 } } });
    await settle();
    const call = seen.at(-1) as { method: string; params: { _meta: Record<string, unknown> } };
    expect(call.method).toBe("tools/call");
    expect(call.params._meta).toEqual({
      [VERSION_KEY]: "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "desk", version: "3" },
      progressToken: 9,
    });
    expect(seen.some((message) => "method" in message && message.method === "notifications/initialized")).toBe(false);
    // The answer reaches the client without the revision's resultType.
    expect(delivered.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [] } });
  });

  it("answers ping and logging/setLevel itself on a 2026-07-28 server, and sends the level in later requests", async () => {
    const { link, seen, delivered } = await linked(modernServer);
    await link.send(INITIALIZE);
    await settle();
    await settle();
    const before = seen.length;
    await link.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await link.send({ jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: { level: "error" } });
    await settle();
    expect(seen.length).toBe(before);
    expect(delivered.slice(-2)).toEqual([
      { jsonrpc: "2.0", id: 3, result: {} },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
    await link.send({ jsonrpc: "2.0", id: 5, method: "tools/list", params: {} });
    await settle();
    expect((seen.at(-1) as { params: { _meta: Record<string, unknown> } }).params._meta["io.modelcontextprotocol/logLevel"]).toBe("error");
  });

  it("passes list_changed only from its own subscription, and drops (and reports) the rest, with hostile method names made inert", async () => {
    const { link, far, seen, delivered, events } = await linked(modernServer);
    await link.send(INITIALIZE);
    await settle();
    await settle();
    const listenId = (seen.find((message) => "method" in message && message.method === "subscriptions/listen") as { id: string }).id;
    const count = delivered.length;
    await far.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: {}, _meta: { [SUBSCRIPTION_KEY]: listenId } },
    });
    await far.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} });
    await far.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed\u001b[2J", params: { _meta: { [SUBSCRIPTION_KEY]: "theirs" } } });
    await far.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_KEY]: listenId } } });
    await far.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 9, progress: 1 } });
    await far.send({ jsonrpc: "2.0", id: listenId, result: { resultType: "complete", _meta: { [SUBSCRIPTION_KEY]: listenId } } });
    await settle();
    expect(delivered.slice(count)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 9, progress: 1 } },
    ]);
    expect(events.slice(1)).toEqual([
      { event: "notification_dropped", method: "notifications/tools/list_changed", why: "not_subscribed" },
      { event: "notification_dropped", method: "notifications/tools/list_changed\u001b[2J", why: "foreign_subscription" },
    ]);
    const line = eventLine(events[2] as EraEvent, "review");
    expect(line).not.toContain("\u001b");
    expect(line).toContain("a subscription the proxy did not open");
  });
});

describe("the era's pure pieces", () => {
  it("keeps the sender's own _meta keys over the envelope's", () => {
    const sent = withEnvelope({ method: "tools/call", params: { name: "x", _meta: { [VERSION_KEY]: "mine" } } }, modernEnvelope(undefined, null));
    expect(sent.params._meta).toEqual({ [VERSION_KEY]: "mine", "io.modelcontextprotocol/clientCapabilities": {} });
  });

  it("answers in the latest version the proxy's SDK knows when the client asked for one it does not", () => {
    const answer = initializeFromDiscover({ capabilities: {}, serverInfo: { name: "s", version: "1" } }, "1999-01-01");
    expect(answer.protocolVersion).not.toBe("1999-01-01");
    expect(answer.serverInfo).toEqual({ name: "s", version: "1" });
    expect("instructions" in answer).toBe(false);
  });

  it("subscribes only to what the capabilities can announce", () => {
    expect(listenFilter({ tools: {}, prompts: { listChanged: true }, resources: { listChanged: false } })).toEqual({ promptsListChanged: true });
    expect(listenFilter({ tools: {} })).toBeNull();
    expect(listenFilter("tools")).toBeNull();
  });

  it("passes notifications no subscription carries in the revision (logging, progress) and stamps nothing on them", () => {
    expect(routeNotification({ method: "notifications/message", params: { level: "info", data: "x" } }, "mine")).toBe("pass");
    expect(routeNotification({ method: "notifications/resources/updated", params: { uri: "a://b" } }, "mine")).toEqual({ drop: "not_subscribed" });
    expect(routeNotification({ method: "notifications/tools/list_changed", params: { _meta: { [SUBSCRIPTION_KEY]: 1 } } }, null)).toEqual({
      drop: "foreign_subscription",
    });
  });

  it("turns a result that asks the client for input into an error, without the server's text", () => {
    const answer = legacyResult({ resultType: "input_required\u001b]0;x\u0007", inputRequests: {} });
    expect("error" in answer && answer.error.message).toContain("not complete");
    expect(JSON.stringify(answer)).not.toContain("input_required");
  });
});

describe("a server that refuses initialize and then never answers server/discover", () => {
  it("has its refusal passed on once the probe's bound runs out, and a late answer to the probe never reaches the client", async () => {
    let probe: { id: string | number } | null = null;
    const { link, far, delivered } = await linked((message) => {
      if (message.method === "initialize") return { jsonrpc: "2.0", id: message.id, error: REFUSED };
      if (message.method === "server/discover") probe = { id: message.id };
      return null;
    }, 30);
    await link.send(INITIALIZE);
    await settle();
    expect(delivered).toEqual([]);
    await new Promise((done) => setTimeout(done, 80));
    expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, error: REFUSED }]);
    expect(link.serverEra).toBe("legacy");
    // The server wakes up and answers the probe: nothing for the client, whose id it is not.
    expect(probe).not.toBeNull();
    await far.send({ jsonrpc: "2.0", id: (probe as unknown as { id: string | number }).id, result: DISCOVERED });
    await settle();
    expect(delivered).toHaveLength(1);
    await link.close();
  });
});

describe("Mcp-Param headers toward a 2026-07-28 server over Streamable HTTP", () => {
  const SEARCH = {
    name: "search",
    inputSchema: { type: "object", properties: { query: { type: "string" }, region: { type: "string", "x-mcp-header": "Region" } } },
  };
  const BAD = { name: "bad", inputSchema: { type: "object", properties: { key: { type: "string", "x-mcp-header": "a b" } } } };
  const HOSTILE = { name: "hostile\u001b[2J", inputSchema: { type: "object", properties: { q: { type: "string", "x-mcp-header": "X\u001b]0;pwned\u0007" } } } };
  const SECRET = "ghp_0123456789abcdefghijKLMNOPQRSTuvwx";

  /** A modern server listing these tools, on a link that mirrors headers (or not); the send options the link gave each message. */
  async function mirrored(tools: unknown[], mirror: boolean) {
    const [near, far] = InMemoryTransport.createLinkedPair();
    const options: { method: string; headers: unknown }[] = [];
    const send = near.send.bind(near);
    near.send = (message, sendOptions) => {
      if ("method" in message) options.push({ method: message.method, headers: (sendOptions as { headers?: unknown } | undefined)?.headers });
      return send(message, sendOptions);
    };
    const seen: JSONRPCMessage[] = [];
    far.onmessage = (message) => {
      seen.push(message);
      if (!("method" in message && "id" in message)) return;
      const reply =
        message.method === "tools/list"
          ? { jsonrpc: "2.0" as const, id: message.id, result: { tools, resultType: "complete" } }
          : modernServer(message as Parameters<Answer>[0]);
      if (reply !== null) void far.send(reply);
    };
    await far.start();
    const events: EraEvent[] = [];
    const link = new EraLink(near, (event) => events.push(event), { mirror: mirror ? { knownSecret: (text) => text.includes("hunter2-passphrase") } : null });
    const delivered: JSONRPCMessage[] = [];
    link.onmessage = (message) => delivered.push(message);
    await link.start();
    await link.send(INITIALIZE);
    await settle();
    await settle();
    return { link, seen, delivered, events, options };
  }

  const answerTo = (delivered: JSONRPCMessage[], id: number) =>
    delivered.find((message) => "id" in message && message.id === id) as { result: Record<string, unknown> };
  const called = (seen: JSONRPCMessage[]) => seen.filter((message) => "method" in message && message.method === "tools/call");

  it("copies a declared argument into its header, and leaves out (once reported) a tool whose declarations are invalid", async () => {
    const { link, seen, delivered, events, options } = await mirrored([SEARCH, BAD], true);
    await link.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await link.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} });
    await settle();
    expect((answerTo(delivered, 2).result.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["search"]);
    expect((answerTo(delivered, 3).result.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["search"]);
    expect(events.filter((event) => event.event === "tool_excluded")).toEqual([{ event: "tool_excluded", tool: "bad", why: "not_token", header: "a b" }]);

    await link.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "search", arguments: { query: "maps", region: "Zürich" } } });
    await link.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "search", arguments: { query: "maps" } } });
    await settle();
    expect(options.filter((sent) => sent.method === "tools/call").map((sent) => sent.headers)).toEqual([
      { "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=` },
      undefined,
    ]);
    expect(called(seen)).toHaveLength(2);

    // The left-out tool is not callable through the link either.
    await link.send({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "bad", arguments: { key: "k" } } });
    await settle();
    expect(called(seen)).toHaveLength(2);
    expect(answerTo(delivered, 6).result.isError).toBe(true);
    expect(JSON.stringify(answerTo(delivered, 6))).toContain("left out of the tool list");
  });

  it.each([
    ["a well-known token form", `token ${SECRET}`],
    ["a secret the run was given", "my hunter2-passphrase here"],
  ])("refuses a call whose header value holds %s: never sent, a tool error that does not repeat it, one report", async (_name, value) => {
    const { link, seen, delivered, events } = await mirrored([SEARCH], true);
    await link.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await settle();
    await link.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search", arguments: { query: "q", region: value } } });
    await settle();
    expect(called(seen)).toEqual([]);
    const answer = answerTo(delivered, 3);
    expect(answer.result.isError).toBe(true);
    const text = JSON.stringify(answer);
    expect(text).toContain("Mcp-Param-Region");
    expect(text).toContain("form of a credential");
    expect(text).not.toContain(value);
    expect(text).not.toContain("hunter2");
    expect(events.at(-1)).toEqual({ event: "header_refused", tool: "search", header: "Mcp-Param-Region" });
    expect(eventLine(events.at(-1) as EraEvent, "review")).not.toContain("hunter2");
  });

  it("over stdio (no mirror) passes the list whole and adds no headers", async () => {
    const { link, seen, delivered, options } = await mirrored([SEARCH, BAD], false);
    await link.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await link.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "bad", arguments: { key: SECRET } } });
    await settle();
    expect((answerTo(delivered, 2).result.tools as unknown[]).length).toBe(2);
    expect(called(seen)).toHaveLength(1);
    expect(options.every((sent) => sent.headers === undefined)).toBe(true);
  });

  it("reports a hostile tool and header name inert", async () => {
    const { link, events } = await mirrored([HOSTILE], true);
    await link.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    await settle();
    const excluded = events.find((event) => event.event === "tool_excluded") as EraEvent;
    expect(excluded).toMatchObject({ why: "not_token" });
    const line = eventLine(excluded, "review");
    expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(line).toContain("is not a header name");
    expect(auditLine(excluded, new Date(0), null)).not.toMatch(/\\u001b|\u001b/);
  });

  it("says the revision in the transport's protocol version header once the server speaks it", async () => {
    const versions: string[] = [];
    const { link } = await mirrored([SEARCH], true);
    (link as unknown as { inner: { setProtocolVersion: (version: string) => void } }).inner.setProtocolVersion = (version) => versions.push(version);
    link.setProtocolVersion("2025-06-18");
    expect(versions).toEqual(["2026-07-28"]);
  });
});
