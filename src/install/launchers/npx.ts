/** `npx`: options come before the first positional; with `--package`/`-p` the positional is a command, not a package. */

import { type FlagTable, valuesOf, walkFlags } from "../flags.js";
import { classifyNpm } from "../specs/npm.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";
import { NPM_NEGATION, NPM_SCOPED_REGISTRY, npmBooleans, npmValues } from "./npm-flags.js";

const FLAGS: FlagTable = {
  values: npmValues("--package --call"),
  booleans: npmBooleans("--no-install"),
  aliases: { "-p": "--package", "-c": "--call" },
  valuePattern: NPM_SCOPED_REGISTRY,
  booleanPattern: NPM_NEGATION,
  booleanLiterals: true,
};

/** npx: `npx [options] <pkg>[@<version>] [args...]`, `npx -p <pkg> <cmd>`, `npx -c '<cmd>'`. */
export const npx: CommandHandler = {
  id: "npx",
  commands: ["npx"],
  parse(argv) {
    const result = emptyParse();
    const walk = walkFlags(argv.slice(1), FLAGS);
    const stopped = noteStop(walk, result);
    const packages = valuesOf(walk, "--package");
    const calls = valuesOf(walk, "--call");
    for (const spec of packages) addFrom(result, classifyNpm(spec), "npx");
    for (const call of calls) result.nested.push({ script: call, dialect: "posix" });
    if (packages.length > 0 && calls.length === 0 && !stopped && walk.rest[0] !== undefined) result.runs = { bin: walk.rest[0], args: walk.rest.slice(1) };
    if (stopped || packages.length > 0 || calls.length > 0) return result;
    const spec = walk.rest[0];
    if (spec === undefined) missing(result);
    else {
      addFrom(result, classifyNpm(spec), "npx");
      result.runs = { bin: null, args: walk.rest.slice(1) };
    }
    return result;
  },
};
