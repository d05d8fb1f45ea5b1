// The Codex adapter against a trimmed real request of codex-cli 0.171.0 (conversions.json served as
// `target`): reading the `mcp__target` namespace, undoing its names (hash suffixes included, with
// names Codex 0.171.0 was seen to send), the reply that ends `codex exec`, and the config it writes.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "smol-toml";
import { describe, expect, it } from "vitest";
import { codex, codexConfig, codexNamePart, codexNamespace, codexToolNames } from "../../../src/crosscheck/clients/codex.js";
import type { RecordedRequest } from "../../../src/crosscheck/types.js";

const FIXTURES = new URL("../../fixtures/crosscheck/", import.meta.url);
const captured = JSON.parse(readFileSync(new URL("codex-request.json", FIXTURES), "utf8")) as RecordedRequest;
const conversions = JSON.parse(readFileSync(new URL("conversions.json", FIXTURES), "utf8")) as { tools: { name: string; description: string }[] };
const serverTools = conversions.tools.map((tool) => tool.name);

function request(body: unknown, path = "/v1/responses", method = "POST"): RecordedRequest {
  return { method, path, headers: {}, body };
}

describe("toolsIn", () => {
  it("reads the server's namespace of a captured request: names, descriptions verbatim, parameters as sent", () => {
    const tools = codex.toolsIn(captured, "target");
    expect(tools?.map((tool) => tool.name)).toEqual([
      "mcp__target__get_forecast",
      "mcp__target__ping",
      "mcp__target__search_notes",
      "mcp__target__set_reminder",
      "mcp__target__summarize_folder",
    ]);
    for (const tool of tools ?? []) {
      const source = conversions.tools.find((entry) => `mcp__target__${entry.name}` === tool.name);
      expect(tool.description).toBe(source?.description);
      expect(tool).not.toHaveProperty("outputSchema");
    }
    // Codex drops the bounds, formats and defaults, and turns `const` into a string enum.
    const search = tools?.find((tool) => tool.name === "mcp__target__search_notes")?.inputSchema as { properties: Record<string, unknown> };
    expect(search.properties.kind).toEqual({ type: "string", description: "Always note.", enum: ["note"] });
    expect(search.properties.limit).toEqual({ type: "integer", description: "How many notes to return." });
    expect(tools?.find((tool) => tool.name === "mcp__target__ping")?.inputSchema).toEqual({ type: "object", properties: {} });
  });

  it("leaves Codex's own tools and other namespaces out, and is null for another server's name", () => {
    expect(codex.toolsIn(captured, "target")?.some((tool) => tool.name.includes("list_mcp_resources") || tool.name.includes("agent"))).toBe(false);
    expect(codex.toolsIn(captured, "other")).toBeNull();
  });

  it("is null for a turn without the namespace, and for requests that are not turns", () => {
    expect(codex.toolsIn(request({ input: [], tools: [{ type: "function", name: "exec_command", parameters: {} }] }), "target")).toBeNull();
    expect(codex.toolsIn(request(null), "target")).toBeNull();
    expect(codex.toolsIn(request(captured.body, "/v1/models", "GET"), "target")).toBeNull();
  });

  it("also reads the namespace from an additional_tools input item, and flat mcp__ function tools", () => {
    const tool = { type: "function", name: "ping", description: "", parameters: { type: "object" } };
    const additional = { input: [{ type: "additional_tools", tools: [{ type: "namespace", name: "mcp__target", tools: [tool] }] }] };
    expect(codex.toolsIn(request(additional), "target")).toEqual([{ name: "mcp__target__ping", description: "", inputSchema: { type: "object" } }]);
    const flat = { input: [], tools: [{ ...tool, name: "mcp__target__ping" }] };
    expect(codex.toolsIn(request(flat), "target")?.map((entry) => entry.name)).toEqual(["mcp__target__ping"]);
  });
});

describe("modelRequest", () => {
  it("is true for a Responses turn only", () => {
    expect(codex.modelRequest(captured)).toBe(true);
    expect(codex.modelRequest(request({ input: [] }, "/v1/responses/compact"))).toBe(false);
    expect(codex.modelRequest(request({}, "/v1/models", "GET"))).toBe(false);
  });
});

describe("names", () => {
  it("spells a part as Codex does: one _ per character outside [A-Za-z0-9_], dashes included", () => {
    expect(codexNamePart("get.user-info")).toBe("get_user_info");
    expect(codexNamePart("weird name/with spaces:ü")).toBe("weird_name_with_spaces__");
    expect(codexNamePart("")).toBe("_");
    expect(codexNamespace("my-srv")).toBe("mcp__my_srv");
    expect(codexNamespace("mcp__x")).toBe("mcp__x");
  });

  it("gives names that sanitize alike a sha1 suffix, as Codex 0.171.0 sent them", () => {
    const names = codexToolNames("target", ["a.b", "a_b", "get.user-info"]);
    expect([...names]).toEqual(
      expect.arrayContaining([
        ["mcp__target__a_b_60e6f9ae0e72", "a.b"],
        ["mcp__target__a_b_c2bf54580796", "a_b"],
        ["mcp__target__get_user_info", "get.user-info"],
      ]),
    );
  });

  it("cuts a tool name short past 128 characters in all, as Codex 0.171.0 sent them", () => {
    const tools = ["x".repeat(100), "y".repeat(116), `${"v".repeat(130)}.dot`];
    expect(codex.serverToolName(`mcp__target__${"x".repeat(100)}`, "target", tools)).toBe(tools[0]);
    expect(codex.serverToolName(`mcp__target__${"y".repeat(102)}_6b2b93b67b97`, "target", tools)).toBe(tools[1]);
    expect(codex.serverToolName(`mcp__target__${"v".repeat(102)}_26309af010bc`, "target", tools)).toBe(tools[2]);
  });

  it("maps every rendered name of the captured request back, and nothing else", () => {
    const rendered = codex.toolsIn(captured, "target") ?? [];
    expect(rendered.map((tool) => codex.serverToolName(tool.name, "target", serverTools)).sort()).toEqual([...serverTools].sort());
    expect(codex.serverToolName("mcp__target__unknown", "target", serverTools)).toBeNull();
    expect(codex.serverToolName("mcp__other__ping", "target", serverTools)).toBeNull();
    expect(codex.serverToolName("ping", "target", serverTools)).toBeNull();
  });
});

describe("reply", () => {
  it("streams a completed one-word answer to a turn", () => {
    const answer = codex.reply(captured);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    const events = answer.body
      .trim()
      .split("\n\n")
      .map((block) => {
        const [event, data] = block.split("\n");
        return {
          event: event?.slice("event: ".length),
          data: JSON.parse(data?.slice("data: ".length) ?? "null") as { type: string; response?: { status: string } },
        };
      });
    expect(events.map((entry) => entry.event)).toEqual(["response.created", "response.output_item.done", "response.completed"]);
    for (const entry of events) expect(entry.data.type).toBe(entry.event);
    expect(events.at(-1)?.data.response?.status).toBe("completed");
  });

  it("answers a non-streaming turn with a JSON response, a model listing with an empty list, the rest with 404", () => {
    expect(JSON.parse(codex.reply(request({ input: [], stream: false })).body)).toMatchObject({ object: "response", status: "completed" });
    expect(codex.reply(request(null, "/v1/models", "GET"))).toMatchObject({ status: 200, body: '{"object":"list","data":[]}' });
    expect(codex.reply(request(null, "/elsewhere", "GET")).status).toBe(404);
  });
});

describe("prepare", () => {
  const baseEnv = { PATH: "/usr/bin:/bin" };

  it("writes a parseable config.toml with the provider and an HTTP server whose header values stay in the environment", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "mcp-lint-codex-"));
    const launch = await codex.prepare({
      scratch,
      bin: "/opt/codex",
      server: { kind: "http", url: "http://127.0.0.1:5000/mcp", headers: [["Authorization", "Bearer secret-token"]] },
      serverName: "target",
      modelUrl: "http://127.0.0.1:4000",
      modelKey: "mcp-lint-run-key-c0d3",
      baseEnv,
    });
    const file = join(scratch, "codex-home", "config.toml");
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("secret-token");
    // The run's key travels only in Codex's own environment, named by env_key.
    expect(text).not.toContain("mcp-lint-run-key-c0d3");
    expect(statSync(file).mode & 0o077).toBe(0);
    const config = parse(text) as Record<string, Record<string, Record<string, unknown>>>;
    expect(config.model_provider).toBe("mcp-lint");
    expect(config.model_providers?.["mcp-lint"]).toMatchObject({
      base_url: "http://127.0.0.1:4000/v1",
      wire_api: "responses",
      env_key: "MCP_LINT_API_KEY",
      request_max_retries: 0,
    });
    expect(config.mcp_servers?.target).toEqual({
      url: "http://127.0.0.1:5000/mcp",
      required: true,
      startup_timeout_sec: 120,
      env_http_headers: { Authorization: "MCP_LINT_HEADER_0" },
    });
    expect(config.features).toMatchObject({ plugins: false });
    expect(launch.command).toBe("/opt/codex");
    expect(launch.args.slice(0, 2)).toEqual(["exec", "--skip-git-repo-check"]);
    expect(launch.cwd).toBe(join(scratch, "work"));
    expect(launch.env).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: join(scratch, "home"),
      CODEX_HOME: join(scratch, "codex-home"),
      MCP_LINT_API_KEY: "mcp-lint-run-key-c0d3",
      MCP_LINT_HEADER_0: "Bearer secret-token",
    });
  });

  it("forwards a stdio server's variables by name, writing only those Codex itself would read", () => {
    const { config, env } = codexConfig({
      server: { kind: "stdio", command: "node", args: ["server.mjs", "--flag"], env: { API_TOKEN: "tok", PATH: "/srv/bin", HTTPS_PROXY: "http://p" } },
      serverName: "target",
      modelUrl: null,
      baseEnv,
    });
    const parsed = parse(stringify(config)) as typeof config;
    expect((parsed.mcp_servers as Record<string, unknown>).target).toEqual({
      command: "node",
      args: ["server.mjs", "--flag"],
      required: true,
      startup_timeout_sec: 120,
      env_vars: ["API_TOKEN"],
      env: { PATH: "/srv/bin", HTTPS_PROXY: "http://p" },
    });
    expect(env).toEqual({ API_TOKEN: "tok" });
    expect((parsed.model_providers as Record<string, { base_url: string }>)["mcp-lint"]?.base_url).toBe("http://127.0.0.1:9/v1");
  });
});
