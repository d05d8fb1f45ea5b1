/** check-config's reports: the terminal text grouped by file and server, the JSON object, and the exit code. */

import type { InstallFinding } from "../install/kinds.js";
import { installMessage } from "../install/messages.js";
import type { FailOn } from "../lock/engine.js";
import { type Severity, severityRank } from "../lock/kinds.js";
import { capDisplay, neutralize } from "../text/neutralize.js";
import { CLIENT_NAMES, type ConfigDocument, type ConfigNoteCode, type ConfigServer } from "./types.js";

/** Version of the `--json` report's shape. */
export const CONFIG_REPORT_VERSION = 1;

/** Longest server name, scope or file name shown; a config can hold megabytes in one. */
const MAX_NAME = 200;

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

/** A file that could not be read: found by search (skipped), or named by the user (an error at the end). */
export interface SkippedFile {
  file: string;
  /** One line, naming a position but never quoting the file; may start with the file name. */
  reason: string;
  /** True when the user named the file, so the run ends with exit code 2. */
  named?: boolean;
}

const NOTES: Record<ConfigNoteCode, string> = {
  strict_json: "Claude Desktop reads strict JSON: with comments or trailing commas it ignores this whole file",
  not_recognised: "no MCP servers found (no mcpServers, servers, context_servers, mcp_servers or extensions section)",
  servers_in_other_file: "mcpServers names another file; check that file too",
};

const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 || word === "info" ? "" : "s"}`;
}

/** Config-controlled text as shown: inert (see report/neutralize.ts) and capped. */
function shown(text: string, lineStart = false): string {
  const head = text.length > MAX_NAME * 4 ? text.slice(0, MAX_NAME * 4) : text;
  return capDisplay(neutralize(head, { lineStart }), MAX_NAME);
}

function serverHeading(server: ConfigServer): string {
  const scope = server.scope === null ? "" : ` [${shown(server.scope)}]`;
  const disabled = server.disabled ? " (disabled)" : "";
  return `${shown(server.name)}${scope}${disabled}`;
}

/** `2 warnings and 1 info`, or "" for none. */
function countText(counts: Readonly<Record<Severity, number>>): string {
  return SEVERITIES.filter((severity) => counts[severity] > 0)
    .map((severity) => plural(counts[severity], severity))
    .join(" and ");
}

function zero(): Record<Severity, number> {
  return { error: 0, warning: 0, info: 0 };
}

/** The reason a file was not read, without the file name it may start with (the line already shows it). */
function skipReason(skip: SkippedFile): string {
  const name = neutralize(skip.file, { lineStart: true });
  return skip.reason.startsWith(`${name}: `) ? skip.reason.slice(name.length + 2) : skip.reason;
}

/**
 * The terminal report. Findings below `minSeverity` are hidden, and every place that hides some
 * says how many and of which severity; the summary counts all of them.
 */
export function renderConfigReport(files: readonly CheckedFile[], minSeverity: Severity, skipped: readonly SkippedFile[] = []): string {
  const lines: string[] = [];
  const floor = severityRank(minSeverity);
  const counts = zero();
  const hiddenCounts = zero();
  let serverCount = 0;
  for (const checked of files) {
    const { document } = checked;
    lines.push(`${shown(checked.file, true)}  (${CLIENT_NAMES[document.client]}, ${plural(checked.servers.length, "server")})`);
    for (const note of document.notes) lines.push(`  note: ${NOTES[note]}`);
    for (const { server, findings } of checked.servers) {
      serverCount++;
      const hidden = zero();
      for (const finding of findings) {
        counts[finding.severity]++;
        if (severityRank(finding.severity) < floor) {
          hidden[finding.severity]++;
          hiddenCounts[finding.severity]++;
        }
      }
      const shownFindings = findings.filter((finding) => severityRank(finding.severity) >= floor);
      const hiddenText = countText(hidden) === "" ? "" : ` (${countText(hidden)} hidden by --min-severity)`;
      if (server.transport !== "stdio" && server.problem === null && shownFindings.length === 0) {
        const what = server.remote !== null ? `remote ${server.transport} ${shown(server.remote)}` : `${server.transport} server`;
        lines.push(`  ${serverHeading(server)}  ${what}, not checked${hiddenText}`);
        continue;
      }
      if (shownFindings.length === 0) {
        // "ok" only when nothing at all was found; hidden findings are named instead.
        lines.push(`  ${serverHeading(server)}  ${hiddenText === "" ? "ok" : hiddenText.slice(1)}`);
        continue;
      }
      lines.push(`  ${serverHeading(server)}${hiddenText}`);
      for (const finding of shownFindings) {
        lines.push(`    ${finding.severity.padEnd(7)}  ${finding.rule} ${finding.kind}  ${installMessage(finding)}`);
      }
    }
  }
  for (const skip of skipped) {
    lines.push(`${shown(skip.file, true)}  ${skip.named === true ? "could not be read" : "skipped"}: ${neutralize(skipReason(skip))}`);
  }
  if (files.length === 0 && skipped.length === 0) lines.push("No MCP client config files to check.");
  lines.push("");
  const hiddenText = countText(hiddenCounts) === "" ? "" : ` (${countText(hiddenCounts)} hidden by --min-severity)`;
  const unread = skipped.filter((skip) => skip.named === true).length;
  const unreadText = unread === 0 ? "" : `; ${plural(unread, "file")} could not be read`;
  lines.push(
    `${plural(serverCount, "server")} in ${plural(files.length, "file")}: ${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${counts.info} info${hiddenText}${unreadText}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The `--json` report object. */
export interface ConfigJsonReport {
  format_version: number;
  summary: { files: number; servers: number; error: number; warning: number; info: number; unreadable_files: number };
  servers: Record<string, unknown>[];
  unreadable_files: { file: string; reason: string; named: boolean }[];
}

/**
 * The `--json` report: every finding, whatever `--min-severity` hides, with the line of each
 * server entry in its file. Config-controlled strings are neutralized here too: a JSON string may
 * carry U+2028 or bidi controls raw, and readers paste them into terminals and logs.
 */
export function configJsonReport(files: readonly CheckedFile[], skipped: readonly SkippedFile[] = []): ConfigJsonReport {
  const counts = zero();
  const servers = files.flatMap((checked) =>
    checked.servers.map(({ server, findings }) => {
      for (const finding of findings) counts[finding.severity]++;
      return {
        client: server.client,
        name: neutralize(server.name),
        file: neutralize(checked.file),
        line: server.line,
        scope: server.scope === null ? null : neutralize(server.scope),
        transport: server.transport,
        remote: server.remote === null ? null : neutralize(server.remote),
        disabled: server.disabled,
        findings: findings.map((finding) => ({
          rule: finding.rule,
          kind: finding.kind,
          severity: finding.severity,
          message: installMessage(finding),
          package: finding.package === null ? null : neutralize(finding.package),
        })),
      };
    }),
  );
  return {
    format_version: CONFIG_REPORT_VERSION,
    summary: {
      files: files.length,
      servers: servers.length,
      ...counts,
      unreadable_files: skipped.length,
    },
    servers,
    unreadable_files: skipped.map((skip) => ({ file: neutralize(skip.file), reason: neutralize(skipReason(skip)), named: skip.named === true })),
  };
}

/** Exit code: 1 when any finding is at or above `--fail-on`, else 0. */
export function configExitCode(files: readonly CheckedFile[], failOn: FailOn): 0 | 1 {
  if (failOn === "never") return 0;
  const floor = severityRank(failOn);
  return files.some((checked) => checked.servers.some(({ findings }) => findings.some((finding) => severityRank(finding.severity) >= floor))) ? 1 : 0;
}
