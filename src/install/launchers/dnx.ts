/** `dnx` / `dotnet tool exec` (.NET 10): `Package@version` or `--version`; NuGet's exact form is `1.2.3` or `[1.2.3]`. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import type { Classified } from "../specs/classified.js";
import { commandName, hasVariable, MAX_SPEC, safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const FLAGS: FlagTable = {
  values: flagSet("--version --source --add-source --configfile --verbosity -v --framework"),
  booleans: flagSet("--yes -y --prerelease --allow-roll-forward --interactive --ignore-failed-sources --disable-parallel --no-cache --no-http-cache"),
};

/** Classify a NuGet package id with its version (from `@` or `--version`). */
export function classifyNuget(name: string, version: string | null, display: string): Classified {
  if (name.length + (version ?? "").length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(display)) return { reason: "variable", display };
  const base = { ecosystem: "NuGet" as const, name, display, role: "main" as const, resolves: { type: "none" as const } };
  const written = (version ?? "").trim();
  if (written === "") return { ...base, verdict: "unpinned", reason: "no_version" };
  if (/^(?:\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.-]+)?|\[\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.-]+)?\])$/.test(written)) {
    return { ...base, verdict: "pinned", reason: null };
  }
  if (/[*,()[\]]/.test(written)) return { ...base, verdict: "unpinned", reason: "range", spec: safeDisplay(written) };
  return { reason: "invalid_spec", display };
}

/** dnx: `dnx <package>[@version] [--version V] [--yes] [-- args]`; options may follow the package. */
export const dnx: CommandHandler = {
  id: "dnx",
  commands: ["dnx", "dotnet"],
  parse(argv) {
    const result = emptyParse();
    let tokens = argv.slice(1);
    if (commandName(argv[0] ?? "") === "dotnet") {
      if (tokens[0] === "tool" && tokens[1] === "exec") tokens = tokens.slice(2);
      else if (tokens[0] === "dnx") tokens = tokens.slice(1);
      else return result;
    }
    const walk = walkFlags(tokens, FLAGS, true);
    if (noteStop(walk, result)) return result;
    const spec = walk.positionals[0];
    if (spec === undefined) {
      missing(result);
      return result;
    }
    const at = spec.indexOf("@");
    const name = at < 0 ? spec : spec.slice(0, at);
    const version = at < 0 ? (valuesOf(walk, "--version")[0] ?? null) : spec.slice(at + 1);
    addFrom(result, classifyNuget(name, version, safeDisplay(spec)), "dnx");
    return result;
  },
};
