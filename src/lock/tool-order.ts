/** The note on a tool list served in another order than when it was locked. Pure. */

import { type Lockfile, sameNames, toolOrderSha256 } from "./format.js";
import type { JsonObject } from "./snapshot.js";

/** An observation that is not a change, in the report's note shape. */
export interface OrderNote {
  tool: null;
  severity: "info";
  message: string;
}

/**
 * An info note when the server lists the same tools as the lock in another order, null otherwise.
 * The lock keys tools by name, so the order is no change; the 2026-07-28 revision asks servers for
 * a deterministic order, and a reviewer may want to know that it moved. When tools were added or
 * removed the changes say so already, and a lock that kept no order says nothing.
 */
export function toolOrderNote(lock: Lockfile, tools: readonly JsonObject[]): OrderNote | null {
  const locked = lock.server.toolOrderSha256;
  if (typeof locked !== "string") return null;
  if (!sameNames(lock.tools, tools)) return null;
  if (toolOrderSha256(tools) === locked) return null;
  return {
    tool: null,
    severity: "info",
    message:
      "the server listed its tools in another order than when they were locked; no definition changed, so this is no change (the lock keeps the order it was written with)",
  };
}
