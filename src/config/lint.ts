/** Lint one config server with I1: launches are checked, remote URLs on plain HTTP are flagged, unreadable entries are findings. */

import type { KnownBadList } from "../install/bad-list.js";
import { type InstallFinding, installFinding } from "../install/kinds.js";
import { lintLaunch, lintShellString } from "../install/lint.js";
import type { ConfigServer } from "./types.js";
import { pushAll } from "../arrays.js";

/** I1 findings for one server entry. */
export function lintServer(server: ConfigServer, knownBad: KnownBadList): InstallFinding[] {
  const findings: InstallFinding[] = [];
  if (server.problem !== null) {
    findings.push(
      installFinding("unreadable_entry", null, {
        reason: server.problem.reason,
        ...(server.problem.field === undefined ? {} : { field: server.problem.field }),
      }),
    );
  } else if (server.launch !== null) {
    pushAll(findings, "shell" in server.launch ? lintShellString(server.launch.shell, knownBad) : lintLaunch(server.launch.argv, knownBad));
  }
  const insecure = server.remote === null ? null : plainTextScheme(server.remote);
  if (insecure !== null && server.remote !== null) {
    findings.push(installFinding("insecure_transport", server.remote, { reason: "plain_http", spec: insecure }));
  }
  return findings;
}

/**
 * `http` or `ws` when the origin (`scheme://host:port`) is unencrypted and its host is not this
 * machine (`localhost`, `127.x.x.x`, `::1`, or `::1` written as an IPv4-mapped address); else null.
 */
export function plainTextScheme(origin: string): "http" | "ws" | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  const scheme = url.protocol === "http:" ? "http" : url.protocol === "ws:" ? "ws" : null;
  if (scheme === null) return null;
  return isLoopback(url.hostname) ? null : scheme;
}

/** True for a host name that always means this machine. The URL parser has already normalised IPv4 (`127.1` -> `127.0.0.1`) and IPv6. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // IPv6 literals keep their brackets in `hostname`; `[::ffff:7f00:1]` is 127.0.0.1 in IPv4-mapped form.
  return host === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host);
}
