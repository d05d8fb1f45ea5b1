// install-plan.ts: a locked tree is checked before anything is fetched, because anyone can edit a lock.
import { describe, expect, it } from "vitest";
import { completionMark, parseLocation, planInstall } from "../../../src/artifact/install-plan.js";
import type { NpmArtifact, TreePackage } from "../../../src/artifact/types.js";
import { ArtifactInstallError } from "../../../src/errors.js";

const INTEGRITY = "sha512-CQpnWPrDwmP1+SMHXZhtLtJv90yiyVfluGsX5iNCVkrhQtU3TQHsUWPG9wkdk9Lgd5yNpAg9jQEo90CBaXgWMA==";
const DIGEST = "a".repeat(64);

function pkg(name: string, version = "1.0.0", extra: Partial<TreePackage> = {}): TreePackage {
  return { name, version, integrity: INTEGRITY, installScript: false, optional: false, ...extra };
}

function artifact(entries: Array<[string, TreePackage]>, top: Partial<NpmArtifact> = {}): NpmArtifact {
  return {
    type: "npm",
    name: "srv",
    version: "1.0.0",
    integrity: INTEGRITY,
    signature: "unchecked",
    provenance: null,
    treeSha256: DIGEST,
    tree: new Map(entries),
    ...top,
  };
}

const server: [string, TreePackage] = ["node_modules/srv", pkg("srv")];

function refusal(candidate: NpmArtifact): string {
  try {
    planInstall(candidate);
  } catch (error) {
    expect(error).toBeInstanceOf(ArtifactInstallError);
    return (error as Error).message;
  }
  throw new Error("the tree was accepted");
}

describe("parseLocation", () => {
  it.each([
    ["node_modules/a", ["a"]],
    ["node_modules/@s/a", ["@s/a"]],
    ["node_modules/a/node_modules/@s/b/node_modules/c", ["a", "@s/b", "c"]],
    ["node_modules/JSONStream", ["JSONStream"]],
  ])("reads %s", (location, folders) => {
    expect(parseLocation(location)).toEqual(folders);
  });

  it.each([
    "",
    "node_modules",
    "node_modules/",
    "node_modules/../../evil",
    "node_modules/a/../../../evil",
    "node_modules/..",
    "node_modules/.",
    "node_modules/@s/..",
    "node_modules/@s",
    "/node_modules/a",
    "/etc/passwd",
    "node_modules//a",
    "node_modules/a/",
    "node_modules\\a",
    "node_modules/a\\..\\..\\evil",
    "node_modules/a/lib",
    "node_modules/a/node_modules",
    "lib/node_modules/a",
    "node_modules/node_modules",
    "node_modules/.bin",
    "node_modules/a b",
    "node_modules/a\u0000b",
    "node_modules/a/node_modules/../../b",
    "node_modules/@s/a/b",
    "node_modules/%2e%2e",
  ])("refuses %j", (location) => {
    expect(parseLocation(location)).toBeNull();
  });
});

describe("planInstall", () => {
  it("orders parents before the packages they hold, shallow first", () => {
    const plan = planInstall(
      artifact([["node_modules/srv/node_modules/b", pkg("b")], ["node_modules/z", pkg("z")], server, ["node_modules/alias", pkg("real-name", "2.0.0")]]),
    );
    expect(plan.packages.map((entry) => entry.location)).toEqual([
      "node_modules/alias",
      "node_modules/srv",
      "node_modules/z",
      "node_modules/srv/node_modules/b",
    ]);
    expect(plan.packages[3]).toMatchObject({ depth: 2, parent: "node_modules/srv", segments: ["node_modules", "srv", "node_modules", "b"] });
    expect(plan.server.location).toBe("node_modules/srv");
  });

  it("refuses a ../ location before fetching anything", () => {
    expect(refusal(artifact([server, ["node_modules/../../evil", pkg("evil")]]))).toBe(
      "cannot install the locked tree exactly: node_modules/../../evil is not a node_modules location inside the install folder",
    );
  });

  it.each([
    ["a git spec", "github:evil/repo"],
    ["a file spec", "file:../x"],
    ["a tarball URL", "https://example.com/x.tgz"],
    ["a range", "^1.0.0"],
    ["a tag", "latest"],
    ["an alias", "npm:other@1.0.0"],
    ["a v prefix", "v1.0.0"],
    ["a trailing space", "1.0.0 "],
  ])("refuses a version that is %s, which is not an exact registry version", (_, version) => {
    expect(refusal(artifact([server, ["node_modules/x", pkg("x", version)]]))).toMatch(/is not an exact registry version$/);
  });

  it.each([
    ["null", null],
    ["not an integrity", "nonsense"],
    ["an md5 digest", "md5-1B2M2Y8AsgTpgAmY7PhCfg=="],
    ["an unknown algorithm", "foo-abc"],
  ])("refuses an integrity that is %s: what the package is cannot be proven", (_, integrity) => {
    expect(refusal(artifact([server, ["node_modules/x", pkg("x", "1.0.0", { integrity })]]))).toMatch(/x@1\.0\.0 \(node_modules\/x\) has no usable integrity/);
  });

  it("refuses a package name npm would not accept", () => {
    expect(refusal(artifact([server, ["node_modules/x", pkg("../../x")]]))).toMatch(/is not an exact registry version$/);
  });

  it("refuses a nested package whose parent the lock does not list", () => {
    expect(refusal(artifact([server, ["node_modules/ghost/node_modules/x", pkg("x")]]))).toMatch(
      /is nested in node_modules\/ghost, which the lock does not list$/,
    );
  });

  it.each([
    ["missing", [["node_modules/other", pkg("other")]] as Array<[string, TreePackage]>],
    ["another package at the server's place", [["node_modules/srv", pkg("impostor")]] as Array<[string, TreePackage]>],
    ["another version", [["node_modules/srv", pkg("srv", "1.0.1")]] as Array<[string, TreePackage]>],
    [
      "nested only",
      [
        ["node_modules/a", pkg("a")],
        ["node_modules/a/node_modules/srv", pkg("srv")],
      ] as Array<[string, TreePackage]>,
    ],
  ])("refuses a tree with the server's package %s", (_, entries) => {
    expect(refusal(artifact(entries))).toBe("cannot install the locked tree exactly: the lock's tree does not hold srv@1.0.0 at node_modules/srv");
  });

  it("refuses a server package whose integrity differs from the artifact's", () => {
    const other = "sha512-RHxMLp9lnKHGHRng9QFhRCMbYAcVpn69smSGcq3f36xjgVVWThj4qqLbTLlq7Ssj8B+fIQ1EuCEGI2lKsyQeIw==";
    expect(refusal(artifact([["node_modules/srv", pkg("srv", "1.0.0", { integrity: other })]]))).toMatch(/does not hold srv@1\.0\.0/);
  });

  it.each([
    ["a path", "../../../tmp/evil"],
    ["upper case hex", "A".repeat(64)],
    ["too short", "a".repeat(63)],
  ])("refuses a tree digest that is %s, since it names the install folder", (_, treeSha256) => {
    expect(refusal(artifact([server], { treeSha256 }))).toMatch(/tree digest is not a SHA-256 hex digest$/);
  });

  it("shows a hostile location inert", () => {
    const message = refusal(artifact([server, ["node_modules/\u001b]8;;http://x\u0007a", pkg("a")]]));
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message).toContain("\\u{1B}]8;;http://x\\u{7}a");
  });
});

describe("completionMark", () => {
  it("differs when the tree, the digest or the scripts differ, and not when the map's order does", () => {
    const a = planInstall(artifact([server, ["node_modules/x", pkg("x")]]));
    const reordered = planInstall(artifact([["node_modules/x", pkg("x")], server]));
    const otherVersion = planInstall(artifact([server, ["node_modules/x", pkg("x", "1.0.1")]]));
    const otherDigest = planInstall(artifact([server, ["node_modules/x", pkg("x")]], { treeSha256: "b".repeat(64) }));
    expect(completionMark(reordered, false)).toBe(completionMark(a, false));
    expect(new Set([completionMark(a, false), completionMark(a, true), completionMark(otherVersion, false), completionMark(otherDigest, false)]).size).toBe(4);
  });
});
