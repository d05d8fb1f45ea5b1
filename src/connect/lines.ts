/** Split a server's stdout into JSON-RPC messages, one per line, refusing a line over the size cap as soon as it passes it. */

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
 * A line that is not a JSON-RPC message (a log line on stdout, say). `sample` is the start of the
 * line, raw: redact it before cutting it short, or a cut could keep half of a secret.
 */
export class BadMessageError extends Error {
  override name = "BadMessageError";
  constructor(
    message: string,
    readonly sample: string,
  ) {
    super(message);
  }

  /** The message with the start of the line quoted, after `redact` and as printable ASCII. */
  describe(redact: (text: string) => string): string {
    const shown = redact(this.sample).replace(/[^\x20-\x7e]/g, "?");
    return `${this.message} (it starts ${JSON.stringify(shown.slice(0, 60))}${shown.length > 60 ? "..." : ""})`;
  }
}

/** How much of a bad line is kept to quote: enough that redaction sees any secret at its start whole. */
const SAMPLE_CHARS = 8192;

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

  constructor(private readonly maxMessageBytes: number) {}

  /** Bytes held for the line being assembled. */
  get buffered(): number {
    return this.pending;
  }

  /** Take one chunk; calls `deliver` for each complete message. Throws MessageTooLargeError or BadMessageError. */
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
      if (message !== null) deliver(message);
    }
  }

  /** Drop anything buffered. */
  clear(): void {
    this.chunks = [];
    this.pending = 0;
  }
}

function parseLine(line: Buffer): JSONRPCMessage | null {
  const text = line.toString("utf8").replace(/\r$/, "");
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadMessageError(
      "the server wrote a line to stdout that is not JSON; a stdio server may write only JSON-RPC messages there",
      text.slice(0, SAMPLE_CHARS),
    );
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) throw new BadMessageError("the server wrote a JSON line to stdout that is not a JSON-RPC message", text.slice(0, SAMPLE_CHARS));
  return parsed.data;
}
