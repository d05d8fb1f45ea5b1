import { describe, expect, it } from "vitest";
import { digestFor } from "../../../src/artifact/image.js";
import { artifactSource } from "../../../src/artifact/source.js";

describe("artifactSource: which package a launch runs", () => {
  it("reads each npm package runner, with the spec as written and what it executes", () => {
    expect(artifactSource(["npx", "-y", "server@1.0.0", "--root", "/tmp"])).toEqual({
      type: "npm",
      name: "server",
      request: "server@1.0.0",
      runner: "npx",
      runs: { bin: null, args: ["--root", "/tmp"] },
    });
    expect(artifactSource(["pnpm", "dlx", "@scope/srv@^2"])).toMatchObject({ type: "npm", name: "@scope/srv", request: "@scope/srv@^2", runner: "pnpm dlx" });
    expect(artifactSource(["yarn", "dlx", "srv"])).toMatchObject({ type: "npm", name: "srv", request: "srv", runner: "yarn dlx" });
    expect(artifactSource(["bunx", "srv@latest", "a"])).toMatchObject({ type: "npm", request: "srv@latest", runs: { bin: null, args: ["a"] } });
    expect(artifactSource(["npm", "exec", "--yes", "--", "srv@1.2.3", "x"])).toMatchObject({
      type: "npm",
      request: "srv@1.2.3",
      runs: { bin: null, args: ["x"] },
    });
  });

  it("names the bin for --package launches", () => {
    expect(artifactSource(["npx", "-y", "--package", "pkg@1.0.0", "pkg-cli", "serve"])).toMatchObject({
      type: "npm",
      name: "pkg",
      runs: { bin: "pkg-cli", args: ["serve"] },
    });
  });

  it("follows a wrapper to the package, but runs nothing it cannot replace", () => {
    const wrapped = artifactSource(["cmd", "/c", "npx", "-y", "srv@1.0.0"]);
    expect(wrapped).toMatchObject({ type: "npm", name: "srv", request: "srv@1.0.0" });
    expect(wrapped.type === "npm" && wrapped.runs).toBe(null);
  });

  it("reads an installed package's script, scoped or not", () => {
    expect(artifactSource(["node", "/srv/app/node_modules/@scope/pkg/dist/index.js", "--x"])).toEqual({
      type: "npm-install",
      name: "@scope/pkg",
      root: "/srv/app",
      script: "/srv/app/node_modules/@scope/pkg/dist/index.js",
      args: ["--x"],
    });
    expect(artifactSource(["node", "node_modules/pkg/index.js"])).toMatchObject({ type: "npm-install", name: "pkg", root: "." });
  });

  it("pins nothing for local code, git or URL sources, or two packages", () => {
    expect(artifactSource(["node", "server.js"]).type).toBe("none");
    expect(artifactSource(["node", "--require", "node_modules/x/hook.js", "server.js"]).type).toBe("none");
    expect(artifactSource(["npx", "-y", "github:owner/repo"]).type).toBe("none");
    expect(artifactSource(["npx", "-y", "https://example.com/x.tgz"]).type).toBe("none");
    expect(artifactSource(["sh", "-c", "npx -y a@1 && npx -y b@1"]).type).toBe("none");
  });

  it("records an image by its digest and a PyPI package by its exact version", () => {
    const digest = `sha256:${"a".repeat(64)}`;
    expect(artifactSource(["docker", "run", "-i", "--rm", `ghcr.io/o/img@${digest}`])).toMatchObject({ type: "image", digest, runtime: "docker" });
    expect(artifactSource(["podman", "run", "ghcr.io/o/img:v1"])).toMatchObject({ type: "image", digest: null, runtime: "podman" });
    expect(artifactSource(["docker", "run", "-i", "ghcr.io/o/img:v1"])).toMatchObject({ type: "image", digest: null });
    expect(artifactSource(["uvx", "mcp-server-fetch==2025.4.7"])).toEqual({ type: "pypi", name: "mcp-server-fetch", version: "2025.4.7" });
    expect(artifactSource(["uvx", "mcp-server-fetch"])).toEqual({ type: "pypi", name: "mcp-server-fetch", version: null });
  });
});

describe("digestFor: the local runtime's digest of a tag", () => {
  const a = `sha256:${"a".repeat(64)}`;
  const b = `sha256:${"b".repeat(64)}`;
  it("takes the one digest of the reference's repository", () => {
    expect(digestFor(JSON.stringify([`ghcr.io/o/img@${a}`]), "ghcr.io/o/img:v1")).toBe(a);
    expect(digestFor(JSON.stringify([`docker.io/library/node@${a}`]), "node:20")).toBe(a);
  });
  it("gives nothing for another repository, two digests, or output it cannot read", () => {
    expect(digestFor(JSON.stringify([`ghcr.io/other/img@${a}`]), "ghcr.io/o/img:v1")).toBeNull();
    expect(digestFor(JSON.stringify([`ghcr.io/o/img@${a}`, `ghcr.io/o/img@${b}`]), "ghcr.io/o/img:v1")).toBeNull();
    expect(digestFor("Error: no such image", "ghcr.io/o/img:v1")).toBeNull();
    expect(digestFor("null", "ghcr.io/o/img:v1")).toBeNull();
  });
});
