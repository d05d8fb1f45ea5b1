/** The `check-config` command: read MCP client configs, lint each local server's launch (I1), report, exit code. */

import { lintServer } from "../config/lint.js";
import { findDefaultConfigs, type LoadedConfig, loadConfigFile, readKnownBadText } from "../config/load.js";
import { type CheckedFile, configExitCode, configJsonReport, renderConfigReport, type SkippedFile } from "../config/report.js";
import { McpLintError } from "../errors.js";
import { loadKnownBad } from "../install/bad-list.js";
import type { FailOn } from "../lock/engine.js";
import { writeFileSafely } from "../lock/io.js";
import type { Severity } from "../lock/kinds.js";

/** Flags of `mcp-lint check-config`, already checked for shape. */
export interface CheckConfigFlags {
  files: string[];
  failOn: FailOn;
  minSeverity: Severity;
  json: string | null;
  knownBad: string | null;
}

/** Where the command writes. */
export interface CheckConfigOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Run `check-config`; returns the exit code (user errors are thrown as McpLintError). */
export async function runCheckConfig(flags: CheckConfigFlags, output: CheckConfigOutput): Promise<number> {
  const knownBad = flags.knownBad === null
    ? loadKnownBad()
    : loadKnownBad(await readKnownBadText(flags.knownBad), flags.knownBad);
  const named = flags.files.length > 0;
  const paths = named ? [...new Set(flags.files)] : await findDefaultConfigs();
  if (!named) {
    output.err(paths.length === 0
      ? "No MCP client config found in the usual places; name a file: mcp-lint check-config FILE\n"
      : `Checking ${paths.length} config file${paths.length === 1 ? "" : "s"} found in the usual places:\n${paths.map((path) => `  ${path}\n`).join("")}`);
  }
  const loaded: LoadedConfig[] = [];
  const skipped: SkippedFile[] = [];
  for (const path of paths) {
    try {
      loaded.push(await loadConfigFile(path));
    } catch (error) {
      // A file the user named must read; one found by searching is reported and skipped.
      if (named || !(error instanceof McpLintError)) throw error;
      skipped.push({ file: path, reason: error.message });
    }
  }
  const files: CheckedFile[] = loaded.map(({ path, document }) => ({
    file: path,
    document,
    servers: document.servers.map((server) => ({ server, findings: lintServer(server, knownBad) })),
  }));
  output.out(renderConfigReport(files, flags.minSeverity, skipped));
  if (flags.json !== null) await writeFileSafely(flags.json, `${JSON.stringify(configJsonReport(files), null, 2)}\n`);
  return configExitCode(files, flags.failOn);
}
