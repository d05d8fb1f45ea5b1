/** Whether a remote server wants a login the proxy cannot give: `wrap --include-remote` leaves such an entry alone. */

/** How long the server may take to say so; no answer in time is not taken as a login wall. */
const LOGIN_CHECK_TIMEOUT_MS = 10_000;

/** A server that turned the client away: its status, and whether it offers the MCP authorization flow. */
export interface LoginWall {
  status: number;
  /** It names or serves OAuth metadata (RFC 9728 or RFC 8414), so the proxy can log in to it. */
  oauth: boolean;
}

/**
 * Send the `initialize` a client would, with the entry's own headers, and say whether the server
 * turns it away for want of authorization (401, or 403 with a WWW-Authenticate challenge), and if
 * so whether it offers the MCP authorization flow: its challenge names resource metadata, or
 * metadata is served at a well-known address. A login wall without that is one the proxy cannot
 * pass, so wrapping it would leave the client with a server that never starts. Null for any other
 * answer or none (locking it then reports what is wrong, as for `lock --url`).
 */
export async function loginStatus(url: string, headers: readonly (readonly [string, string])[], timeoutMs = LOGIN_CHECK_TIMEOUT_MS): Promise<LoginWall | null> {
  const body = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "mcp-lint-wrap", version: "0" } },
  };
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...Object.fromEntries(headers) },
      body: JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    const challenge = response.headers.get("www-authenticate");
    if (response.status !== 401 && !(response.status === 403 && challenge !== null)) return null;
    const oauth = (challenge !== null && /\bresource_metadata\s*=/i.test(challenge)) || (await servesMetadata(new URL(url), timeoutMs));
    return { status: response.status, oauth };
  } catch {
    return null;
  }
}

/** Whether OAuth metadata answers at the addresses a client looks at (the path-aware and root resource metadata, and the 2025-03-26 authorization server metadata). */
async function servesMetadata(url: URL, timeoutMs: number): Promise<boolean> {
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const addresses = [`/.well-known/oauth-protected-resource${path}`, "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"];
  for (const address of new Set(addresses)) {
    try {
      const response = await fetch(new URL(address, url.origin), { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      if (/"(authorization_servers|authorization_endpoint)"/.test(await startOf(response))) return true;
    } catch {
      // Not there; try the next address.
    }
  }
  return false;
}

/** The first 64 KiB of a body: a metadata document is small, and a hostile server's flood is not read. */
async function startOf(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const decoder = new TextDecoder();
  let text = "";
  while (text.length < 65_536) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}
