/** The lock's `artifact` section: written from a record, read back strictly. Pure. */

import { decodePackage, isTreeLocation, MAX_TREE_PACKAGES, treeObject, treeSha256 } from "./tree.js";
import type { ArtifactRecord, ProvenanceIdentity, RegistrySignature, TreePackage } from "./types.js";

type JsonObject = Record<string, unknown>;
type Fail = (what: string) => never;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const SIGNATURES: readonly RegistrySignature[] = ["verified", "absent", "unchecked"];
const MAX_TEXT = 2048;

/** The section as JSON, keys in the lock's sorted order. */
export function artifactJson(record: ArtifactRecord): JsonObject {
  switch (record.type) {
    case "npm":
      return {
        integrity: record.integrity,
        name: record.name,
        provenance: record.provenance === null ? null : provenanceJson(record.provenance),
        signature: record.signature,
        tree: treeObject(record.tree),
        tree_sha256: record.treeSha256,
        type: "npm",
        version: record.version,
      };
    case "image":
      return { digest: record.digest, reference: record.reference, type: "image" };
    case "pypi":
      return { name: record.name, type: "pypi", version: record.version };
  }
}

function provenanceJson(identity: ProvenanceIdentity): JsonObject {
  return { builder: identity.builder, ref: identity.ref, repository: identity.repository, workflow: identity.workflow };
}

/** Read a section back; `fail` throws with the lock's usual message. */
export function parseArtifact(value: unknown, at: string, fail: Fail): ArtifactRecord {
  const object = asObject(value, `${at}"artifact"`, fail);
  const type = object.type;
  const keys = (allowed: string[]) => {
    for (const key of Object.keys(object)) if (!allowed.includes(key)) fail(`unknown key ${JSON.stringify(key)} in ${at}"artifact"`);
    for (const key of allowed) if (!Object.hasOwn(object, key)) fail(`missing key ${JSON.stringify(key)} in ${at}"artifact"`);
  };
  const text = (key: string): string => {
    const item = object[key];
    if (typeof item !== "string" || item === "" || item.length > MAX_TEXT) return fail(`${at}"artifact.${key}" must be a non-empty string`);
    return item;
  };
  const nullable = (key: string): string | null => (object[key] === null ? null : text(key));
  if (type === "image") {
    keys(["digest", "reference", "type"]);
    return { type, reference: text("reference"), digest: nullable("digest") };
  }
  if (type === "pypi") {
    keys(["name", "type", "version"]);
    return { type, name: text("name"), version: nullable("version") };
  }
  if (type !== "npm") return fail(`${at}"artifact.type" must be "npm", "image" or "pypi"`);
  keys(["integrity", "name", "provenance", "signature", "tree", "tree_sha256", "type", "version"]);
  const signature = object.signature;
  if (!SIGNATURES.includes(signature as RegistrySignature)) return fail(`${at}"artifact.signature" must be one of ${SIGNATURES.join(", ")}`);
  const digest = text("tree_sha256");
  if (!SHA256_HEX.test(digest)) return fail(`${at}"artifact.tree_sha256" must be 64 lowercase hex digits`);
  const tree = parseTree(object.tree, at, fail);
  if (treeSha256(tree) !== digest) return fail(`${at}"artifact.tree_sha256" does not match the tree (edited by hand?)`);
  return {
    type,
    name: text("name"),
    version: text("version"),
    integrity: nullable("integrity"),
    signature: signature as RegistrySignature,
    provenance: object.provenance === null ? null : parseProvenance(object.provenance, at, fail),
    treeSha256: digest,
    tree,
  };
}

function parseTree(value: unknown, at: string, fail: Fail): Map<string, TreePackage> {
  const object = asObject(value, `${at}"artifact.tree"`, fail);
  const locations = Object.keys(object);
  if (locations.length > MAX_TREE_PACKAGES) return fail(`${at}"artifact.tree" holds more than ${MAX_TREE_PACKAGES} packages`);
  const tree = new Map<string, TreePackage>();
  for (const location of locations) {
    const line = object[location];
    if (!isTreeLocation(location))
      return fail(`${at}"artifact.tree" has a location that is not a node_modules path: ${JSON.stringify(location.slice(0, 200))}`);
    const item = typeof line === "string" && line.length <= MAX_TEXT ? decodePackage(line) : null;
    if (item === null) return fail(`${at}"artifact.tree" entry ${JSON.stringify(location)} must read "name@version integrity [install-script] [optional]"`);
    tree.set(location, item);
  }
  return tree;
}

function parseProvenance(value: unknown, at: string, fail: Fail): ProvenanceIdentity {
  const object = asObject(value, `${at}"artifact.provenance"`, fail);
  const allowed = ["builder", "ref", "repository", "workflow"];
  for (const key of Object.keys(object)) if (!allowed.includes(key)) fail(`unknown key ${JSON.stringify(key)} in ${at}"artifact.provenance"`);
  const field = (key: string, required: boolean): string | null => {
    const item = object[key];
    if (item === null || item === undefined) return required ? fail(`${at}"artifact.provenance.${key}" must be a string`) : null;
    if (typeof item !== "string" || item.length > MAX_TEXT) return fail(`${at}"artifact.provenance.${key}" must be a string`);
    return item;
  };
  return {
    repository: field("repository", true) as string,
    workflow: field("workflow", true) as string,
    ref: field("ref", false),
    builder: field("builder", false),
  };
}

function asObject(value: unknown, where: string, fail: Fail): JsonObject {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return fail(`${where} must be an object`);
  return value as JsonObject;
}
