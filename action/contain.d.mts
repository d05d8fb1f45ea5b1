// Types for contain.mjs (plain JS, run by the runner's node), for the tests.
/** The command line that runs a command in a new PID namespace through sudo, as this user again. Pure. */
export function sudoChain(
  env: Readonly<Record<string, string>>,
  ids: { uid: number; gid: number },
  tools: { sudo: string; unshare: string; setpriv: string; env: string },
): string[];
/** How to start `node cli ...args`, and which way was taken. */
export function cliLaunch(plan: { cli: string; env: Record<string, string> }): Promise<{ argv: string[]; extraArgs: string[]; how: "mcp-lint" | "sudo" | "none" }>;
