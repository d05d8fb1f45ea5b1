// check-config end to end, in process: every client fixture, exit codes, --json, --min-severity, --known-bad,
// default discovery, and no environment or header value in any output.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type CheckConfigFlags, runCheckConfig } from "../../src/cli/check-config.js";
import { findDefaultConfigs } from "../../src/config/load.js";
import { InputFileError, JsonInputError, UsageError } from "../../src/errors.js";

const fixtureRoot = fileURLToPath(new URL("../fixtures/config/", import.meta.url));

function allFixtures(dir = fixtureRoot): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? allFixtures(path) : [path];
    })
    .filter((path) => !path.endsWith("broken.json"));
}

function fixture(path: string): string {
  return join(fixtureRoot, path);
}

async function run(flags: Partial<CheckConfigFlags>): Promise<{ code: number; stdout: string; stderr: string; json: string | null }> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-lint-check-config-"));
  const jsonPath = flags.json === undefined ? null : join(dir, "report.json");
  let stdout = "";
  let stderr = "";
  const code = await runCheckConfig(
    { files: [], failOn: "warning", minSeverity: "info", knownBad: null, sarif: null, version: "0.0.0-test", ...flags, json: jsonPath },
    { out: (text) => (stdout += text), err: (text) => (stderr += text) },
  );
  return { code, stdout, stderr, json: jsonPath === null ? null : readFileSync(jsonPath, "utf8") };
}

interface JsonReport {
  format_version: number;
  summary: Record<string, number>;
  servers: {
    client: string;
    name: string;
    file: string;
    line: number | null;
    scope: string | null;
    findings: { rule: string; kind: string; severity: string; message: string; package: string | null }[];
  }[];
  unreadable_files: { file: string; reason: string; named: boolean }[];
}

/** Run check-config and keep what it printed even when it ends with an error. */
async function runCatching(flags: Partial<CheckConfigFlags>): Promise<{ error: unknown; stdout: string; json: string | null }> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-lint-check-config-"));
  const jsonPath = flags.json === undefined ? null : join(dir, "report.json");
  let stdout = "";
  let error: unknown = null;
  try {
    await runCheckConfig(
      { files: [], failOn: "warning", minSeverity: "info", knownBad: null, sarif: null, version: "0.0.0-test", ...flags, json: jsonPath },
      { out: (text) => (stdout += text), err: () => {} },
    );
  } catch (caught) {
    error = caught;
  }
  return { error, stdout, json: jsonPath === null ? null : readFileSync(jsonPath, "utf8") };
}

describe("check-config on every client format", () => {
  it("reads each fixture, groups the report by file and server, and exits 1", async () => {
    const files = allFixtures();
    const result = await run({ files, json: "yes" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    for (const file of files) expect(result.stdout).toContain(file);
    for (const client of [
      "Claude Desktop",
      "Claude Code",
      "Cursor",
      "VS Code",
      "Windsurf",
      "Codex",
      "Gemini CLI",
      "Zed",
      "Cline",
      "Continue",
      "Goose",
      "LM Studio",
      "Junie",
    ]) {
      expect(result.stdout).toContain(`(${client}, `);
    }
    const report = JSON.parse(result.json ?? "") as JsonReport;
    const kinds = new Set(report.servers.flatMap((server) => server.findings.map((finding) => finding.kind)));
    expect([...kinds].sort()).toEqual([
      "insecure_transport",
      "known_bad",
      "no_digest",
      "no_hashes",
      "unparsed",
      "unpinned",
      "unpinned_source",
      "unreadable_entry",
    ]);
    for (const server of report.servers) {
      expect(Object.keys(server)).toEqual(["client", "name", "file", "line", "scope", "transport", "remote", "disabled", "findings"]);
      for (const finding of server.findings) expect(Object.keys(finding)).toEqual(["rule", "kind", "severity", "message", "package"]);
    }
  });

  it("never prints an environment value, header value, URL credential or argument", async () => {
    const result = await run({ files: allFixtures(), json: "yes" });
    for (const text of [result.stdout, result.stderr, result.json ?? ""]) {
      expect(text).not.toContain("SECRET");
    }
  });

  it("prints the Claude Desktop report", async () => {
    const result = await run({ files: [fixture("claude-desktop/claude_desktop_config.json")] });
    const text = result.stdout.replaceAll(fixtureRoot, "<fixtures>/");
    expect(text).toMatchInlineSnapshot(`
      "<fixtures>/claude-desktop/claude_desktop_config.json  (Claude Desktop, 5 servers)
        filesystem
          warning  I1 unpinned  @modelcontextprotocol/server-filesystem (npx) has no version, so each start may run a different release; pin an exact version
        github  ok
        remote-bridge
          warning  I1 unpinned  mcp-remote (npx) has no version, so each start may run a different release; pin an exact version
        fetch  ok
        mail
          error    I1 known_bad  postmark-mcp (npx) has no exact version and resolves to a known-bad release: every postmark-mcp release from 1.0.16 on is known-bad (a backdoor that BCC'd every email it sent to an attacker; 1.0.16 to 1.0.18 were published and none is fixed; MAL-2025-47604, 2025-09-17, https://osv.dev/vulnerability/MAL-2025-47604)

      5 servers in 1 file: 1 error, 2 warnings, 0 info
      "
    `);
    expect(result.code).toBe(1);
  });

  it("prints the Claude Code report with its projects", async () => {
    const result = await run({ files: [fixture("claude-code/.claude.json")], json: "yes" });
    const text = result.stdout.replaceAll(fixtureRoot, "<fixtures>/");
    expect(text).toMatchInlineSnapshot(`
      "<fixtures>/claude-code/.claude.json  (Claude Code, 5 servers)
        context7 [user]  ok
        playwright [local /Users/me/work/api]
          warning  I1 unpinned  @playwright/mcp@latest (npx) uses the tag "latest", which moves to new releases; pin an exact version
        sentry [local /Users/me/work/api]  remote http https://mcp.sentry.dev, not checked
        litellm-proxy [local /Users/me/work/site]
          error    I1 known_bad  litellm[proxy]==1.82.7 (uvx) is a known-bad release: litellm 1.82.7 and 1.82.8 are known-bad (a credential stealer published with a stolen PyPI token; also PYSEC-2026-2 and GHSA-92x9-889m-jgmw; MAL-2026-2144, 2026-03-24, https://osv.dev/vulnerability/MAL-2026-2144)
        docker-gh [local C:\\Users\\me\\work\\win]
          warning  I1 no_digest  image ghcr.io/github/github-mcp-server:v0.13.0 (docker run) uses the tag "v0.13.0" without a digest, and a tag can point at new content; pin it with @sha256:<digest>

      5 servers in 1 file: 1 error, 2 warnings, 0 info
      "
    `);
    const report = JSON.parse(result.json ?? "") as JsonReport;
    expect(report.servers.map((server) => [server.scope, server.name, server.findings.map((finding) => finding.kind)])).toEqual([
      ["user", "context7", []],
      ["local /Users/me/work/api", "playwright", ["unpinned"]],
      ["local /Users/me/work/api", "sentry", []],
      ["local /Users/me/work/site", "litellm-proxy", ["known_bad"]],
      ["local C:\\Users\\me\\work\\win", "docker-gh", ["no_digest"]],
    ]);
  });

  it("notes a Claude Desktop file the app would ignore, and exits 0 when clean", async () => {
    const result = await run({ files: [fixture("claude-desktop-trailing/claude_desktop_config.json")] });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("note: Claude Desktop reads strict JSON");
    expect(result.stdout).toContain("time  ok");
  });
});

describe("flags", () => {
  const cursor = fixture("cursor/.cursor/mcp.json");
  const desktop = fixture("claude-desktop/claude_desktop_config.json");

  it("--fail-on sets the level that exits 1", async () => {
    expect((await run({ files: [cursor], failOn: "info" })).code).toBe(1);
    expect((await run({ files: [cursor], failOn: "warning" })).code).toBe(0);
    expect((await run({ files: [desktop], failOn: "error" })).code).toBe(1);
    expect((await run({ files: [fixture("vscode/.vscode/mcp.json")], failOn: "error" })).code).toBe(0);
    expect((await run({ files: [desktop], failOn: "never" })).code).toBe(0);
  });

  it("--min-severity hides terminal findings but not JSON ones, and does not change the exit code", async () => {
    const result = await run({ files: [desktop], minSeverity: "error", json: "yes" });
    expect(result.stdout).not.toContain("unpinned");
    expect(result.stdout).toContain("known_bad");
    expect(result.stdout).toContain("filesystem  (1 warning hidden by --min-severity)");
    expect(result.stdout).not.toMatch(/filesystem +ok/);
    expect(result.stdout).toContain("5 servers in 1 file: 1 error, 2 warnings, 0 info (2 warnings hidden by --min-severity)");
    expect(result.json).toContain('"unpinned"');
    expect(result.code).toBe(1);
  });

  it("--known-bad adds entries of the same shape", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-lint-known-bad-"));
    const extra = join(dir, "extra.json");
    writeFileSync(
      extra,
      JSON.stringify({ version: 1, entries: [{ ecosystem: "npm", name: "@acme/mcp", versions: ["1.0.0"], date: "2026-11-01", source: "internal advisory" }] }),
    );
    const junie = fixture("junie/.junie/mcp/mcp.json");
    expect((await run({ files: [junie], failOn: "error" })).code).toBe(0);
    const result = await run({ files: [junie], failOn: "error", knownBad: extra });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("@acme/mcp@1.0.0 (npx) is a known-bad release: @acme/mcp 1.0.0 is known-bad (2026-11-01, internal advisory)");
  });
});

describe("issue 11: check-config", () => {
  const cursor = fixture("cursor/.cursor/mcp.json");
  const settings = fixture("vscode-user/Code/User/settings.json");

  it("a malformed file named on the command line is reported, the other files are still checked, and the run ends with one error naming the position", async () => {
    const broken = fixture("broken.json");
    const { error, stdout, json } = await runCatching({ files: [broken, cursor, settings], json: "yes" });
    expect(error).toBeInstanceOf(JsonInputError);
    expect((error as Error).message).toBe(`${broken}: invalid JSON at line 4 column 5: expected a comma`);
    expect(stdout).toContain(`${broken}  could not be read: invalid JSON at line 4 column 5: expected a comma`);
    expect(stdout).toContain(`${cursor}  (Cursor, `);
    expect(stdout).toContain(`${settings}  (VS Code, 3 servers)`);
    expect(stdout).toContain("; 1 file could not be read");
    expect(stdout + String(error)).not.toContain("SECRET");
    const report = JSON.parse(json ?? "") as JsonReport;
    expect(report.unreadable_files).toEqual([{ file: broken, reason: "invalid JSON at line 4 column 5: expected a comma", named: true }]);
    expect(report.summary.unreadable_files).toBe(1);
  });

  it("two unreadable files make one line naming both", async () => {
    const { error } = await runCatching({ files: [fixture("broken.json"), fixture("nope.json"), cursor] });
    expect(error).toBeInstanceOf(InputFileError);
    expect((error as Error).message).toMatch(
      /^2 config files could not be read: .*broken\.json: invalid JSON at line 4 column 5: expected a comma; config file .*nope\.json does not exist$/,
    );
  });

  it("the JSON report has a format version, a summary and each server's line", async () => {
    const report = JSON.parse((await run({ files: [fixture("claude-desktop/claude_desktop_config.json"), settings], json: "yes" })).json ?? "") as JsonReport;
    expect(report.format_version).toBe(1);
    expect(report.summary).toEqual({ files: 2, servers: 8, error: 1, warning: 4, info: 0, unreadable_files: 0 });
    expect(report.servers.map((server) => [server.name, server.line])).toEqual([
      ["filesystem", 3],
      ["github", 7],
      ["remote-bridge", 12],
      ["fetch", 16],
      ["mail", 17],
      ["memory", 8],
      ["intranet", 13],
      ["local-dev", 18],
    ]);
  });

  it("flags a remote server on plain http:// that is not this machine, and not one on localhost", async () => {
    const result = await run({ files: [settings], json: "yes" });
    expect(result.stdout).toContain(
      "intranet [settings mcp.servers]\n    warning  I1 insecure_transport  remote server http://mcp.intranet.example:8080 is reached over plain http://",
    );
    expect(result.stdout).toContain("local-dev [settings mcp.servers]  remote http http://localhost:3000, not checked");
    const report = JSON.parse(result.json ?? "") as JsonReport;
    expect(report.servers.find((server) => server.name === "intranet")?.findings.map((finding) => [finding.kind, finding.severity])).toEqual([
      ["insecure_transport", "warning"],
    ]);
  });

  it("--min-severity names what it hid, per server and in the summary", async () => {
    const result = await run({ files: [fixture("cursor/.cursor/mcp.json")], minSeverity: "warning" });
    expect(result.stdout).toMatch(/\(\d+ info hidden by --min-severity\)/);
    expect(result.stdout).not.toMatch(/ ok \(/);
  });
});

describe("errors", () => {
  it("a named file that is missing or broken is an error; so is a bad --known-bad file", async () => {
    await expect(run({ files: [fixture("nope.json")] })).rejects.toThrow(InputFileError);
    await expect(run({ files: [fixture("broken.json")] })).rejects.toThrow(JsonInputError);
    await expect(run({ files: [fixture("broken.json")] })).rejects.not.toThrow(/SECRET/);
    const dir = mkdtempSync(join(tmpdir(), "mcp-lint-known-bad-"));
    const bad = join(dir, "kb.json");
    writeFileSync(bad, JSON.stringify({ version: 1, entries: [{ ecosystem: "npm", name: "x" }] }));
    await expect(run({ files: [fixture("cursor/.cursor/mcp.json")], knownBad: bad })).rejects.toThrow(UsageError);
    await expect(run({ files: [], knownBad: join(dir, "missing.json") })).rejects.toThrow(InputFileError);
  });
});

describe("default locations", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  function tempHome(): { home: string; cwd: string } {
    const home = mkdtempSync(join(tmpdir(), "mcp-lint-home-"));
    const cwd = join(home, "project");
    const put = (path: string, text: string) => {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, text);
    };
    put(join(home, ".config", "Claude", "claude_desktop_config.json"), readFileSync(fixture("claude-desktop/claude_desktop_config.json"), "utf8"));
    put(join(home, ".cursor", "mcp.json"), "{ broken");
    put(join(home, ".codex", "config.toml"), readFileSync(fixture("codex/config.toml"), "utf8"));
    put(join(cwd, ".mcp.json"), readFileSync(fixture("claude-code/project/.mcp.json"), "utf8"));
    put(join(cwd, ".continue", "mcpServers", "b.yaml"), readFileSync(fixture("continue/.continue/mcpServers/sqlite.yaml"), "utf8"));
    put(join(cwd, ".continue", "mcpServers", "a.json"), readFileSync(fixture("continue/.continue/mcpServers/claude-style.json"), "utf8"));
    put(join(home, ".config", "Code", "User", "settings.json"), readFileSync(fixture("vscode-user/Code/User/settings.json"), "utf8"));
    mkdirSync(join(home, ".gemini", "settings.json"), { recursive: true });
    return { home, cwd };
  }

  it("finds the files that exist, in search order, skipping folders", async () => {
    const { home, cwd } = tempHome();
    const found = await findDefaultConfigs({ platform: "linux", home, cwd, env: {} });
    expect(found.map((path) => relative(home, path))).toEqual([
      ".config/Claude/claude_desktop_config.json",
      "project/.mcp.json",
      ".cursor/mcp.json",
      ".config/Code/User/settings.json",
      ".codex/config.toml",
      "project/.continue/mcpServers/a.json",
      "project/.continue/mcpServers/b.yaml",
    ]);
  });

  it("with no FILE, says which files it read and skips a broken one it found", async () => {
    const { home } = tempHome();
    process.env.HOME = home;
    process.env.XDG_CONFIG_HOME = join(home, ".config");
    delete process.env.CODEX_HOME;
    delete process.env.CLAUDE_CONFIG_DIR;
    const result = await run({ files: [] });
    expect(result.stderr).toContain("found in the usual places:");
    expect(result.stderr).toContain(join(home, ".config", "Claude", "claude_desktop_config.json"));
    expect(result.stdout).toContain(`${join(home, ".cursor", "mcp.json")}  skipped: `);
    expect(result.stdout).toContain(join(home, ".codex", "config.toml"));
    expect(result.code).toBe(1);
  });
});
