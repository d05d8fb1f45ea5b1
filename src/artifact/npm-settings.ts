/** The user's npm settings (registry, scoped registries, cache, TLS and proxy), read once through the npm CLI itself. */

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Options in the flat form pacote, Arborist and npm-registry-fetch take. */
export type NpmOptions = Record<string, unknown> & { registry: string; cache: string };

// npm's config names -> the flat option names its libraries read.
const FLAT_NAMES: Readonly<Record<string, string>> = {
  registry: "registry",
  "strict-ssl": "strictSSL",
  ca: "ca",
  cafile: "cafile",
  proxy: "proxy",
  "https-proxy": "httpsProxy",
  noproxy: "noProxy",
  "local-address": "localAddress",
  "fetch-retries": "fetchRetries",
  "fetch-timeout": "timeout",
  "user-agent": "userAgent",
};

/** Settings read so far, by the part of the environment npm reads them from. */
const cached = new Map<string, Promise<NpmOptions>>();

/**
 * `npm config list --json` in the environment the server's runner would see, so the registry that
 * `npx` would use is the one resolved (npmrc files, `npm_config_*` variables). Auth tokens are
 * shown by npm as "(protected)" and are not read: a private registry that needs one is not reached.
 */
export function npmSettings(env: NodeJS.ProcessEnv = process.env): Promise<NpmOptions> {
  // Servers of one config usually share these; one that passes its own npm_config_* gets its own read.
  const key = JSON.stringify(
    Object.entries(env)
      .filter(([name]) => /^(?:HOME|USERPROFILE|APPDATA|PREFIX|npm_config_.*|NPM_CONFIG_.*)$/.test(name))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  let settings = cached.get(key);
  if (settings === undefined) {
    settings = readSettings(env).catch((error: unknown) => {
      cached.delete(key);
      throw error;
    });
    cached.set(key, settings);
  }
  return settings;
}

async function readSettings(env: NodeJS.ProcessEnv): Promise<NpmOptions> {
  let text: string;
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    ({ stdout: text } = await run(npm, ["config", "list", "--json"], {
      env,
      timeout: 30_000,
      maxBuffer: 4 * 1024 * 1024,
      shell: process.platform === "win32",
    }));
  } catch {
    return defaults(env);
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return defaults(env);
  }
  return flatten(parsed, env);
}

/** Turn npm's config listing into library options. Pure. */
export function flatten(config: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): NpmOptions {
  const options: NpmOptions = defaults(env);
  for (const [key, value] of Object.entries(config)) {
    if (value === null || value === "(protected)") continue;
    const flat = FLAT_NAMES[key];
    if (flat !== undefined) options[flat] = value;
    // Scoped registries keep their npm name (`@scope:registry`), as pacote reads them.
    else if (/^@[^:]+:registry$/.test(key)) options[key] = value;
  }
  if (typeof config.cache === "string") options.cache = join(config.cache, "_cacache");
  if (typeof options.registry !== "string" || options.registry === "") options.registry = "https://registry.npmjs.org/";
  if (!options.registry.endsWith("/")) options.registry = `${options.registry}/`;
  return options;
}

function defaults(env: NodeJS.ProcessEnv): NpmOptions {
  const home = env.HOME ?? env.USERPROFILE ?? ".";
  const registry = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY ?? "https://registry.npmjs.org/";
  const cacheRoot = env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? join(home, ".npm");
  return { registry: registry.endsWith("/") ? registry : `${registry}/`, cache: join(cacheRoot, "_cacache") };
}

/** For tests: forget the settings read so far. */
export function forgetNpmSettings(): void {
  cached.clear();
}
