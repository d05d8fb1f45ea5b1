/** `yarn dlx` (Yarn 2+): `-p`/`--package` names packages, else the first positional is one; other yarn commands are local. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import { classifyNpm } from "../specs/npm.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const GLOBAL: FlagTable = { values: flagSet("--cwd"), booleans: flagSet("--silent -s --verbose") };

const DLX: FlagTable = {
  values: flagSet("--package"),
  booleans: flagSet("--quiet -q"),
  aliases: { "-p": "--package" },
};

/** yarn: `yarn dlx [-p <spec>]... <cmd|pkg> [args]`. */
export const yarn: CommandHandler = {
  id: "yarn dlx",
  commands: ["yarn"],
  parse(argv) {
    const result = emptyParse();
    const global = walkFlags(argv.slice(1), GLOBAL);
    if (noteStop(global, result) || global.rest[0] !== "dlx") return result;
    const walk = walkFlags(global.rest.slice(1), DLX);
    const stopped = noteStop(walk, result);
    const packages = valuesOf(walk, "--package");
    for (const spec of packages) addFrom(result, classifyNpm(spec), "yarn dlx");
    if (packages.length > 0 && !stopped && walk.rest[0] !== undefined) result.runs = { bin: walk.rest[0], args: walk.rest.slice(1) };
    if (packages.length > 0 || stopped) return result;
    const spec = walk.rest[0];
    if (spec === undefined) missing(result);
    else {
      addFrom(result, classifyNpm(spec), "yarn dlx");
      result.runs = { bin: null, args: walk.rest.slice(1) };
    }
    return result;
  },
};
