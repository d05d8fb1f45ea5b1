// Server text stays data on every channel a CI runner reads: every command's stdout and stderr is
// read with the runner's rules (each line trimmed of leading whitespace, `::name::` and `##[name]`
// run as commands) and none is found, though the server puts commands after line breaks,
// indentation and CRs into its names, descriptions, schemas, instructions, version, stderr and tool
// results. This matters outside the Action too: a plain `run:` step or pre-commit in CI.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectProxy } from "../fixtures/servers/proxy/harness.js";
import { runnerView } from "./action-harness.js";
import { repo, runCli, tempDir } from "./helpers.js";

const server = [process.execPath, join(repo, "test/fixtures/servers/workflow-text.mjs")];
const COMMANDS = "\n::set-output name=a::b\n  ##[error]x\n\t::add-mask::x\r::warning::cr\n##vso[task.setvariable variable=v]w\n  ::stop-commands::token";

/** Every line of both streams the runner would run. */
function commandsIn(...streams: string[]): string[] {
  return streams.flatMap((stream) => [
    ...runnerView(stream).commands.map((command) => command.command),
    // Azure Pipelines' form, which runnerView does not model.
    ...stream.split(/\r\n|\r|\n/).filter((line) => line.trimStart().startsWith("##vso[")),
  ]);
}

describe("no command reaches a CI runner from server text", () => {
  it("lock, lock --check, run and run --probe on a live server", async () => {
    const dir = tempDir();
    const lock = await runCli(["lock", "--", ...server], { cwd: dir });
    expect(lock.code, lock.stderr).toBe(0);
    const check = await runCli(["lock", "--check", "--", ...server, "pulled"], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("added");
    const run = await runCli(["run", "--", ...server], { cwd: dir });
    writeFileSync(join(dir, "probes.json"), JSON.stringify({ version: 1, probes: [{ tool: "::error::name", args: { path: "/" } }] }));
    const probe = await runCli(["run", "--probe", "probes.json", "--include-responses", "--", ...server], { cwd: dir });
    expect(probe.stdout).toContain("Probes");
    const json = await runCli(["lock", "--check", "--json", "-", "--", ...server, "pulled"], { cwd: dir });
    for (const result of [lock, check, run, probe, json]) expect(commandsIn(result.stdout, result.stderr)).toEqual([]);
    // The text really was there, shown as data.
    expect(check.stdout).toContain("set-output");
  });

  it("lock --from and check on a saved tools/list", async () => {
    const dir = tempDir();
    const tools = [
      { name: "::error::name", description: `Lists files.${COMMANDS}`, inputSchema: { type: "object" } },
      { name: "  ##[warning]name", description: "Reads.", inputSchema: { type: "object", properties: { p: { type: "string", description: COMMANDS } } } },
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify({ tools, instructions: COMMANDS }));
    const lock = await runCli(["lock", "--from", "tools.json"], { cwd: dir });
    const check = await runCli(["check", "tools.json"], { cwd: dir });
    for (const result of [lock, check]) expect(commandsIn(result.stdout, result.stderr)).toEqual([]);
    // Shown, as data: the first-lock listing quotes the descriptions, the lint report names the tools.
    expect(lock.stdout).toContain("set-output");
    expect(check.stdout).toContain("error::name");
  });

  it("check-config and wrap --dry-run on configs that hold commands", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "mcp.json"),
      JSON.stringify({ mcpServers: { "::error::cfg": { command: "npx", args: ["-y", `some-server${COMMANDS}`] }, "\n::warning::two": { command: "node" } } }),
    );
    const config = await runCli(["check-config", "mcp.json"], { cwd: dir });
    // A server named like a command, in YAML: wrap names it in what it would do.
    writeFileSync(
      join(dir, "config.yaml"),
      `extensions:\n  "::error::from the yaml file":\n    cmd: node\n    args:\n      - server.js\n    enabled: true\n    type: stdio\n`,
    );
    const wrap = await runCli(["wrap", "--dry-run", "--lock-dir", join(dir, "locks"), "config.yaml"], { cwd: dir });
    expect(wrap.stdout + wrap.stderr).toContain("from the yaml file");
    for (const result of [config, wrap]) expect(commandsIn(result.stdout, result.stderr)).toEqual([]);
  });

  it("the proxy's stderr (the server's own stderr passed on, and the proxy's lines)", async () => {
    const dir = tempDir();
    const proxied = await connectProxy(["--", ...server], { cwd: dir });
    const listed = await proxied.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toContain("::error::name");
    await proxied.client.callTool({ name: "::error::name", arguments: { path: "/" } });
    expect(await proxied.close()).toBe(0);
    expect(proxied.stderr()).toContain("from stderr");
    expect(commandsIn(proxied.stderr())).toEqual([]);
  });
});
