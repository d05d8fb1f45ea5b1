// Delivery as users meet it: the packed npm tarball installed into an empty folder, and the
// pre-commit hook run by the real pre-commit tool in a temporary git repository.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cliPath, demoServer, repo, tempDir } from "./helpers.js";

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 240_000 });
  return { code: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

beforeAll(() => {
  if (!existsSync(cliPath)) throw new Error("dist/cli.js is missing: run npm run build first");
});

describe("the published package", () => {
  it("packs only dist, README, LICENSE and package.json, and works installed in an empty folder", () => {
    const packDir = tempDir();
    // --ignore-scripts: dist is already built, and rebuilding it here would race other test files.
    const pack = sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", packDir], repo);
    expect(pack.code).toBe(0);
    const [info] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }];
    const paths = info.files.map((file) => file.path);
    // scripts/build-if-source.mjs is the postinstall step: a no-op without src/, as in this package.
    expect(paths.filter((path) => !path.startsWith("dist/")).sort()).toEqual(["LICENSE", "README.md", "package.json", "scripts/build-if-source.mjs"]);
    expect(paths).toContain("dist/cli.js");
    expect(paths.some((path) => path.startsWith("dist/") && path.includes("test"))).toBe(false);

    const app = tempDir();
    writeFileSync(join(app, "package.json"), '{"name": "empty", "private": true}\n');
    const install = sh("npm", ["install", "--no-audit", "--no-fund", join(packDir, info.filename)], app);
    expect(install.code, install.stderr).toBe(0);
    const bin = join(app, "node_modules", ".bin", "mcp-lint");
    const version = sh(bin, ["--version"], app);
    expect(version.code).toBe(0);
    expect(version.stdout).toContain(JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).version);
    const lock = sh(bin, ["lock", "--", "node", demoServer], app);
    expect(lock.code, lock.stderr).toBe(0);
    expect(existsSync(join(app, "mcp-lint.lock"))).toBe(true);
    expect(sh(bin, ["lock", "--check", "--", "node", demoServer], app).code).toBe(0);
    const pulled = sh(bin, ["lock", "--check", "--pass-env", "MCP_LINT_DEMO_RUGPULL", "--", "node", demoServer], app, { MCP_LINT_DEMO_RUGPULL: "1" });
    expect(pulled.code).toBe(1);
    expect(pulled.stdout).toContain("description_changed");
  }, 240_000);
});

const hasPreCommit = sh("pre-commit", ["--version"], repo).code === 0;

describe.skipIf(!hasPreCommit)("the pre-commit hook, run by pre-commit itself", () => {
  it("passes on a clean server and fails on a rug-pulled one, on every commit even with nothing staged", () => {
    // pre-commit installs hooks from a git revision: clone the committed tree under test.
    const hookRepo = join(tempDir(), "mcp-lint");
    expect(sh("git", ["clone", "--quiet", repo, hookRepo], repo).code).toBe(0);
    const rev = sh("git", ["rev-parse", "HEAD"], hookRepo).stdout.trim();

    const project = tempDir();
    const git = (...args: string[]) => sh("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], project);
    expect(git("init", "--quiet").code).toBe(0);
    expect(sh(process.execPath, [cliPath, "lock", "--", "node", demoServer], project).code).toBe(0);
    writeFileSync(
      join(project, ".pre-commit-config.yaml"),
      [
        "repos:",
        `  - repo: ${hookRepo}`,
        `    rev: ${rev}`,
        "    hooks:",
        "      - id: mcp-lint-lock",
        `        args: [--pass-env, MCP_LINT_DEMO_RUGPULL, --, node, ${JSON.stringify(demoServer)}]`,
        "",
      ].join("\n"),
    );
    expect(git("add", ".").code).toBe(0);
    const env = { PRE_COMMIT_HOME: join(tempDir(), "cache") };
    const clean = sh("pre-commit", ["run", "mcp-lint-lock", "--all-files"], project, env);
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/mcp-lint lock --check\.+Passed/);

    const pulled = sh("pre-commit", ["run", "mcp-lint-lock", "--all-files"], project, { ...env, MCP_LINT_DEMO_RUGPULL: "1" });
    expect(pulled.code).toBe(1);
    expect(pulled.stdout).toMatch(/mcp-lint lock --check\.+Failed/);
    expect(pulled.stdout).toContain("schema_widened");

    // Installed as a git hook, it runs on a commit that stages nothing.
    expect(sh("pre-commit", ["install"], project, env).code).toBe(0);
    expect(git("commit", "--quiet", "-m", "first").code).toBe(0);
    const blocked = sh("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "--allow-empty", "-m", "empty"], project, { ...env, MCP_LINT_DEMO_RUGPULL: "1" });
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toContain("description_changed");
    const allowed = sh("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "--allow-empty", "-m", "empty"], project, env);
    expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
  }, 300_000);
});
