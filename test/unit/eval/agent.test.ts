// Reading an agent's output (src/eval/agent.ts): the answer, turns, tokens and tool calls, and how a
// run ended, told apart into the task's reasons and the agent's own (issue 37: "Not logged in" was
// recorded as a failed task "the agent ended with success"). The result lines are those Claude Code
// 2.1.332 prints, cut to the fields read.
import { describe, expect, it } from "vitest";
import { parseAgentOutput, secretValues } from "../../../src/eval/agent.js";

const lines = (...events: object[]) => events.map((event) => JSON.stringify(event)).join("\n");
const init = { type: "system", subtype: "init", model: "claude-haiku" };
const toolUse = {
  type: "assistant",
  message: {
    content: [
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "t1", name: "mcp__target__read", input: {} },
    ],
  },
};
const usage = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5 };

/** Claude Code's result line when its model call failed: an error on a success subtype, terminal_reason api_error. */
const apiError = (text: string, status: number | null) => ({
  type: "result",
  subtype: "success",
  is_error: true,
  num_turns: 1,
  result: text,
  terminal_reason: "api_error",
  api_error_status: status,
  usage: { input_tokens: 0, output_tokens: 0 },
});

describe("parseAgentOutput", () => {
  it("reads an answer: the text, turns, tokens with cache, and the tool calls of the stream", () => {
    const out = parseAgentOutput(
      lines(init, toolUse, { type: "result", subtype: "success", is_error: false, num_turns: 2, result: "Port 8443", usage, terminal_reason: "completed" }),
    );
    expect(out).toEqual({ result: "Port 8443", tokens: 125, turns: 2, toolCalls: 1, error: null, ownFailure: null });
  });

  // Issue 37: recorded as `"success": false, "error": "the agent ended with success"`, a failed task.
  it("the agent ended with success, when it was not logged in: the agent's own failure, and said so", () => {
    const out = parseAgentOutput(lines(init, apiError("Not logged in · Please run /login", null)));
    expect(out.ownFailure).toBe("model");
    expect(out.error).toBe("the agent failed (api_error): Not logged in · Please run /login");
    expect(out.error).not.toContain("ended with success");
  });

  it("an unreachable endpoint, a refused key, a rate limit, an overload: the agent's own failures", () => {
    for (const [text, status] of [
      ["API Error: Connection refused — a firewall or proxy may be blocking it (ECONNREFUSED)", null],
      ["Invalid API key · Fix external API key", 401],
      ["API Error: 429 Rate limit reached", 429],
      ["API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.", 529],
    ] as const) {
      const out = parseAgentOutput(lines(init, apiError(text, status)));
      expect(out.ownFailure, text).toBe("model");
      expect(out.error, text).toBe(`the agent failed (api_error): ${text}`);
    }
    for (const reason of ["model_error", "turn_setup_failed"]) {
      const out = parseAgentOutput(lines(init, { type: "result", subtype: "success", is_error: true, result: "internal", terminal_reason: reason }));
      expect(out.ownFailure, reason).toBe("model");
    }
    const crashed = parseAgentOutput(lines(init, { type: "result", subtype: "error_during_execution", is_error: true, num_turns: 3 }));
    expect(crashed).toMatchObject({ ownFailure: "model", error: "the agent failed (error_during_execution)" });
  });

  it("turns used up and a prompt grown too long are the task's, not the agent's", () => {
    const turns = parseAgentOutput(
      lines(init, toolUse, { type: "result", subtype: "error_max_turns", is_error: true, num_turns: 20, terminal_reason: "max_turns" }),
    );
    expect(turns).toMatchObject({ result: null, ownFailure: null, error: "the agent ended with error_max_turns", turns: 20, toolCalls: 1 });
    const long = parseAgentOutput(
      lines(init, { type: "result", subtype: "success", is_error: true, result: "Prompt is too long", terminal_reason: "prompt_too_long" }),
    );
    expect(long).toMatchObject({ ownFailure: null, error: "the agent ended with prompt_too_long: Prompt is too long" });
    const limit = parseAgentOutput(
      lines(init, { type: "result", subtype: "success", is_error: true, result: "Context limit", terminal_reason: "blocking_limit" }),
    );
    expect(limit.ownFailure).toBeNull();
  });

  it("without a terminal_reason (an older Claude Code, another agent): an error on a success result is the agent's own, unless the prompt grew too long", () => {
    const older = (result: string, subtype = "success") => parseAgentOutput(lines({ type: "result", subtype, is_error: true, result }));
    expect(older("API Error: 500 Internal server error")).toMatchObject({
      ownFailure: "model",
      error: "the agent failed (an error): API Error: 500 Internal server error",
    });
    expect(older("Not logged in · Please run /login").ownFailure).toBe("model");
    expect(older("API Error: 400 prompt is too long: 210000 tokens > 200000 maximum").ownFailure).toBeNull();
    expect(older("", "error_max_turns")).toMatchObject({ ownFailure: null, error: "the agent ended with error_max_turns" });
  });

  it("no result line is the agent's own failure (a crash)", () => {
    expect(parseAgentOutput(lines(init, toolUse))).toEqual({
      result: null,
      tokens: null,
      turns: null,
      toolCalls: 1,
      error: "the agent printed no result",
      ownFailure: "no-result",
    });
    expect(parseAgentOutput("Segmentation fault\n").ownFailure).toBe("no-result");
  });

  it("keeps the agent's text to its first line, cut, in an error", () => {
    const out = parseAgentOutput(lines(apiError(`\n  API Error: ${"x".repeat(500)}\nsecond line\u001b[2J`, 500)));
    expect(out.error).toBe(`the agent failed (api_error): API Error: ${"x".repeat(189)}...`);
    expect(out.error).not.toContain("\n");
  });
});

describe("secretValues", () => {
  it("always holds the credentials, and the other passed values that can be secrets", () => {
    expect(
      secretValues({
        ANTHROPIC_API_KEY: "k1",
        ANTHROPIC_AUTH_TOKEN: "tok-123",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:8080",
        MY_TOKEN: "abcdefgh12345",
        DEBUG: "1",
      }).sort(),
    ).toEqual(["abcdefgh12345", "k1", "tok-123"]);
    expect(secretValues({ ANTHROPIC_BASE_URL: "https://user:pass@gateway.example/v1" })).toEqual(["https://user:pass@gateway.example/v1"]);
  });
});
