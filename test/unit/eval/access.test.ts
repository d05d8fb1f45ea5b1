// The access check of `eval --run` (src/eval/access.ts, issue 37): the one line that says why the
// agent cannot reach its model and what to fix, or null when it can; never a credential, never
// the user info or query of the endpoint.
import { describe, expect, it } from "vitest";
import { accessProblem } from "../../../src/eval/access.js";

const notLoggedIn = { error: "the agent failed (api_error): Not logged in · Please run /login", ownFailure: "model" as const };

describe("accessProblem", () => {
  it("is null when the agent reached its model, whatever it answered", () => {
    expect(accessProblem({ error: null, ownFailure: null }, "haiku", {})).toBeNull();
    expect(accessProblem({ error: "the agent ended with error_max_turns", ownFailure: null }, "haiku", {})).toBeNull();
  });

  it("without a key: names the variables to set and why a login does not count", () => {
    expect(accessProblem(notLoggedIn, "haiku", {})).toBe(
      'eval --run: the agent cannot reach its model "haiku" at https://api.anthropic.com (Claude Code\'s default; ANTHROPIC_BASE_URL is not set): ' +
        "the agent failed (api_error): Not logged in · Please run /login; set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN: the agent runs with a config " +
        "folder of its own, so a claude.ai login is not used; nothing was run or recorded",
    );
  });

  it("with a key: names the endpoint that did not answer, without its user info, query or fragment", () => {
    const passEnv = { ANTHROPIC_API_KEY: "sk-ant-secret-key", ANTHROPIC_BASE_URL: "http://user:hunter22@127.0.0.1:9/v1?token=abc123#frag" };
    const line = accessProblem({ error: "no answer within 45 s", ownFailure: "timeout" }, "haiku", passEnv);
    expect(line).toBe(
      'eval --run: the agent cannot reach its model "haiku" at http://127.0.0.1:9/v1 (ANTHROPIC_BASE_URL): no answer within 45 s; ' +
        "check ANTHROPIC_API_KEY, the model name and that http://127.0.0.1:9/v1 answers from here; nothing was run or recorded",
    );
    for (const secret of ["sk-ant-secret-key", "hunter22", "user:", "abc123", "frag"]) expect(line).not.toContain(secret);
    expect(accessProblem(notLoggedIn, "haiku", { ANTHROPIC_AUTH_TOKEN: "t", ANTHROPIC_BASE_URL: "not a url" })).toContain(
      "at ANTHROPIC_BASE_URL (not a URL): the agent failed (api_error): Not logged in · Please run /login; check ANTHROPIC_AUTH_TOKEN, the model name",
    );
  });

  it("an agent that printed nothing, or did not start: says so, not a key", () => {
    const silent = accessProblem({ error: "the agent printed no result; its last error line: boom", ownFailure: "no-result" }, "haiku", {});
    expect(silent).toBe(
      "eval --run: the agent printed no result for a one-line prompt (the agent printed no result; its last error line: boom); --agent must print Claude Code's stream-json result line; nothing was run or recorded",
    );
    expect(accessProblem({ error: "could not start my-agent (EACCES)", ownFailure: "start" }, "haiku", {})).toBe(
      "eval --run: the agent did not start for the access check: could not start my-agent (EACCES); nothing was run or recorded",
    );
  });
});
