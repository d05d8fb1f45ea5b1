/** The `check-config` command: read MCP client configs, lint each local server's launch (I1), report, exit code. */

import { lintServer } from "../config/lint.js";
import { findDefaultConfigs, type LoadedConfig, loadConfigFile, readKnownBadText, searchedPlaces } from "../config/load.js";
import { type CheckedFile, configExitCode, configJsonReport, renderConfigReport, type SkippedFile } from "../config/report.js";
import { InputFileError, JsonInputError, McpLintError } from "../errors.js";
import { loadKnownBad } from "../install/bad-list.js";
import type { FailOn } from "../lock/engine.js";
import { writeFileSafely } from "../lock/io.js";
import type { Severity } from "../lock/kinds.js";
import { neutralize } from "../text/neutralize.js";
import { artifactUri, installSarif } from "../report/sarif.js";
import { sarifBase } from "./sarif-base.js";

/** Flags of `mcp-lint check-config`, already checked for shape. */
export interface CheckConfigFlags {
  files: string[];
  failOn: FailOn;
  minSeverity: Severity;
  json: string | null;
  sarif: string | null;
  knownBad: string | null;
  /** mcp-lint's version, for the SARIF log. */
  version: string;
}

/** Where the command writes. */
export interface CheckConfigOutput {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Run `check-config`; returns the exit code. A file the user named that cannot be read is
 * reported with the others, and once every other file is checked and the reports are written,
 * the run ends with one McpLintError (exit 2) naming it and the position, never its contents.
 */
export async function runCheckConfig(flags: CheckConfigFlags, output: CheckConfigOutput): Promise<number> {
  const knownBad = flags.knownBad === null ? loadKnownBad() : loadKnownBad(await readKnownBadText(flags.knownBad), flags.knownBad);
  const named = flags.files.length > 0;
  const paths = named ? [...new Set(flags.files)] : await findDefaultConfigs();
  if (!named) {
    output.err(
      paths.length === 0
        ? `No MCP client config found in the usual places; name a file: mcp-lint check-config FILE. Looked for:\n${searchedPlaces()
            .map((place) => `  ${neutralize(place)}\n`)
            .join("")}`
        : `Checking ${paths.length} config file${paths.length === 1 ? "" : "s"} found in the usual places:\n${paths.map((path) => `  ${neutralize(path)}\n`).join("")}`,
    );
  }
  const loaded: LoadedConfig[] = [];
  const skipped: SkippedFile[] = [];
  const failures: McpLintError[] = [];
  for (const path of paths) {
    try {
      loaded.push(await loadConfigFile(path));
    } catch (error) {
      if (!(error instanceof McpLintError)) throw error;
      // File names are the user's or the file system's; shown inert like everything else.
      const reason = neutralize(error.message);
      skipped.push({ file: path, reason, named });
      if (named) failures.push(error instanceof JsonInputError ? new JsonInputError(reason) : new InputFileError(reason));
    }
  }
  const files: CheckedFile[] = loaded.map(({ path, document }) => ({
    file: path,
    document,
    servers: document.servers.map((server) => ({ server, findings: lintServer(server, knownBad) })),
  }));
  // `--json -`: the JSON on stdout, the report on stderr (as for lock, run and check).
  const jsonToStdout = flags.json === "-";
  (jsonToStdout ? output.err : output.out)(renderConfigReport(files, flags.minSeverity, skipped));
  const json = `${JSON.stringify(configJsonReport(files, skipped), null, 2)}\n`;
  if (jsonToStdout) output.out(json);
  else if (flags.json !== null) await writeFileSafely(flags.json, json);
  if (flags.sarif !== null) {
    const base = sarifBase();
    const servers = files.flatMap((file) =>
      file.servers.map(({ server, findings }) => ({ uri: artifactUri(file.file, process.cwd(), base.dir), line: server.line, name: server.name, findings })),
    );
    await writeFileSafely(flags.sarif, `${JSON.stringify(installSarif(flags.version, servers, base), null, 2)}\n`);
  }
  const [first, ...more] = failures;
  if (first !== undefined) {
    if (more.length === 0) throw first;
    throw new InputFileError(`${failures.length} config files could not be read: ${failures.map((failure) => failure.message).join("; ")}`);
  }
  return configExitCode(files, flags.failOn);
}
