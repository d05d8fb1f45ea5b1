// Issue 9, item 2: known-bad guard bypasses. Through the built CLI, with a fake `npx` first on PATH that
// records its argv: each refused launch exits 1 and the fake npx never runs. The child gets the SDK's
// default environment, PATH included, so `npx`, and the `npx` a shell wrapper calls, is the fake one.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.js";

/** A folder holding fake `npx` and `uvx` that append their argv to `record` and exit 1. */
function fakeLaunchers(dir: string): { bin: string; record: string } {
  const bin = join(dir, "bin");
  const record = join(dir, "launched.txt");
  mkdirSync(bin);
  for (const name of ["npx", "uvx"]) {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> '${record}'\nexit 1\n`);
    chmodSync(path, 0o755);
  }
  return { bin, record };
}

async function lock(command: string[]): Promise<{ code: number | null; stderr: string; launched: string | null }> {
  const dir = tempDir();
  const { bin, record } = fakeLaunchers(dir);
  const result = await runCli(["lock", "--timeout", "10", "--", ...command], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH ?? ""}` } });
  return { code: result.code, stderr: result.stderr, launched: existsSync(record) ? readFileSync(record, "utf8") : null };
}

// A control character of any kind except the line feeds that end lines.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe("known-bad guard through the built CLI (fake npx on PATH)", () => {
  it("the fake npx does run when the launch is clean (the harness works)", async () => {
    const result = await lock(["npx", "-y", "harmless-server@1.0.0"]);
    // The fake npx exits at once: at the era probe, so it is started a second time for initialize alone (src/connect/stdio.ts).
    expect(result.launched).toBe("npx -y harmless-server@1.0.0\nnpx -y harmless-server@1.0.0\n");
    expect(result.code).toBe(2);
  });

  it.each([
    ["an npm flag the parser does not know (issue 9)", ["npx", "--install-links", "postmark-mcp"]],
    ["any unknown flag", ["npx", "--frobnicate", "postmark-mcp"]],
    ["an unknown flag and a clean-looking version", ["npx", "--frobnicate", "postmark-mcp@1.0.15"]],
    ["ANSI-C quoting the old prefilter did not decode (issue 9)", ["bash", "-c", "npx -y $'\\x70ostmark-mcp@1.0.16'"]],
    ["ANSI-C octal and a NUL that ends the segment", ["bash", "-c", "npx -y $'\\160ost\\0junk'mark-mcp"]],
    ["quotes, case and separators in a shell with an unknown flag", ["sh", "-c", 'npx --zz Post"mark"_MCP']],
    ["a boolean flag that takes `true`, so `true` is not the package", ["npx", "-y", "true", "postmark-mcp"]],
    ["brace expansion", ["bash", "-c", "npx -y {x,p}ostmark-mcp"]],
    ["an unset variable inside the name", ["bash", "-c", "npx -y post${EMPTY}mark-mcp"]],
    ["env in front of an unknown flag", ["env", "X=1", "npx", "--frobnicate", "postmark-mcp"]],
    ["a percent-encoded tarball URL", ["npx", "-y", "https://registry.npmjs.org/postmark%2Dmcp/-/postmark%2Dmcp-1.0.16.tgz"]],
    ["inline code that starts it", ["node", "-e", "require('child_process').execFileSync('npx', ['-y', 'postmark-mcp'], { stdio: 'inherit' })"]],
    ["a known-bad PyPI release behind an unknown flag", ["uvx", "--frobnicate", "LiteLLM==1.82.8"]],
  ])("refuses %s, and npx never runs", async (_, command) => {
    const result = await lock(command);
    expect(result.launched).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^mcp-lint: refusing to launch the server: .*known-bad/m);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });

  it("the refusal names a hostile spelling without passing its control characters to the terminal", async () => {
    const result = await lock(["bash", "-c", "npx --zz $'\\e[2J\\e[1A'postmark-mcp"]);
    expect(result.launched).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
  });
});
