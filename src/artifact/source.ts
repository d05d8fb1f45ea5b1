/** Which artifact a launch runs, read from its argv with the install lint's launcher parsers. Pure. */

import { collectLaunch } from "../install/lint.js";
import { commandName, isAssignment } from "../install/tokens.js";

/** npm package runners whose package the lock can pin (the install lint's launcher ids). */
const NPM_RUNNERS = new Set(["npx", "npm exec", "npm x", "pnpm dlx", "pnpx", "pnx", "yarn dlx", "bunx"]);
const IMAGE_DIGEST = /@(sha256:[0-9a-f]{64})$/;

/** What a launch runs, as far as the lock can pin it. */
export type ArtifactSource =
  | {
      type: "npm";
      /** The package's registry name (the alias's target for `alias@npm:real@1`). */
      name: string;
      /** The spec exactly as written (`server@1.0.0`, `@s/p@^2`, `tool`), handed to npm's resolver. */
      request: string;
      runner: string;
      /** The bin and arguments the runner executes, when the runner is the launch itself (not inside a wrapper). */
      runs: { bin: string | null; args: string[] } | null;
    }
  | { type: "npm-install"; name: string; root: string; script: string; args: string[] }
  | { type: "image"; reference: string; digest: string | null; runtime: string }
  | { type: "pypi"; name: string; version: string | null }
  | { type: "none"; reason: string };

/** Read a stdio launch's argv. */
export function artifactSource(argv: readonly string[]): ArtifactSource {
  const launch = collectLaunch(argv);
  const main = launch.packages.filter((item) => item.role === "main");
  if (main.length === 0) return installedScript(argv) ?? { type: "none", reason: "the command fetches no package (local code)" };
  if (main.length > 1) return { type: "none", reason: "the command fetches more than one package" };
  const item = main[0] as (typeof main)[number];
  if (item.ecosystem === "npm" && NPM_RUNNERS.has(item.launcher)) {
    if (item.name === null || item.request === undefined || item.verdict === "local" || item.verdict === "unpinned_source") {
      return { type: "none", reason: `${item.display} is not a registry package` };
    }
    return { type: "npm", name: item.name, request: item.request, runner: item.launcher, runs: launch.runs ?? null };
  }
  if (item.ecosystem === "image") {
    const digest = IMAGE_DIGEST.exec(item.display)?.[1] ?? null;
    return { type: "image", reference: item.display, digest, runtime: item.launcher.split(" ")[0] as string };
  }
  if (item.ecosystem === "PyPI" && item.name !== null) {
    return { type: "pypi", name: item.name, version: item.resolves.type === "exact" ? item.resolves.version : null };
  }
  return { type: "none", reason: `${item.launcher} launches are not pinned` };
}

/**
 * `node [options] path/to/node_modules/<pkg>/<file> [args]`: a package installed in a project, whose
 * tree is read from that install. Null for any other command.
 */
function installedScript(argv: readonly string[]): ArtifactSource | null {
  let index = 0;
  while (index < argv.length && isAssignment(argv[index] as string)) index++;
  const command = argv[index];
  if (command === undefined || !["node", "nodejs"].includes(commandName(command))) return null;
  const rest = argv.slice(index + 1);
  const scriptAt = rest.findIndex((token) => !token.startsWith("-"));
  if (scriptAt < 0) return null;
  // Options that take a value (`--require x`) would make the value look like the script: refuse to guess.
  if (
    rest.slice(0, scriptAt).some((token) => !token.includes("=") && /^--?(?:r|require|import|loader|experimental-loader|env-file|C|conditions)$/.test(token))
  ) {
    return null;
  }
  const script = (rest[scriptAt] as string).replaceAll("\\", "/");
  const marker = script.lastIndexOf("node_modules/");
  if (marker < 0) return null;
  const after = script.slice(marker + "node_modules/".length).split("/");
  const scoped = after[0]?.startsWith("@") === true;
  const name = scoped ? `${after[0]}/${after[1] ?? ""}` : (after[0] ?? "");
  if (name === "" || name.endsWith("/") || after.length < (scoped ? 3 : 2)) return null;
  const root = script.slice(0, marker).replace(/\/$/, "") || ".";
  return { type: "npm-install", name, root, script: rest[scriptAt] as string, args: rest.slice(scriptAt + 1) };
}
