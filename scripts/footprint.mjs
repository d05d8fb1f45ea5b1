// What installing mcp-lint costs a user: install the packed tarball into an empty folder and count
// the packages and megabytes under node_modules, so the figure can be watched from release to release.
//
//   node scripts/footprint.mjs [TARBALL] [--fresh-cache] [--json]
//
// Without TARBALL, this checkout is packed first (which builds dist/). --fresh-cache installs with
// an empty npm cache (everything from the registry, as a first-time user); --json prints
// {"packages", "bytes", "megabytes", "tarball", "npmOutput"}.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, lstatSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

function npm(args, cwd) {
  const result = spawnSync("npm", args, { cwd, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
  return result;
}

/** Packages (folders with a package.json) and bytes of regular files under a node_modules folder. */
export function measure(nodeModules) {
  let packages = 0;
  let bytes = 0;
  const walk = (dir, packageLevel) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) {
        if (packageLevel && entry.name.startsWith("@")) {
          walk(path, true);
          continue;
        }
        const isPackage = packageLevel && existsSync(join(path, "package.json"));
        if (isPackage) packages++;
        walk(path, entry.name === "node_modules");
      } else if (entry.isFile()) {
        bytes += lstatSync(path).size;
      }
    }
  };
  walk(nodeModules, true);
  return { packages, bytes };
}

/** Install `tarball` into a new empty folder and measure it. */
export function footprint(tarball, { freshCache = false } = {}) {
  const app = mkdtempSync(join(tmpdir(), "mcp-lint-footprint-"));
  try {
    writeFileSync(join(app, "package.json"), '{"name": "footprint", "private": true}\n');
    const args = ["install", "--no-audit", "--no-fund", tarball];
    if (freshCache) args.push("--cache", join(app, ".npm-cache"));
    const install = npm(args, app);
    const { packages, bytes } = measure(join(app, "node_modules"));
    return { tarball: basename(tarball), packages, bytes, megabytes: Math.round(bytes / 1e5) / 10, npmOutput: install.stdout + install.stderr };
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let tarball = args.find((arg) => !arg.startsWith("--"));
  let packDir = null;
  if (tarball === undefined) {
    packDir = mkdtempSync(join(tmpdir(), "mcp-lint-pack-"));
    const pack = npm(["pack", "--pack-destination", packDir], root);
    tarball = join(packDir, pack.stdout.trim().split("\n").pop());
  }
  try {
    const result = footprint(resolve(tarball), { freshCache: args.includes("--fresh-cache") });
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    if (args.includes("--json")) {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } else {
      process.stdout.write(
        `mcp-lint ${version} from ${result.tarball}: ${result.packages} packages (mcp-lint and ${result.packages - 1} dependencies), ${result.megabytes} MB in node_modules\n`,
      );
    }
  } finally {
    if (packDir !== null) rmSync(packDir, { recursive: true, force: true });
  }
}
