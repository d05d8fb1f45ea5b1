/** Compare the artifact a launch runs today with the locked one: version, tarball, tree and provenance. Pure. */

import type { KnownBadList } from "../install/bad-list.js";
import { matchVersion } from "../install/bad-match.js";
import type { Change } from "../lock/kinds.js";
import type { ArtifactRecord, NpmArtifact, ProvenanceIdentity, TreePackage } from "./types.js";

/** One package of a tree change, as the report lists it. */
export interface PackageChange {
  location: string;
  name: string;
  /** `version` before, or null when added. */
  before: string | null;
  /** `version` after, or null when removed. */
  after: string | null;
  /** Same version, another tarball. */
  integrityChanged: boolean;
  /** The package has an install script now and did not before (or is new with one). */
  gainedInstallScript: boolean;
  /** The new release is on the known-bad list: its advisory id. */
  knownBad: string | null;
}

/** Changes between the locked artifact and today's; nothing when the lock holds none. */
export function compareArtifacts(
  locked: ArtifactRecord | null,
  current: ArtifactRecord | null,
  knownBad: KnownBadList,
  unpinned: string | null = null,
): Change[] {
  if (locked === null) return [];
  if (current === null) {
    return [artifactChange("unpinned", describe(locked), unpinned ?? "the launch fetches no package that can be pinned")];
  }
  if (locked.type !== current.type) return [artifactChange("type", describe(locked), describe(current))];
  if (locked.type === "image" && current.type === "image") {
    if (locked.digest === current.digest && locked.reference === current.reference) return [];
    return [artifactChange(locked.digest !== current.digest ? "digest" : "reference", describe(locked), describe(current))];
  }
  if (locked.type === "pypi" && current.type === "pypi") {
    return locked.name === current.name && locked.version === current.version ? [] : [artifactChange("version", describe(locked), describe(current))];
  }
  return compareNpm(locked as NpmArtifact, current as NpmArtifact, knownBad);
}

function compareNpm(locked: NpmArtifact, current: NpmArtifact, knownBad: KnownBadList): Change[] {
  const changes: Change[] = [];
  if (locked.name !== current.name || locked.version !== current.version) {
    changes.push(artifactChange("version", describe(locked), describe(current)));
  } else if (locked.integrity !== current.integrity) {
    changes.push({
      kind: "artifact_changed",
      severity: "error",
      tool: null,
      args: { reason: "integrity", before: locked.integrity, after: current.integrity, detail: { package: `${current.name}@${current.version}` } },
    });
  }
  const packages = treeChanges(locked, current, knownBad);
  if (packages.length > 0) {
    const serious = packages.some((item) => item.gainedInstallScript || item.knownBad !== null);
    changes.push({
      kind: "dependencies_changed",
      severity: serious ? "error" : "warning",
      tool: null,
      args: {
        reason: serious ? "install_script_or_known_bad" : "tree",
        after: packages,
        detail: {
          added: packages.filter((item) => item.before === null).length,
          removed: packages.filter((item) => item.after === null).length,
          changed: packages.filter((item) => item.before !== null && item.after !== null).length,
        },
      },
    });
  }
  const provenance = provenanceChange(locked, current);
  if (provenance !== null) changes.push(provenance);
  return changes;
}

/** Every package added, removed or changed between two trees, the server's own package left to artifact_changed. */
export function treeChanges(locked: NpmArtifact, current: NpmArtifact, knownBad: KnownBadList): PackageChange[] {
  const own = (artifact: NpmArtifact, location: string) => artifact.tree.get(location)?.name === artifact.name && location === `node_modules/${artifact.name}`;
  const out: PackageChange[] = [];
  const locations = new Set([...locked.tree.keys(), ...current.tree.keys()]);
  for (const location of [...locations].sort()) {
    if (own(locked, location) || own(current, location)) continue;
    const before = locked.tree.get(location) ?? null;
    const after = current.tree.get(location) ?? null;
    if (before !== null && after !== null && samePackage(before, after)) continue;
    const bad = after === null ? null : matchVersion(knownBad, "npm", after.name, after.version);
    out.push({
      location,
      name: (after ?? before)?.name ?? location,
      before: before === null ? null : before.name === after?.name || after === null ? before.version : `${before.name}@${before.version}`,
      after: after?.version ?? null,
      integrityChanged:
        before !== null && after !== null && before.version === after.version && before.name === after.name && before.integrity !== after.integrity,
      gainedInstallScript: after?.installScript === true && before?.installScript !== true,
      knownBad: bad === null ? null : (bad.entry.id ?? "on the known-bad list"),
    });
  }
  return out;
}

function samePackage(a: TreePackage, b: TreePackage): boolean {
  return a.name === b.name && a.version === b.version && a.integrity === b.integrity && a.installScript === b.installScript && a.optional === b.optional;
}

function provenanceChange(locked: NpmArtifact, current: NpmArtifact): Change | null {
  const before = locked.provenance;
  const after = current.provenance;
  if (before !== null && after === null) {
    return { kind: "provenance_changed", severity: "error", tool: null, args: { reason: "lost", before: identityText(before), after: null } };
  }
  if (before !== null && after !== null && (before.repository !== after.repository || before.workflow !== after.workflow)) {
    return { kind: "provenance_changed", severity: "error", tool: null, args: { reason: "source", before: identityText(before), after: identityText(after) } };
  }
  if (locked.signature === "verified" && current.signature === "absent") {
    return { kind: "provenance_changed", severity: "error", tool: null, args: { reason: "signature_lost", before: "verified", after: "absent" } };
  }
  if (before === null && after !== null) {
    return { kind: "provenance_changed", severity: "info", tool: null, args: { reason: "gained", before: null, after: identityText(after) } };
  }
  return null;
}

/** `https://github.com/o/r, .github/workflows/release.yml`: the part of an identity that is compared. */
export function identityText(identity: ProvenanceIdentity): string {
  return `${identity.repository} ${identity.workflow}`;
}

function artifactChange(reason: string, before: string, after: string): Change {
  return { kind: "artifact_changed", severity: "error", tool: null, args: { reason, before, after } };
}

/** One line naming an artifact: `npm server@1.0.0`, `image ghcr.io/x/y@sha256:...`, `pypi tool==1.2`. */
export function describe(record: ArtifactRecord): string {
  switch (record.type) {
    case "npm":
      return `${record.name}@${record.version}`;
    case "image":
      return record.digest === null ? record.reference : `${record.reference.replace(/@sha256:[0-9a-f]+$/, "")}@${record.digest}`;
    case "pypi":
      return record.version === null ? record.name : `${record.name}==${record.version}`;
  }
}
