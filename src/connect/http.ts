/** Connect to a remote MCP server over Streamable HTTP (falling back to the older SSE transport) and read it. */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ConnectionError } from "../errors.js";
import type { ServerSnapshot } from "../lock/snapshot.js";
import type { Redactor } from "./redact.js";
import { firstLine, readSession } from "./session.js";
import { describeTarget, type HttpTarget, type Target, targetSha256 } from "./target.js";

/** Largest response body read from a server; a bigger one is cut off with an error. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Connect over HTTP, read initialize and every tools/list page, then close the session. */
export async function snapshotFromHttp(
  target: HttpTarget & Target,
  options: { timeoutMs: number; clientVersion: string; redactor: Redactor },
): Promise<ServerSnapshot> {
  const where = describeTarget(target);
  let oversize: Error | undefined;
  let client: Client;
  // The SDK reports a broken response stream only to onerror and may retry; an oversized answer
  // must end the run at once, so closing the client fails the waiting request.
  const fetchImpl = await boundedFetch(target.url, (error) => {
    oversize ??= error;
    void client?.close().catch(() => undefined);
  });
  const requestInit: RequestInit = { headers: Object.fromEntries(target.headers) };
  const failure = (error: unknown) => options.redactor.text(originsOnly(firstLine(oversize ?? error)));

  const streamable = new StreamableHTTPClientTransport(target.url, { requestInit, fetch: fetchImpl, redirectPolicy: "same-origin" });
  client = new Client({ name: "mcp-lint", version: options.clientVersion }, { capabilities: {} });
  let transportName: "streamable-http" | "sse" = "streamable-http";
  try {
    await client.connect(streamable, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    // A server that only speaks the older HTTP+SSE transport answers the POST with 404 or 405.
    if (!(error instanceof StreamableHTTPError && (error.code === 404 || error.code === 405))) {
      throw new ConnectionError(`could not connect to ${where}: ${failure(error)}`);
    }
    client = new Client({ name: "mcp-lint", version: options.clientVersion }, { capabilities: {} });
    const sse = new SSEClientTransport(target.url, { requestInit, fetch: fetchImpl, eventSourceInit: { fetch: fetchImpl } });
    transportName = "sse";
    try {
      await client.connect(sse, { timeout: options.timeoutMs });
    } catch (sseError) {
      await client.close().catch(() => undefined);
      throw new ConnectionError(`could not connect to ${where} over Streamable HTTP or SSE: ${failure(sseError)}`);
    }
  }
  try {
    return await readSession(client, { where, timeoutMs: options.timeoutMs, transport: transportName, commandSha256: targetSha256(target), failure });
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * The fetch every request goes through. Plain http:// uses Node's fetch, which ignores proxy
 * variables, so a local server's secrets never pass through a proxy in cleartext; https:// goes
 * through undici's EnvHttpProxyAgent, which honours HTTPS_PROXY, ALL_PROXY and NO_PROXY. Every
 * response body is cut off past MAX_RESPONSE_BYTES.
 */
async function boundedFetch(url: URL, onOversize: (error: Error) => void): Promise<FetchLike> {
  let base: FetchLike = (input, init) => fetch(input, init);
  if (url.protocol === "https:") {
    const { EnvHttpProxyAgent, fetch: undiciFetch } = await import("undici");
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

function limitBody(response: Response, onOversize: (error: Error) => void): Response {
  // Null-body statuses cannot be rebuilt with a body; they carry nothing to bound.
  if (response.body === null || [101, 204, 205, 304].includes(response.status)) return response;
  let seen = 0;
  const limited = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > MAX_RESPONSE_BYTES) {
          const error = new Error(`the server sent a response larger than ${MAX_RESPONSE_BYTES / 1048576} MiB`);
          controller.error(error);
          onOversize(error);
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}
