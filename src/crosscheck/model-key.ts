/**
 * The key of one client run: made fresh for each run, handed to that client alone as its API key,
 * and the only thing that gets a request into the loopback model endpoint. Anything on the machine
 * can find a loopback port and post a copy of tools/list to it; only the client was given the key.
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new key: 32 random bytes, as letters and digits a header carries unchanged. */
export function newModelKey(): string {
  return `mcp-lint-${randomBytes(32).toString("hex")}`;
}

/** Whether `presented` is `key`; compared as digests, so neither its length nor a common start shows in the time taken. */
export function keyMatches(presented: string | null, key: string): boolean {
  if (presented === null || key === "") return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(key));
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match === null ? null : (match[1] as string);
}
