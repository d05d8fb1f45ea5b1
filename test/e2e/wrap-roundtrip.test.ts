// wrap then unwrap restores every supported config format byte for byte, keeps comments and
// formatting, writes a backup first, never wraps twice, and leaves remote and known-bad servers alone.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, repo, runCli, tempDir } from "./helpers.js";

const configs = join(repo, "test/fixtures/config");
const extra = join(repo, "test/fixtures/wrap");

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile());
}

// Every fixture the config readers read, except the one that is not valid on purpose.
const cases = [...filesUnder(configs), ...filesUnder(extra)].filter((path) => !path.endsWith("broken.json"));

describe("wrap and unwrap", () => {
  it.each(cases.map((path) => [relative(repo, path), path]))("%s: wrap, then unwrap, gives back the same bytes", async (_name, source) => {
    const dir = tempDir();
    const file = join(dir, "config", relative(repo, source));
    mkdirSync(dirname(file), { recursive: true });
    cpSync(source, file);
    const original = readFileSync(file);
    const locks = join(dir, "locks");

    // Locks that exist already are kept, so no server is started: create the ones wrap would write.
    const planned = await runCli(["wrap", file, "--dry-run", "--lock-dir", locks], { cwd: dir });
    // 1 when a server is left alone for a reason to fix: it launches a known-bad release, it has no
    // lock yet and uses a client variable this shell does not set, or its entry cannot be read or split.
    expect(planned.code).toBe(/known-bad|as the client would launch it|could not be read|one string with spaces/.test(planned.stdout) ? 1 : 0);
    expect(readFileSync(file).equals(original)).toBe(true);
    const lockPaths = [...planned.stdout.matchAll(/^would wrap .*? \(lock (.*?\.lock)[,)]/gm)].map((match) => match[1] as string);
    for (const lock of lockPaths) {
      mkdirSync(dirname(lock), { recursive: true });
      writeFileSync(lock, "{}\n");
    }

    const wrapped = await runCli(["wrap", file, "--lock-dir", locks], { cwd: dir });
    const after = readFileSync(file, "utf8");
    const wrappedCount = (wrapped.stdout.match(/^wrapped /gm) ?? []).length;
    // Every lock existed, so every one was kept and no server was started.
    expect((wrapped.stdout.match(/^wrapped .*?, kept as it was\)/gm) ?? []).length).toBe(wrappedCount);
    expect(wrapped.stdout).not.toContain("written now");
    if (process.env.DEBUG_WRAP) console.log(planned.stdout, wrapped.stdout, wrapped.stderr);
    if (wrappedCount > 0) expect(readFileSync(`${file}.mcp-lint.bak`).equals(original)).toBe(true);
    expect(wrappedCount).toBe(lockPaths.length);
    if (wrappedCount > 0) {
      expect(after).not.toBe(original.toString("utf8"));
      expect(after.split(cliPath).length - 1).toBe(wrappedCount);
    }

    // Never twice: a second wrap changes nothing and says so.
    const again = await runCli(["wrap", file, "--lock-dir", locks], { cwd: dir });
    expect(readFileSync(file, "utf8")).toBe(after);
    expect((again.stdout.match(/already wrapped/g) ?? []).length).toBe(wrappedCount);

    const unwrapped = await runCli(["unwrap", file], { cwd: dir });
    expect(unwrapped.code).toBe(0);
    expect((unwrapped.stdout.match(/^unwrapped /gm) ?? []).length).toBe(wrappedCount);
    expect(readFileSync(file).equals(original)).toBe(true);
  });

  it("keeps comments and layout, passes the entry's env names on, and leaves remote and known-bad servers alone", async () => {
    const dir = tempDir();
    const file = join(dir, "mcp.json");
    cpSync(join(configs, "vscode/.vscode/mcp.json"), file);
    const locks = join(dir, "locks");
    for (const name of ["filesystem", "picked", "image"]) {
      mkdirSync(join(locks, "vscode"), { recursive: true });
      writeFileSync(join(locks, "vscode", `${name}.lock`), "{}\n");
    }
    const result = await runCli(["wrap", file, "--lock-dir", locks], { cwd: dir });
    // The placeholder locks are kept, and each line says the proxy could not use it (issue 38 item 4): exit 1.
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `wrapped server "filesystem" (lock ${join(locks, "vscode", "filesystem.lock")}, kept as it was); its lock cannot be used, so the proxy serves nothing (not an mcp-lint lockfile`,
    );
    const text = readFileSync(file, "utf8");
    expect(text).toContain("// Local filesystem server, floating version");
    expect(text).toContain('"password": true, // stored as a secret');
    expect(text).toContain(
      `"args": [${JSON.stringify(cliPath)}, "proxy", "--pass-env", "DEBUG", "--lock", ${JSON.stringify(join(locks, "vscode", "filesystem.lock"))}, "--from-config", ${JSON.stringify(file)}, "--entry", "filesystem", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "\${workspaceFolder}"],`,
    );
    expect(result.stdout).toContain('left server "github" as it is: a remote server (add --include-remote to wrap it)');

    const desktop = join(dir, "claude_desktop_config.json");
    cpSync(join(configs, "claude-desktop/claude_desktop_config.json"), desktop);
    const before = readFileSync(desktop, "utf8");
    const dry = await runCli(["wrap", desktop, "--dry-run", "--lock-dir", locks], { cwd: dir });
    // The known-bad verdict is stated in the server's own line, not on a line of its own.
    expect(dry.stdout).toMatch(/^left server "mail" as it is: postmark-mcp \(npx\) .*known-bad release.*; remove it from the config$/m);
    expect(dry.stderr).not.toContain("refusing to launch the server");
    expect(readFileSync(desktop, "utf8")).toBe(before);
  });

  it("refuses a config that is a symbolic link and leaves its target alone", async () => {
    const dir = tempDir();
    const real = join(dir, "real.json");
    cpSync(join(configs, "claude-desktop-trailing/claude_desktop_config.json"), real);
    const link = join(dir, "claude_desktop_config.json");
    const { symlinkSync } = await import("node:fs");
    symlinkSync(real, link);
    mkdirSync(join(dir, "locks", "claude-desktop"), { recursive: true });
    writeFileSync(join(dir, "locks", "claude-desktop", "time.lock"), "{}\n");
    const before = readFileSync(real, "utf8");
    const result = await runCli(["wrap", link, "--lock-dir", join(dir, "locks")], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("symbolic link");
    expect(readFileSync(real, "utf8")).toBe(before);
  });
});
