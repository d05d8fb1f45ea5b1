// wrap and unwrap edit a file the user (and the user's client) owns: an edit another program saves
// while servers are being locked is never lost, and a byte order mark, CRLF line endings and the
// trailing newline survive both directions byte for byte (issue 21 item 6).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture } from "../fixtures/servers/proxy/harness.js";
import { runCli, tempDir } from "./helpers.js";

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe("wrap and unwrap keep the config's bytes", () => {
  it("a BOM and CRLF line endings survive wrap and unwrap; each backup holds the bytes that were read", async () => {
    const dir = tempDir();
    const config = join(dir, "claude_desktop_config.json");
    const text = [
      "{",
      '  "mcpServers": {',
      '    "a": {',
      '      "command": "node",',
      '      "args": ["/srv/a.js"]',
      "    },",
      '    "b": { "command": "node", "args": ["/srv/b.js"], "env": { "K": "v" } }',
      "  }",
      "}",
      "",
    ].join("\r\n");
    const original = Buffer.concat([BOM, Buffer.from(text, "utf8")]);
    writeFileSync(config, original);
    // Existing locks, so nothing is started.
    const locks = join(dir, "locks");
    mkdirSync(join(locks, "claude-desktop"), { recursive: true });
    for (const name of ["a", "b"]) writeFileSync(join(locks, "claude-desktop", `${name}.lock`), "{}\n");

    const wrapped = await runCli(["wrap", config, "--lock-dir", locks], { cwd: dir });
    // The placeholder locks are kept; each line says the proxy could not use one, hence exit 1 (issue 38 item 4).
    expect(wrapped.code, wrapped.stderr).toBe(1);
    expect(wrapped.stdout.match(/kept as it was\); its lock cannot be used/g)).toHaveLength(2);
    const after = readFileSync(config);
    expect(after.subarray(0, 3).equals(BOM)).toBe(true);
    const lines = after.subarray(3).toString("utf8").split("\n");
    expect(lines.length).toBe(10);
    for (const line of lines.slice(0, -1)) expect(line.endsWith("\r"), JSON.stringify(line)).toBe(true);
    expect(lines.at(-1)).toBe("");
    expect(after.toString("utf8")).toContain('"proxy"');
    expect(readFileSync(`${config}.mcp-lint.bak`).equals(original)).toBe(true);

    const unwrapped = await runCli(["unwrap", config], { cwd: dir });
    expect(unwrapped.code, unwrapped.stderr).toBe(0);
    expect(readFileSync(config).equals(original)).toBe(true);
    expect(readFileSync(`${config}.mcp-lint.bak`).equals(after)).toBe(true);
  });

  it("an edit saved while a server is being locked is kept: wrap refuses (exit 2), writes no backup and leaves the file as the other program saved it", async () => {
    const dir = tempDir();
    const config = join(dir, "claude_desktop_config.json");
    writeFileSync(
      config,
      `${JSON.stringify({ mcpServers: { edits: { command: process.execPath, args: [fixture("edits-config.mjs"), config] } } }, null, 2)}\n`,
    );
    const result = await runCli(["wrap", config], { cwd: dir });
    expect(result.code).toBe(2);
    // The refusal is the one line (the lock's own report only shows with --verbose), and nothing is a stack trace.
    expect(result.stdout).toBe("");
    const last = result.stderr.trimEnd().split("\n").at(-1) ?? "";
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(last).toMatch(/^mcp-lint: .*claude_desktop_config\.json changed while mcp-lint was working on it .*nothing was written/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const now = JSON.parse(readFileSync(config, "utf8"));
    expect(now.editedByClient).toBe(true);
    expect(now.mcpServers.edits.args).toEqual([fixture("edits-config.mjs"), config]);
    expect(existsSync(`${config}.mcp-lint.bak`)).toBe(false);
  });
});

describe("wrap and a server that echoes the entry's secret", () => {
  it("the lock is refused, the entry left as it is, and no output or file holds the secret in any form", async () => {
    const dir = tempDir();
    const secret = "sk-wrap-echo-51c2e9a07b3d";
    const config = join(dir, "claude_desktop_config.json");
    const echo = join(import.meta.dirname, "../fixtures/servers/echo-secret.mjs");
    const text = `${JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [echo], env: { ECHO_SECRET: "${WRAP_TOKEN}" } } } }, null, 2)}\n`;
    writeFileSync(config, text);
    const result = await runCli(["wrap", config], { cwd: dir, env: { WRAP_TOKEN: secret } });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/left server "echo" as it is: it could not be locked: refusing to write .*echoed back a secret/);
    const forms = [secret, Buffer.from(secret).toString("base64").replace(/=+$/, ""), Buffer.from(secret).toString("hex")];
    for (const form of forms) expect(result.stdout + result.stderr, form).not.toContain(form);
    expect(readFileSync(config, "utf8")).toBe(text);
    expect(existsSync(join(dir, "mcp-lint-locks", "echo.lock"))).toBe(false);
  });
});
