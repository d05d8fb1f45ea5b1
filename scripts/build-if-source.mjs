// Build dist/ from src/ in a source checkout. Two npm scripts run it, and neither is an install
// script of the published package:
//   - `dependencies`: npm runs it for the project itself after `npm ci` or an `npm install` that
//     changed node_modules in a clone (never when mcp-lint is installed as a dependency or globally),
//     so a clone has dist/ after `npm ci`;
//   - `prepack`: npm runs it on `npm pack` and `npm publish`. pre-commit installs the hook that way:
//     `npm install` in its clone, `npm pack`, then it installs the tarball.
// The package has no preinstall, install, postinstall or prepare script (npm counts prepare as an
// install script for tarball and git installs), so installing it runs nothing and npm's
// install-scripts check has nothing to report. The repository's .npmrc (foreground-scripts=false)
// keeps npm's script banners off `npm pack`'s stdout, which must be only the tarball name; tsc
// and esbuild print nothing on success and their errors go to stderr. A dist/ newer than every input is kept
// (pre-commit packs right after installing, so the second build is skipped).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = `${root}node_modules/typescript/bin/tsc`;

/** Modification times of the files under `dir` (recursively). */
function times(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(join(entry.parentPath, entry.name)).mtimeMs);
}

/** dist/ was written after every input changed (tsc rewrites every output), so building again changes nothing. */
function upToDate() {
  if (!existsSync(`${root}dist/cli.js`)) return false;
  const inputs = [
    ...times(`${root}src`),
    ...["tsconfig.json", "tsconfig.build.json", "package-lock.json"]
      .filter((file) => existsSync(`${root}${file}`))
      .map((file) => statSync(`${root}${file}`).mtimeMs),
  ];
  return Math.max(...inputs) < Math.min(...times(`${root}dist`));
}

if (existsSync(`${root}src/cli.ts`) && !upToDate()) {
  if (existsSync(tsc)) {
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: ["ignore", 2, 2] });
    // Then the CLI is bundled into one file (scripts/bundle.mjs), as npm run build does.
    const bundled = result.status === 0 ? spawnSync(process.execPath, [`${root}scripts/bundle.mjs`], { cwd: root, stdio: ["ignore", 2, 2] }) : result;
    process.exitCode = bundled.status ?? 1;
  } else if (!existsSync(`${root}dist/cli.js`)) {
    process.stderr.write("mcp-lint: cannot build dist/: TypeScript is not installed; run npm ci (with dev dependencies) first\n");
    process.exitCode = 1;
  }
}
