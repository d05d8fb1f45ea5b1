// The runner, against a fake link: order, what is never sent, timeouts, a server that stops answering or
// goes away, and redaction before anything is kept.
import { describe, expect, it } from "vitest";
import { makeRedactor } from "../../../src/connect/redact.js";
import { type CallOutcome, type ProbeLink, runProbes } from "../../../src/probe/runner.js";
import { planned } from "./helpers.js";

function fakeLink(answers: Record<string, CallOutcome>, options: { pingAnswers?: boolean; endsAfter?: string } = {}) {
  const sent: string[] = [];
  let stopped = false;
  let ended: string | null = null;
  const link: ProbeLink = {
    call: async (name) => {
      sent.push(name);
      if (options.endsAfter === name) ended = "exited with code 3";
      return answers[name] ?? { kind: "result", result: { content: [{ type: "text", text: `ok ${name}` }] } };
    },
    ping: async () => options.pingAnswers ?? true,
    ended: () => ended,
    stop: async () => {
      stopped = true;
    },
  };
  return { link, sent, stopped: () => stopped };
}

const opts = { timeoutMs: 1000, redactor: makeRedactor([]), now: () => 0 };

describe("runProbes", () => {
  it("calls in order and never sends a blocked or skipped probe", async () => {
    const { link, sent } = fakeLink({});
    const records = await runProbes(
      [
        planned("a"),
        planned("b", { action: "blocked", blocked: { code: "not_read_only" }, args: null }),
        planned("c", { action: "skipped", args: null }),
        planned("d"),
      ],
      link,
      opts,
    );
    expect(sent).toEqual(["a", "d"]);
    expect(records.map((record) => record.status)).toEqual(["ok", "blocked", "skipped", "ok"]);
  });

  it("records results, tool errors and protocol errors", async () => {
    const { link } = fakeLink({
      t: { kind: "result", result: { content: [{ type: "text", text: "boom" }], isError: true } },
      p: { kind: "error", code: -32602, message: "MCP error -32602: Invalid arguments: expected string" },
    });
    const records = await runProbes([planned("t"), planned("p")], link, opts);
    expect(records.map((record) => [record.status, record.response?.text, record.response?.errorCode])).toEqual([
      ["tool_error", "boom", null],
      ["protocol_error", "Invalid arguments: expected string", -32602],
    ]);
  });

  it("after a timeout goes on while the server still answers pings", async () => {
    const { link, sent, stopped } = fakeLink({ hang: { kind: "timeout" } }, { pingAnswers: true });
    const records = await runProbes([planned("hang"), planned("next")], link, opts);
    expect(records.map((record) => record.status)).toEqual(["timeout", "ok"]);
    expect(records[0]?.note).toEqual({ code: "timed_out", seconds: 1 });
    expect(sent).toEqual(["hang", "next"]);
    expect(stopped()).toBe(false);
  });

  it("stops a server that no longer answers and reports the rest as not run", async () => {
    const { link, sent, stopped } = fakeLink({ freeze: { kind: "timeout" } }, { pingAnswers: false });
    const records = await runProbes(
      [planned("freeze"), planned("next"), planned("blocked", { action: "blocked", blocked: { code: "unknown_tool" }, args: null })],
      link,
      opts,
    );
    expect(records.map((record) => record.status)).toEqual(["timeout", "not_run", "blocked"]);
    expect(records[1]?.note).toEqual({ code: "server_stopped", after: "freeze" });
    expect(sent).toEqual(["freeze"]);
    expect(stopped()).toBe(true);
  });

  it("reports the rest as not run once the server has gone", async () => {
    const { link } = fakeLink({ crash: { kind: "failed", detail: "the connection closed" } }, { endsAfter: "crash" });
    const records = await runProbes([planned("crash"), planned("next")], link, opts);
    expect(records.map((record) => [record.status, record.note])).toEqual([
      ["failed", { code: "call_failed", detail: "the connection closed" }],
      ["not_run", { code: "server_gone", how: "exited with code 3" }],
    ]);
  });

  it("redacts secrets in what it keeps, before any preview is cut", async () => {
    const secret = "sk-live-0123456789abcdef";
    const { link } = fakeLink({
      echo: { kind: "result", result: { content: [{ type: "text", text: `token=${secret}` }], structuredContent: { token: secret } } },
      fail: { kind: "failed", detail: `could not use ${secret}` },
    });
    const records = await runProbes([planned("echo"), planned("fail")], link, { ...opts, redactor: makeRedactor([secret]) });
    expect(JSON.stringify(records)).not.toContain(secret);
    expect(records[0]?.response?.text).toBe("token=[redacted]");
    // Sizes are measured on what the server sent.
    expect(records[0]?.response?.chars).toBe(`token=${secret}`.length);
  });
});
