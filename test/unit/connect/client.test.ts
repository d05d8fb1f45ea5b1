// The era-negotiating client and how readSession reads through it, against in-process servers over
// in-memory transports (spawns nothing): a 2026-07-28 server (the v2 server SDK) is read through
// server/discover, a legacy one (the v1 SDK) through initialize, and a page the v2 client's
// schema check refuses is still read as the server sent it.
import { InMemoryTransport as V2Memory, type Transport } from "@modelcontextprotocol/client";
import { InMemoryTransport as V1Memory } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server as V1Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Server as V2Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { describe, expect, it } from "vitest";
import { RunClock } from "../../../src/connect/bounds.js";
import { eraClient, eraListing } from "../../../src/connect/client.js";
import { readSession } from "../../../src/connect/session.js";

const INFO = { name: "unit-server", version: "2.0.0" };
const TOOL = { name: "search", description: "Search.", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
const reading = {
  where: "unit",
  timeoutMs: 5000,
  clock: new RunClock(30_000),
  transport: "stdio",
  commandSha256: "0".repeat(64),
  failure: (error: unknown) => String(error),
} as const;

/** A 2026-07-28-only server (it refuses initialize) serving `pages` of tools, each page with the revision's result fields. */
function modernServer(pages: Record<string, unknown>[][]): Transport {
  const [clientSide, serverSide] = V2Memory.createLinkedPair();
  serveStdio(
    () => {
      const server = new V2Server(INFO, { capabilities: { tools: {} }, instructions: "From discover.", supportedProtocolVersions: ["2026-07-28"] });
      server.setRequestHandler("tools/list", (request) => {
        const index = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
        const next = index + 1 < pages.length ? { nextCursor: String(index + 1) } : {};
        return { tools: pages[index] ?? [], ttlMs: 1000, cacheScope: "private", ...next } as never;
      });
      return server;
    },
    { legacy: "reject", transport: serverSide },
  );
  return clientSide;
}

describe("eraClient and eraListing", () => {
  it("read a 2026-07-28 server through server/discover: its instructions, identity from _meta, every page", async () => {
    const client = eraClient({ clientVersion: "0.0.0" });
    await client.connect(modernServer([[TOOL], [{ ...TOOL, name: "fetch" }]]));
    expect(client.getProtocolEra()).toBe("modern");
    const snapshot = await readSession(eraListing(client), reading);
    expect(snapshot.instructions).toEqual({ known: true, text: "From discover." });
    expect([snapshot.name, snapshot.version]).toEqual(["unit-server", "2.0.0"]);
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(["search", "fetch"]);
    await client.close();
  });

  it("read a legacy server through initialize after its answer to the probe", async () => {
    const server = new V1Server(INFO, { capabilities: { tools: {} }, instructions: "From initialize." });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [TOOL as never] }));
    const [clientSide, serverSide] = V1Memory.createLinkedPair();
    await server.connect(serverSide);
    const client = eraClient({ clientVersion: "0.0.0" });
    await client.connect(clientSide as Transport);
    expect(client.getProtocolEra()).toBe("legacy");
    const snapshot = await readSession(eraListing(client), reading);
    expect(snapshot.instructions).toEqual({ known: true, text: "From initialize." });
    expect(snapshot.tools).toEqual([TOOL]);
    await client.close();
  });

  it("take a 2026-07-28 page the SDK refuses as it was sent (regression: one odd tool lost the whole list)", async () => {
    const odd = { name: "odd", inputSchema: { type: "string" }, "x-vendor": { kept: true } };
    const client = eraClient({ clientVersion: "0.0.0" });
    await client.connect(modernServer([[TOOL, odd]]));
    expect(client.getProtocolEra()).toBe("modern");
    const snapshot = await readSession(eraListing(client), reading);
    expect(snapshot.tools).toEqual([TOOL, odd]);
    await client.close();
  });
});
