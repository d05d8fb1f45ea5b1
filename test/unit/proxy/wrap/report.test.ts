import { describe, expect, it } from "vitest";
import { configServer } from "./config-server.js";
import { closingLine, leftLine, lockFacts, refusalText, type WrappedServer, wrappedLine } from "../../../../src/proxy/wrap/report.js";

const server = configServer;

const wrapped = (overrides: Partial<WrappedServer> = {}): WrappedServer => ({
  server: server("fs"),
  remote: false,
  lock: "/l/fs.lock",
  state: "written",
  warnings: 0,
  notes: [],
  ...overrides,
});

describe("wrap's line for a wrapped server", () => {
  it("says where the lock stands: written now, to be written, kept, or not written for a disabled server", () => {
    expect(wrappedLine(wrapped(), false, false)).toBe('wrapped server "fs" (lock /l/fs.lock, written now)');
    expect(wrappedLine(wrapped({ state: "to_write" }), true, false)).toBe('would wrap server "fs" (lock /l/fs.lock, to be written first)');
    expect(wrappedLine(wrapped({ state: "kept", remote: true }), false, false)).toBe('wrapped remote server "fs" (lock /l/fs.lock, kept as it was)');
    expect(wrappedLine(wrapped({ state: "disabled" }), false, false)).toMatch(
      /^wrapped server "fs" \(lock \/l\/fs\.lock, not written: the server is disabled.*\)$/,
    );
  });

  it("counts the warnings only --verbose lists, and keeps notes on the same line", () => {
    expect(wrappedLine(wrapped({ warnings: 1 }), false, false)).toBe(
      'wrapped server "fs" (lock /l/fs.lock, written now); 1 warning in its first lock (wrap --verbose lists them)',
    );
    expect(wrappedLine(wrapped({ warnings: 2, notes: ["a", "b"] }), false, true)).toBe(
      'wrapped server "fs" (lock /l/fs.lock, written now); 2 warnings in its first lock (listed above); note: a; note: b',
    );
  });

  it("says how a lock that existed stands against the server now, after the lock's place (issue 38 item 4)", () => {
    expect(wrappedLine(wrapped({ state: "kept", check: "its lock still matches" }), false, false)).toBe(
      'wrapped server "fs" (lock /l/fs.lock, kept as it was); its lock still matches',
    );
    expect(leftLine({ server: server("fs"), reason: "already_wrapped", detail: "the server no longer matches its lock (2 errors): review with X" })).toBe(
      'left server "fs" as it is: already wrapped; the server no longer matches its lock (2 errors): review with X',
    );
  });

  it("names a server in a scope with its scope", () => {
    expect(leftLine({ server: server("api", "project /w"), reason: "already_wrapped" })).toBe('left server "api" (project /w) as it is: already wrapped');
  });
});

describe("a refused first lock, from lock's JSON report", () => {
  const report = (hidden: unknown[], notes: unknown[] = []) => ({ report_version: 1, hidden_text: hidden, notes });

  it("names what S8 found and where, and where to read the findings", () => {
    const facts = lockFacts(
      report([
        { severity: "error", tool: "save_note", kind: "poisoning" },
        { severity: "warning", tool: "x", kind: "precedence" },
      ]),
    );
    expect(facts).toEqual({ s8Errors: ["save_note"], poisoning: "all", warnings: 1 });
    expect(refusalText(facts, false)).toBe('lock refused to record it: S8 found tool poisoning (error) in "save_note"; wrap --verbose lists the findings');
    expect(refusalText(facts, true)).toBe('lock refused to record it: S8 found tool poisoning (error) in "save_note"; its findings are listed above');
  });

  it("names hidden text, the server instructions, and at most three definitions", () => {
    const facts = lockFacts(
      report([
        { severity: "error", tool: null, kind: "tag" },
        ...["a", "b", "c", "d"].map((tool) => ({ severity: "error", tool, kind: "bidi" })),
        { severity: "error", tool: "a", kind: "bidi" },
      ]),
    );
    expect(facts.s8Errors).toEqual(["", "a", "b", "c", "d"]);
    expect(refusalText(facts, false)).toBe(
      'lock refused to record it: S8 found hidden text (error) in the server instructions, "a", "b" and 2 more; wrap --verbose lists the findings',
    );
  });

  it("shows a hostile tool name inert and cut, on one line", () => {
    const name = `evil\u001b[2J\n${"x".repeat(500)}`;
    const text = refusalText(lockFacts(report([{ severity: "error", tool: name, kind: "poisoning" }])), false);
    expect(text).not.toMatch(/[\u0000-\u001f]/);
    expect(text).toContain("evil\\u{1B}[2J\\u{A}");
    expect(text.length).toBeLessThan(250);
  });

  it("says the lock refused it, and where to look, when the report names no S8 error (or is not a report)", () => {
    for (const value of [null, "x", report([], [{ severity: "warning" }]), { hidden_text: "no" }]) {
      expect(refusalText(lockFacts(value), false)).toBe("lock refused to record it; wrap --verbose lists the findings");
    }
    expect(lockFacts(report([], [{ severity: "warning" }, { severity: "info" }])).warnings).toBe(1);
  });
});

describe("wrap's closing line", () => {
  it("says how many servers were wrapped and where the file's old bytes are", () => {
    const base = { shown: "/c/a.json", wrapped: 3, total: 5, dryRun: false };
    expect(closingLine({ ...base, backup: "a.json.mcp-lint.bak" })).toBe("/c/a.json: 3 of 5 servers wrapped now; the file as it was is in a.json.mcp-lint.bak");
    expect(closingLine({ ...base, wrapped: 0, total: 1, backup: null })).toBe("/c/a.json: 0 of 1 server wrapped now; the file is unchanged");
    expect(closingLine({ ...base, dryRun: true, backup: null })).toBe("/c/a.json: 3 of 5 servers would be wrapped; nothing was written (--dry-run)");
  });
});
