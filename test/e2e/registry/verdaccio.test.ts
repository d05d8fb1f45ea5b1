// The local registry harness against the real npm CLI: what it publishes installs, a new dependency release is
// seen by a fresh install, a swapped tarball and an edited dist field are served, and npx runs the fixture
// MCP server from it. The steps share one registry and run in order.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import ssri from "ssri";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FixturePackage,
  mcpServerPackage,
  npm,
  packument,
  publish,
  type Registry,
  replaceTarball,
  setDistField,
  startRegistry,
  storeFile,
} from "./verdaccio.js";

const helper = (version: string, extra: Partial<FixturePackage> = {}): FixturePackage => ({
  name: "helper",
  version,
  files: { "index.js": `module.exports = "helper ${version}";\n` },
  ...extra,
});

let registry: Registry;

beforeAll(async () => {
  registry = await startRegistry();
  await publish(registry, helper("1.0.0"));
  await publish(registry, mcpServerPackage("server", "1.0.0", { helper: "^1.0.0" }));
}, 120_000);

afterAll(() => registry?.stop());

/** A fresh project folder with `server@1.0.0` installed, its scripts not run; returns the installed helper's folder. */
async function installServer(spec = "server@1.0.0"): Promise<string> {
  const project = mkdtempSync(join(registry.dir, "project-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", version: "0.0.0", private: true }));
  await npm(registry, ["install", "--ignore-scripts", spec], project);
  return join(project, "node_modules/helper");
}

function installedVersion(folder: string): string {
  return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version: string }).version;
}

describe("a local Verdaccio registry driven by the real npm CLI", () => {
  it("npm view reads server@1.0.0's integrity from it, and a package it does not hold is a 404, not a download", async () => {
    const integrity = (await npm(registry, ["view", "server@1.0.0", "dist.integrity"], registry.dir)).trim();
    expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
    const tarball = (await npm(registry, ["view", "server@1.0.0", "dist.tarball"], registry.dir)).trim();
    expect(tarball).toBe(`${registry.url}server/-/server-1.0.0.tgz`);
    // `typescript` is on npmjs; a registry that proxied would answer with it.
    await expect(npm(registry, ["view", "typescript", "version"], registry.dir)).rejects.toThrow(/E404/);
  });

  it("a child that keeps only HOME and PATH of env(), as a launched MCP server does, still reads this registry", async () => {
    const env = registry.env();
    const output = await new Promise<string>((done, fail) => {
      const child = spawn("npm", ["view", "server@1.0.0", "dist.tarball"], { cwd: registry.dir, env: { HOME: env.HOME, PATH: env.PATH } });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      child.on("error", fail);
      child.on("close", (code) => (code === 0 ? done(stdout) : fail(new Error(`npm view exited ${code}`))));
    });
    expect(output.trim()).toBe(`${registry.url}server/-/server-1.0.0.tgz`);
  });

  it("a fresh install gets helper 1.0.0, and after helper@1.0.1 is published with a postinstall, 1.0.1 (its script not run)", async () => {
    expect(installedVersion(await installServer())).toBe("1.0.0");
    const postinstall = `node -e "require('fs').writeFileSync('postinstall-ran', '')"`;
    await publish(registry, helper("1.0.1", { scripts: { postinstall } }));
    // The same npm cache as the first install: the registry's metadata is revalidated, not served stale.
    const installed = await installServer();
    expect(installedVersion(installed)).toBe("1.0.1");
    expect(existsSync(join(installed, "postinstall-ran"))).toBe(false);
    expect((await npm(registry, ["view", "helper@1.0.1", "scripts.postinstall"], registry.dir)).trim()).toBe(postinstall);
  });

  it("replaceTarball serves other contents under helper@1.0.0: a new integrity its tarball matches, the dist-tags kept", async () => {
    const before = (await npm(registry, ["view", "helper@1.0.0", "dist.integrity"], registry.dir)).trim();
    await replaceTarball(registry, helper("1.0.0", { files: { "index.js": `module.exports = "not what was locked";\n` } }));
    const after = (await npm(registry, ["view", "helper@1.0.0", "dist.integrity"], registry.dir)).trim();
    expect(after).not.toBe(before);
    const tarball = Buffer.from(await (await fetch(`${registry.url}helper/-/helper-1.0.0.tgz`)).arrayBuffer());
    expect(ssri.checkData(tarball, after)).toBeTruthy();
    expect(ssri.checkData(tarball, before)).toBe(false);
    expect(JSON.parse(await npm(registry, ["view", "helper", "dist-tags", "--json"], registry.dir))).toEqual({ latest: "1.0.1" });
    // npm's cache holds the old tarball by its integrity; the new integrity makes npm fetch the new one.
    const installed = await installServer("helper@1.0.0");
    expect(readFileSync(join(installed, "index.js"), "utf8")).toContain("not what was locked");
  });

  it("setDistField is served at once, and a file put in storage is served at the URL storeFile returns", async () => {
    const bundle = { attestations: [{ predicateType: "https://slsa.dev/provenance/v1", bundle: { mediaType: "test" } }] };
    const url = storeFile(registry, "server", "attestations-1.0.0.json", JSON.stringify(bundle));
    const attestations = { url, provenance: { predicateType: "https://slsa.dev/provenance/v1" } };
    setDistField(registry, "server", "1.0.0", "attestations", attestations);
    expect(JSON.parse(await npm(registry, ["view", "server@1.0.0", "dist.attestations", "--json"], registry.dir))).toEqual(attestations);
    const full = (await packument(registry, "server")) as { versions: Record<string, { dist: { attestations?: unknown } }> };
    expect(full.versions["1.0.0"]?.dist.attestations).toEqual(attestations);
    expect(await (await fetch(url)).json()).toEqual(bundle);
  });

  it("npx -y server@1.0.0 runs the fixture MCP server: initialize, tools/list and a call naming the helper it runs", async () => {
    const cwd = mkdtempSync(join(registry.dir, "npx-"));
    const child = spawn("npx", ["-y", "server@1.0.0"], { cwd, env: registry.env(), detached: true, stdio: ["pipe", "pipe", "pipe"] });
    try {
      const rpc = stdioRpc(child);
      const init = await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "0" } });
      expect(init).toMatchObject({ result: { protocolVersion: "2025-06-18", serverInfo: { name: "server", version: "1.0.0" } } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      const list = (await rpc("tools/list", {})) as { result: { tools: { name: string }[] } };
      expect(list.result.tools.map((tool) => tool.name)).toEqual(["echo", "dependency_versions"]);
      expect(await rpc("tools/call", { name: "echo", arguments: { text: "hi" } })).toMatchObject({ result: { content: [{ type: "text", text: "hi" }] } });
      const versions = await rpc("tools/call", { name: "dependency_versions", arguments: {} });
      expect(versions).toMatchObject({ result: { content: [{ type: "text", text: "helper@1.0.1" }] } });
      const code = new Promise((done) => child.on("close", done));
      child.stdin.end();
      expect(await code).toBe(0);
    } finally {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // Already ended.
      }
    }
  });

  it("stop() ends Verdaccio's process group and removes its folder", async () => {
    const { pid, dir, url } = registry;
    await registry.stop();
    expect(() => process.kill(-pid, 0)).toThrow(/ESRCH/);
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(`${url}-/ping`)).rejects.toThrow();
  });
});

/** Newline-delimited JSON-RPC over a child's stdio: each call resolves with the message carrying its id. */
function stdioRpc(child: ChildProcessWithoutNullStreams): (method: string, params: unknown) => Promise<unknown> {
  const waiting = new Map<number, (message: unknown) => void>();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line) as { id?: number };
    if (typeof message.id === "number") waiting.get(message.id)?.(message);
  });
  let next = 0;
  return (method, params) =>
    new Promise((done, fail) => {
      const id = ++next;
      waiting.set(id, done);
      child.once("close", (code) => fail(new Error(`server exited ${code} before answering ${method}: ${stderr}`)));
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
}
