/** Names a client adapter shares: undoing a client's tool-name mapping, and the variables secret values travel in. Pure. */

/**
 * The server tool whose rendered name is `rendered`, given how the client renders a name. The
 * first tool in list order wins when two render alike (the client shows only one of them too).
 */
export function matchRenderedName(rendered: string, serverTools: readonly string[], render: (tool: string) => string): string | null {
  for (const tool of serverTools) if (render(tool) === rendered) return tool;
  return null;
}

/**
 * The variable a header's or a server variable's value travels in to the client: its config names
 * the variable and never holds the value.
 */
export function carrier(kind: "HEADER" | "ENV", index: number): string {
  return `MCP_LINT_${kind}_${index}`;
}
