/** `lock`'s artifact step: resolve what each launched server runs, started before any server starts, and the report's line for it. */

import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Resolved, TrustCheck } from "../artifact/resolve.js";
import { artifactSource } from "../artifact/source.js";
import { describe } from "../artifact/compare.js";
import type { ArtifactRecord } from "../artifact/types.js";
import type { Target } from "../connect/target.js";
import { neutralize } from "../text/neutralize.js";
import { thousands } from "../numbers.js";
import type { KnownBadList } from "../install/bad-list.js";
import { readRequiredText } from "../lock/io.js";
import { dirname, join } from "node:path";
import type { NpmOptions } from "../artifact/npm-settings.js";
import type { RegistryKey, SigstoreTrust } from "../artifact/provenance.js";
import { ArtifactError, RegistryError } from "../errors.js";
import { parseJsonStrict } from "../json/parse.js";

/** A launch whose artifact is being resolved. */
export interface ArtifactJob {
  target: Target | null;
  launch: readonly string[];
}

/**
 * Start resolving each launched server's artifact (the modules were loaded before any server
 * started); the registry work runs while the servers are read. A job without a launched server
 * gets no entry.
 */
export function startArtifacts<J extends ArtifactJob>(
  jobs: readonly J[],
  modules: ArtifactModules,
  lockedFor: (job: J) => ArtifactRecord | null,
): Map<J, Promise<Resolved>> {
  const started = new Map<J, Promise<Resolved>>();
  const { resolveArtifact, npmSettings, trust } = modules;
  for (const job of jobs.filter(launches)) {
    const source = artifactSource(job.launch);
    const env = serverEnvironment(job);
    const work =
      source.type === "npm"
        ? npmSettings(env).then(async (npm) => resolveArtifact(source, npm, await trust(npm), lockedFor(job)))
        : resolveArtifact(source, { registry: "", cache: "" }, NO_TRUST);
    // Handled where awaited; never an unhandled rejection while servers start.
    work.catch(() => {});
    started.set(job, work);
  }
  return started;
}

/** What resolving needs, loaded before any server starts (a launched server could rewrite files on disk). */
export interface ArtifactModules {
  resolveArtifact: typeof import("../artifact/resolve.js").resolveOrExplain;
  npmSettings: typeof import("../artifact/npm-settings.js").npmSettings;
  trust: (npm: NpmOptions) => Promise<TrustCheck>;
}

/** npm's settings as the runner will see them: the server gets the minimal environment plus what is passed. */
function serverEnvironment(job: ArtifactJob): NodeJS.ProcessEnv {
  const target = job.target as Target & { kind: "stdio" };
  return { ...getDefaultEnvironment(), ...target.env };
}

function launches(job: ArtifactJob): boolean {
  return job.target?.kind === "stdio" && job.launch.length > 0;
}

/** Load the resolver's modules (npm's own libraries among them); null when no job launches a server. */
export async function loadArtifactModules(jobs: readonly ArtifactJob[], files: TrustFiles): Promise<ArtifactModules | null> {
  if (!jobs.some(launches)) return null;
  const [{ resolveOrExplain }, { npmSettings }] = await Promise.all([
    import("../artifact/resolve.js"),
    import("../artifact/npm-settings.js"),
    import("../artifact/provenance.js"),
  ]);
  // npm's settings are read now, while the servers start, not after.
  for (const job of jobs.filter(launches)) npmSettings(serverEnvironment(job)).catch(() => undefined);
  return { resolveArtifact: resolveOrExplain, npmSettings, trust: (npm) => registryTrust(npm, files) };
}

/** For sources that reach no registry. */
const NO_TRUST: TrustCheck = { signature: async () => "unchecked", provenance: async () => null };

/** The report's line about what runs: package, tree, provenance; or why nothing is pinned. */
export function artifactLine(resolved: Resolved | null, locked: ArtifactRecord | null): string | null {
  if (resolved === null) {
    return locked === null ? null : `runs: not checked this run (no launched server); the lock pins ${neutralize(describe(locked))}`;
  }
  const offline = resolved.offline ? " (the registry could not be reached: read from npm's cache)" : "";
  const artifact = resolved.artifact;
  if (artifact === null) return `runs: not pinned (${neutralize(resolved.unpinned ?? "unknown")})`;
  if (artifact.type !== "npm") {
    const why = resolved.unpinned === null ? "" : `; not pinned: ${neutralize(resolved.unpinned)}`;
    return `runs: ${artifact.type} ${neutralize(describe(artifact))}${why}`;
  }
  const provenance =
    artifact.provenance === null ? "no provenance" : `built by ${neutralize(artifact.provenance.repository)} ${neutralize(artifact.provenance.workflow)}`;
  const scripts = [...artifact.tree.values()].filter((item) => item.installScript).length;
  const scriptNote = scripts > 0 ? `, ${thousands(scripts)} with install scripts` : "";
  return `runs: npm ${neutralize(describe(artifact))}, ${thousands(artifact.tree.size)} package${artifact.tree.size === 1 ? "" : "s"}${scriptNote} (tree ${artifact.treeSha256.slice(0, 12)}), ${provenance}, registry signature ${artifact.signature}${offline}`;
}

/** An empty known-bad list, for runs that launch nothing. */
export const EMPTY_KNOWN_BAD: KnownBadList = { entries: [] };

/** Where a user points the checks at trust of their own (a registry without a keys endpoint, a private Sigstore). */
export interface TrustFiles {
  /** `--registry-keys FILE`: the registry's signing keys, in the form its `/-/npm/v1/keys` serves. */
  registryKeys: string | null;
  /** `--trusted-root FILE`: a Sigstore trusted root instead of the public-good one. */
  trustedRoot: string | null;
}

/**
 * Registry signature and provenance checks with the registry's own keys and Sigstore's roots. The
 * keys are asked for at once, beside the package itself; the Sigstore root is read only for a
 * release that has attestations. A signature or attestation that fails verification throws.
 */
export async function registryTrust(npm: NpmOptions, files: TrustFiles): Promise<TrustCheck> {
  const provenance = await import("../artifact/provenance.js");
  const fetchOptions = { ...npm } as Parameters<typeof provenance.fetchRegistryKeys>[1];
  const keys: Promise<RegistryKey[] | null> =
    files.registryKeys !== null
      ? readRequiredText(files.registryKeys, "--registry-keys file").then((text) =>
          provenance.parseRegistryKeys(parseJsonStrict(text, files.registryKeys as string)),
        )
      : provenance.fetchRegistryKeys(npm.registry, fetchOptions).catch((error: unknown) => {
          // A registry that cannot be read here fails the package resolution itself; only an unreadable keys endpoint is left unchecked.
          if (error instanceof RegistryError) return null;
          throw error;
        });
  keys.catch(() => undefined);
  let trust: Promise<SigstoreTrust> | null = null;
  return {
    signature: async (release) => provenance.checkRegistrySignature(release, await keys),
    provenance: async (release) => {
      if (release.attestationsUrl === null) return null;
      if (release.integrity === null)
        throw new ArtifactError(`${release.name}@${release.version}: the registry lists attestations but gives no integrity to check them against`);
      const registryKeys = await keys;
      trust ??= provenance.loadSigstoreTrust({
        ...(files.trustedRoot === null ? {} : { trustedRootFile: files.trustedRoot }),
        registryKeys,
        tufCachePath: join(dirname(npm.cache), "_tuf"),
      });
      return provenance.readProvenance({ ...release, integrity: release.integrity }, { registry: npm.registry, fetchOptions, trust: await trust });
    },
  };
}
