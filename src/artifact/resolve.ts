/** Resolve what a launch runs today, the way npm would install it: the package, its exact version and its whole tree. */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve as resolvePath } from "node:path";
import Arborist from "@npmcli/arborist";
import npa from "npm-package-arg";
import npmFetch from "npm-registry-fetch";
import pacote from "pacote";
import { ArtifactError, McpLintError } from "../errors.js";
import { localImageDigest } from "./image.js";
import type { NpmOptions } from "./npm-settings.js";
import type { ArtifactSource } from "./source.js";
import { firstLine } from "../connect/session.js";
import { neutralize } from "../text/neutralize.js";
import { closure, decodePackage, encodePackage, isTreeLocation, MAX_TREE_PACKAGES, type TreeNode, treeSha256 } from "./tree.js";
import type { ArtifactRecord, NpmArtifact, ProvenanceIdentity, RegistrySignature, TreePackage } from "./types.js";

/** The registry facts of the release, for the trust checks (signature, provenance). */
export interface ReleaseFacts {
  name: string;
  version: string;
  integrity: string | null;
  signatures: unknown;
  attestationsUrl: string | null;
  publishedAt: string | null;
}

/** Checks the trust of a release; injected so resolution stays testable without a registry's keys. */
export interface TrustCheck {
  signature(release: ReleaseFacts): Promise<RegistrySignature>;
  provenance(release: ReleaseFacts): Promise<ProvenanceIdentity | null>;
}

/** What resolution found, and how: `offline` when the registry could not be reached and npm's cache answered. */
export interface Resolved {
  artifact: ArtifactRecord | null;
  /** Why nothing is pinned, when `artifact` is null. */
  unpinned: string | null;
  offline: boolean;
}

/** Resolve a launch's artifact. Registry packages go through pacote and Arborist with the user's npm settings. */
export async function resolveArtifact(source: ArtifactSource, npm: NpmOptions, trust: TrustCheck, locked: ArtifactRecord | null = null): Promise<Resolved> {
  switch (source.type) {
    case "none":
      return { artifact: null, unpinned: source.reason, offline: false };
    case "image": {
      // A tag is pinned by what the runtime holds under it, when it can tell.
      const digest = source.digest ?? (await localImageDigest(source.runtime, source.reference));
      return {
        artifact: { type: "image", reference: source.reference, digest },
        unpinned: digest === null ? "the image is run by tag, and the container runtime could not tell its digest" : null,
        offline: false,
      };
    }
    case "pypi":
      return {
        artifact: { type: "pypi", name: source.name, version: source.version },
        unpinned: source.version === null ? "no exact version" : null,
        offline: false,
      };
    case "npm-install":
      return { artifact: await installedArtifact(source.root, source.name, source.script), unpinned: null, offline: false };
    case "npm":
      try {
        // A check must see what the registry serves now, not a packument cached minutes ago (a 304 is cheap).
        const online = { ...npm, preferOnline: true };
        // npm's fetch answers from its cache when the registry cannot be reached; the package's own answer tells.
        const { artifact, offline } = await registryArtifact(source.request, online, trust, locked);
        return { artifact, unpinned: null, offline };
      } catch (error) {
        if (!unreachable(error)) throw asArtifactError(error, source.request);
      }
      try {
        return { artifact: (await registryArtifact(source.request, { ...npm, offline: true }, trust)).artifact, unpinned: null, offline: true };
      } catch (error) {
        throw asArtifactError(error, source.request, "the registry cannot be reached and npm's cache does not hold it");
      }
  }
}

/**
 * resolveArtifact, where a package the registry cannot give (no such package or version, a registry
 * that cannot be reached with nothing cached) pins nothing and says why, rather than stopping the run:
 * a first lock is written without an artifact, and a check of a lock that pins one reports it. A
 * signature or attestation that fails verification still stops the run.
 */
export async function resolveOrExplain(source: ArtifactSource, npm: NpmOptions, trust: TrustCheck, locked: ArtifactRecord | null = null): Promise<Resolved> {
  try {
    return await resolveArtifact(source, npm, trust, locked);
  } catch (error) {
    if (!(error instanceof ArtifactError)) throw error;
    return { artifact: null, unpinned: error.message, offline: false };
  }
}

/** Requests to the registry at once: a locked tree's packuments are asked for together, in one round trip. */
const MAX_SOCKETS = 64;

async function registryArtifact(
  request: string,
  npm: NpmOptions,
  trust: TrustCheck,
  locked: ArtifactRecord | null = null,
): Promise<{ artifact: NpmArtifact; offline: boolean }> {
  // Packuments read once per run and shared by pacote and Arborist, whatever HTTP caching the registry allows.
  const packumentCache = new Map<string, unknown>();
  const options = { ...npm, maxSockets: MAX_SOCKETS, packumentCache };
  const online = npm.preferOnline === true;
  // With a locked tree, every packument it names is asked for at once, beside the package's own
  // (full) packument; Arborist then builds from those and asks only for names new to the tree.
  // Without one, Arborist asks level by level.
  const [offline] = await Promise.all([
    online ? answeredFromCache(request, options, packumentCache) : Promise.resolve(npm.offline === true),
    locked?.type === "npm" && online ? revalidate(locked, options) : null,
  ]);
  const manifest = (await pacote.manifest(request, { ...options, fullMetadata: true } as unknown as Parameters<
    typeof pacote.manifest
  >[1])) as unknown as pacote.Manifest & pacote.ManifestResult & { _time?: string };
  const dist = (manifest.dist ?? {}) as { integrity?: string; signatures?: unknown; attestations?: { url?: unknown } };
  const release: ReleaseFacts = {
    name: manifest.name,
    version: manifest.version,
    integrity: dist.integrity ?? manifest._integrity ?? null,
    signatures: dist.signatures,
    attestationsUrl: typeof dist.attestations?.url === "string" ? dist.attestations.url : null,
    publishedAt: manifest._time ?? null,
  };
  // The signature and provenance are checked while the tree is built.
  const checks = Promise.all([trust.signature(release), trust.provenance(release)]);
  checks.catch(() => undefined);
  const parsed = npa(request);
  // The tree of exactly the resolved version, so the tree and the version can never disagree.
  const key = parsed.name ?? manifest.name;
  const spec = parsed.type === "alias" ? `npm:${manifest.name}@${manifest.version}` : manifest.version;
  const folder = await mkdtemp(join(tmpdir(), "mcp-lint-tree-"));
  try {
    await writeFile(
      join(folder, "package.json"),
      JSON.stringify({ name: "mcp-lint-artifact", version: "0.0.0", private: true, dependencies: { [key]: spec } }),
    );
    const arborist = new Arborist({ ...options, path: folder, audit: false, fund: false } as ConstructorParameters<typeof Arborist>[0]);
    const ideal = await arborist.buildIdealTree();
    const node = ideal.children.get(key);
    if (node === undefined) throw new ArtifactError(`${request}: npm resolved no package (the tree is empty)`);
    const tree = limited(closure(treeNode(node)));
    const [signature, provenance] = await checks;
    const artifact: NpmArtifact = {
      type: "npm",
      name: manifest.name,
      version: manifest.version,
      integrity: release.integrity,
      signature,
      provenance,
      treeSha256: treeSha256(tree),
      tree,
    };
    return { artifact, offline };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Fetch the package's full packument as pacote would and hand it to pacote through the shared cache;
 * true when npm's fetch answered from its disk cache because the registry could not be reached.
 */
async function answeredFromCache(request: string, npm: NpmOptions, packumentCache: Map<string, unknown>): Promise<boolean> {
  const parsed = npa(request);
  const spec = parsed.type === "alias" ? (parsed as npa.AliasResult).subSpec : parsed;
  if (spec.name === null || spec.name === undefined || spec.escapedName === null || spec.escapedName === undefined) return false;
  const url = `${npmFetch.pickRegistry(spec.name, npm).replace(/\/+$/, "")}/${spec.escapedName}`;
  const response = await npmFetch(url, { ...npm, headers: { accept: "application/json" } });
  const packument = (await response.json()) as Record<string, unknown>;
  // pacote's own key for a full packument of this URL (registry.js): the manifest is then read from here.
  packumentCache.set(`full:${url}`, packument);
  return response.headers.get("x-local-cache-status") === "stale";
}

/** Ask for every packument a locked tree names, at once, so npm's cache holds what the registry serves now. */
async function revalidate(locked: NpmArtifact, options: NpmOptions): Promise<void> {
  const names = new Set([...locked.tree.values()].map((item) => item.name));
  // A name the registry no longer has is left for Arborist to report.
  // Full packuments: Arborist 9 reads every manifest with fullMetadata, so these are the ones it looks up.
  const full = { ...options, fullMetadata: true } as unknown as Parameters<typeof pacote.packument>[1];
  await Promise.all([...names].map((name) => pacote.packument(name, full).catch(() => undefined)));
}

/** A package installed in a project (`node path/node_modules/pkg/...`): its tree as that install holds it. */
async function installedArtifact(root: string, name: string, script: string): Promise<NpmArtifact> {
  const rootPath = resolvePath(root);
  let actual: Arborist.Node;
  try {
    actual = await new Arborist({ path: rootPath } as ConstructorParameters<typeof Arborist>[0]).loadActual();
  } catch (error) {
    throw new ArtifactError(`cannot read the install at ${root}: ${message(error)}`);
  }
  const marker = script.replaceAll("\\", "/").lastIndexOf("node_modules/");
  const folder = resolvePath(script.replaceAll("\\", "/").slice(0, marker + "node_modules/".length + name.length));
  const location = relative(rootPath, folder).split("\\").join("/");
  const node = actual.inventory.get(location);
  if (node === undefined || node.package.name !== name) throw new ArtifactError(`${script}: no package ${name} is installed there; run npm install first`);
  const tree = limited(closure(treeNode(node)));
  const own = tree.get(location) as TreePackage;
  return {
    type: "npm",
    name,
    version: own.version,
    integrity: own.integrity,
    signature: "unchecked",
    provenance: null,
    treeSha256: treeSha256(tree),
    tree,
  };
}

function treeNode(node: Arborist.Node): TreeNode {
  return {
    location: node.location,
    packageName: node.packageName,
    version: node.version,
    integrity: node.integrity ?? null,
    hasInstallScript: node.hasInstallScript,
    optional: node.optional,
    *dependencies() {
      for (const edge of node.edgesOut.values()) {
        const target = edge.to;
        if (target !== null && target !== undefined && !target.isRoot) yield treeNode(target.isLink ? target.target : target);
      }
    },
  };
}

/** The tree as the lock can hold it: bounded, and every place and line one the lock reads back (a hostile registry's names included). */
function limited(tree: Map<string, TreePackage>): Map<string, TreePackage> {
  if (tree.size > MAX_TREE_PACKAGES) throw new ArtifactError(`the dependency tree has ${tree.size} packages, more than the ${MAX_TREE_PACKAGES} mcp-lint pins`);
  for (const [location, item] of tree) {
    if (!isTreeLocation(location) || decodePackage(encodePackage(item)) === null) {
      throw new ArtifactError(
        `the dependency tree holds a package mcp-lint cannot record (${neutralize(location.slice(0, 200))}); the registry served a name or version npm would not publish`,
      );
    }
  }
  return tree;
}

/** A network failure (no route, refused, timed out, DNS), as opposed to an answer the registry gave. */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === "string" &&
    /^(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|FETCH_ERROR|ERR_SOCKET_TIMEOUT|UND_ERR_\w+)$/.test(code)
  );
}

function asArtifactError(error: unknown, request: string, context?: string): McpLintError {
  // Already one line for the user (a failed signature or attestation names the release itself).
  if (error instanceof McpLintError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const what =
    code === "E404"
      ? "the registry has no such package"
      : code === "ETARGET"
        ? "the registry has no version that matches"
        : code === "EINTEGRITY"
          ? "the registry's integrity does not match"
          : (context ?? message(error));
  return new ArtifactError(`cannot resolve ${request}: ${what}`);
}

function message(error: unknown): string {
  // A registry URL can carry user info (a token); a message never shows it.
  return neutralize(
    firstLine(error)
      .replace(/\/\/[^/\s@]*@/g, "//")
      .slice(0, 300),
  );
}
