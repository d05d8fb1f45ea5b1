/** `bunx` and `bun x`: flags before the package; `-p`/`--package` makes the positional a command. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import { classifyNpm } from "../specs/npm.js";
import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const FLAGS: FlagTable = {
  values: flagSet("--package"),
  booleans: flagSet("--bun --no-install --verbose --silent"),
  aliases: { "-p": "--package" },
};

/** bun: `bunx [flags] <pkg>[@version] [args]`, `bun x ...`; other bun commands run local files. */
export const bunx: CommandHandler = {
  id: "bunx",
  commands: ["bunx", "bun"],
  parse(argv) {
    const result = emptyParse();
    let tokens = argv.slice(1);
    if (commandName(argv[0] ?? "") === "bun") {
      // `bun -e CODE` / `bun --eval` / `bun -p` run inline code.
      if (tokens.some((token) => /^(?:-e|-p|--eval|--print)(?:=|$)/.test(token))) return { ...result, opaque: true };
      if (tokens[0] !== "x") return result;
      tokens = tokens.slice(1);
    }
    const walk = walkFlags(tokens, FLAGS);
    const stopped = noteStop(walk, result);
    const packages = valuesOf(walk, "--package");
    for (const spec of packages) addFrom(result, classifyNpm(spec), "bunx");
    if (packages.length > 0 && !stopped && walk.rest[0] !== undefined) result.runs = { bin: walk.rest[0], args: walk.rest.slice(1) };
    if (packages.length > 0 || stopped) return result;
    const spec = walk.rest[0];
    if (spec === undefined) missing(result);
    else {
      addFrom(result, classifyNpm(spec), "bunx");
      result.runs = { bin: null, args: walk.rest.slice(1) };
    }
    return result;
  },
};
