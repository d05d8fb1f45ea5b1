/** `pipx run` (the app may itself be a requirement or a script URL; `--spec` names the package) and `pipx install`. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import { classifyRequirement } from "../specs/pypi.js";
import { isLocalPath, safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const GLOBAL: FlagTable = { values: flagSet(""), booleans: flagSet("--verbose -v --quiet -q") };

const RUN: FlagTable = {
  values: flagSet("--spec --python --index-url -i --pip-args --backend --fetch-python"),
  booleans: flagSet("--no-cache --pypackages --system-site-packages --editable -e --path --verbose -v --quiet -q --fetch-missing-python --global"),
};

const INSTALL: FlagTable = {
  values: flagSet("--spec --python --index-url -i --pip-args --backend --suffix --preinstall"),
  booleans: flagSet("--force -f --include-deps --system-site-packages --editable -e --verbose -v --quiet -q --global --fetch-missing-python"),
};

/** pipx: `pipx run [--spec SPEC] [options] [--] APP [args]`, `pipx install <spec>...`. */
export const pipx: CommandHandler = {
  id: "pipx run",
  commands: ["pipx"],
  parse(argv) {
    const result = emptyParse();
    const global = walkFlags(argv.slice(1), GLOBAL);
    if (noteStop(global, result)) return result;
    const sub = global.rest[0];
    if (sub === "install") {
      const walk = walkFlags(global.rest.slice(1), INSTALL, true);
      noteStop(walk, result);
      for (const spec of [...valuesOf(walk, "--spec"), ...walk.positionals, ...walk.rest]) addFrom(result, classifyRequirement(spec), "pipx install");
      return result;
    }
    if (sub !== "run") return result;
    const walk = walkFlags(global.rest.slice(1), RUN);
    const stopped = noteStop(walk, result);
    const specs = valuesOf(walk, "--spec");
    for (const spec of specs) addFrom(result, classifyRequirement(spec), "pipx run");
    if (specs.length > 0 || stopped) return result;
    const app = walk.rest[0];
    if (app === undefined) {
      missing(result);
    } else if (/^https?:\/\//i.test(app)) {
      // A script fetched by URL each run.
      result.packages.push({
        ecosystem: "url",
        name: null,
        display: safeDisplay(app),
        verdict: "unpinned_source",
        reason: "url",
        resolves: { type: "none" },
        role: "main",
        launcher: "pipx run",
      });
    } else if (isLocalPath(app) || /\.py$/i.test(app)) {
      return result;
    } else {
      addFrom(result, classifyRequirement(app), "pipx run");
    }
    return result;
  },
};
