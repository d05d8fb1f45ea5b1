/** `npm exec` / `npm x` (options anywhere until `--`) and `npm install <pkg>`; other npm commands run local scripts. */

import { type FlagTable, valuesOf, walkFlags } from "../flags.js";
import { classifyNpm } from "../specs/npm.js";
import { safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";
import { NPM_NEGATION, NPM_SCOPED_REGISTRY, npmBooleans, npmValues } from "./npm-flags.js";

// In npm itself -p is --parseable (a boolean); only the npx binary reads it as --package.
const FLAGS: FlagTable = {
  values: npmValues("--package --call"),
  booleans: npmBooleans("-p --parseable --save -S --save-dev -D --save-exact -E --no-save --no-install --package-lock"),
  aliases: { "-c": "--call" },
  valuePattern: NPM_SCOPED_REGISTRY,
  booleanPattern: NPM_NEGATION,
  booleanLiterals: true,
};

const INSTALL = new Set(["install", "i", "add", "in", "isntall"]);

// A positional written like a package with a version (`foo@1.2.3`, `@s/p@^1`).
const VERSIONED = /^(?:@[^/@\s]+\/)?[^@/\s]+@\S/;

/** npm: `npm exec [--package=<pkg>]... [--] <cmd|pkg> [args]`, `npm install <pkg>...`. */
export const npm: CommandHandler = {
  id: "npm exec",
  commands: ["npm"],
  parse(argv) {
    const result = emptyParse();
    const global = walkFlags(argv.slice(1), FLAGS);
    if (noteStop(global, result)) return result;
    const sub = global.rest[0];
    if (sub === undefined) return result;
    if (INSTALL.has(sub)) {
      const walk = walkFlags(global.rest.slice(1), FLAGS, true);
      noteStop(walk, result);
      for (const spec of [...walk.positionals, ...walk.rest]) addFrom(result, classifyNpm(spec), "npm install");
      return result;
    }
    if (sub !== "exec" && sub !== "x") return result;
    const launcher = `npm ${sub}`;
    const walk = walkFlags(global.rest.slice(1), FLAGS, true);
    const stopped = noteStop(walk, result);
    const packages = [...valuesOf(global, "--package"), ...valuesOf(walk, "--package")];
    const calls = [...valuesOf(global, "--call"), ...valuesOf(walk, "--call")];
    for (const spec of packages) addFrom(result, classifyNpm(spec), launcher);
    for (const call of calls) result.nested.push({ script: call, dialect: "posix" });
    const first = walk.positionals[0];
    if (packages.length > 0) {
      // npm reads options anywhere, so `npm exec foo@1.2.3 --package=bar` runs a command named
      // "foo@1.2.3" from bar: whatever was meant, the spec in front is not what gets installed.
      if (first !== undefined && VERSIONED.test(first)) result.problems.push({ reason: "ambiguous_command", display: safeDisplay(first) });
      return result;
    }
    if (stopped || calls.length > 0) return result;
    const spec = first ?? walk.rest[0];
    if (spec === undefined) missing(result);
    else {
      addFrom(result, classifyNpm(spec), launcher);
      result.runs = { bin: null, args: first === undefined ? walk.rest.slice(1) : [...walk.positionals.slice(1), ...walk.rest] };
    }
    return result;
  },
};
