/** `pnpm dlx`, `pnpx` and `pnx`: `--package` (before or after `dlx`) names packages, else the first positional is one. */

import { type FlagTable, type FlagWalk, flagSet, valuesOf, walkFlags } from "../flags.js";
import { classifyNpm } from "../specs/npm.js";
import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const GLOBAL: FlagTable = {
  values: flagSet("--package --dir -C --filter -F --reporter --loglevel --store-dir --registry --config"),
  booleans: flagSet("--silent -s --workspace-root -w --recursive -r --stream --aggregate-output --color --offline --prefer-offline"),
  booleanPattern: /^--no-/,
};

const DLX: FlagTable = {
  values: flagSet("--package --allow-build --reporter --registry"),
  booleans: flagSet("--shell-mode -c --silent -s --yes -y"),
  booleanPattern: /^--no-/,
};

/** pnpm: `pnpm [--package=<spec>]... dlx [--package <spec>]... <cmd|pkg> [args]`, `pnpx`, `pnx`. */
export const pnpm: CommandHandler = {
  id: "pnpm dlx",
  commands: ["pnpm", "pnpx", "pnx"],
  parse(argv) {
    const result = emptyParse();
    const name = commandName(argv[0] ?? "");
    let tokens = argv.slice(1);
    let global: FlagWalk | null = null;
    if (name === "pnpm") {
      global = walkFlags(tokens, GLOBAL);
      if (noteStop(global, result)) return result;
      if (global.rest[0] !== "dlx") return result;
      tokens = global.rest.slice(1);
    }
    const launcher = name === "pnpm" ? "pnpm dlx" : name;
    const walk = walkFlags(tokens, DLX);
    const stopped = noteStop(walk, result);
    const packages = [...(global === null ? [] : valuesOf(global, "--package")), ...valuesOf(walk, "--package")];
    for (const spec of packages) addFrom(result, classifyNpm(spec), launcher);
    const shellMode = walk.booleans.includes("--shell-mode") || walk.booleans.includes("-c");
    if (packages.length > 0) {
      const command = walk.rest[0];
      if (shellMode && command !== undefined) result.nested.push({ script: command, dialect: "posix" });
      else if (!stopped && command !== undefined) result.runs = { bin: command, args: walk.rest.slice(1) };
      return result;
    }
    if (stopped) return result;
    const spec = walk.rest[0];
    if (spec === undefined) missing(result);
    else {
      addFrom(result, classifyNpm(spec), launcher);
      result.runs = { bin: null, args: walk.rest.slice(1) };
    }
    return result;
  },
};
