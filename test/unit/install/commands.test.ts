// The I1 table: launch commands (test/fixtures/install/commands.tsv) and client config entries
// (entries.jsonl), one case per line, each with the kinds it must produce.
import { readFileSync } from "node:fs";
import { parse as shellParse } from "shell-quote";
import { stringify as toToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { stringify as toYaml } from "yaml";
import { lintServer } from "../../../src/config/lint.js";
import { readConfigText } from "../../../src/config/readers/index.js";
import type { ClientId } from "../../../src/config/types.js";
import { type InstallFinding, installMessage, lintLaunch, lintShellString, loadKnownBad } from "../../../src/install/index.js";

const knownBad = loadKnownBad();
const fixtures = new URL("../../fixtures/install/", import.meta.url);

interface CommandCase {
  line: number;
  mode: "argv" | "shell";
  command: string;
  expected: string[];
  why: string;
}

function splitArgv(command: string): string[] {
  // Keep $VAR and ${VAR} as written (a config's args hold them literally), and `#` inside a word
  // (shell-quote would start a comment there; a shell does not).
  const entries = shellParse(command.replace(/(?<=\S)#/g, "\u0001"), (name: string) => `\${${name}}`);
  return entries.map((entry) => {
    const text = typeof entry === "string" ? entry : "pattern" in entry ? entry.pattern : null;
    if (text === null) throw new Error(`table line splits into a shell operator: ${command}`);
    return text.replaceAll("\u0001", "#");
  });
}

function kinds(findings: readonly InstallFinding[]): string[] {
  return [...new Set(findings.map((finding) => finding.kind))].sort();
}

const commandCases: CommandCase[] = readFileSync(new URL("commands.tsv", fixtures), "utf8")
  .split("\n")
  .map((text, index) => ({ text, line: index + 1 }))
  .filter(({ text }) => text.trim() !== "" && !text.startsWith("#"))
  .map(({ text, line }) => {
    const [mode, command, expected, why] = text.split("\t");
    if ((mode !== "argv" && mode !== "shell") || command === undefined || expected === undefined || why === undefined) {
      throw new Error(`commands.tsv line ${line} is malformed`);
    }
    return { line, mode, command, expected: expected === "-" ? [] : expected.split(",").sort(), why };
  });

describe("launch command table", () => {
  it("has at least 80 cases", () => {
    expect(commandCases.length).toBeGreaterThanOrEqual(80);
  });

  it.each(commandCases)("line $line: $command -> $expected ($why)", ({ mode, command, expected }) => {
    const findings = mode === "argv" ? lintLaunch(splitArgv(command), knownBad) : lintShellString(command, knownBad);
    expect(kinds(findings)).toEqual(expected);
    for (const finding of findings) {
      expect(finding.rule).toBe("I1");
      expect(installMessage(finding)).not.toMatch(/undefined|\[object/);
    }
  });
});

interface EntryCase {
  client: ClientId;
  /** The server's name in its map (default "s"); Continue lists take it from the entry. */
  name?: string;
  entry: unknown;
  expect: string[];
  why: string;
}

const entryCases: (EntryCase & { line: number })[] = readFileSync(new URL("entries.jsonl", fixtures), "utf8")
  .split("\n")
  .filter((text) => text.trim() !== "")
  .map((text, index) => ({ ...(JSON.parse(text) as EntryCase), line: index + 1 }));

/** A config file of the client's own format holding one server (named `s` unless given), and a path typical for it. */
function configFile(client: ClientId, entry: unknown, name = "s"): { path: string; text: string } {
  // A computed key: `__proto__` becomes an own key here, as JSON.parse, TOML and YAML make it.
  const map = { [name]: entry };
  switch (client) {
    case "codex":
      return { path: "/home/u/.codex/config.toml", text: toToml({ mcp_servers: map }) };
    case "goose":
      return { path: "/home/u/.config/goose/config.yaml", text: toYaml({ extensions: map }) };
    case "continue":
      return { path: "/home/u/.continue/config.yaml", text: toYaml({ name: "cfg", mcpServers: [entry] }) };
    case "vscode":
      return { path: "/p/.vscode/mcp.json", text: JSON.stringify({ servers: map }) };
    case "zed":
      return { path: "/home/u/.config/zed/settings.json", text: JSON.stringify({ context_servers: map }) };
    default: {
      const paths: Partial<Record<ClientId, string>> = {
        "claude-desktop": "/home/u/.config/Claude/claude_desktop_config.json",
        "claude-code": "/p/.mcp.json",
        cursor: "/home/u/.cursor/mcp.json",
        windsurf: "/home/u/.codeium/windsurf/mcp_config.json",
        gemini: "/home/u/.gemini/settings.json",
        cline: "/x/cline_mcp_settings.json",
        "lm-studio": "/home/u/.lmstudio/mcp.json",
        junie: "/home/u/.junie/mcp/mcp.json",
      };
      return { path: paths[client] ?? "/x/mcp.json", text: JSON.stringify({ mcpServers: map }) };
    }
  }
}

describe("config entry table", () => {
  it.each(entryCases)("entries line $line: $client $why -> $expect", ({ client, name, entry, expect: expected }) => {
    const { path, text } = configFile(client, entry, name);
    const document = readConfigText(text, path);
    expect(document.client).toBe(client);
    // Every server a client would read is kept, whatever its name.
    expect(document.servers).toHaveLength(1);
    const [server] = document.servers;
    if (server === undefined) throw new Error("no server");
    if (name !== undefined && client !== "continue") expect(server.name).toBe(name);
    expect(server.line).toBeGreaterThanOrEqual(1);
    expect(kinds(lintServer(server, knownBad))).toEqual([...expected].sort());
  });

  it("with the command table, holds at least 80 cases", () => {
    expect(commandCases.length + entryCases.length).toBeGreaterThanOrEqual(80);
  });
});
