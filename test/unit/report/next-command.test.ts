// The command that follows a failed `lock --check` (issue 37 item 4): `lock --review` on a terminal,
// `lock --accept-tool NAME` without one, never the bare `--accept`; the same lock and servers as the
// check, none of its report flags, and no secret.
import { describe, expect, it } from "vitest";
import { nextCommand, refusedNames, shellWord } from "../../../src/report/next-command.js";

describe("nextCommand", () => {
  it("turns the check's args into lock --review with the same lock, env names and server command", () => {
    expect(
      nextCommand(["--lock", "servers/a.lock", "--pass-env", "API_TOKEN", "--fail-on", "error", "--json", "r.json", "--", "npx", "-y", "pkg@1.2.3"], {
        review: true,
      }),
    ).toEqual({
      words: ["mcp-lint", "lock", "--review", "--lock", "servers/a.lock", "--pass-env", "API_TOKEN", "--", "npx", "-y", "pkg@1.2.3"],
      omitted: 0,
      secretsHidden: false,
      config: false,
    });
  });

  it("names each tool to accept with --accept-tool, and none gives plain lock", () => {
    expect(nextCommand(["--", "node", "s.mjs"], { acceptTools: ["get_weather", "x; rm -rf ~"] }).words).toEqual([
      "mcp-lint",
      "lock",
      "--accept-tool",
      "get_weather",
      "--accept-tool",
      "x; rm -rf ~",
      "--",
      "node",
      "s.mjs",
    ]);
    expect(nextCommand(["--", "node", "s.mjs"], { acceptTools: [] }).words).toEqual(["mcp-lint", "lock", "--", "node", "s.mjs"]);
  });

  it("accepts the check's own form (lock --check first), drops --check, --accept, --review and --sarif, keeps --config, --server and --jobs", () => {
    const { words, config } = nextCommand(
      [
        "lock",
        "--check",
        "--accept",
        "--review",
        "--accept-tool=x",
        "--config=.mcp.json",
        "--server",
        "notes",
        "--server=my files",
        "--jobs=2",
        "--sarif",
        "l.sarif",
      ],
      { review: true },
    );
    expect(words).toEqual(["mcp-lint", "lock", "--review", "--config", ".mcp.json", "--server", "notes", "--server", "my files", "--jobs", "2"]);
    expect(config).toBe(true);
    // A `--config` word inside the server command is the server's, not mcp-lint's.
    expect(nextCommand(["--", "node", "s.mjs", "--config", "x"], { review: true }).config).toBe(false);
  });

  it("leaves out what is not an mcp-lint flag, and hides a URL's user info and query", () => {
    const { words, omitted, secretsHidden } = nextCommand(
      ["--token", "sk_live_abc", "--url", "https://user:pw@mcp.example.com/mcp?key=secret", "--header-env", "Authorization=MCP_AUTH", "--no-oauth"],
      { review: true },
    );
    expect(words).toEqual([
      "mcp-lint",
      "lock",
      "--review",
      "--url",
      "https://USER:PASSWORD@mcp.example.com/mcp?QUERY",
      "--header-env",
      "Authorization=MCP_AUTH",
      "--no-oauth",
    ]);
    expect(words.join(" ")).not.toMatch(/sk_live_abc|pw@|secret/);
    expect(omitted).toBe(2);
    expect(secretsHidden).toBe(true);
  });

  // The hint may be posted on a pull request: a credential written into the server command stays out.
  it("hides a credential in the server command: a flag named like one, a token's shape, a URL's user info", () => {
    const { words, secretsHidden } = nextCommand(
      [
        "--",
        "npx",
        "-y",
        "some-server@1.2.3",
        "--api-key",
        "k-123456789",
        "--token=abc123456",
        "ghp_abcdefghijklmnopqrstuvwxyz0123",
        "https://u:p@db.example.com/x",
        "--port",
        "8080",
      ],
      { review: true },
    );
    expect(words).toEqual([
      "mcp-lint",
      "lock",
      "--review",
      "--",
      "npx",
      "-y",
      "some-server@1.2.3",
      "--api-key",
      "SECRET",
      "--token=SECRET",
      "SECRET",
      "https://USER:PASSWORD@db.example.com/x",
      "--port",
      "8080",
    ]);
    expect(secretsHidden).toBe(true);
    expect(nextCommand(["--", "node", "server.mjs", "--verbose"], { review: true }).secretsHidden).toBe(false);
  });

  it("quotes words for a POSIX shell", () => {
    expect(shellWord("pkg@1.2.3")).toBe("pkg@1.2.3");
    expect(shellWord("a b")).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("")).toBe("''");
    expect(shellWord("$HOME")).toBe("'$HOME'");
    expect(shellWord("`id`")).toBe("'`id`'");
  });
});

describe("refusedNames", () => {
  const report = {
    changes: [
      { kind: "description_changed", severity: "error", tool: "get_weather", server: "weather" },
      { kind: "schema_widened", severity: "error", tool: "get_weather", server: "weather" },
      { kind: "meta_changed", severity: "warning", tool: "send_note", server: "weather" },
      { kind: "instructions_changed", severity: "error", tool: null, server: "weather" },
    ],
    hidden_text: [{ rule: "S8", severity: "error", tool: "lookup", server: "notes" }, null, "x"],
  };

  it("names each tool with an error-level change or hidden-text error once, SERVER/NAME with --config", () => {
    expect(refusedNames(report, true)).toEqual({ names: ["weather/get_weather", "notes/lookup"], serverLevel: true });
    expect(refusedNames(report, false)).toEqual({ names: ["get_weather", "lookup"], serverLevel: true });
  });

  it("names nothing for warnings and info (lock writes them without asking), or for a report that is not one", () => {
    expect(refusedNames({ changes: [{ severity: "warning", tool: "a" }], hidden_text: [] }, false)).toEqual({ names: [], serverLevel: false });
    for (const broken of [null, "text", { changes: "no" }]) expect(refusedNames(broken, false)).toEqual({ names: [], serverLevel: false });
  });
});
