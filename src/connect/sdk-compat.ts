/** Notes for tools that SDK clients would reject: locked as sent, but the user should know. */

import type { JsonObject } from "../lock/snapshot.js";
import type { Note } from "../report/terminal.js";

/** Check tools against the SDK's own Tool schema; each failure becomes an info note, never an error. */
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
      severity: "info",
      message: `SDK clients would reject this tool (client.listTools() throws${where}: ${issue?.message ?? "invalid"}); locked exactly as sent`,
    });
  }
  return notes;
}
