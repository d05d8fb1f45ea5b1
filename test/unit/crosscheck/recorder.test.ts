// The loopback model endpoint's gate (issue 37, item 6): only a request with the run's key, where
// the client's API puts it, is read; any other gets the API's own 401 and is never recorded. And
// which admitted request is the capture: the first that carries the server's tools.
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { modelTurns } from "../../../src/crosscheck/capture.js";
import { claudeCode } from "../../../src/crosscheck/clients/claude-code.js";
import { codex } from "../../../src/crosscheck/clients/codex.js";
import { geminiCli } from "../../../src/crosscheck/clients/gemini-cli.js";
import { bearerToken, keyMatches, newModelKey } from "../../../src/crosscheck/model-key.js";
import { type Recorder, startRecorder } from "../../../src/crosscheck/recorder.js";
import type { ModelClientAdapter, RecordedRequest, RenderedTool } from "../../../src/crosscheck/types.js";

const turn = (tools: unknown[]) => ({ model: "m", stream: false, messages: [{ role: "user", content: "hi" }], tools });
const tool = (name: string, description: string) => ({ name: `mcp__target__${name}`, description, input_schema: { type: "object", properties: {} } });

function post(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      res.on("end", () => done({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", fail);
    req.end(JSON.stringify(body));
  });
}

describe("the run's model key", () => {
  it("is new for every run and long enough not to be guessed", () => {
    const keys = new Set(Array.from({ length: 20 }, newModelKey));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key).toMatch(/^mcp-lint-[0-9a-f]{64}$/);
  });

  it("matches only itself", () => {
    const key = newModelKey();
    expect(keyMatches(key, key)).toBe(true);
    for (const other of [null, "", key.slice(0, -1), `${key}0`, key.toUpperCase(), ` ${key}`]) expect(keyMatches(other, key)).toBe(false);
    expect(keyMatches("", "")).toBe(false);
  });

  it("reads a bearer token, and nothing else, from Authorization", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    for (const header of [undefined, "", "Bearer", "Bearer ", "Basic abc", "Bearer a b", "abc"]) expect(bearerToken(header)).toBeNull();
  });

  it.each([
    ["claude-code", claudeCode, { "x-api-key": "K" }, { authorization: "Bearer K" }],
    ["codex", codex, { authorization: "Bearer K" }, { "x-api-key": "K" }],
    ["gemini-cli", geminiCli, { "x-goog-api-key": "K" }, { authorization: "Bearer K" }],
  ] as const)("%s reads the key only where its API sends it", (_id, adapter, right, wrong) => {
    expect(adapter.keyIn({ method: "POST", path: "/", headers: { ...right } })).toBe("K");
    expect(adapter.keyIn({ method: "POST", path: "/", headers: { ...wrong } })).toBeNull();
  });

  it("is refused in each client's own API shape, with a 401", () => {
    const head = { method: "POST", path: "/", headers: {} };
    const shapes = [claudeCode, codex, geminiCli].map((adapter) => {
      const reply = adapter.refusal(head);
      expect(reply.status).toBe(401);
      expect(reply.headers["content-type"]).toBe("application/json");
      return JSON.parse(reply.body);
    });
    expect(shapes).toEqual([
      { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
      { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } },
      { error: { code: 401, message: "API key not valid. Please pass a valid API key.", status: "UNAUTHENTICATED" } },
    ]);
  });
});

describe("the recorder's gate", () => {
  let recorder: Recorder | null = null;
  afterEach(async () => {
    await recorder?.close();
    recorder = null;
  });

  async function start(adapter: ModelClientAdapter, key: string) {
    const seen: RecordedRequest[] = [];
    recorder = await startRecorder({ admits: (head) => keyMatches(adapter.keyIn(head), key), refusal: (head) => adapter.refusal(head) }, (request) => {
      seen.push(request);
      return adapter.reply(request);
    });
    return { url: recorder.url, seen, refused: (recorder as Recorder).refused };
  }

  // Regression (issue 37, item 6): any local process could post a copy of tools/list to the endpoint and
  // crosscheck took it for what the client showed its model.
  it("refuses a request without the key, or with another, before reading it; the one with the key is read", async () => {
    const key = newModelKey();
    const endpoint = await start(claudeCode, key);
    const forged = turn([tool("ping", "Forged copy.")]);
    const none = await post(endpoint.url, "/v1/messages?beta=true", {}, forged);
    const wrong = await post(endpoint.url, "/v1/messages?beta=true", { "x-api-key": newModelKey() }, forged);
    const elsewhere = await post(endpoint.url, "/v1/messages?beta=true", { authorization: `Bearer ${key}` }, forged);
    for (const refused of [none, wrong, elsewhere]) {
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    }
    expect(endpoint.seen).toEqual([]);
    expect(endpoint.refused()).toBe(3);
    const own = await post(endpoint.url, "/v1/messages?beta=true", { "x-api-key": key }, turn([tool("ping", "Check.")]));
    expect(own.status).toBe(200);
    expect(endpoint.seen).toHaveLength(1);
    expect(endpoint.seen[0]?.headers["x-api-key"]).toBe(key);
    expect(endpoint.refused()).toBe(3);
  });

  it("refuses a large forged body in the client's API shape without reading it", async () => {
    const key = newModelKey();
    const endpoint = await start(codex, key);
    const big = await post(endpoint.url, "/v1/responses", {}, { pad: "x".repeat(2 * 1024 * 1024) });
    expect(big.status).toBe(401);
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: "invalid_api_key" } });
    expect(endpoint.seen).toEqual([]);
  });

  it("admits nothing when the gate itself throws", async () => {
    recorder = await startRecorder(
      {
        admits: () => {
          throw new Error("boom");
        },
        refusal: () => claudeCode.refusal({ method: "POST", path: "/", headers: {} }),
      },
      () => ({ status: 200, headers: {}, body: "ok" }),
    );
    expect((await post(recorder.url, "/v1/messages", { "x-api-key": "k" }, {})).status).toBe(401);
  });
});

describe("which admitted request is the capture", () => {
  const request = (tools: unknown[]): RecordedRequest => ({ method: "POST", path: "/v1/messages?beta=true", headers: {}, body: turn(tools) });

  it("is the first that carries the server's tools; a later one, even with the key, changes nothing", () => {
    const captures: RenderedTool[][] = [];
    const turns = modelTurns(claudeCode, "target", (tools) => captures.push(tools));
    // A turn without the server's tools first: it is remembered, not captured.
    expect(turns.take(request([{ name: "Bash", description: "Run.", input_schema: {} }])).status).toBe(200);
    expect(turns.sawModelRequest()).toBe(true);
    expect(captures).toEqual([]);
    turns.take(request([tool("ping", "Check that the server answers.")]));
    turns.take(request([tool("ping", "A second copy.")]));
    expect(captures).toEqual([[{ name: "mcp__target__ping", description: "Check that the server answers.", inputSchema: { type: "object", properties: {} } }]]);
  });
});
