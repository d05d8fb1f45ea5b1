/** `pip install` (also `pip3`, `python -m pip`, `uv pip install`): exact pins still lack hash checking without `--require-hashes`. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import { isPackage } from "../specs/classified.js";
import { classifyRequirement } from "../specs/pypi.js";
import { safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse, type LaunchParse } from "../types.js";
import { addFrom, noteStop } from "./common.js";

const GLOBAL_VALUES =
  "--python --cache-dir --proxy --log --log-file --timeout --retries --cert --client-cert --exists-action --trusted-host --keyring-provider --use-feature --use-deprecated";
const GLOBAL_BOOLEANS =
  "--isolated -q --quiet -v --verbose --no-input --disable-pip-version-check --no-cache-dir --no-color --require-virtualenv --debug --help -h";

const GLOBAL: FlagTable = { values: flagSet(GLOBAL_VALUES), booleans: flagSet(GLOBAL_BOOLEANS), booleanPattern: /^--no-/ };

const INSTALL: FlagTable = {
  values: flagSet(
    `${GLOBAL_VALUES} --requirement -r --constraint -c --editable -e --index-url -i --extra-index-url --find-links -f --target -t --prefix --root --platform --python-version --implementation --abi --src --config-settings -C --no-binary --only-binary --report --root-user-action --progress-bar --upgrade-strategy --global-option --group`,
  ),
  booleans: flagSet(
    `${GLOBAL_BOOLEANS} --upgrade -U --user --no-deps --require-hashes --pre --force-reinstall --ignore-installed -I --no-index --break-system-packages --no-build-isolation --use-pep517 --no-warn-script-location --no-compile --compile --dry-run --prefer-binary --ignore-requires-python --no-clean --no-warn-conflicts`,
  ),
  aliases: { "-r": "--requirement", "-e": "--editable", "-c": "--constraint" },
  booleanPattern: /^--no-/,
};

/** Parse the arguments of `pip install` (after the word `install`). */
export function parsePipInstall(tokens: readonly string[], launcher: string): LaunchParse {
  const result = emptyParse();
  const walk = walkFlags(tokens, INSTALL, true);
  noteStop(walk, result);
  const hashes = walk.booleans.includes("--require-hashes");
  for (const file of valuesOf(walk, "--requirement")) {
    // Hashes and pins live in the file, which I1 does not open.
    result.problems.push({ reason: "requirements_file", display: safeDisplay(file) });
  }
  for (const spec of [...valuesOf(walk, "--editable"), ...walk.positionals, ...walk.rest]) {
    const item = classifyRequirement(spec);
    // Without --require-hashes pip checks no file it downloads, pinned or not; a local path fetches
    // nothing itself. An unpinned requirement gets both findings, a pinned one only this one.
    const unhashed = !hashes && isPackage(item) && item.verdict !== "local";
    if (!unhashed || item.verdict !== "pinned") addFrom(result, item, launcher);
    if (unhashed) addFrom(result, { ...item, verdict: "no_hashes", reason: "pip_no_hashes" }, launcher);
  }
  return result;
}

/** pip: `pip [options] install [options] <requirement>...`; other pip commands fetch nothing. */
export const pip: CommandHandler = {
  id: "pip install",
  commands: ["pip"],
  parse(argv) {
    const result = emptyParse();
    const global = walkFlags(argv.slice(1), GLOBAL);
    if (noteStop(global, result) || global.rest[0] !== "install") return result;
    return parsePipInstall(global.rest.slice(1), "pip install");
  },
};
