// Issue 9, item 4, for check-config: server names, commands, args, scopes, URLs and file names come from a
// config anyone may hand you. Through the built CLI, none of their control characters reaches stdout,
// stderr or the JSON report raw, and no output line starts with `::` (a GitHub Actions workflow command).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers.js";

const HOSTILE = [
  "\u001b[1A\u001b[2K0 errors", // CSI: cursor up, erase line
  "\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007", // OSC hyperlink
  "\u009b2J", // CSI as one C1 code point
  "a\rb", // carriage return
  "x\n::stop-commands::x\n", // a workflow command on its own line
  "::error file=a::forged", // a workflow command at the start
  "\u2028::warning::y", // line separator
  "\u202egnp.evil", // right-to-left override
  "\u2066isolate\u2069", // bidi isolates
  "zero\u200bwidth", // zero-width space
  "bell\u0007", // BEL
];

// Control, line-separating and bidi characters; a report's own line feeds are allowed between lines.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

function config(): unknown {
  const servers: Record<string, unknown> = {};
  HOSTILE.forEach((text, index) => {
    servers[`${text}#${index}`] = { command: "npx", args: ["-y", `pkg-${index}${text}`, text] };
    servers[`${text}#unknown-${index}`] = { command: "npx", args: [`--${text}`, "postmark-mcp", text] };
    servers[`${text}#remote-${index}`] = { type: "http", url: `http://mcp.example.com/${encodeURIComponent(text)}?t=${text}` };
    servers[`${text}#command-${index}`] = { command: `${text} npx -y ${text}` };
  });
  return {
    mcpServers: servers,
    projects: Object.fromEntries(HOSTILE.map((text, index) => [`/p/${text}`, { mcpServers: { [`s${index}`]: { command: "uvx", args: [text] } } }])),
  };
}

function expectInert(channel: string, text: string): void {
  expect(text, channel).not.toMatch(RAW_CONTROL);
  for (const line of text.split("\n")) expect(line.startsWith("::"), `${channel}: ${line}`).toBe(false);
}

describe("check-config keeps config-controlled text inert (built CLI)", () => {
  it("stdout, stderr and the JSON report hold no raw control character and no line starting with ::", async () => {
    const dir = tempDir();
    // The file name itself starts with `::`, so the line that names it would too.
    const name = "::stop-commands::evil.json";
    writeFileSync(join(dir, name), JSON.stringify(config()));
    const result = await runCli(["check-config", name, "--json", "report.json"], { cwd: dir });
    expect(result.code).toBe(1);
    const json = readFileSync(join(dir, "report.json"), "utf8");
    expectInert("stdout", result.stdout);
    expectInert("stderr", result.stderr);
    expectInert("json", json);
    // Every server is still there and checked: the unknown-flag ones are refused as known-bad.
    const report = JSON.parse(json) as { servers: { name: string; findings: { kind: string }[] }[] };
    expect(report.servers).toHaveLength(HOSTILE.length * 5);
    expect(
      report.servers.filter((server) => server.name.includes("#unknown-") && server.findings.some((finding) => finding.kind === "known_bad")),
    ).toHaveLength(HOSTILE.length);
    expect(result.stdout).toContain("\\u{3A}:stop-commands::evil.json  (Claude Code");
    expect(result.stdout).toContain("\\u{1B}[1A\\u{1B}[2K0 errors#0");
  });

  it("a file that cannot be read is named inert in the one-line error (exit 2)", async () => {
    const dir = tempDir();
    const name = "\u001b[2J\r::error::x.json";
    writeFileSync(join(dir, name), "{ nope");
    const result = await runCli(["check-config", name], { cwd: dir });
    expect(result.code).toBe(2);
    expectInert("stdout", result.stdout);
    expectInert("stderr", result.stderr);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^mcp-lint: \\u\{1B\}\[2J\\u\{D\}::error::x\.json: invalid JSON at line 1 column 3: /);
  });
});
