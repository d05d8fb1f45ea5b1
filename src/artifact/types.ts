/** What the lock records about the code a server runs (its `artifact` section), as data. Pure. */

/** Who built a release, from its verified provenance attestation (SLSA provenance, as npm publishes it). */
export interface ProvenanceIdentity {
  /** Source repository, as the attestation names it (`https://github.com/owner/repo`). */
  repository: string;
  /** Workflow file inside that repository (`.github/workflows/release.yml`). */
  workflow: string;
  /** Git ref the workflow ran on (`refs/tags/v1.2.3`); recorded, not compared: every release has its own. */
  ref: string | null;
  /** Builder id (`https://github.com/actions/runner/github-hosted`). */
  builder: string | null;
}

/** One package of an installed tree. */
export interface TreePackage {
  /** The package's own name (differs from the folder name for an alias). */
  name: string;
  version: string;
  /** Registry integrity (SRI, usually sha512); null when the registry gives none. */
  integrity: string | null;
  /** The package declares an install script (`preinstall`, `install`, `postinstall`, or a binding.gyp). */
  installScript: boolean;
  /** Only installed where its platform matches (an optional dependency). */
  optional: boolean;
}

/** How the registry's own signature over `name@version:integrity` stood when the artifact was read. */
export type RegistrySignature = "verified" | "absent" | "unchecked";

/** An npm package launched through a package runner, with the whole tree npm installs for it. */
export interface NpmArtifact {
  type: "npm";
  name: string;
  version: string;
  integrity: string | null;
  signature: RegistrySignature;
  /** Verified provenance identity, or null when the release has none. */
  provenance: ProvenanceIdentity | null;
  /** SHA-256 over the canonical tree, so two trees compare in one look. */
  treeSha256: string;
  /** Packages by install location (`node_modules/a/node_modules/b`), the server's own included. */
  tree: Map<string, TreePackage>;
}

/** A container image run by docker or podman. */
export interface ImageArtifact {
  type: "image";
  /** The image reference as launched, without credentials. */
  reference: string;
  /** Content digest (`sha256:...`) when the reference or the runtime tells it. */
  digest: string | null;
}

/** A Python package run by uvx or pipx. */
export interface PypiArtifact {
  type: "pypi";
  name: string;
  /** The exact version when the launch pins one. */
  version: string | null;
}

/** What the lock records about what runs. */
export type ArtifactRecord = NpmArtifact | ImageArtifact | PypiArtifact;
