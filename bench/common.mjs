// What the benches share: the repository root, numeric options, a refusal to run without a build,
// and installing pinned npm packages into a cache folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
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

/** Install these exact package versions into `cache` unless every one is there already; exit 2 when npm fails. */
export function installPackages(cache, packages) {
  const modules = join(cache, "node_modules");
  const installed = (name) => {
    const file = join(modules, ...name.split("/"), "package.json");
    return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).version === packages[name];
  };
  if (Object.keys(packages).every(installed)) return;
  const specs = Object.entries(packages).map(([name, version]) => `${name}@${version}`);
  console.error(`bench: installing ${specs.join(", ")} into ${cache}`);
  mkdirSync(cache, { recursive: true });
  const result = spawnSync("npm", ["install", "--prefix", cache, "--no-audit", "--no-fund", "--loglevel", "error", ...specs], { stdio: "inherit" });
  if (result.status !== 0) {
    console.error("bench: npm install failed");
    process.exit(2);
  }
}
