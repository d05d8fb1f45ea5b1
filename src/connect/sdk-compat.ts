/** Notes for tools that SDK clients would reject: locked as sent, but the user should know. */

import type { JsonObject } from "../lock/snapshot.js";
import type { Note } from "../report/terminal.js";

/**
 * Check tools against the SDK's own Tool schema. Each failure is an error note (SDK 1.x clients
 * reject the whole list for it), counted in the report but never a reason to refuse the lock: it
 * is no attack, and the lock still pins what the server serves.
 */
export async function sdkRejectionNotes(tools: readonly JsonObject[]): Promise<Note[]> {
  if (tools.length === 0) return [];
  const { ToolSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const notes: Note[] = [];
  for (const tool of tools) {
    const result = ToolSchema.safeParse(tool);
    if (result.success) continue;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join(".")}` : "";
    notes.push({
      tool: typeof tool.name === "string" ? tool.name : null,
      severity: "error",
      message: `SDK 1.x clients would reject this tool, and with it the whole list (client.listTools() throws${where}: ${issue?.message ?? "invalid"}); locked exactly as sent`,
    });
  }
  return notes;
}
