/** The one progress line mcp-lint shows on a terminal while a server starts, and its removal. */

/** Launchers whose first run downloads the server, which can take a while. */
const DOWNLOADERS = new Set(["npx", "pnpx", "bunx", "uvx", "pipx", "npm", "pnpm", "yarn", "uv", "docker", "podman", "deno", "dnx"]);

/** Wait this long before showing the line, so a quick start never flickers. */
const SHOW_AFTER_MS = 300;

let clearActive: (() => void) | null = null;

/** Remove the progress line if one is showing (before an error or an interruption message). */
export function clearProgress(): void {
  clearActive?.();
}

/** The line for a launch command: names the launcher when it may be downloading the server. */
export function startingText(command: string): string {
  const base =
    command
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(cmd|exe|bat)$/i, "") ?? command;
  const why = DOWNLOADERS.has(base.toLowerCase()) ? ` (${base.toLowerCase()} may be downloading it)` : "";
  return `mcp-lint: starting server${why}...`;
}

/**
 * Show `text` on stderr while a server starts, only when stderr is a terminal (never in CI logs or
 * pipes), after a short delay. The returned function removes it, overwriting it with spaces, and
 * is safe to call more than once.
 */
export function showProgress(text: string, stream: NodeJS.WriteStream = process.stderr): () => void {
  if (!stream.isTTY) return () => {};
  let shown = false;
  const timer = setTimeout(() => {
    shown = true;
    stream.write(text);
  }, SHOW_AFTER_MS);
  timer.unref();
  const done = () => {
    clearTimeout(timer);
    if (shown) stream.write(`\r${" ".repeat(text.length)}\r`);
    shown = false;
    if (clearActive === done) clearActive = null;
  };
  clearActive = done;
  return done;
}
