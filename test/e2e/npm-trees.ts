// Shared by the pinned-install tests: locked npm trees built at test time from real registry manifests.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pacote from "pacote";
import type { NpmArtifact, TreePackage } from "../../src/artifact/types.js";

/** A tree package read from the registry the options name (its exact version and integrity). */
export async function treePackage(spec: string, npmOptions: Record<string, unknown>, extra: Partial<TreePackage> = {}): Promise<TreePackage> {
  const manifest = await pacote.manifest(spec, npmOptions as pacote.Options);
  return { name: manifest.name, version: manifest.version, integrity: manifest._integrity, installScript: false, optional: false, ...extra };
}

/** The artifact of a tree whose server package sits at `node_modules/<server>`; the digest is over the entries, sorted. */
export function artifactOf(server: string, entries: Array<[string, TreePackage]>, treeSha256?: string): NpmArtifact {
  const tree = new Map(entries);
  const own = tree.get(`node_modules/${server}`);
  if (own === undefined) throw new Error(`the tree has no node_modules/${server}`);
  const canonical = JSON.stringify([...tree].sort(([a], [b]) => (a < b ? -1 : 1)));
  const digest = treeSha256 ?? createHash("sha256").update(canonical).digest("hex");
  return { type: "npm", name: server, version: own.version, integrity: own.integrity, signature: "unchecked", provenance: null, treeSha256: digest, tree };
}

/** The version of the package installed at `location` under `dir`. */
export function installedVersion(dir: string, location: string): string {
  return (JSON.parse(readFileSync(join(dir, ...location.split("/"), "package.json"), "utf8")) as { version: string }).version;
}
