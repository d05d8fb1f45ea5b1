/** The loopback model endpoint a client is pointed at: records each request, answers as the adapter says, and never forwards anything. */

import { createServer, type IncomingMessage, type Server } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { RecordedRequest, RecorderReply } from "./types.js";

/** Largest request body read; a client's tool-bearing request is a few hundred KB even for large servers. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** A running recorder. */
export interface Recorder {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** Decode a body as the client compressed it; null when the encoding is one Node 20 cannot undo. */
export function decodeBody(bytes: Buffer, encoding: string | undefined): Buffer | null {
  const name = (encoding ?? "identity").trim().toLowerCase();
  if (name === "" || name === "identity") return bytes;
  if (name === "gzip" || name === "x-gzip") return gunzipSync(bytes, { maxOutputLength: MAX_REQUEST_BYTES });
  if (name === "deflate") return inflateSync(bytes, { maxOutputLength: MAX_REQUEST_BYTES });
  if (name === "br") return brotliDecompressSync(bytes, { maxOutputLength: MAX_REQUEST_BYTES });
  return null;
}

/** The body as JSON, or null when it is not JSON (or could not be decoded). */
export function parseBody(bytes: Buffer, encoding: string | undefined): unknown {
  try {
    const decoded = decodeBody(bytes, encoding);
    if (decoded === null || decoded.length === 0) return null;
    return JSON.parse(decoded.toString("utf8"));
  } catch {
    return null;
  }
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Listen on 127.0.0.1 (an ephemeral port) and hand every request to `onRequest`, which records it
 * and says what to answer. Only loopback is bound: nothing else on the network can reach it.
 */
export function startRecorder(onRequest: (request: RecordedRequest) => RecorderReply): Promise<Recorder> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        refused = true;
        response.writeHead(413, { "content-type": "application/json", connection: "close" }).end("{}");
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (refused) return;
      const recorded: RecordedRequest = {
        method: request.method ?? "GET",
        path: request.url ?? "/",
        headers: headersOf(request),
        body: parseBody(Buffer.concat(chunks), request.headers["content-encoding"]),
      };
      let reply: RecorderReply;
      try {
        reply = onRequest(recorded);
      } catch {
        reply = { status: 500, headers: { "content-type": "application/json" }, body: "{}" };
      }
      response.writeHead(reply.status, reply.headers);
      response.end(request.method === "HEAD" ? undefined : reply.body);
    });
    request.on("error", () => response.destroy());
  });
  server.keepAliveTimeout = 1000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
