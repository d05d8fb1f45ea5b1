// What the benches share: the repository root, numeric options, and a refusal to run without a build.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** `--name N` from the command line as a number, or `fallback`. */
export function numberOption(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

/** Exit 2 with one line when the CLI under test has not been built. */
export function requireBuilt(cli) {
  if (existsSync(cli)) return;
  console.error("bench: dist/cli.js not found. Run `npm run build` first.");
  process.exit(2);
}
