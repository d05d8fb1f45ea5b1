/** npm's own options, shared by npx and `npm exec`: which take a value, which do not. */

import { flagSet } from "../flags.js";

/** npm config options that take a value. */
export const NPM_VALUE_FLAGS =
  "--registry --cache --userconfig --globalconfig --prefix --workspace -w --script-shell --loglevel --node-options --shell --tag --otp --before --cafile --proxy --https-proxy --fetch-retries --fetch-timeout --min-release-age --lockfile-version --install-strategy --omit --include --audit-level";

/** npm config options that take no value. */
export const NPM_BOOLEAN_FLAGS =
  "--yes -y --no --quiet -q --silent -s --ignore-scripts --prefer-offline --prefer-online --offline --verbose -d --legacy-peer-deps --force -f --foreground-scripts --workspaces --include-workspace-root --global -g --color --dry-run --strict-ssl --audit --fund --update-notifier --install-links --prefer-dedupe --engine-strict --progress --unicode --json --long -l --parseable --package-lock --package-lock-only --timing --usage";

/** `--@scope:registry URL` takes a value. */
export const NPM_SCOPED_REGISTRY = /^--@[^:]+:registry$/;

/** `--no-<anything>` negates a boolean option. */
export const NPM_NEGATION = /^--no-/;

/** Build a set from npm's value flags plus extras. */
export function npmValues(extra: string): ReadonlySet<string> {
  return flagSet(`${NPM_VALUE_FLAGS} ${extra}`);
}

/** Build a set from npm's boolean flags plus extras. */
export function npmBooleans(extra: string): ReadonlySet<string> {
  return flagSet(`${NPM_BOOLEAN_FLAGS} ${extra}`);
}
