/** The loopback model endpoint a client is pointed at: refuses a request without the run's key, records the others, answers as the adapter says, and never forwards anything. */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { RecordedRequest, RecorderReply, RequestHead } from "./types.js";

/** Largest request body read; a client's tool-bearing request is a few hundred KB even for large servers. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** A running recorder. */
export interface Recorder {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  /** Requests refused so far for want of the run's key (none of them was read). */
  refused(): number;
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

/** Who gets in: a request is read only when `admits` says so; any other gets `refusal` and is never read. */
export interface RecorderGate {
  admits(request: RequestHead): boolean;
  refusal(request: RequestHead): RecorderReply;
}

/**
 * Listen on 127.0.0.1 (an ephemeral port). A request the gate admits is read and handed to
 * `onRequest`, which records it and says what to answer; any other is answered with the gate's
 * refusal as soon as its headers are in, and its body is drained unread. Only loopback is bound:
 * nothing else on the network can reach it, and the gate keeps out the processes on this machine
 * that were not given the run's key.
 */
export function startRecorder(gate: RecorderGate, onRequest: (request: RecordedRequest) => RecorderReply): Promise<Recorder> {
  let refused = 0;
  const server: Server = createServer((request, response) => {
    const head: RequestHead = { method: request.method ?? "GET", path: request.url ?? "/", headers: headersOf(request) };
    if (!admitted(gate, head)) {
      refused++;
      answer(response, request.method, refusalOf(gate, head), { connection: "close" });
      let drained = 0;
      request.on("data", (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > MAX_REQUEST_BYTES) request.destroy();
      });
      request.on("error", () => response.destroy());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        tooLarge = true;
        response.writeHead(413, { "content-type": "application/json", connection: "close" }).end("{}");
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      if (tooLarge) return;
      const recorded: RecordedRequest = { ...head, body: parseBody(Buffer.concat(chunks), request.headers["content-encoding"]) };
      let reply: RecorderReply;
      try {
        reply = onRequest(recorded);
      } catch {
        reply = { status: 500, headers: { "content-type": "application/json" }, body: "{}" };
      }
      answer(response, request.method, reply);
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
        refused: () => refused,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A gate that throws admits nothing. */
function admitted(gate: RecorderGate, head: RequestHead): boolean {
  try {
    return gate.admits(head);
  } catch {
    return false;
  }
}

function refusalOf(gate: RecorderGate, head: RequestHead): RecorderReply {
  try {
    return gate.refusal(head);
  } catch {
    return { status: 401, headers: { "content-type": "application/json" }, body: "{}" };
  }
}

function answer(response: ServerResponse, method: string | undefined, reply: RecorderReply, extra: Record<string, string> = {}): void {
  response.writeHead(reply.status, { ...reply.headers, ...extra });
  response.end(method === "HEAD" ? undefined : reply.body);
}
