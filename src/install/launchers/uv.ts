/** `uv tool run|install`, `uv run --with`, and `uv pip install`; `uv run` of a local project fetches nothing itself. */

import { valuesOf, walkFlags } from "../flags.js";
import { classifyRequirement } from "../specs/pypi.js";
import { safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse, type LaunchParse } from "../types.js";
import { addFrom, noteStop } from "./common.js";
import { parsePipInstall } from "./pip.js";
import { splitWith, UV_GLOBAL, UV_RUN } from "./uv-flags.js";
import { parseToolRun } from "./uvx.js";

/** `uv run [options] [--with <req>]... <command> [args]`: lints `--with` and the command it runs. */
function parseRun(tokens: readonly string[]): LaunchParse {
  const result = emptyParse();
  const walk = walkFlags(tokens, UV_RUN);
  const stopped = noteStop(walk, result);
  for (const value of valuesOf(walk, "--with")) {
    for (const requirement of splitWith(value)) addFrom(result, classifyRequirement(requirement, "extra"), "uv run");
  }
  for (const file of valuesOf(walk, "--with-requirements")) {
    result.problems.push({ reason: "requirements_file", display: safeDisplay(file) });
  }
  // Inline script metadata (PEP 723) lists dependencies in the file, which I1 does not read.
  if (walk.booleans.includes("--script")) result.problems.push({ reason: "unsupported", display: "uv run --script" });
  if (!stopped && !walk.booleans.includes("--module") && walk.rest.length > 0) result.nested.push({ argv: [...walk.rest] });
  return result;
}

/** uv: dispatch on the subcommand after uv's global options. */
export const uv: CommandHandler = {
  id: "uv",
  commands: ["uv"],
  parse(argv) {
    const result = emptyParse();
    const global = walkFlags(argv.slice(1), UV_GLOBAL);
    if (noteStop(global, result)) return result;
    const [sub, next] = global.rest;
    if (sub === "tool" && (next === "run" || next === "install")) return parseToolRun(global.rest.slice(2), `uv tool ${next}`);
    if (sub === "run") return parseRun(global.rest.slice(1));
    if (sub === "pip" && next === "install") return parsePipInstall(global.rest.slice(2), "uv pip install");
    return result;
  },
};
