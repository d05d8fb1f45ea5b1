// A real npm registry for the package tests: the installed Verdaccio on 127.0.0.1 with temp storage and no
// uplinks, fixture packages published and unpublished with the real npm CLI, and the on-disk edits a test
// needs that no npm command makes (a swapped tarball under a published version, extra dist fields).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "../../..");
const verdaccioBin = join(repo, "node_modules/verdaccio/bin/verdaccio");
const fixtureServer = join(import.meta.dirname, "fixture-server.mjs");
const exitWithParent = join(import.meta.dirname, "exit-with-parent.mjs");

/** A package to publish, as data: its manifest fields and the files beside package.json. */
export interface FixturePackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  /** File path inside the package -> contents. package.json is written from the fields above. */
  files: Record<string, string>;
  bin?: string | Record<string, string>;
}

/** A running local registry. */
export interface Registry {
  /** `http://127.0.0.1:PORT/`, with the trailing slash npm writes. */
  url: string;
  /** The test user's token; publish and unpublish need it, reads do not. */
  token: string;
  /** Verdaccio's process id (also its process group's). */
  pid: number;
  /** The temp folder holding config, storage, the npm home and cache; removed by stop(). */
  dir: string;
  /**
   * Environment for a child process that runs npm, npx or mcp-lint against this registry: the parent's,
   * without its npm_config_* settings, plus registry, token, a temp cache and a temp HOME whose .npmrc
   * says the same (so a child that keeps only HOME and PATH, as a launched MCP server does, still uses it).
   */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Kill Verdaccio's process group, wait for it, remove the temp folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** Start the installed Verdaccio on a free loopback port and create a user for publishing. */
export async function startRegistry(): Promise<Registry> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-lint-registry-"));
  const storage = join(dir, "storage");
  const home = join(dir, "home");
  const cache = join(dir, "cache");
  for (const folder of [storage, home, cache, join(dir, "packages")]) mkdirSync(folder);
  const config = join(dir, "config.yaml");
  // JSON is YAML. No uplinks and no `proxy` on any package: a package the registry lacks is a 404 here,
  // never a download from npmjs. The web UI and the audit middleware (which forwards to npmjs) are off.
  const access = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  writeFileSync(
    config,
    JSON.stringify({
      storage,
      auth: { htpasswd: { file: join(dir, "htpasswd") } },
      uplinks: {},
      packages: { "@*/*": access, "**": access },
      web: { enable: false },
      middlewares: { audit: { enabled: false } },
      log: { type: "stdout", format: "json", level: "warn" },
    }),
  );
  let started: { child: ChildProcess; port: number } | undefined;
  let failure = "";
  // A free port can be taken between asking for it and Verdaccio binding it; then Verdaccio exits and we retry.
  for (let attempt = 0; attempt < 5 && !started; attempt++) {
    const port = await freePort();
    const run = await launch(config, port);
    if (typeof run === "string") failure = run;
    else started = { child: run, port };
  }
  if (!started) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Verdaccio did not start: ${failure}`);
  }
  const { child, port } = started;
  const url = `http://127.0.0.1:${port}/`;
  const exited = new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once("exit", () => done());
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // Already gone.
      }
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const token = await createUser(url);
    const npmrc = join(home, ".npmrc");
    const auth = `//127.0.0.1:${port}/:_authToken`;
    const settings: Record<string, string> = {
      registry: url,
      cache,
      "update-notifier": "false",
      audit: "false",
      fund: "false",
    };
    writeFileSync(npmrc, `${[...Object.entries(settings), [auth, token]].map(([key, value]) => `${key}=${value}`).join("\n")}\n`);
    const base: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^npm_config_/i.test(key)) base[key] = value;
    Object.assign(base, { HOME: home, npm_config_userconfig: npmrc, [`npm_config_${auth}`]: token });
    for (const [key, value] of Object.entries(settings)) base[`npm_config_${key.replaceAll("-", "_")}`] = value;
    return { url, token, pid: child.pid as number, dir, env: (extra = {}) => ({ ...base, ...extra }), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Publish a fixture package with `npm publish` (its scripts are not run). */
export async function publish(registry: Registry, pkg: FixturePackage, options: { tag?: string } = {}): Promise<void> {
  const folder = writePackage(registry, pkg);
  await npm(registry, ["publish", "--ignore-scripts", "--access", "public", ...(options.tag ? ["--tag", options.tag] : [])], folder);
}

/** Publish a package folder as it is on disk (a fixture checked into the repository), scripts off. */
export async function publishFolder(registry: Registry, folder: string): Promise<void> {
  await npm(registry, ["publish", "--ignore-scripts", "--access", "public"], folder);
}

/** Remove one version with `npm unpublish --force` (the package's last version takes the package with it). */
export async function unpublish(registry: Registry, name: string, version: string): Promise<void> {
  await npm(registry, ["unpublish", `${name}@${version}`, "--force"], registry.dir);
}

/**
 * Serve different contents under a published version: unpublish it and publish `pkg` in its place, with
 * the dist-tags as they were. Verdaccio accepts the re-publish (npmjs would not), so the registry's own
 * metadata, tarball and integrity all change. Throws if the new tarball is byte-identical to the old one.
 */
export async function replaceTarball(registry: Registry, pkg: FixturePackage): Promise<void> {
  const before = (await packument(registry, pkg.name)) as Packument;
  const oldIntegrity = before.versions?.[pkg.version]?.dist?.integrity;
  if (oldIntegrity === undefined) throw new Error(`replaceTarball: ${pkg.name}@${pkg.version} is not published`);
  const tags = Object.entries(before["dist-tags"] ?? {})
    .filter(([, version]) => version === pkg.version)
    .map(([tag]) => tag);
  await unpublish(registry, pkg.name, pkg.version);
  // npm refuses to put `latest` on a version below the newest one, so an older version goes back under
  // one of its own tags, or a placeholder tag that is removed again.
  const placeholder = "mcp-lint-replacing";
  const tag = tags.includes("latest") ? "latest" : (tags[0] ?? placeholder);
  await publish(registry, pkg, { tag });
  for (const other of tags) if (other !== tag) await npm(registry, ["dist-tag", "add", `${pkg.name}@${pkg.version}`, other], registry.dir);
  if (tag === placeholder) await npm(registry, ["dist-tag", "rm", pkg.name, placeholder], registry.dir);
  const after = (await packument(registry, pkg.name)) as Packument;
  if (after.versions?.[pkg.version]?.dist?.integrity === oldIntegrity) {
    throw new Error(`replaceTarball: the new contents of ${pkg.name}@${pkg.version} pack to the same tarball`);
  }
}

/**
 * Set `versions[version].dist[field]` in the stored metadata (for what Verdaccio does not make, such as
 * `dist.attestations`). Verdaccio reads package metadata from disk on every request, so it serves the edit at once.
 */
export function setDistField(registry: Registry, name: string, version: string, field: string, value: unknown): void {
  const path = join(registry.dir, "storage", name, "package.json");
  const stored = JSON.parse(readFileSync(path, "utf8")) as Packument;
  const dist = stored.versions?.[version]?.dist;
  if (dist === undefined) throw new Error(`setDistField: ${name}@${version} is not published`);
  dist[field] = value;
  // Written beside and renamed, so a request in flight reads the old file or the new one, never half of one.
  writeFileSync(`${path}.edit`, JSON.stringify(stored, null, 2));
  renameSync(`${path}.edit`, path);
}

/**
 * Put a file in a published package's storage folder and return its URL: Verdaccio serves any file there
 * at `<registry>/<name>/-/<fileName>` (as application/octet-stream), e.g. an attestation bundle for
 * `dist.attestations.url` on the registry's own origin, as npmjs serves it.
 */
export function storeFile(registry: Registry, name: string, fileName: string, body: string): string {
  if (!/^[\w.-]+$/.test(fileName) || fileName.endsWith(".tgz")) throw new Error(`storeFile: ${fileName} must be a plain name, not a tarball`);
  const folder = join(registry.dir, "storage", name);
  if (!existsSync(join(folder, "package.json"))) throw new Error(`storeFile: ${name} is not published`);
  writeFileSync(join(folder, fileName), body);
  return `${registry.url}${name}/-/${fileName}`;
}

/** The registry's full metadata document for a package (what `npm view` reads), or undefined on a 404. */
export async function packument(registry: Registry, name: string): Promise<unknown> {
  const response = await fetch(`${registry.url}${name.replace("/", "%2f")}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GET ${name}: HTTP ${response.status}`);
  return response.json();
}

/**
 * A package whose bin (named after the package) is a stdio MCP server with two tools: `echo`, and
 * `dependency_versions`, whose text names each dependency as installed (`helper@1.0.1`).
 */
export function mcpServerPackage(name: string, version: string, dependencies: Record<string, string>): FixturePackage {
  const binName = name.slice(name.lastIndexOf("/") + 1);
  return { name, version, dependencies, bin: { [binName]: "server.mjs" }, files: { "server.mjs": readFileSync(fixtureServer, "utf8") } };
}

/** Run the npm CLI against the registry; rejects with npm's output when it fails. */
export function npm(registry: Registry, args: string[], cwd: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn("npm", args, { cwd, env: registry.env(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done(stdout) : fail(new Error(`npm ${args.join(" ")} exited ${code}:\n${output}`))));
  });
}

interface Packument {
  "dist-tags"?: Record<string, string>;
  versions?: Record<string, { dist?: Record<string, unknown> }>;
}

let packageCount = 0;

function writePackage(registry: Registry, pkg: FixturePackage): string {
  if ("package.json" in pkg.files) throw new Error("FixturePackage.files: package.json is written from the package's fields");
  const folder = join(registry.dir, "packages", String(++packageCount));
  mkdirSync(folder);
  const { files, ...fields } = pkg;
  writeFileSync(join(folder, "package.json"), `${JSON.stringify({ ...fields, license: "MIT" }, null, 2)}\n`);
  for (const [path, contents] of Object.entries(files)) {
    const target = resolve(folder, path);
    if (!target.startsWith(`${folder}/`)) throw new Error(`FixturePackage.files: ${path} is outside the package`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, contents);
  }
  return folder;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** Spawn Verdaccio in its own process group; resolves once it listens, or with its output if it exits first. */
function launch(config: string, port: number): Promise<ChildProcess | string> {
  return new Promise((done) => {
    // Verdaccio sends `{ verdaccio_started: true }` over the IPC channel once its server listens; the channel
    // then stays open, and Verdaccio ends when it closes (exit-with-parent.mjs).
    const child = spawn(process.execPath, ["--import", exitWithParent, verdaccioBin, "--config", config, "--listen", `127.0.0.1:${port}`], {
      cwd: dirname(config),
      env: { ...process.env, MCP_LINT_REGISTRY_DIR: dirname(config) },
      detached: true,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let log = "";
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-8000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.on("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && "verdaccio_started" in message) done(child);
    });
    child.on("error", (error) => done(error.message));
    child.on("exit", (code, signal) => done(`exited ${code ?? signal}: ${log}`));
  });
}

async function createUser(url: string): Promise<string> {
  const name = "mcp-lint-test";
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: "local-registry-only" }),
  });
  const body = (await response.json()) as { token?: unknown };
  if (!response.ok || typeof body.token !== "string") throw new Error(`creating the registry user: HTTP ${response.status}`);
  return body.token;
}
