/** The locked dependency tree as text: one line per package, sorted by install location, and its digest. Pure. */

import { canonicalSha256 } from "../json/canonical.js";
import type { TreePackage } from "./types.js";

/** More packages than any real server installs; a lock holding more was not written by mcp-lint. */
export const MAX_TREE_PACKAGES = 20_000;

const INSTALL_SCRIPT = "install-script";
const OPTIONAL = "optional";
const LOCATION = /^node_modules\/(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9_.~-][\w.~-]*(?:\/node_modules\/(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9_.~-][\w.~-]*)*$/i;
const NAME = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9_.~-][\w.~-]*$/i;
const VERSION = /^[0-9A-Za-z.+-]{1,256}$/;
const INTEGRITY = /^(?:sha(?:1|256|384|512)-[A-Za-z0-9+/=]+)(?: sha(?:1|256|384|512)-[A-Za-z0-9+/=]+)*$/;

/** `name@version integrity [install-script] [optional]`: what a reviewer reads in the lock's diff. */
export function encodePackage(item: TreePackage): string {
  const parts = [`${item.name}@${item.version}`, item.integrity ?? "no-integrity"];
  if (item.installScript) parts.push(INSTALL_SCRIPT);
  if (item.optional) parts.push(OPTIONAL);
  return parts.join(" ");
}

/** Read one line back; null when it is not one encodePackage writes. */
export function decodePackage(text: string): TreePackage | null {
  const [id, integrity, ...flags] = text.split(" ");
  if (id === undefined || integrity === undefined) return null;
  const at = id.lastIndexOf("@");
  if (at <= 0) return null;
  const name = id.slice(0, at);
  const version = id.slice(at + 1);
  if (!NAME.test(name) || !VERSION.test(version)) return null;
  if (integrity !== "no-integrity" && !INTEGRITY.test(integrity)) return null;
  if (flags.some((flag) => flag !== INSTALL_SCRIPT && flag !== OPTIONAL) || new Set(flags).size !== flags.length) return null;
  return {
    name,
    version,
    integrity: integrity === "no-integrity" ? null : integrity,
    installScript: flags.includes(INSTALL_SCRIPT),
    optional: flags.includes(OPTIONAL),
  };
}

/** Whether a location is a plain `node_modules/<name>` path, possibly nested: no `..`, no absolute path. */
export function isTreeLocation(location: string): boolean {
  return location.length <= 4096 && LOCATION.test(location) && !location.split("/").some((part) => part === "." || part === "..");
}

/** The tree as the lock writes it: locations in sorted order, each with its encoded line. */
export function treeObject(tree: ReadonlyMap<string, TreePackage>): Record<string, string> {
  const object = Object.create(null) as Record<string, string>;
  for (const location of [...tree.keys()].sort()) object[location] = encodePackage(tree.get(location) as TreePackage);
  return object;
}

/** SHA-256 over the RFC 8785 form of the written tree. */
export function treeSha256(tree: ReadonlyMap<string, TreePackage>): string {
  return canonicalSha256(treeObject(tree));
}

/** A node of an installed or ideal tree, as npm's Arborist describes it (only what the lock needs). */
export interface TreeNode {
  location: string;
  packageName: string;
  version: string;
  integrity: string | null;
  hasInstallScript: boolean;
  optional: boolean;
  /** Nodes this one depends on (resolved edges). */
  dependencies(): Iterable<TreeNode>;
}

/** The packages a node needs: itself and everything its dependency edges reach, by location. */
export function closure(start: TreeNode): Map<string, TreePackage> {
  const tree = new Map<string, TreePackage>();
  const queue: TreeNode[] = [start];
  while (queue.length > 0) {
    const node = queue.pop() as TreeNode;
    if (tree.has(node.location)) continue;
    tree.set(node.location, {
      name: node.packageName,
      version: node.version,
      integrity: node.integrity,
      installScript: node.hasInstallScript,
      optional: node.optional,
    });
    for (const next of node.dependencies()) if (!tree.has(next.location)) queue.push(next);
  }
  return tree;
}
