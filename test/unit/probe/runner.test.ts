// The runner, against a fake link: order, what is never sent, timeouts, a server that stops answering or
// goes away, and redaction before anything is kept.
import { describe, expect, it } from "vitest";
import { makeRedactor } from "../../../src/text/redact.js";
import { type CallOutcome, type ProbeLink, runProbes } from "../../../src/probe/runner.js";
import type { JsonObject } from "../../../src/lock/snapshot.js";
import { regateProbe } from "../../../src/probe/gate.js";
import { planned } from "./helpers.js";

function fakeLink(
  answers: Record<string, CallOutcome>,
  options: { pingAnswers?: boolean; endsAfter?: string; changesAfter?: string; reread?: () => Promise<JsonObject[]> } = {},
) {
  const sent: string[] = [];
  const headers: Record<string, string>[] = [];
  let changed = false;
  let stopped = false;
  let ended: string | null = null;
  const link: ProbeLink = {
    call: async (name, _args, _timeoutMs, sentHeaders) => {
      sent.push(name);
      headers.push({ ...sentHeaders });
      if (options.endsAfter === name) ended = "exited with code 3";
      if (options.changesAfter === name) changed = true;
      return answers[name] ?? { kind: "result", result: { content: [{ type: "text", text: `ok ${name}` }] } };
    },
    ping: async () => options.pingAnswers ?? true,
    ended: () => ended,
    stop: async () => {
      stopped = true;
    },
    listChanged: () => changed,
    reread: async () => {
      changed = false;
      return (await options.reread?.()) ?? [];
    },
  };
  return { link, sent, headers, stopped: () => stopped };
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

  it("sends each probe with the Mcp-Param headers the gate built for it", async () => {
    const { link, headers } = fakeLink({});
    await runProbes([planned("a", { headers: { "Mcp-Param-Region": "eu" } }), planned("b")], link, opts);
    expect(headers).toEqual([{ "Mcp-Param-Region": "eu" }, {}]);
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

  it("after list_changed, judges the probes left against the new list: a tool re-announced as not read-only is not called again", async () => {
    const fixtures = {
      dir: "/",
      probes: ["first", "again", "other"].map((label, index) => ({
        index,
        tool: label === "other" ? "b" : "a",
        label,
        args: {},
        expectError: false,
        allowDestructive: false,
        skip: false,
      })),
    };
    const readOnly = (name: string, hint: unknown): JsonObject => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: hint } });
    const { link, sent } = fakeLink({}, { changesAfter: "a", reread: async () => [readOnly("a", false), readOnly("b", true)] });
    const plan = ["first", "again", "other"].map((label, order) => planned(label === "other" ? "b" : "a", { order, label }));
    const records = await runProbes(plan, link, {
      ...opts,
      regate: (probe, tools) => regateProbe(probe, { fixtures, tools, env: {}, errorProbes: false }),
    });
    expect(sent).toEqual(["a", "b"]);
    expect(records.map((record) => [record.status, record.probe.blocked, record.note])).toEqual([
      ["ok", null, null],
      ["blocked", { code: "not_read_only" }, { code: "list_changed" }],
      ["ok", null, null],
    ]);
  });

  it("stops calling when the new list cannot be read, or when no gate is bound to judge it", async () => {
    const unreadable = fakeLink({}, { changesAfter: "a", reread: () => Promise.reject(new Error("tools/list failed")) });
    const records = await runProbes([planned("a"), planned("b")], unreadable.link, { ...opts, regate: (probe) => probe });
    expect(unreadable.sent).toEqual(["a"]);
    expect(records[1]).toMatchObject({ status: "not_run", note: { code: "list_unreadable", detail: "tools/list failed" } });
    const ungated = fakeLink({}, { changesAfter: "a" });
    const plain = await runProbes([planned("a"), planned("b")], ungated.link, opts);
    expect(ungated.sent).toEqual(["a"]);
    expect(plain[1]).toMatchObject({ status: "not_run", note: { code: "list_changed" } });
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
    // Sizes are measured on what the server sent: the larger view a client forwards, as compact JSON.
    expect(records[0]?.response?.chars).toBe(JSON.stringify({ content: [{ type: "text", text: `token=${secret}` }] }).length);
  });
});
