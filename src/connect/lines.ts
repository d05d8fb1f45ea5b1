/**
 * Split a server's stdout into JSON-RPC messages, one per line, refusing a line over the size cap as
 * soon as it passes it. A line that is not a JSON-RPC message (a log line, a banner) is skipped and
 * counted, as the SDK clients skip it: servers that log to stdout work in every client.
 */

import { Buffer } from "node:buffer";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** A line longer than the cap; the transport ends the run with it. */
export class MessageTooLargeError extends Error {
  override name = "MessageTooLargeError";
  constructor(readonly limit: number) {
    super(`the server sent a message larger than ${limit / 1048576} MiB`);
  }
}

/**
 * Bounded line framing. The SDK's ReadBuffer concatenates the whole buffer on every chunk and
 * searches it from the start each time, which is quadratic in the length of a line (a 16 MB list
 * took longer than the 30 s timeout on a busy machine). This keeps the chunks of the line being
 * assembled in a list, looks for a newline only in the new chunk, and joins once per line; the
 * running byte count refuses an oversized line the moment it passes the cap, before buffering more.
 */
export class JsonLineReader {
  private chunks: Buffer[] = [];
  private pending = 0;
  /** Lines skipped because they were not JSON-RPC messages. */
  skipped = 0;

  constructor(private readonly maxMessageBytes: number) {}

  /** Bytes held for the line being assembled. */
  get buffered(): number {
    return this.pending;
  }

  /** Take one chunk; calls `deliver` for each complete message. Throws MessageTooLargeError. */
  push(chunk: Buffer, deliver: (message: JSONRPCMessage) => void): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (this.pending + (end - start) > this.maxMessageBytes) {
        this.clear();
        throw new MessageTooLargeError(this.maxMessageBytes);
      }
      if (newline < 0) {
        if (end > start) {
          this.chunks.push(chunk.subarray(start));
          this.pending += end - start;
        }
        return;
      }
      const piece = chunk.subarray(start, newline);
      const line = this.chunks.length === 0 ? piece : Buffer.concat([...this.chunks, piece], this.pending + piece.length);
      this.chunks = [];
      this.pending = 0;
      start = newline + 1;
      const message = parseLine(line);
      if (message === NOT_A_MESSAGE) this.skipped++;
      else if (message !== null) deliver(message);
    }
  }

  /** Drop anything buffered. */
  clear(): void {
    this.chunks = [];
    this.pending = 0;
  }
}

const NOT_A_MESSAGE = Symbol("not a JSON-RPC message");

/** The message on a line, null for a blank line, NOT_A_MESSAGE for anything else. */
function parseLine(line: Buffer): JSONRPCMessage | null | typeof NOT_A_MESSAGE {
  const text = line.toString("utf8").replace(/\r$/, "");
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_A_MESSAGE;
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : NOT_A_MESSAGE;
}
