/** check-config's reports: the terminal text grouped by file and server, the JSON object, and the exit code. */

import type { InstallFinding } from "../install/kinds.js";
import { installMessage } from "../install/messages.js";
import type { FailOn } from "../lock/engine.js";
import { type Severity, severityRank } from "../lock/kinds.js";
import { visible } from "../report/visible.js";
import { CLIENT_NAMES, type ConfigDocument, type ConfigNoteCode, type ConfigServer } from "./types.js";

/** One server with its findings. */
export interface CheckedServer {
  server: ConfigServer;
  findings: InstallFinding[];
}

/** One config file with its servers. */
export interface CheckedFile {
  file: string;
  document: ConfigDocument;
  servers: CheckedServer[];
}

/** A discovered file that could not be read (only files found by search are skipped; named ones are errors). */
export interface SkippedFile {
  file: string;
  reason: string;
}

const NOTES: Record<ConfigNoteCode, string> = {
  strict_json: "Claude Desktop reads strict JSON: with comments or trailing commas it ignores this whole file",
  not_recognised: "no MCP servers found (no mcpServers, servers, context_servers, mcp_servers or extensions section)",
  servers_in_other_file: "mcpServers names another file; check that file too",
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function serverHeading(server: ConfigServer): string {
  const scope = server.scope === null ? "" : ` [${visible(server.scope)}]`;
  const disabled = server.disabled ? " (disabled)" : "";
  return `${visible(server.name)}${scope}${disabled}`;
}

/** The terminal report. Findings below `minSeverity` are hidden (and counted); the summary counts all of them. */
export function renderConfigReport(files: readonly CheckedFile[], minSeverity: Severity, skipped: readonly SkippedFile[] = []): string {
  const lines: string[] = [];
  const floor = severityRank(minSeverity);
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  let serverCount = 0;
  for (const checked of files) {
    const { document } = checked;
    lines.push(`${visible(checked.file)}  (${CLIENT_NAMES[document.client]}, ${plural(checked.servers.length, "server")})`);
    for (const note of document.notes) lines.push(`  note: ${NOTES[note]}`);
    for (const { server, findings } of checked.servers) {
      serverCount++;
      for (const finding of findings) counts[finding.severity]++;
      const shown = findings.filter((finding) => severityRank(finding.severity) >= floor);
      const hidden = findings.length - shown.length;
      const hiddenText = hidden > 0 ? ` (${hidden} below --min-severity hidden)` : "";
      if (server.transport !== "stdio" && server.problem === null) {
        const what = server.remote !== null ? `remote ${server.transport} ${visible(server.remote)}` : `${server.transport} server`;
        lines.push(`  ${serverHeading(server)}  ${what}, not checked`);
        continue;
      }
      if (shown.length === 0) {
        lines.push(`  ${serverHeading(server)}  ok${hiddenText}`);
        continue;
      }
      lines.push(`  ${serverHeading(server)}${hiddenText}`);
      for (const finding of shown) {
        lines.push(`    ${finding.severity.padEnd(7)}  ${finding.rule} ${finding.kind}  ${installMessage(finding)}`);
      }
    }
  }
  for (const skip of skipped) lines.push(`${visible(skip.file)}  skipped: ${visible(skip.reason)}`);
  if (files.length === 0 && skipped.length === 0) lines.push("No MCP client config files to check.");
  lines.push("");
  lines.push(
    `${plural(serverCount, "server")} in ${plural(files.length, "file")}: ${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${counts.info} info`,
  );
  return `${lines.join("\n")}\n`;
}

/** The `--json` report: every finding, whatever `--min-severity` hides. */
export function configJsonReport(files: readonly CheckedFile[]): { servers: Record<string, unknown>[] } {
  return {
    servers: files.flatMap((checked) =>
      checked.servers.map(({ server, findings }) => ({
        client: server.client,
        name: server.name,
        file: checked.file,
        scope: server.scope,
        transport: server.transport,
        remote: server.remote,
        disabled: server.disabled,
        findings: findings.map((finding) => ({
          rule: finding.rule,
          kind: finding.kind,
          severity: finding.severity,
          message: installMessage(finding),
          package: finding.package,
        })),
      })),
    ),
  };
}

/** Exit code: 1 when any finding is at or above `--fail-on`, else 0. */
export function configExitCode(files: readonly CheckedFile[], failOn: FailOn): 0 | 1 {
  if (failOn === "never") return 0;
  const floor = severityRank(failOn);
  return files.some((checked) => checked.servers.some(({ findings }) => findings.some((finding) => severityRank(finding.severity) >= floor))) ? 1 : 0;
}
