/**
 * Whether the servers of an eval run are contained (issue 42): both arms start each server through
 * `mcp-lint proxy`, which launches it in a PID namespace of its own, so no server can read the
 * agent's key from /proc. Where that namespace cannot be made, `eval --run` says so once, and runs
 * with a model credential only when told to (--allow-uncontained). Pure but for serverContainment.
 */

import { containmentFor, nestedContainment } from "../connect/containment.js";

/** Why the servers of this run get no PID namespace, or null when they do. */
export async function serverContainment(agentInNamespace: boolean, pathVariable: string | undefined): Promise<string | null> {
  // The agent starts the proxy, which starts the server: inside the agent's namespace when it has one.
  const containment = agentInNamespace ? await nestedContainment(pathVariable) : await containmentFor(pathVariable);
  return containment.kind === "namespace" ? null : (containment.why ?? "no reason given");
}

/**
 * What `eval --run` does without a namespace for the servers: refuse (with a credential set and
 * no --allow-uncontained), or go on with one warning line. Both are one line. Pure.
 */
export function uncontainedDecision(why: string, credentials: readonly string[], allowUncontained: boolean): { refuse: string } | { warn: string } {
  if (credentials.length > 0 && !allowUncontained) {
    return {
      refuse: `eval --run: the servers would start without a PID namespace here (${why}), so a server could read ${credentials.join(" and ")} from the agent's process; run where util-linux unshare can make one, or pass --allow-uncontained to accept that; nothing was run`,
    };
  }
  const exposed = credentials.length === 0 ? " (no model credential is set)" : `, ${credentials.join(" and ")} included (--allow-uncontained)`;
  return {
    warn: `mcp-lint: warning: eval --run: the servers start without a PID namespace here (${why}); a server can read the agent's environment${exposed}\n`,
  };
}
