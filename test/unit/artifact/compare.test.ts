import { describe, expect, it } from "vitest";
import { compareArtifacts } from "../../../src/artifact/compare.js";
import { artifactJson, parseArtifact } from "../../../src/artifact/lock-section.js";
import { decodePackage, encodePackage, isTreeLocation, treeSha256 } from "../../../src/artifact/tree.js";
import type { NpmArtifact, TreePackage } from "../../../src/artifact/types.js";
import { loadKnownBad } from "../../../src/install/bad-list.js";
import { changeMessage } from "../../../src/report/messages.js";

const pkg = (name: string, version: string, extra: Partial<TreePackage> = {}): TreePackage => ({
  name,
  version,
  integrity: `sha512-${Buffer.from(`${name}@${version}`).toString("base64")}`,
  installScript: false,
  optional: false,
  ...extra,
});

function artifact(tree: Record<string, TreePackage>, extra: Partial<NpmArtifact> = {}): NpmArtifact {
  const map = new Map(Object.entries(tree));
  return {
    type: "npm",
    name: "server",
    version: "1.0.0",
    integrity: "sha512-c2VydmVy",
    signature: "verified",
    provenance: { repository: "https://github.com/o/server", workflow: ".github/workflows/release.yml", ref: "refs/tags/v1.0.0", builder: null },
    treeSha256: treeSha256(map),
    tree: map,
    ...extra,
  };
}

const base = { "node_modules/server": pkg("server", "1.0.0"), "node_modules/helper": pkg("helper", "1.0.0") };
const none = { entries: [] };
const fail = (what: string): never => {
  throw new Error(what);
};

describe("the tree's text", () => {
  it("round-trips every flag and refuses what it does not write", () => {
    for (const item of [pkg("a", "1.0.0"), pkg("@s/b", "2.0.0-rc.1", { installScript: true, optional: true }), { ...pkg("c", "1.0.0"), integrity: null }]) {
      expect(decodePackage(encodePackage(item))).toEqual(item);
    }
    expect(decodePackage("a@1.0.0 sha512-x= postinstall")).toBeNull();
    expect(decodePackage("a@1.0.0 md5-abc")).toBeNull();
    expect(decodePackage("a@1.0.0 sha512-x= optional optional")).toBeNull();
  });

  it("accepts only node_modules paths", () => {
    expect(isTreeLocation("node_modules/a/node_modules/@s/b")).toBe(true);
    for (const bad of ["node_modules/../x", "/node_modules/a", "node_modules/a/../../b", "lib/a", "node_modules\\a", "node_modules/a/"]) {
      expect(isTreeLocation(bad), bad).toBe(false);
    }
  });
});

describe("the lock's artifact section", () => {
  it("reads back what it writes, and refuses a hand-edited tree", () => {
    const record = artifact(base);
    expect(parseArtifact(JSON.parse(JSON.stringify(artifactJson(record))), "", fail)).toEqual(record);
    const edited = artifactJson(record) as { tree: Record<string, string> };
    edited.tree["node_modules/helper"] = encodePackage(pkg("helper", "1.0.1"));
    expect(() => parseArtifact(edited, "", fail)).toThrow(/tree_sha256" does not match/);
    const escaped = artifactJson(artifact({ ...base })) as { tree: Record<string, string> };
    escaped.tree["node_modules/../../etc"] = encodePackage(pkg("etc", "1.0.0"));
    expect(() => parseArtifact(escaped, "", fail)).toThrow(/not a node_modules path/);
  });
});

describe("compareArtifacts", () => {
  it("finds nothing between equal artifacts, and nothing when the lock holds none", () => {
    expect(compareArtifacts(artifact(base), artifact(base), none)).toEqual([]);
    expect(compareArtifacts(null, artifact(base), none)).toEqual([]);
  });

  it("names a dependency that moved to a release with an install script, as an error", () => {
    const changes = compareArtifacts(artifact(base), artifact({ ...base, "node_modules/helper": pkg("helper", "1.0.1", { installScript: true }) }), none);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ kind: "dependencies_changed", severity: "error", tool: null });
    expect(changeMessage(changes[0] as (typeof changes)[number])).toContain("helper 1.0.0 -> 1.0.1 (install script added)");
  });

  it("is a warning when the tree only moved within its ranges, listing added and removed packages", () => {
    const changes = compareArtifacts(
      artifact(base),
      artifact({
        "node_modules/server": base["node_modules/server"],
        "node_modules/helper": pkg("helper", "1.0.2"),
        "node_modules/extra": pkg("extra", "3.0.0"),
      }),
      none,
    );
    expect(changes.map((change) => [change.kind, change.severity])).toEqual([["dependencies_changed", "warning"]]);
    const message = changeMessage(changes[0] as (typeof changes)[number]);
    expect(message).toContain("1 changed, 1 added, 0 removed");
    expect(message).toContain("+ extra 3.0.0");
  });

  it("names a nested copy with the package it sits under, so two copies of one name read differently", () => {
    const nested = { ...base, "node_modules/helper/node_modules/extra": pkg("extra", "1.0.0"), "node_modules/extra": pkg("extra", "3.0.0") };
    const changes = compareArtifacts(artifact(base), artifact(nested), none);
    const message = changeMessage(changes[0] as (typeof changes)[number]);
    expect(message).toContain("+ extra 3.0.0; + extra (under helper) 1.0.0");
  });

  it("says where the packages past the listed ones are", () => {
    const many: Record<string, TreePackage> = { ...base };
    for (let i = 0; i < 45; i++) many[`node_modules/p${String(i).padStart(2, "0")}`] = pkg(`p${String(i).padStart(2, "0")}`, "1.0.0");
    const message = changeMessage(compareArtifacts(artifact(base), artifact(many), none)[0] as ReturnType<typeof compareArtifacts>[number]);
    expect(message).toMatch(/, and 5 more \(every one is in --json and in the lock's diff\)$/);
  });

  it("is an error when a new dependency release is known-bad", () => {
    const list = loadKnownBad(
      JSON.stringify({
        version: 1,
        entries: [
          {
            ecosystem: "npm",
            name: "helper",
            versions: ["1.0.1"],
            id: "TEST-1",
            date: "2025-09-08",
            source: "https://example.com/advisory",
            summary: "credential stealer",
          },
        ],
      }),
    );
    const changes = compareArtifacts(artifact(base), artifact({ ...base, "node_modules/helper": pkg("helper", "1.0.1") }), list);
    expect(changes[0]).toMatchObject({ kind: "dependencies_changed", severity: "error" });
    expect(changeMessage(changes[0] as (typeof changes)[number])).toContain("known-bad release, TEST-1");
  });

  it("reports another tarball under the same version, and another version, as artifact_changed", () => {
    const swapped = compareArtifacts(artifact(base), artifact(base, { integrity: "sha512-b3RoZXI=" }), none);
    expect(swapped.map((change) => [change.kind, change.severity, change.args.reason])).toEqual([["artifact_changed", "error", "integrity"]]);
    const bumped = compareArtifacts(artifact(base), artifact({ ...base, "node_modules/server": pkg("server", "1.1.0") }, { version: "1.1.0" }), none);
    expect(bumped.map((change) => change.kind)).toEqual(["artifact_changed"]);
    expect(changeMessage(bumped[0] as (typeof bumped)[number])).toBe("the launch runs server@1.1.0, not the locked server@1.0.0");
  });

  it("reports lost provenance, another source repository, and a lost signature as errors; gained provenance as info", () => {
    const lost = compareArtifacts(artifact(base), artifact(base, { provenance: null }), none);
    expect(lost.map((change) => [change.kind, change.severity, change.args.reason])).toEqual([["provenance_changed", "error", "lost"]]);
    const moved = compareArtifacts(
      artifact(base),
      artifact(base, { provenance: { repository: "https://github.com/attacker/fork", workflow: ".github/workflows/release.yml", ref: null, builder: null } }),
      none,
    );
    expect(moved.map((change) => change.args.reason)).toEqual(["source"]);
    expect(compareArtifacts(artifact(base), artifact(base, { signature: "absent" }), none).map((change) => change.args.reason)).toEqual(["signature_lost"]);
    expect(compareArtifacts(artifact(base, { provenance: null }), artifact(base), none).map((change) => change.severity)).toEqual(["info"]);
    // A new ref (every release has its own tag) is no change.
    const tagged = artifact(base);
    tagged.provenance = { ...(tagged.provenance as NonNullable<NpmArtifact["provenance"]>), ref: "refs/tags/v1.0.1" };
    expect(compareArtifacts(artifact(base), tagged, none)).toEqual([]);
  });

  it("reports an image whose digest changed, and a launch that no longer runs a pinnable package", () => {
    const image = (digest: string | null) => ({ type: "image" as const, reference: "ghcr.io/o/img:v1", digest });
    expect(compareArtifacts(image("sha256:aa"), image("sha256:bb"), none).map((change) => change.args.reason)).toEqual(["digest"]);
    expect(compareArtifacts(artifact(base), null, none).map((change) => [change.kind, change.args.reason])).toEqual([["artifact_changed", "unpinned"]]);
  });
});
