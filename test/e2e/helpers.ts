// Shared helpers for end-to-end tests: run the built CLI as a real process in a temp folder.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";

export const repo = resolve(import.meta.dirname, "../..");
export const cliPath = join(repo, "dist/cli.js");
export const fromFileServer = join(repo, "test/fixtures/servers/from-file.mjs");
export const demoServer = join(repo, "examples/demo-server.mjs");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node dist/cli.js ...args` and collect its output. */
export function runCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** A fresh temporary folder. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "mcp-lint-test-"));
}

/** Write a JSON file (compact or pretty) and return its path. */
export function writeJson(dir: string, name: string, value: unknown, space?: number): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, space));
  return path;
}

/**
 * A folder to use as PATH that links every program on this PATH except those `left` out: the real
 * condition of a machine without them (without util-linux's unshare, a launched server gets no PID
 * namespace and mcp-lint falls back to the /proc walk). Node is linked too.
 */
export function pathWithout(left: readonly string[]): string {
  const bin = join(tempDir(), "bin");
  mkdirSync(bin);
  const linked = new Set<string>(left);
  for (const dir of [resolve(process.execPath, ".."), ...(process.env.PATH ?? "").split(delimiter)]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    // The first folder that has a name wins, as in a PATH search.
    for (const name of names) {
      if (linked.has(name)) continue;
      linked.add(name);
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}
