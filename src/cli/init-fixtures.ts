/** The `init-fixtures` command: read a server's tools and write a starter fixtures file for `run --probe`. */

import { lstat } from "node:fs/promises";
import { InputFileError, SecretEchoError } from "../errors.js";
import { checkOutputPath, writeFileSafely } from "../lock/io.js";
import { fixturesText, starterProbes } from "../probe/init.js";
import { neutralize } from "../text/neutralize.js";
import { lintOwnLaunch, loadVerdictModules, type Output, readSnapshot, redactorFor, resolveSource, type SourceFlags } from "./source.js";

/** Flags of `mcp-lint init-fixtures FILE`. */
export interface InitFixturesFlags extends SourceFlags {
  /** The fixtures file to write. */
  file: string;
  /** Overwrite an existing file. */
  force: boolean;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return false;
    throw new InputFileError(`cannot write ${path}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
}

/** Run `init-fixtures`; returns the exit code (1 when the file exists and --force was not given). */
export async function runInitFixtures(flags: InitFixturesFlags, output: Output): Promise<number> {
  const target = resolveSource(flags, "mcp-lint init-fixtures fixtures.json", { fromAllowed: false });
  // Refusals come before the server starts: a refusal after the run would waste it.
  await checkOutputPath(flags.file);
  const refuse = () => {
    output.err(`mcp-lint: refusing to overwrite ${neutralize(flags.file)}: it exists; edit it, or add --force to replace it with a new starter file\n`);
    return 1;
  };
  if (!flags.force && (await exists(flags.file))) return refuse();
  const modules = await loadVerdictModules(target?.kind === "stdio");
  if (target?.kind === "stdio") await lintOwnLaunch(flags.command, flags.knownBad, modules.install, output);
  const redactor = redactorFor(target, output);
  const snapshot = await readSnapshot(flags, target, redactor, () => {}, output.err);
  if (redactor.found) {
    // The file is meant to be edited and committed: never write one that holds a secret the server echoed.
    throw new SecretEchoError(
      `refusing to write ${flags.file}: the server echoed back a secret (an OAuth token, a --header-env value, the URL's query or user info, or a --pass-env value) in its tool definitions`,
    );
  }
  const probes = starterProbes(snapshot.tools);
  if (!flags.force && (await exists(flags.file))) return refuse();
  await writeFileSafely(flags.file, fixturesText(probes));
  const guarded = probes.filter((probe) => probe.allow_destructive === false).length;
  const note =
    guarded === 0 ? "" : `; ${guarded} ${guarded === 1 ? "tool is" : "tools are"} not marked read-only and also need "allow_destructive": true (sandbox only)`;
  output.out(
    `Wrote ${probes.length} ${probes.length === 1 ? "probe" : "probes"} to ${neutralize(flags.file)}, each "skip": true${note}.\n` +
      `Fill in the arguments and delete "skip" for the probes to run, then: mcp-lint run --probe ${neutralize(flags.file)} -- <the same server command>\n`,
  );
  return 0;
}
