// wrap and unwrap edit at most 200 servers per config file: each edit is checked against the whole
// file, which grew quadratically (1,000 servers took 15 s of --dry-run, 4,000 took 7 minutes).
// Past the bound each says so in one line and leaves the file as it was.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.js";

function config(dir: string, servers: Record<string, unknown>): string {
  const folder = join(dir, "cfg");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "claude_desktop_config.json");
  writeFileSync(path, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
  return path;
}

const plain = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`s${index}`, { command: "node", args: [`s${index}.js`] }]));

describe("wrap and unwrap bounds", () => {
  it("wrap --dry-run plans 200 servers, and refuses 201 with one line, leaving the file alone", async () => {
    const dir = tempDir();
    const ok = await runCli(["wrap", "--dry-run", config(dir, plain(200))], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.match(/^would wrap server /gm)).toHaveLength(200);

    const path = config(dir, plain(201));
    const before = readFileSync(path, "utf8");
    const refused = await runCli(["wrap", "--dry-run", path], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^mcp-lint: .*claude_desktop_config\.json has 201 servers to wrap; wrap edits at most 200 per config file, so split it into smaller files\n$/,
    );
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  it("unwrap refuses a file with more than 200 wrapped servers, leaving it alone", async () => {
    const dir = tempDir();
    const wrapped = Object.fromEntries(
      Array.from({ length: 201 }, (_, index) => [
        `s${index}`,
        { command: "npx", args: ["-y", "mcp-lint@0.1.0", "proxy", "--lock", `s${index}.lock`, "--", "node", `s${index}.js`] },
      ]),
    );
    const path = config(dir, wrapped);
    const before = readFileSync(path, "utf8");
    const result = await runCli(["unwrap", path], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /could not unwrap .* safely: it holds more than 200 wrapped servers, more than unwrap edits in one file; it was left unchanged\n$/,
    );
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  // cac's parser took the file after a kebab-case boolean flag as the flag's value
  // ("--dry-run takes no value"); a flag before the file must work as well as after it.
  it("boolean flags work before the file as well as after it", async () => {
    const dir = tempDir();
    const path = config(dir, plain(2));
    const before = await runCli(["wrap", "--include-remote", "--dry-run", path], { cwd: dir });
    const after = await runCli(["wrap", path, "--dry-run", "--include-remote"], { cwd: dir });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toBe(after.stdout);
    expect(before.stdout.match(/^would wrap server /gm)).toHaveLength(2);
    expect(readFileSync(path, "utf8")).toBe(`${JSON.stringify({ mcpServers: plain(2) }, null, 2)}\n`);
  });
});
