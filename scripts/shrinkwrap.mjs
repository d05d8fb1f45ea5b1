// `prepack`: write npm-shrinkwrap.json from package-lock.json so the published package installs the
// dependency tree that was tested; `postpack` (--remove) deletes it again, so the checkout keeps one
// lockfile. Development-only entries stay in the file marked `"dev": true`, which npm skips when it
// installs the package as a dependency. Fails when the lock does not match package.json.
//
//   node scripts/shrinkwrap.mjs [--remove] [--check]
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import semver from "semver";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = `${root}npm-shrinkwrap.json`;

function fail(message) {
  process.stderr.write(`shrinkwrap: ${message}\n`);
  process.exit(1);
}

/** The shrinkwrap object for this package.json and package-lock.json, or a reason they disagree. */
export function shrinkwrap(pkg, lock) {
  if (lock.lockfileVersion !== 3 && lock.lockfileVersion !== 2) return { problem: `lockfileVersion ${lock.lockfileVersion} is not supported` };
  const packages = lock.packages ?? {};
  const problems = [];
  for (const [field, dev] of [
    ["dependencies", false],
    ["optionalDependencies", false],
    ["devDependencies", true],
  ]) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      const entry = packages[`node_modules/${name}`];
      if (entry === undefined) problems.push(`${name} is in package.json but not in package-lock.json`);
      else if (semver.validRange(range) !== null && !semver.satisfies(entry.version ?? "", range))
        problems.push(`${name}@${entry.version} in package-lock.json does not satisfy ${range}`);
      else if (!dev && entry.dev === true) problems.push(`${name} is a dependency but package-lock.json marks it dev`);
    }
  }
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  for (const name of Object.keys(packages[""]?.dependencies ?? {})) {
    if (!declared.has(name)) problems.push(`${name} is in package-lock.json but not in package.json`);
  }
  if (problems.length > 0) return { problem: `package-lock.json does not match package.json (${problems.join("; ")}); run npm install` };

  // The root entry describes this package as package.json does now (no install scripts).
  const rootEntry = { name: pkg.name, version: pkg.version };
  for (const field of ["license", "dependencies", "optionalDependencies", "devDependencies", "bin", "engines"]) {
    if (pkg[field] !== undefined) rootEntry[field] = pkg[field];
  }
  const scripts = pkg.scripts ?? {};
  if (scripts.preinstall !== undefined || scripts.install !== undefined || scripts.postinstall !== undefined) rootEntry.hasInstallScript = true;
  return { shrinkwrap: { ...lock, name: pkg.name, version: pkg.version, packages: { ...packages, "": rootEntry } } };
}

const args = new Set(process.argv.slice(2));
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (args.has("--remove")) {
    rmSync(target, { force: true });
  } else {
    if (!existsSync(`${root}package-lock.json`)) fail("package-lock.json is missing; run npm install");
    const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8"));
    const result = shrinkwrap(pkg, lock);
    if (result.problem !== undefined) fail(result.problem);
    if (!args.has("--check")) writeFileSync(target, `${JSON.stringify(result.shrinkwrap, null, 2)}\n`);
  }
}
