/** What a locked npm tree installs where, checked first, because a lock is a file anyone can edit. Pure. */

import npa from "npm-package-arg";
import semver from "semver";
import ssri from "ssri";
import { ArtifactInstallError } from "../errors.js";
import { capDisplay, neutralize } from "../text/neutralize.js";
import type { NpmArtifact, TreePackage } from "./types.js";

/** One package of the tree, at a location that is known to stay inside the install folder. */
export interface PlannedPackage extends TreePackage {
  /** The location as locked (`node_modules/a/node_modules/@s/b`). */
  location: string;
  /** The same location as path segments, to join onto the install folder. */
  segments: string[];
  /** How many node_modules folders deep it sits (1 at the top). */
  depth: number;
  /** Location of the package it is nested in; null at the top level. */
  parent: string | null;
  integrity: string;
}

/** The checked tree: every package in install order (a parent before what it holds), and the server's own package. */
export interface InstallPlan {
  treeSha256: string;
  packages: PlannedPackage[];
  server: PlannedPackage;
}

const DIGEST = /^[0-9a-f]{64}$/;
/** Hash algorithms the registry has published; anything else (md5, a made-up name) proves nothing. */
const KNOWN_ALGORITHMS = new Set(["sha1", "sha256", "sha384", "sha512"]);
/** Longest name shown in an error: the lock is hostile, its names could be anything. */
const SHOWN = 120;

/** Check a locked tree and order it for installing; throws ArtifactInstallError naming the first package that cannot be installed exactly. */
export function planInstall(artifact: NpmArtifact): InstallPlan {
  if (typeof artifact.treeSha256 !== "string" || !DIGEST.test(artifact.treeSha256)) {
    throw refuse(`${show(`${artifact.name}@${artifact.version}`)}: the lock's tree digest is not a SHA-256 hex digest`);
  }
  const packages: PlannedPackage[] = [];
  for (const [location, pkg] of artifact.tree) packages.push(planPackage(location, pkg));
  const locations = new Set(packages.map((pkg) => pkg.location));
  for (const pkg of packages) {
    if (pkg.parent !== null && !locations.has(pkg.parent)) {
      throw refuse(`${described(pkg)} is nested in ${show(pkg.parent)}, which the lock does not list`);
    }
  }
  packages.sort((a, b) => a.depth - b.depth || (a.location < b.location ? -1 : a.location > b.location ? 1 : 0));
  const serverLocation = `node_modules/${artifact.name}`;
  const server = packages.find((pkg) => pkg.location === serverLocation);
  const integrityAgrees = artifact.integrity === null || server?.integrity === artifact.integrity;
  if (server === undefined || server.name !== artifact.name || server.version !== artifact.version || !integrityAgrees) {
    throw refuse(`the lock's tree does not hold ${show(`${artifact.name}@${artifact.version}`)} at ${show(serverLocation)}`);
  }
  return { treeSha256: artifact.treeSha256, packages, server };
}

function planPackage(location: string, pkg: TreePackage): PlannedPackage {
  const where = show(location);
  const folders = parseLocation(location);
  if (folders === null) throw refuse(`${where} is not a node_modules location inside the install folder`);
  const spec = registrySpec(pkg.name, pkg.version);
  if (spec === null) throw refuse(`${show(`${pkg.name}@${pkg.version}`)} (${where}) is not an exact registry version`);
  const integrity = pkg.integrity;
  if (integrity === null || !knownIntegrity(integrity)) {
    throw refuse(`${show(spec)} (${where}) has no usable integrity in the lock, so what it is cannot be proven`);
  }
  const segments = folders.flatMap((folder) => ["node_modules", ...folder.split("/")]);
  const parent =
    folders.length > 1
      ? folders
          .slice(0, -1)
          .map((folder) => `node_modules/${folder}`)
          .join("/")
      : null;
  return { ...pkg, integrity, location, segments, depth: folders.length, parent };
}

/**
 * The package folders of a location (`node_modules/a/node_modules/@s/b` gives `a`, `@s/b`), or null when
 * it is anything else: an absolute path, a backslash, `..`, an empty segment, a name npm would refuse.
 */
export function parseLocation(location: string): string[] | null {
  if (typeof location !== "string" || location.includes("\\") || location.includes("\0")) return null;
  const parts = location.split("/");
  const folders: string[] = [];
  let index = 0;
  while (index < parts.length) {
    if (parts[index] !== "node_modules") return null;
    const first = parts[index + 1];
    if (first === undefined) return null;
    const scoped = first.startsWith("@");
    const second = scoped ? parts[index + 2] : undefined;
    if (scoped && second === undefined) return null;
    const folder = scoped ? `${first}/${second}` : first;
    if (!validName(folder)) return null;
    folders.push(folder);
    index += scoped ? 3 : 2;
  }
  return folders.length > 0 ? folders : null;
}

/** `name@version` when the name is one npm accepts and the version is an exact registry version (never a git, file or URL spec, which could run code to fetch). */
function registrySpec(name: unknown, version: unknown): string | null {
  if (typeof name !== "string" || typeof version !== "string" || !validName(name)) return null;
  // Exactly as the registry spells versions: npm-package-arg alone also takes `v1.0.0`, `=1.0.0` and spaces.
  if (!/^[0-9][0-9A-Za-z.+-]*$/.test(version) || semver.valid(version) === null) return null;
  try {
    const parsed = npa.resolve(name, version, "/");
    return parsed.type === "version" ? `${name}@${version}` : null;
  } catch {
    return null;
  }
}

function validName(name: string): boolean {
  if (name === "" || name === "." || name === ".." || name.split("/").some((part) => part === "." || part === "..")) return false;
  try {
    npa.resolve(name, "1.0.0", "/");
    return true;
  } catch {
    return false;
  }
}

function knownIntegrity(integrity: unknown): boolean {
  if (typeof integrity !== "string") return false;
  const parsed = ssri.parse(integrity);
  if (parsed === null) return false;
  const algorithms = Object.keys(parsed);
  return algorithms.length > 0 && algorithms.every((algorithm) => KNOWN_ALGORITHMS.has(algorithm));
}

/** The text of the completion mark: the digest, whether install scripts ran, and every locked package, so a folder filed under a digest its tree does not have is never reused. */
export function completionMark(plan: InstallPlan, scriptsRan: boolean): string {
  const packages = Object.fromEntries(plan.packages.map((pkg) => [pkg.location, `${pkg.name}@${pkg.version} ${pkg.integrity}`]));
  return `${JSON.stringify({ treeSha256: plan.treeSha256, installScripts: scriptsRan, packages })}\n`;
}

/** A planned package for an error line: `name@version (location)`, inert. */
export function described(pkg: PlannedPackage): string {
  return `${show(`${pkg.name}@${pkg.version}`)} (${show(pkg.location)})`;
}

/** The error every refusal throws: one line saying the tree cannot be installed exactly, and why. */
export function refuse(reason: string): ArtifactInstallError {
  return new ArtifactInstallError(`cannot install the locked tree exactly: ${reason}`);
}

function show(text: string): string {
  return capDisplay(neutralize(String(text)), SHOWN);
}
