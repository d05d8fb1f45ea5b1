/** Whether a remote server wants a login the proxy cannot give: `wrap --include-remote` leaves such an entry alone. */

/** How long the server may take to say so; no answer in time is not taken as a login wall. */
const LOGIN_CHECK_TIMEOUT_MS = 10_000;

/**
 * Send the `initialize` a client would, with the entry's own headers, and return the HTTP status
 * when the server turns it away for want of authorization (401, or 403 with a WWW-Authenticate
 * challenge): an OAuth server, which the proxy cannot log in to yet, so wrapping it would leave
 * the client with a server that never starts. Null for any other answer or none (locking it then
 * reports what is wrong, as for `lock --url`).
 */
export async function loginStatus(url: string, headers: readonly (readonly [string, string])[], timeoutMs = LOGIN_CHECK_TIMEOUT_MS): Promise<number | null> {
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
    if (response.status === 401) return 401;
    if (response.status === 403 && response.headers.has("www-authenticate")) return 403;
    return null;
  } catch {
    return null;
  }
}
