// The small things a new user trips on (issue 21 item 8): each one answered in one line that says
// what to do, and `--json -` meaning stdout everywhere.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repo, runCli, tempDir } from "./helpers.js";

const oneLine = (stderr: string) => {
  expect(stderr.endsWith("\n")).toBe(true);
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  return stderr.trimEnd();
};

describe("mistakes get a way out", () => {
  it("a server command without -- in front is named, with the fix", async () => {
    const result = await runCli(["lock", "node", "server.js"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      "mcp-lint: unexpected arguments node, server.js: a server's command goes after --, as in mcp-lint lock -- node ...; see mcp-lint --help",
    );
  });

  it("a mistyped option or command gets the closest known one; a word close to nothing gets none", async () => {
    const dir = tempDir();
    expect(oneLine((await runCli(["lock", "--chek", "--", "node", "x"], { cwd: dir })).stderr)).toContain("unknown option --chek (did you mean --check?)");
    expect(oneLine((await runCli(["lock", "--pass-evn", "X", "--", "node", "x"], { cwd: dir })).stderr)).toContain(
      "unknown option --pass-evn (did you mean --pass-env?)",
    );
    expect(oneLine((await runCli(["wrap", "--dryrun", "x.json"], { cwd: dir })).stderr)).toContain("unknown option --dryrun (did you mean --dry-run?)");
    const command = await runCli(["lokc", "--", "node", "x"], { cwd: dir });
    expect(command.code).toBe(2);
    expect(oneLine(command.stderr)).toBe('mcp-lint: unknown command "lokc" (did you mean lock?); see mcp-lint --help');
    expect(oneLine((await runCli(["lock", "--zzzzqqq", "--", "node", "x"], { cwd: dir })).stderr)).toBe(
      "mcp-lint: unknown option --zzzzqqq; see mcp-lint --help",
    );
  });

  it("a lock given to check (or to --from) is named as a lock, with the command that uses one", async () => {
    const dir = tempDir();
    for (const args of [
      ["check", join(repo, "mcp-lint.lock.example")],
      ["lock", "--from", join(repo, "mcp-lint.lock.example"), "--lock", join(dir, "new.lock")],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toMatch(
        /mcp-lint\.lock\.example is an mcp-lint lock, not a tools\/list result; to compare a server with it, run mcp-lint lock --check --lock /,
      );
    }
  });
});

describe("--json - is stdout for every command", () => {
  it("check-config --json - prints the JSON on stdout and the report on stderr, and writes no file named -", async () => {
    const dir = tempDir();
    const config = join(dir, "claude_desktop_config.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem"] } } }));
    const result = await runCli(["check-config", config, "--json", "-"], { cwd: dir });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { summary: { files: number; warning: number }; servers: { name: string }[] };
    expect(report.summary).toMatchObject({ files: 1, warning: 1 });
    expect(report.servers.map((server) => server.name)).toEqual(["fs"]);
    expect(result.stderr).toContain("I1");
    expect(existsSync(join(dir, "-"))).toBe(false);
  });
});

describe("discovery and wrap say what they did", () => {
  it("check-config with nothing found lists every place it looked", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const result = await runCli(["check-config"], { cwd, env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), APPDATA: "", LOCALAPPDATA: "" } });
    expect(result.stderr).toContain("No MCP client config found in the usual places; name a file: mcp-lint check-config FILE. Looked for:\n");
    expect(result.stderr).toContain(`  ${join(home, ".claude.json")}\n`);
    expect(result.stderr).toContain(`  ${join(cwd, ".mcp.json")}\n`);
  });

  it("wrap names every entry it leaves alone and why; nothing to fix is exit 0, something to fix is exit 1", async () => {
    const dir = tempDir();
    const remoteOnly = join(dir, "remote", ".mcp.json");
    mkdirSync(join(remoteOnly, ".."));
    writeFileSync(remoteOnly, JSON.stringify({ mcpServers: { far: { type: "http", url: "https://example.com/mcp" } } }, null, 2));
    const nothing = await runCli(["wrap", remoteOnly], { cwd: dir });
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe(
      `left server "far" as it is: a remote server (add --include-remote to wrap it)\n${remoteOnly}: 0 of 1 server wrapped now; the file is unchanged\n`,
    );

    const unfilled = join(dir, "unfilled", ".mcp.json");
    mkdirSync(join(unfilled, ".."));
    const text = JSON.stringify({ mcpServers: { keyed: { command: "node", args: ["/srv/s.js", "--token=${MCP_LINT_TEST_UNSET_VARIABLE}"] } } }, null, 2);
    writeFileSync(unfilled, text);
    const fix = await runCli(["wrap", unfilled], { cwd: dir });
    expect(fix.code).toBe(1);
    expect(fix.stdout).toMatch(
      /^left server "keyed" as it is: it cannot be launched here as the client would launch it \(.*set MCP_LINT_TEST_UNSET_VARIABLE in the environment\)/,
    );
    expect(readFileSync(unfilled, "utf8")).toBe(text);
  });
});
