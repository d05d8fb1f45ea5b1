/** Undoing a client's tool-name mapping: compute each server tool's rendered name and look the rendered one up. Pure. */

/**
 * The server tool whose rendered name is `rendered`, given how the client renders a name. The
 * first tool in list order wins when two render alike (the client shows only one of them too).
 */
export function matchRenderedName(rendered: string, serverTools: readonly string[], render: (tool: string) => string): string | null {
  for (const tool of serverTools) if (render(tool) === rendered) return tool;
  return null;
}
