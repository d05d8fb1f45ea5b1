/** `uvx` (= `uv tool run`): the target is `name`, `name@version` or a PEP 508 requirement; `--from` and `--with` add packages. */

import { valuesOf, walkFlags } from "../flags.js";
import { classifyRequirement, classifyUvTarget } from "../specs/pypi.js";
import { safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse, type LaunchParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";
import { splitWith, UV_TOOL } from "./uv-flags.js";

/** Parse the arguments of `uv tool run` / `uvx` (without the command itself). */
export function parseToolRun(tokens: readonly string[], launcher: string): LaunchParse {
  const result = emptyParse();
  const walk = walkFlags(tokens, UV_TOOL);
  const stopped = noteStop(walk, result);
  for (const value of valuesOf(walk, "--with")) {
    for (const requirement of splitWith(value)) addFrom(result, classifyRequirement(requirement, "extra"), launcher);
  }
  for (const file of valuesOf(walk, "--with-requirements")) {
    result.problems.push({ reason: "requirements_file", display: safeDisplay(file) });
  }
  const from = valuesOf(walk, "--from");
  for (const target of from) addFrom(result, classifyUvTarget(target), launcher);
  if (from.length > 0 || stopped) return result;
  const target = walk.rest[0];
  if (target === undefined) missing(result);
  else addFrom(result, classifyUvTarget(target), launcher);
  return result;
}

/** uvx: `uvx [options] <target> [args]`. */
export const uvx: CommandHandler = {
  id: "uvx",
  commands: ["uvx"],
  parse: (argv) => parseToolRun(argv.slice(1), "uvx"),
};
