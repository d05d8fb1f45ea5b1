// Reader unit tests: every client format, recognised from content, read into servers without env or header values.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clientFromPath, readConfigText } from "../../../src/config/readers/index.js";
import { remoteOrigin } from "../../../src/config/readers/entry.js";
import type { ConfigDocument, ConfigServer } from "../../../src/config/types.js";
import { JsonInputError } from "../../../src/errors.js";

const root = new URL("../../fixtures/config/", import.meta.url);

function readFixture(path: string): ConfigDocument {
  return readConfigText(readFileSync(new URL(path, root), "utf8"), path);
}

function byName(document: ConfigDocument, name: string, scope: string | null = null): ConfigServer {
  const server = document.servers.find((item) => item.name === name && (scope === null || item.scope === scope));
  if (server === undefined) throw new Error(`no server ${name}`);
  return server;
}

describe("client formats", () => {
  it("Claude Desktop: mcpServers, strict JSON, cmd /c on Windows", () => {
    const doc = readFixture("claude-desktop/claude_desktop_config.json");
    expect(doc.client).toBe("claude-desktop");
    expect(doc.notes).toEqual([]);
    expect(doc.servers.map((server) => server.name)).toEqual(["filesystem", "github", "remote-bridge", "fetch", "mail"]);
    expect(byName(doc, "github").launch).toEqual({ argv: ["cmd", "/c", "npx", "-y", "@modelcontextprotocol/server-github@2025.4.8"] });
  });

  it("Claude Desktop with trailing commas: read, with a note that the app ignores the file", () => {
    const doc = readFixture("claude-desktop-trailing/claude_desktop_config.json");
    expect(doc.notes).toEqual(["strict_json"]);
    expect(doc.servers).toHaveLength(1);
  });

  it("Claude Code ~/.claude.json: user scope plus every project's local scope", () => {
    const doc = readFixture("claude-code/.claude.json");
    expect(doc.client).toBe("claude-code");
    expect(doc.servers.map((server) => [server.scope, server.name])).toEqual([
      ["user", "context7"],
      ["local /Users/me/work/api", "playwright"],
      ["local /Users/me/work/api", "sentry"],
      ["local /Users/me/work/site", "litellm-proxy"],
      ["local C:\\Users\\me\\work\\win", "docker-gh"],
    ]);
    const sentry = byName(doc, "sentry");
    expect(sentry.transport).toBe("http");
    expect(sentry.remote).toBe("https://mcp.sentry.dev");
  });

  it("Claude Code .mcp.json: ${VAR} forms kept as written", () => {
    const doc = readFixture("claude-code/project/.mcp.json");
    expect(doc.client).toBe("claude-code");
    const api = byName(doc, "api");
    expect(api.launch).toEqual({
      argv: [
        "${HOME}/.local/bin/uvx",
        "--from",
        "git+https://github.com/acme/api-mcp@main",
        "api-mcp",
        "--token",
        "${API_TOKEN:-SECRET-claude-code-default-1010}",
      ],
    });
    expect(byName(doc, "docs")).toMatchObject({ transport: "sse", remote: "(url not parsed)" });
  });

  it("Cursor: url servers are remote, ${env:...} kept", () => {
    const doc = readFixture("cursor/.cursor/mcp.json");
    expect(doc.client).toBe("cursor");
    expect(byName(doc, "context7")).toMatchObject({ transport: "http", remote: "https://mcp.context7.com", launch: null });
    expect(byName(doc, "supabase").launch).toMatchObject({
      argv: ["npx", "-y", "@supabase/mcp-server-supabase@${env:SUPABASE_MCP_VERSION}", "--access-token", "SECRET-cursor-arg-1313"],
    });
  });

  it("VS Code user settings.json: mcp.servers next to editor settings (JSONC)", () => {
    const doc = readFixture("vscode-user/Code/User/settings.json");
    expect(doc.client).toBe("vscode");
    expect(doc.servers.map((server) => [server.name, server.scope, server.transport, server.line])).toEqual([
      ["memory", "settings mcp.servers", "stdio", 8],
      ["intranet", "settings mcp.servers", "http", 13],
      ["local-dev", "settings mcp.servers", "http", 18],
    ]);
  });

  it("VS Code: JSONC with comments and trailing commas, inputs ignored, ${input:...} kept", () => {
    const doc = readFixture("vscode/.vscode/mcp.json");
    expect(doc.client).toBe("vscode");
    expect(doc.syntax).toBe("json");
    expect(doc.servers.map((server) => server.name)).toEqual(["github", "filesystem", "picked", "image"]);
    expect(byName(doc, "github")).toMatchObject({ transport: "http", remote: "https://api.githubcopilot.com" });
    expect(byName(doc, "picked").launch).toEqual({ argv: ["npx", "-y", "${input:package}"] });
  });

  it("Windsurf: serverUrl is remote; disabled is kept", () => {
    const doc = readFixture("windsurf/mcp_config.json");
    expect(doc.client).toBe("windsurf");
    expect(byName(doc, "remote")).toMatchObject({ transport: "http", remote: "https://mcp.example.com" });
    expect(byName(doc, "local").disabled).toBe(true);
  });

  it("Codex: TOML tables, quoted keys, inline env, enabled = false", () => {
    const doc = readFixture("codex/config.toml");
    expect(doc).toMatchObject({ client: "codex", syntax: "toml" });
    expect(doc.servers.map((server) => server.name)).toEqual(["context7", "docs.internal", "git"]);
    expect(byName(doc, "docs.internal")).toMatchObject({ transport: "http", remote: "https://docs.example.com" });
    expect(byName(doc, "git")).toMatchObject({ disabled: true, launch: { argv: ["uvx", "mcp-server-git==2026.7.10", "--repository", "."] } });
  });

  it("Gemini CLI: httpUrl is HTTP, tcp is websocket, comments allowed", () => {
    const doc = readFixture("gemini/.gemini/settings.json");
    expect(doc.client).toBe("gemini");
    expect(byName(doc, "cloudrun")).toMatchObject({ transport: "http", remote: "https://x-abc.a.run.app" });
    expect(byName(doc, "ws")).toMatchObject({ transport: "ws", remote: "ws://localhost:9000" });
    expect(byName(doc, "python").launch).toEqual({ argv: ["pipx", "run", "--spec", "my-mcp-server", "my-mcp"] });
  });

  it("Zed: context_servers, legacy command object, extension servers, remote", () => {
    const doc = readFixture("zed/settings.json");
    expect(doc.client).toBe("zed");
    expect(byName(doc, "legacy").launch).toEqual({ argv: ["uvx", "mcp-server-fetch"] });
    expect(byName(doc, "postgres-ext").transport).toBe("extension");
    expect(byName(doc, "remote")).toMatchObject({ transport: "http", remote: "https://mcp.example.com" });
  });

  it("Cline: a url without type is SSE; streamableHttp is HTTP", () => {
    const doc = readFixture("cline/cline_mcp_settings.json");
    expect(doc.client).toBe("cline");
    expect(byName(doc, "sse-server").transport).toBe("sse");
    expect(byName(doc, "stream").transport).toBe("http");
  });

  it("Continue: a YAML list of named servers; hub blocks are not launched here", () => {
    const doc = readFixture("continue/config.yaml");
    expect(doc).toMatchObject({ client: "continue", syntax: "yaml" });
    expect(doc.servers.map((server) => [server.name, server.transport])).toEqual([
      ["supabase", "stdio"],
      ["remote", "http"],
      ["anthropic/memory-mcp", "extension"],
    ]);
    expect(readFixture("continue/.continue/mcpServers/sqlite.yaml").servers[0]?.launch).toEqual({
      argv: ["uvx", "mcp-server-sqlite==0.6.2", "--db-path", "/tmp/test.db"],
    });
    const block = readFixture("continue/.continue/mcpServers/claude-style.json");
    expect(block.client).toBe("continue");
    expect(block.servers[0]?.name).toBe("time");
  });

  it("Goose: cmd/uri spellings, builtin extensions, enabled: false", () => {
    const doc = readFixture("goose/config.yaml");
    expect(doc.client).toBe("goose");
    expect(doc.servers.map((server) => [server.name, server.transport, server.disabled])).toEqual([
      ["developer", "builtin", false],
      ["fetch", "stdio", false],
      ["GitHub", "http", true],
    ]);
    expect(byName(doc, "fetch").launch).toEqual({ argv: ["uvx", "mcp-server-fetch"] });
  });

  it("LM Studio and Junie: Cursor's shape; wrong types are problems", () => {
    expect(readFixture("lm-studio/mcp.json").client).toBe("lm-studio");
    const junie = readFixture("junie/.junie/mcp/mcp.json");
    expect(junie.client).toBe("junie");
    expect(byName(junie, "broken").problem).toEqual({ reason: "command_type", field: "command" });
    expect(byName(junie, "no-launch").problem).toEqual({ reason: "no_command_or_url" });
  });
});

describe("format recognised from content", () => {
  it("reads TOML and JSONC whatever the file is called", () => {
    const toml = readFixture("renamed/servers.conf");
    expect(toml).toMatchObject({ client: "codex", syntax: "toml" });
    const jsonc = readFixture("renamed/editor.txt");
    expect(jsonc).toMatchObject({ client: "vscode", syntax: "json" });
  });

  it("reads YAML in a .json-named file and JSON in a .yaml-named file", () => {
    expect(readConfigText("mcpServers:\n  - name: a\n    command: npx\n", "odd.json").client).toBe("continue");
    expect(readConfigText('{"extensions": {"x": {"type": "stdio", "cmd": "uvx"}}}', "odd.yaml").client).toBe("goose");
  });

  it("names the client from content when the path says nothing", () => {
    expect(readConfigText('{"mcpServers": {"a": {"serverUrl": "https://x.example"}}}', "a.json").client).toBe("windsurf");
    expect(readConfigText('{"mcpServers": {"a": {"httpUrl": "https://x.example"}}}', "a.json").client).toBe("gemini");
    expect(readConfigText('{"mcpServers": {"a": {"url": "https://x.example", "autoApprove": []}}}', "a.json").client).toBe("cline");
    expect(readConfigText('{"mcpServers": {"a": {"command": "npx"}}}', "a.json").client).toBe("mcp-servers");
  });

  it("trusts a path hint only for clients that use the mcpServers shape", () => {
    expect(readConfigText('{"mcpServers": {"a": {"command": "npx"}}}', "/h/.config/goose/config.yaml").client).toBe("mcp-servers");
  });

  it("reads VS Code settings.json mcp.servers and devcontainer customizations", () => {
    const settings = readConfigText('{"editor.fontSize": 12, "mcp": {"servers": {"a": {"command": "npx", "args": ["-y", "x"]}}}}', "settings.json");
    expect(settings).toMatchObject({ client: "vscode", servers: [{ name: "a", scope: "settings mcp.servers" }] });
    const devcontainer = readConfigText('{"customizations": {"vscode": {"mcp": {"servers": {"b": {"command": "uvx", "args": ["y"]}}}}}}', "devcontainer.json");
    expect(devcontainer.servers[0]).toMatchObject({ name: "b", scope: "devcontainer" });
  });

  it("says when no MCP section is found, and when plugin.json points at another file", () => {
    expect(readConfigText('{"theme": "dark"}', "settings.json").notes).toEqual(["not_recognised"]);
    expect(readConfigText("just text", "x.txt").notes).toEqual(["not_recognised"]);
    expect(readConfigText('{"name": "p", "mcpServers": "./.mcp.json"}', "/p/.claude-plugin/plugin.json").notes).toEqual(["servers_in_other_file"]);
  });
});

describe("entries", () => {
  it("splits a command with spaces and no args as a shell string", () => {
    const doc = readConfigText('{"mcpServers": {"a": {"command": "npx -y foo@1.0.0"}}}', "claude_desktop_config.json");
    expect(doc.servers[0]?.launch).toEqual({ shell: "npx -y foo@1.0.0" });
  });

  it("reports wrong types and missing launch fields", () => {
    const doc = readConfigText(
      '{"mcpServers": {"a": 1, "b": {"command": ""}, "c": {"command": "npx", "args": [1]}, "d": {"env": {}}, "e": {"command": "npx", "args": null}}}',
      "mcp.json",
    );
    expect(doc.servers.map((server) => server.problem)).toEqual([
      { reason: "entry_not_object" },
      { reason: "command_type", field: "command" },
      { reason: "args_type", field: "args" },
      { reason: "no_command_or_url" },
      null,
    ]);
  });

  it("keeps a server named __proto__ or constructor in JSON, TOML and YAML (issue 9: it silently disappeared)", () => {
    const json = readConfigText(
      '{"mcpServers": {"__proto__": {"command": "npx", "args": ["-y", "a"]}, "constructor": {"command": "uvx", "args": ["b"]}}}',
      "/p/.cursor/mcp.json",
    );
    const toml = readConfigText('[mcp_servers.__proto__]\ncommand = "npx"\n\n[mcp_servers]\nconstructor = { command = "uvx" }\n', "/h/.codex/config.toml");
    const yaml = readConfigText("extensions:\n  __proto__:\n    cmd: npx\n  constructor:\n    cmd: uvx\n", "/h/.config/goose/config.yaml");
    for (const doc of [json, toml, yaml]) {
      expect(doc.servers.map((server) => server.name)).toEqual(["__proto__", "constructor"]);
      expect(doc.servers.every((server) => server.launch !== null)).toBe(true);
    }
  });

  it("reads values into objects with no prototype, so no lookup reaches Object.prototype", () => {
    const doc = readConfigText(
      '{"mcpServers": {"a": {"type": "constructor", "command": "npx"}, "b": {"type": "toString", "url": "https://x.example"}}}',
      "/p/.mcp.json",
    );
    expect(doc.servers.map((server) => [server.name, server.transport, server.launch !== null])).toEqual([
      ["a", "stdio", true],
      ["b", "http", false],
    ]);
  });

  it("checks an entry with a command whatever its type or transportType says", () => {
    const doc = readConfigText(
      '{"mcpServers": {"a": {"transportType": "sse", "url": "https://x.example/sse", "command": "npx", "args": ["-y", "foo"]}, "b": {"type": "builtin", "command": "uvx", "args": ["x"]}}}',
      "/x/cline_mcp_settings.json",
    );
    expect(doc.servers.map((server) => [server.name, server.transport, server.launch, server.remote])).toEqual([
      ["a", "stdio", { argv: ["npx", "-y", "foo"] }, "https://x.example"],
      ["b", "stdio", { argv: ["uvx", "x"] }, null],
    ]);
  });

  it("keeps the last of two keys with the same name, as JSON.parse does, and its line", () => {
    const doc = readConfigText('{\n"mcpServers": {\n"a": {"command": "node"},\n"a": {"command": "npx"}\n}\n}', "/p/.mcp.json");
    expect(doc.servers).toEqual([expect.objectContaining({ name: "a", launch: { argv: ["npx"] }, line: 4 })]);
  });

  it("does not inherit a server table from a __proto__ key", () => {
    const doc = readConfigText('{"__proto__": {"mcpServers": {"evil": {"command": "npx"}}}}', "x.json");
    expect(doc.servers).toEqual([]);
    expect(doc.notes).toEqual(["not_recognised"]);
  });

  it("keeps no environment or header value in what it returns", () => {
    for (const path of [
      "claude-desktop/claude_desktop_config.json",
      "claude-code/.claude.json",
      "vscode/.vscode/mcp.json",
      "codex/config.toml",
      "goose/config.yaml",
      "zed/settings.json",
    ]) {
      const text = JSON.stringify(readFixture(path));
      expect(text).not.toMatch(/SECRET-[a-z-]*(env|header|query|userinfo|ext)-/);
    }
  });

  it("shows only the scheme and host of a remote URL", () => {
    expect(remoteOrigin("https://user:pw@mcp.example.com:8443/path/sse?token=abc#frag")).toBe("https://mcp.example.com:8443");
    expect(remoteOrigin("unix:///tmp/mcp.sock")).toBe("unix:");
    expect(remoteOrigin("${env:HOST}/mcp")).toBe("(url not parsed)");
    expect(remoteOrigin(42)).toBe("(no url)");
  });
});

describe("line numbers", () => {
  it("JSON: the line of each server's key, per scope", () => {
    expect(readFixture("claude-code/.claude.json").servers.map((server) => [server.name, server.line])).toEqual([
      ["context7", 7],
      ["playwright", 13],
      ["sentry", 14],
      ["litellm-proxy", 19],
      ["docker-gh", 24],
    ]);
    expect(readFixture("vscode/.vscode/mcp.json").servers.map((server) => [server.name, server.line])).toEqual([
      ["github", 13],
      ["filesystem", 19],
      ["picked", 25],
      ["image", 29],
    ]);
  });

  it("TOML: table headers, quoted keys, inline tables and dotted keys", () => {
    expect(readFixture("codex/config.toml").servers.map((server) => [server.name, server.line])).toEqual([
      ["context7", 3],
      ["docs.internal", 10],
      ["git", 15],
    ]);
    const text = [
      'top = """',
      "[mcp_servers.fake]",
      '"""',
      "[mcp_servers]",
      'dotted.command = "npx"',
      'inline = { command = "uvx" }',
      "'lit.eral' = { command = \"uvx\" }",
      '"esc\\u0061ped".command = "npx"',
    ].join("\n");
    expect(readConfigText(text, "c.toml").servers.map((server) => [server.name, server.line])).toEqual([
      ["dotted", 5],
      ["inline", 6],
      ["lit.eral", 7],
      ["escaped", 8],
    ]);
  });

  it("YAML: map keys and list items", () => {
    expect(readFixture("goose/config.yaml").servers.map((server) => [server.name, server.line])).toEqual([
      ["developer", 3],
      ["fetch", 9],
      ["GitHub", 17],
    ]);
    expect(
      readConfigText("name: cfg\nmcpServers:\n  - name: a\n    command: npx\n  - name: b\n    command: uvx\n", "/p/.continue/config.yaml").servers.map(
        (server) => server.line,
      ),
    ).toEqual([3, 5]);
  });
});

describe("syntax errors", () => {
  it("a file nested too deeply is one line naming the file, not an internal error", () => {
    const deep = `{"mcpServers": ${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    expect(() => readConfigText(deep, "deep.json")).toThrow(JsonInputError);
    expect(() => readConfigText(deep, "deep.json")).toThrow(/^deep\.json: nests deeper than 512 levels at /);
  });

  it("a file name with control characters is shown inert in the message", () => {
    expect(() => readConfigText("{", "evil\u001b[2J\n::error::x.json")).toThrow(/^evil\\u\{1B\}\[2J\\u\{A\}::error::x\.json: invalid JSON/);
  });

  it("name the file and position, never the text", () => {
    const text = readFileSync(new URL("broken.json", root), "utf8");
    expect(() => readConfigText(text, "broken.json")).toThrow(JsonInputError);
    expect(() => readConfigText(text, "broken.json")).toThrow(/^broken\.json: invalid JSON at line 4 column 5: expected a comma$/);
    expect(() => readConfigText('[mcp_servers.a]\ncommand = "SECRET-x\n', "c.toml")).toThrow(/^c\.toml: invalid TOML at line \d+ column \d+$/);
    expect(() => readConfigText("extensions:\n  a: [SECRET-y\n", "c.yaml")).toThrow(/^c\.yaml: invalid YAML at line \d+ column \d+$/);
  });
});

describe("path hints", () => {
  it.each([
    ["/Users/me/Library/Application Support/Claude/claude_desktop_config.json", "claude-desktop"],
    ["C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json", "claude-desktop"],
    ["/home/me/.claude.json", "claude-code"],
    ["/repo/.mcp.json", "claude-code"],
    ["/home/me/.cursor/mcp.json", "cursor"],
    ["/repo/.vscode/mcp.json", "vscode"],
    ["/home/me/.config/Code/User/profiles/abc123/mcp.json", "vscode"],
    ["/home/me/.codeium/windsurf/mcp_config.json", "windsurf"],
    ["/home/me/.codex/config.toml", "codex"],
    ["/home/me/.gemini/settings.json", "gemini"],
    ["/home/me/.config/zed/settings.json", "zed"],
    ["/x/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", "cline"],
    ["/repo/.continue/mcpServers/a.yaml", "continue"],
    ["/home/me/.config/goose/config.yaml", "goose"],
    ["/home/me/.lmstudio/mcp.json", "lm-studio"],
    ["/home/me/.junie/mcp/mcp.json", "junie"],
    ["/tmp/random.json", null],
  ])("%s -> %s", (path, client) => {
    expect(clientFromPath(path)).toBe(client);
  });
});
