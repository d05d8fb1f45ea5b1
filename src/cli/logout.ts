/** `mcp-lint logout [URL]`: forget the OAuth login (tokens and client registration) kept for a server, or every one. */

import { LoginStore, serverKey } from "../connect/oauth/store.js";
import { UsageError } from "../errors.js";
import { neutralize } from "../text/neutralize.js";
import type { Output } from "./source.js";

export async function runLogout(url: string | null, output: Output): Promise<number> {
  const store = new LoginStore();
  if (url === null) {
    const forgotten = await store.forget(null);
    output.out(forgotten === 0 ? "No OAuth logins are kept.\n" : `Forgot ${forgotten} OAuth login${forgotten === 1 ? "" : "s"}.\n`);
    return 0;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError("logout takes the server's URL as given to --url, such as https://mcp.example.com/mcp");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`logout takes an http:// or https:// URL, not ${parsed.protocol}//`);
  const server = serverKey(parsed);
  const shown = neutralize(server);
  output.out((await store.forget(server)) > 0 ? `Forgot the OAuth login to ${shown}.\n` : `No OAuth login is kept for ${shown}.\n`);
  return 0;
}
