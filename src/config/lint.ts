/** Lint one config server with I1: unreadable entries are findings, remote and extension servers are not checked. */

import type { KnownBadList } from "../install/bad-list.js";
import { type InstallFinding, installFinding } from "../install/kinds.js";
import { lintLaunch, lintShellString } from "../install/lint.js";
import type { ConfigServer } from "./types.js";

/** I1 findings for one server entry. */
export function lintServer(server: ConfigServer, knownBad: KnownBadList): InstallFinding[] {
  if (server.problem !== null) {
    return [installFinding("unreadable_entry", null, {
      reason: server.problem.reason,
      ...(server.problem.field === undefined ? {} : { field: server.problem.field }),
    })];
  }
  if (server.transport !== "stdio" || server.launch === null) return [];
  return "shell" in server.launch ? lintShellString(server.launch.shell, knownBad) : lintLaunch(server.launch.argv, knownBad);
}
