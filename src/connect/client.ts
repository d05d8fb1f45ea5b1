/**
 * The client every live read opens (lock, check, run, probes, init-fixtures, crosscheck's ground
 * truth): the official SDK v2 client, which picks the protocol era as the 2026-07-28 revision asks
 * (a `server/discover` probe, then `initialize` for a legacy server), and how `readSession` reads
 * through it.
 */

import { Client, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import { isJsonObject } from "../lock/snapshot.js";
import type { ConnectOptions } from "./bounds.js";
import type { ListingLink, ListMethod } from "./session.js";

/**
 * A client that negotiates the era: `server/discover` first (its `instructions` and capabilities
 * are the server's for a 2026-07-28 server), and the legacy `initialize` on the same connection
 * when the server gives no modern answer; the probe waits as long as connect's timeout, and so
 * does the initialize after it. "legacy" skips the probe: for the old HTTP+SSE transport, which
 * no 2026-07-28 server speaks, and for a server that exited at the probe.
 */
export function eraClient(options: Pick<ConnectOptions, "clientInfo" | "clientVersion" | "clientCapabilities">, era: "auto" | "legacy" = "auto"): Client {
  return new Client(options.clientInfo ?? { name: "mcp-lint", version: options.clientVersion }, {
    capabilities: options.clientCapabilities ?? {},
    versionNegotiation: { mode: era },
  });
}

/**
 * Any object: the page is not validated or trimmed item by item. (On a 2026-07-28 connection the
 * SDK checks the page against the revision's result schema first; see `rawPages`.)
 */
const AS_SENT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "mcp-lint",
    validate: (value) => (isJsonObject(value) ? { value } : { issues: [{ message: "the result is not a JSON object" }] }),
  },
};

/** The SDK v2 client's code for a result it refused (read without loading its error class). */
const INVALID_RESULT = "INVALID_RESULT";

/**
 * The list pages exactly as they arrived on the client's transport. On a 2026-07-28 connection the
 * SDK refuses a whole page that breaks the revision's result schema (no `resultType`, one tool it
 * cannot parse); the lock pins what the server serves, as it does for a legacy server whose tools
 * SDK 1.x clients would reject, so the page is taken from the wire. Reads of one session are
 * sequential, so the last request of each list method is the one awaited.
 */
function rawPages(client: Client): { sent: (method: ListMethod) => unknown; take: (id: unknown) => Record<string, unknown> | undefined } {
  const lastId = new Map<string, unknown>();
  const pages = new Map<unknown, Record<string, unknown>>();
  const transport = client.transport;
  if (transport !== undefined) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if ("method" in message && "id" in message && LIST_METHODS.has(message.method)) lastId.set(message.method, message.id);
      return send(message, options);
    };
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ("result" in message && isJsonObject(message.result) && [...lastId.values()].includes(message.id)) pages.set(message.id, message.result);
      deliver?.(message, extra);
    };
  }
  return {
    sent: (method) => lastId.get(method),
    take: (id) => {
      const page = pages.get(id);
      pages.delete(id);
      return page;
    },
  };
}

const LIST_METHODS: ReadonlySet<string> = new Set<ListMethod>(["tools/list", "prompts/list", "resources/list", "resources/templates/list"]);

/** What `readSession` reads through a connected v2 client: each page as the server sent it. */
export function eraListing(client: Client): ListingLink {
  const wire = rawPages(client);
  return {
    serverInfo: () => client.getServerVersion(),
    instructions: () => client.getInstructions(),
    capabilities: () => client.getServerCapabilities() ?? {},
    list: async (method, params, timeoutMs) => {
      const answer = client.request({ method, params }, AS_SENT, { timeout: timeoutMs });
      // The request is on the wire once request() returns: its id is the method's last.
      const id = wire.sent(method);
      try {
        const page = await answer;
        return wire.take(id) ?? page;
      } catch (error) {
        const sent = wire.take(id);
        if (sent !== undefined && (error as { code?: unknown } | null)?.code === INVALID_RESULT) return sent;
        throw error;
      }
    },
  };
}
