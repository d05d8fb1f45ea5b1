/**
 * The one-shot redirect target of a login (RFC 8252 section 7.3): an HTTP listener on 127.0.0.1
 * that takes the first request to /callback carrying the expected `state`, answers it with a short
 * page, and gives its `code` (with the `iss` the server named, RFC 9207). Requests without the state
 * are answered 400 and ignored, so a page that guesses the port cannot end the login with a code of its own.
 */

import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const CALLBACK_PATH = "/callback";
const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>mcp-lint</title><p style="font-family:sans-serif">${text}</p>\n`;

/** What the authorization server sent back: a code (and the issuer it named, for the SDK to check), or the error it named. */
export type Callback = { code: string; iss?: string } | { error: string; description: string };

export class LoopbackRedirect {
  private server: Server | null = null;
  private expectedState: string | null = null;
  private waiting: ((result: Callback) => void) | null = null;
  private early: Callback | null = null;

  /** Listen on 127.0.0.1, on `preferredPort` when it is free (a registered redirect URI), else on any port. */
  async listen(preferredPort?: number): Promise<void> {
    if (this.server !== null) return;
    const tryPort = async (port: number): Promise<Server | null> => {
      const server = createServer((request, response) => this.handle(request.url ?? "", response));
      server.on("error", () => undefined);
      try {
        server.listen(port, "127.0.0.1");
        await Promise.race([once(server, "listening"), once(server, "error").then(([error]) => Promise.reject(error))]);
        return server;
      } catch {
        server.close();
        return null;
      }
    };
    this.server = (preferredPort !== undefined ? await tryPort(preferredPort) : null) ?? (await tryPort(0));
    if (this.server === null) throw new Error("cannot listen on 127.0.0.1 for the login's redirect");
    // The listener must not keep the process alive after the run is done.
    this.server.unref();
  }

  get redirectUri(): string {
    if (this.server === null) throw new Error("internal error: the login's redirect listener is not started");
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${CALLBACK_PATH}`;
  }

  /** Expect the callback of the login started with `state`. */
  expect(state: string): void {
    this.expectedState = state;
    this.early = null;
  }

  /** The callback of the expected login, or null when none came within `timeoutMs`. */
  wait(timeoutMs: number): Promise<Callback | null> {
    if (this.early !== null) {
      const result = this.early;
      this.early = null;
      return Promise.resolve(result);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        resolve(null);
      }, timeoutMs);
      this.waiting = (result) => {
        clearTimeout(timer);
        this.waiting = null;
        resolve(result);
      };
    });
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(rawUrl: string, response: import("node:http").ServerResponse): void {
    const url = new URL(rawUrl, "http://127.0.0.1");
    const state = url.searchParams.get("state");
    if (url.pathname !== CALLBACK_PATH || this.expectedState === null || state !== this.expectedState) {
      response.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(PAGE("This is not the login mcp-lint is waiting for."));
      return;
    }
    const code = url.searchParams.get("code");
    const error = url.searchParams.get("error");
    let result: Callback;
    if (code !== null && code !== "") {
      // The issuer goes to the SDK, which rejects a code from another authorization server (RFC 9207).
      const iss = url.searchParams.get("iss");
      result = iss === null ? { code } : { code, iss };
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE("Logged in. You can close this tab and go back to mcp-lint."));
    } else {
      result = { error: error ?? "no code", description: url.searchParams.get("error_description") ?? "" };
      response.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(PAGE("The login did not succeed; see mcp-lint's output."));
    }
    // One login, one code: a second request with the same state is not taken.
    this.expectedState = null;
    if (this.waiting !== null) this.waiting(result);
    else this.early = result;
  }
}
