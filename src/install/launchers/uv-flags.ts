/** uv's options (uv 0.9, `crates/uv-cli`): global ones, and those of `uv tool run` / `uv run`. */

import { type FlagTable, flagSet } from "../flags.js";

const GLOBAL_VALUES = "--directory --project --cache-dir --config-file --color --python-preference --allow-insecure-host";
const GLOBAL_BOOLEANS =
  "-q --quiet -v --verbose --offline --no-cache -n --native-tls --no-progress --no-config --preview --managed-python --no-managed-python --no-python-downloads --help -h";

const RESOLVER_VALUES =
  "--with -w --with-editable --with-requirements --constraints -c --constraint --build-constraints -b --build-constraint --overrides --override --env-file --python -p --python-platform --torch-backend --index --default-index --index-url -i --extra-index-url --find-links -f --upgrade-package -P --reinstall-package --refresh-package --index-strategy --keyring-provider --resolution --prerelease --fork-strategy --config-setting -C --config-settings-package --exclude-newer --exclude-newer-package --link-mode --no-binary-package --no-build-package --no-build-isolation-package --no-sources-package";
const RESOLVER_BOOLEANS =
  "--isolated --lfs --no-env-file --refresh --upgrade -U --reinstall --no-build --no-binary --no-build-isolation --no-sources --no-index --compile-bytecode --show-resolution";

/** Options before the uv subcommand. */
export const UV_GLOBAL: FlagTable = {
  values: flagSet(GLOBAL_VALUES),
  booleans: flagSet(GLOBAL_BOOLEANS),
};

/** `uvx` / `uv tool run` / `uv tool install`. */
export const UV_TOOL: FlagTable = {
  values: flagSet(`${GLOBAL_VALUES} ${RESOLVER_VALUES} --from`),
  booleans: flagSet(`${GLOBAL_BOOLEANS} ${RESOLVER_BOOLEANS} --force --editable -e`),
  aliases: { "-w": "--with" },
  booleanPattern: /^--no-/,
};

/** `uv run`. */
export const UV_RUN: FlagTable = {
  values: flagSet(`${GLOBAL_VALUES} ${RESOLVER_VALUES} --package --extra --group --only-group --no-group`),
  booleans: flagSet(
    `${GLOBAL_BOOLEANS} ${RESOLVER_BOOLEANS} --script -s --module -m --no-project --frozen --locked --all-packages --no-dev --all-extras --exact --no-sync --active --gui-script --no-editable --all-groups --only-dev`,
  ),
  aliases: { "-w": "--with", "-s": "--script", "-m": "--module" },
  booleanPattern: /^--no-/,
};

/**
 * Split a `--with` value: uv takes several requirements separated by commas, but a comma followed
 * by a version operator continues the previous requirement (`foo>=1,<2`).
 */
export function splitWith(value: string): string[] {
  const parts: string[] = [];
  for (const piece of value.split(",")) {
    const trimmed = piece.trim();
    if (trimmed === "") continue;
    if (/^[<>=!~]/.test(trimmed) && parts.length > 0) parts[parts.length - 1] += `,${trimmed}`;
    else parts.push(trimmed);
  }
  return parts;
}
