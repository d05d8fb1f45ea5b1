/** Whether `mcp-lint@<version>` can be installed from the registry the user's npm uses: `wrap --npx` writes nothing else. */

import { execFile } from "node:child_process";
import { UsageError } from "../../errors.js";

/** How long npm may take to answer; a registry that does not answer counts as unreachable. */
const NPM_VIEW_TIMEOUT_MS = 30_000;

/** What npm said about the version: there, not there, or no answer to be had. */
export type Published = "published" | "missing" | "unreachable";

/** Ask npm (with the user's own config: registry, proxy, auth) whether `name@version` exists. */
export function checkPublished(name: string, version: string): Promise<Published> {
  return new Promise((done) => {
    execFile(
      "npm",
      ["view", `${name}@${version}`, "version", "--json"],
      { timeout: NPM_VIEW_TIMEOUT_MS, encoding: "utf8", maxBuffer: 1024 * 1024, env: { ...process.env, npm_config_update_notifier: "false" } },
      (error, stdout, stderr) => {
        if (error === null) {
          // `npm view name@range version --json` prints the version (or a list of them); empty means no match.
          done(stdout.includes(JSON.stringify(version)) ? "published" : "missing");
          return;
        }
        done(/\bE404\b|404 Not Found|is not in this registry/.test(`${stdout}\n${stderr}`) ? "missing" : "unreachable");
      },
    );
  });
}

/**
 * Refuse `--npx` unless this exact version is on the registry: a name that is not published makes
 * every wrapped launch fail, and whoever publishes it first would sit inside every wrapped session.
 * npm's own output is not repeated (it may name a private registry's address).
 */
export async function requirePublished(version: string): Promise<void> {
  const answer = await checkPublished("mcp-lint", version);
  if (answer === "published") return;
  const why =
    answer === "missing"
      ? `mcp-lint@${version} is not published on the npm registry your npm uses, so every wrapped launch would fail (and whoever publishes that name first would run inside each session)`
      : `could not ask the npm registry whether mcp-lint@${version} is published (npm view failed: offline, or the registry did not answer)`;
  throw new UsageError(`--npx: ${why}; wrap without --npx to run this mcp-lint by its path`);
}
