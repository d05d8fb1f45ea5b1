// The Gemini CLI adapter against a trimmed real request of gemini-cli 0.61.0 (conversions.json served
// as `target`): reading the server's function declarations, undoing `mcp_<server>_<tool>` (names as
// 0.61.0 was seen to render them), the replies that end `gemini -p`, and the settings it writes.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandedLiteral, geminiCli, geminiSettings, geminiToolName, isServerTool, settingsLiteral } from "../../../src/crosscheck/clients/gemini-cli.js";
import type { RecordedRequest } from "../../../src/crosscheck/types.js";

const FIXTURES = new URL("../../fixtures/crosscheck/", import.meta.url);
const captured = JSON.parse(readFileSync(new URL("gemini-request.json", FIXTURES), "utf8")) as RecordedRequest;
const conversions = JSON.parse(readFileSync(new URL("conversions.json", FIXTURES), "utf8")) as {
  tools: { name: string; description: string; inputSchema: { properties?: Record<string, unknown> } }[];
};
const serverTools = conversions.tools.map((tool) => tool.name);
const STREAM = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse";
/** What Gemini CLI adds to every object-rooted tool schema. */
const WAIT_FOR_PREVIOUS = {
  type: "boolean",
  description:
    "Set to true to wait for all previously requested tools in this turn to complete before starting. Set to false (or omit) to run in parallel. Use true when this tool depends on the output of previous tools.",
};

function request(body: unknown, path = STREAM, method = "POST"): RecordedRequest {
  return { method, path, headers: {}, body };
}

/** The router's classifier call as 0.61.0 sends it under the "auto" model: JSON mode, no tools. */
const classifier = request(
  { contents: [{ role: "user", parts: [{ text: "hi" }] }], generationConfig: { responseMimeType: "application/json" } },
  "/v1beta/models/gemini-3.5-flash-lite:generateContent",
);

describe("toolsIn", () => {
  it("reads the server's declarations of a captured request: names, descriptions and schemas as sent", () => {
    const tools = geminiCli.toolsIn(captured, "target");
    expect(tools?.map((tool) => tool.name)).toEqual(["mcp_target_search_notes", "mcp_target_set_reminder", "mcp_target_get_forecast", "mcp_target_ping"]);
    for (const tool of tools ?? []) {
      const source = conversions.tools.find((entry) => `mcp_target_${entry.name}` === tool.name);
      expect(tool.description).toBe(source?.description);
      // 0.61.0 keeps the schema verbatim (format, pattern, const, bounds, oneOf, additionalProperties) and adds one property.
      expect(tool.inputSchema).toEqual({ ...source?.inputSchema, properties: { ...source?.inputSchema.properties, wait_for_previous: WAIT_FOR_PREVIOUS } });
      // outputSchema is never sent to the model.
      expect(tool).not.toHaveProperty("outputSchema");
    }
  });

  it("leaves the CLI's own tools out, and is null for another server's name", () => {
    expect(geminiCli.toolsIn(captured, "target")?.some((tool) => tool.name === "enter_plan_mode")).toBe(false);
    expect(geminiCli.toolsIn(captured, "other")).toBeNull();
    // `mcp_target_` must be followed by the tool: a server named `targe` is not `target`.
    expect(geminiCli.toolsIn(captured, "targe")).toBeNull();
  });

  it("is null for the classifier, token counting, other endpoints and bodies that are not JSON", () => {
    expect(geminiCli.toolsIn(classifier, "target")).toBeNull();
    expect(geminiCli.toolsIn(request(captured.body, "/v1beta/models/gemini-2.5-flash:countTokens"), "target")).toBeNull();
    expect(geminiCli.toolsIn(request(captured.body, "/v1beta/models", "GET"), "target")).toBeNull();
    expect(geminiCli.toolsIn(request(null), "target")).toBeNull();
    expect(geminiCli.toolsIn(request({ contents: [], tools: [{ googleSearch: {} }] }), "target")).toBeNull();
  });

  it("reads `parameters` when a declaration has no `parametersJsonSchema`, and a missing description as null", () => {
    const body = { contents: [], tools: [{ functionDeclarations: [{ name: "mcp_target_ping", parameters: { type: "OBJECT" } }] }] };
    expect(geminiCli.toolsIn(request(body, "/v1beta/models/gemini-2.5-flash:generateContent"), "target")).toEqual([
      { name: "mcp_target_ping", description: null, inputSchema: { type: "OBJECT" } },
    ]);
  });
});

describe("names", () => {
  it("renders mcp_<server>_<tool> as 0.61.0 was seen to", () => {
    expect(geminiToolName("target", "search_notes")).toBe("mcp_target_search_notes");
    expect(geminiToolName("target", "get.weather/v2")).toBe("mcp_target_get.weather_v2");
    expect(geminiToolName("target", "a b")).toBe("mcp_target_a_b");
    expect(geminiToolName("target", "ünï")).toBe("mcp_target__n_");
    expect(geminiToolName("target", "9lives")).toBe("mcp_target_9lives");
    expect(geminiToolName("target", "this_is_a_very_long_tool_name_that_goes_on_and_on_and_on_forever_x")).toBe(
      "mcp_target_this_is_a_very_long...oes_on_and_on_and_on_forever_x",
    );
    // A server name that already starts with `mcp_` gets no second prefix.
    expect(geminiToolName("mcp_x", "ping")).toBe("mcp_x_ping");
  });

  it("maps rendered names back, the last of tools that spell alike winning as in the CLI's registry", () => {
    const map = (rendered: string, tools: readonly string[] = serverTools) => geminiCli.serverToolName(rendered, "target", tools);
    expect(map("mcp_target_search_notes")).toBe("search_notes");
    expect(map("mcp_target_ping")).toBe("ping");
    expect(map("mcp_target_get.weather_v2", ["get.weather/v2"])).toBe("get.weather/v2");
    expect(map("mcp_target_a_b", ["a b", "a_b"])).toBe("a_b");
    expect(map("mcp_target_a_b", ["a_b", "a b"])).toBe("a b");
    const long = "this_is_a_very_long_tool_name_that_goes_on_and_on_and_on_forever_x";
    expect(map(geminiToolName("target", long), [long])).toBe(long);
    expect(map("enter_plan_mode")).toBeNull();
    expect(map("mcp_other_ping")).toBeNull();
  });

  it("knows a cut name of a server whose prefix is longer than the part a cut keeps", () => {
    const server = "a_server_name_well_over_thirty_characters";
    const rendered = geminiToolName(server, "ping_the_server_to_see_it_answers");
    expect(rendered).toBe("mcp_a_server_name_well_over_th...g_the_server_to_see_it_answers");
    expect(isServerTool(rendered, server)).toBe(true);
    expect(isServerTool(geminiToolName("target", "ping"), server)).toBe(false);
  });
});

describe("modelRequest", () => {
  it("is true for a turn offering tools, false for the classifier, token counting and other endpoints", () => {
    expect(geminiCli.modelRequest(captured)).toBe(true);
    expect(geminiCli.modelRequest(classifier)).toBe(false);
    expect(geminiCli.modelRequest(request({ contents: [] }, "/v1beta/models/gemini-2.5-flash:countTokens"))).toBe(false);
    expect(geminiCli.modelRequest(request(null, "/", "GET"))).toBe(false);
  });
});

describe("reply", () => {
  const textOf = (body: string) =>
    (JSON.parse(body) as { candidates: { content: { parts: { text: string }[] }; finishReason: string }[] }).candidates.map((candidate) => [
      candidate.content.parts[0]?.text,
      candidate.finishReason,
    ]);

  it("ends a streamed turn with one SSE event of a short text", () => {
    const reply = geminiCli.reply(captured);
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/event-stream");
    expect(reply.body).toMatch(/^data: .*\n\n$/s);
    expect(textOf(reply.body.slice("data: ".length))).toEqual([["ok", "STOP"]]);
  });

  it("answers a plain generateContent with JSON, and a JSON-mode one with {}", () => {
    const plain = geminiCli.reply(request({ contents: [] }, "/v1beta/models/gemini-2.5-flash:generateContent"));
    expect(plain.headers["content-type"]).toBe("application/json");
    expect(textOf(plain.body)).toEqual([["ok", "STOP"]]);
    expect(textOf(geminiCli.reply(classifier).body)).toEqual([["{}", "STOP"]]);
  });

  it("counts tokens, and refuses anything else", () => {
    expect(JSON.parse(geminiCli.reply(request({}, "/v1beta/models/gemini-2.5-flash:countTokens")).body)).toEqual({ totalTokens: 1 });
    const other = geminiCli.reply(request(null, "/v1beta/models", "GET"));
    expect(other.status).toBe(404);
    expect(JSON.parse(other.body)).toMatchObject({ error: { code: 404 } });
  });
});

/** Gemini CLI's settings-file pass (packages/cli/src/utils/envVarResolver.ts), as 0.61.0 bundles it. */
function settingsPass(value: string, env: Record<string, string>): string {
  return value.replace(/\$(?:(\w+)|{([^}]+?)(?::-([^}]*))?})/g, (match, one: string | undefined, two: string | undefined, fallback: string | undefined) => {
    const name = one ?? two ?? "";
    return env[name] ?? fallback ?? match;
  });
}

/** Its second pass over header and server-variable values (dotenv-expand), for values with no live reference left. */
function expandPass(value: string): string {
  expect(/(?<!\\)\$\{[^{}]+\}|(?<!\\)\$[A-Za-z_]/.test(value)).toBe(false);
  return value.replace(/\\\$/g, "$");
}

describe("literals", () => {
  const env = { HOME: "/home/user", PATH: "/bin", X: "x" };
  const hostile = ["plain", "a$HOME", "${PATH}", "${X:-d}", "$", "$$", "end$", "\\$HOME", "pa$$word${", "${MCP_LINT_UNSET_DOLLAR:-$}"];

  it.each(hostile)("a settings-file string survives the settings pass: %s", (value) => {
    expect(settingsPass(settingsLiteral(value), env)).toBe(value);
  });

  it.each(hostile)("a carried value survives the second pass: %s", (value) => {
    expect(expandPass(settingsPass("${MCP_LINT_HEADER_0}", { ...env, MCP_LINT_HEADER_0: expandedLiteral(value) }))).toBe(value);
  });

  it("leaves strings without `$` as they are", () => {
    expect(settingsLiteral("/usr/bin/node")).toBe("/usr/bin/node");
    expect(expandedLiteral("Bearer abc")).toBe("Bearer abc");
  });
});

describe("prepare", () => {
  const baseEnv = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8" };

  it("writes user settings with the server trusted, API-key auth and nothing that calls home, below the scratch folder", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "gemini-adapter-"));
    const launch = await geminiCli.prepare({
      scratch,
      bin: "/opt/bin/gemini",
      server: { kind: "stdio", command: "node", args: ["server.mjs", "--home=$HOME"], env: { API_TOKEN: "s3cret" } },
      serverName: "target",
      modelUrl: "http://127.0.0.1:4321",
      modelKey: "mcp-lint-run-key-9e3i",
      baseEnv,
    });
    const file = join(scratch, "home", ".gemini", "settings.json");
    const text = readFileSync(file, "utf8");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        target: {
          command: "node",
          args: ["server.mjs", "--home=${MCP_LINT_UNSET_DOLLAR:-$}HOME"],
          // The run's key is the client's: the server's entry sets the variable empty.
          env: { API_TOKEN: "${MCP_LINT_ENV_0}", GEMINI_API_KEY: "" },
          trust: true,
        },
      },
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ide: { enabled: false },
    });
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain("mcp-lint-run-key-9e3i");
    expect(launch.command).toBe("/opt/bin/gemini");
    expect(launch.args).toEqual(["-p", "Say ok.", "-m", "gemini-2.5-flash", "--allowed-mcp-server-names", "target", "--yolo"]);
    expect(launch.cwd).toBe(join(scratch, "work"));
    // An empty .env in the working folder ends the CLI's upward search for one.
    expect(readFileSync(join(launch.cwd, ".env"), "utf8")).toBe("");
    expect(launch.env).toMatchObject({
      ...baseEnv,
      HOME: join(scratch, "home"),
      GEMINI_CLI_HOME: join(scratch, "home"),
      GEMINI_API_KEY: "mcp-lint-run-key-9e3i",
      GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:4321",
      GEMINI_CLI_NO_RELAUNCH: "true",
      MCP_LINT_ENV_0: "s3cret",
    });
    for (const name of ["GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"]) expect(launch.env[name]?.startsWith(scratch)).toBe(true);
  });

  it("gives an HTTP server as httpUrl with headers that name variables, never their values", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "gemini-adapter-"));
    const launch = await geminiCli.prepare({
      scratch,
      bin: "gemini",
      server: {
        kind: "http",
        url: "http://127.0.0.1:9000/mcp",
        headers: [
          ["Authorization", "Bearer tok$en"],
          ["X-Team", "core"],
        ],
      },
      serverName: "target",
      modelUrl: "http://127.0.0.1:4321",
      modelKey: "mcp-lint-run-key-9e3i",
      baseEnv,
    });
    const text = readFileSync(join(scratch, "home", ".gemini", "settings.json"), "utf8");
    expect((JSON.parse(text) as { mcpServers: unknown }).mcpServers).toEqual({
      target: { httpUrl: "http://127.0.0.1:9000/mcp", headers: { Authorization: "${MCP_LINT_HEADER_0}", "X-Team": "${MCP_LINT_HEADER_1}" }, trust: true },
    });
    expect(text).not.toContain("tok");
    expect(launch.env.MCP_LINT_HEADER_0).toBe("Bearer tok\\$en");
    expect(launch.env.MCP_LINT_HEADER_1).toBe("core");
  });

  it("carries no variable for a server that has none", () => {
    const { env } = geminiSettings({ server: { kind: "stdio", command: "srv", args: [], env: {} }, serverName: "target" });
    expect(env).toEqual({});
  });

  it("keeps a GEMINI_API_KEY the server is given, carried like any other value", () => {
    const { settings } = geminiSettings({
      server: { kind: "stdio", command: "srv", args: [], env: { GEMINI_API_KEY: "users-own-key" } },
      serverName: "target",
    });
    expect((settings as { mcpServers: { target: { env: unknown } } }).mcpServers.target.env).toEqual({ GEMINI_API_KEY: "${MCP_LINT_ENV_0}" });
  });
});
