// Checking an eval task's answer (src/eval/check.ts): exact and pattern checks on the final text; file
// checks that read below the sandbox only (no `..`, no absolute path, no link out); and the scripted
// fake model's steps: the answer from a result, the page it asks for next, a whole run.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerFor, checkAnswer, checkProblem, followPolicy, nextOffset, pageNote, resultText } from "../../../src/eval/check.js";
import type { EvalCheck, ScriptedPolicy } from "../../../src/eval/types.js";

const root = mkdtempSync(join(tmpdir(), "mcp-lint-eval-check-"));
const sandbox = join(root, "sandbox");
const outside = join(root, "outside");
mkdirSync(join(sandbox, "notes"), { recursive: true });
mkdirSync(outside);
writeFileSync(join(sandbox, "notes/todo.md"), "# Release checklist for 2.15.0\n- tag\n");
writeFileSync(join(outside, "secret.txt"), "# Release checklist for 2.15.0\n");
symlinkSync(outside, join(sandbox, "out"));
symlinkSync(join(outside, "secret.txt"), join(sandbox, "secret-link.txt"));
symlinkSync(join(outside, "missing.txt"), join(sandbox, "dangling-out.txt"));
symlinkSync("notes/todo.md", join(sandbox, "inside-link.md"));

const ok = { success: true, reason: null };
const file = (path: string, rest: Partial<Extract<EvalCheck, { kind: "file" }>> = {}): EvalCheck => ({ kind: "file", path, ...rest });

describe("checkAnswer: exact and pattern", () => {
  it("exact: the trimmed answer anywhere in the trimmed final text", () => {
    expect(checkAnswer({ kind: "exact", answer: " Tomas Berg " }, "Priya reports to **Tomas Berg**.\n", sandbox)).toEqual(ok);
    const failed = checkAnswer({ kind: "exact", answer: "Tomas Berg" }, "Priya reports to Lena Haddad.", sandbox);
    expect(failed.success).toBe(false);
    expect(failed.reason).toBe('the answer does not contain "Tomas Berg"');
    expect(checkAnswer({ kind: "exact", answer: "tomas berg" }, "Tomas Berg", sandbox).success).toBe(false);
    expect(checkAnswer({ kind: "exact", answer: "  " }, "anything", sandbox)).toEqual({ success: false, reason: "the check's exact answer is empty" });
  });

  it("pattern: JavaScript syntax with optional flags; a pattern that does not compile fails with a reason", () => {
    expect(checkAnswer({ kind: "pattern", pattern: "138,?590" }, "The sum is 138,590.", sandbox)).toEqual(ok);
    expect(checkAnswer({ kind: "pattern", pattern: "drizzle", flags: "i" }, "Light rain / Drizzle", sandbox)).toEqual(ok);
    expect(checkAnswer({ kind: "pattern", pattern: "drizzle" }, "Light rain / Drizzle", sandbox).success).toBe(false);
    const bad = checkAnswer({ kind: "pattern", pattern: "(unclosed" }, "x", sandbox);
    expect(bad.success).toBe(false);
    expect(bad.reason).toMatch(/^the check's pattern does not compile: /);
    expect(bad.reason).not.toContain("\n");
    const multiline = checkAnswer({ kind: "pattern", pattern: "a\nb" }, "c", sandbox);
    expect(multiline.reason).not.toContain("\n");
  });
});

describe("checkAnswer: files below the sandbox", () => {
  it("exists, contains and equals", () => {
    expect(checkAnswer(file("notes/todo.md"), "", sandbox)).toEqual(ok);
    expect(checkAnswer(file("notes/todo.md", { contains: "# Release checklist for 2.15.0" }), "", sandbox)).toEqual(ok);
    expect(checkAnswer(file("notes/todo.md", { equals: "# Release checklist for 2.15.0\n- tag\n" }), "", sandbox)).toEqual(ok);
    expect(checkAnswer(file("notes/todo.md", { equals: "# Release checklist for 2.15.0" }), "", sandbox)).toEqual({
      success: false,
      reason: "notes/todo.md does not equal the expected text",
    });
    expect(checkAnswer(file("notes/todo.md", { contains: "ship it" }), "", sandbox)).toEqual({
      success: false,
      reason: 'notes/todo.md does not contain "ship it"',
    });
    expect(checkAnswer(file("notes/none.md"), "", sandbox)).toEqual({ success: false, reason: "notes/none.md does not exist" });
    expect(checkAnswer(file("notes/none.md", { exists: false }), "", sandbox)).toEqual(ok);
    expect(checkAnswer(file("notes/todo.md", { exists: false }), "", sandbox)).toEqual({ success: false, reason: "notes/todo.md exists" });
    expect(checkAnswer(file("notes", { contains: "x" }), "", sandbox)).toEqual({ success: false, reason: "notes is not a file" });
    expect(checkAnswer(file("notes/todo.md/deeper"), "", sandbox).success).toBe(false);
  });

  it("a link that stays inside is followed", () => {
    expect(checkAnswer(file("inside-link.md", { contains: "Release checklist" }), "", sandbox)).toEqual(ok);
  });

  it("refuses a path with .., an absolute path and links out of the sandbox, whatever they hold", () => {
    for (const path of [
      "../outside/secret.txt",
      "notes/../../outside/secret.txt",
      "..",
      join(outside, "secret.txt"),
      "/etc/passwd",
      "C:\\Windows\\win.ini",
      "\\\\server\\share",
    ]) {
      const result = checkAnswer(file(path, { contains: "#" }), "", sandbox);
      expect(result.success, path).toBe(false);
      expect(result.reason, path).toMatch(/leaves the sandbox|is absolute/);
    }
    for (const path of ["out/secret.txt", "secret-link.txt", "dangling-out.txt", "out/missing.txt"]) {
      for (const check of [file(path), file(path, { contains: "#" }), file(path, { exists: false })]) {
        const result = checkAnswer(check, "", sandbox);
        expect(result.success, path).toBe(false);
        expect(result.reason, path).toMatch(/leads out of the sandbox/);
      }
    }
  });

  it("a missing sandbox or a malformed check fails with a reason, never throws", () => {
    expect(checkAnswer(file("notes/todo.md"), "", join(root, "no-such-sandbox")).reason).toMatch(/cannot be read/);
    expect(checkAnswer(file(""), "", sandbox).reason).toMatch(/path is empty/);
    expect(checkAnswer(file("a\0b"), "", sandbox).reason).toMatch(/NUL/);
    expect(checkAnswer(file("x", { exists: false, contains: "y" }), "", sandbox).reason).toMatch(/cannot hold text/);
  });

  it("checkProblem names what is wrong with a check, or null", () => {
    expect(checkProblem({ kind: "exact", answer: "x" })).toBeNull();
    expect(checkProblem({ kind: "exact", answer: " " })).toMatch(/empty/);
    expect(checkProblem({ kind: "pattern", pattern: "[" })).toMatch(/does not compile/);
    expect(checkProblem({ kind: "pattern", pattern: "a", flags: "q" })).toMatch(/does not compile/);
    expect(checkProblem(file("memory.jsonl", { contains: "x" }))).toBeNull();
    expect(checkProblem(file("../x"))).toMatch(/leaves the sandbox/);
    expect(checkProblem(file("/x"))).toMatch(/absolute/);
  });
});

const policy = (answer: string, seek: ScriptedPolicy["seek"] = "next"): ScriptedPolicy => ({
  tool: "read_text_file",
  arguments: { path: "logs/app.log" },
  seek,
  answer,
});

describe("the scripted model's steps", () => {
  it("answerFor: the first group of the first match, the whole match without one, null without a match", () => {
    expect(answerFor(policy("req=([0-9a-f]{8})"), "a req=1234abcd b req=ffffffff")).toBe("1234abcd");
    expect(answerFor(policy("req=[0-9a-f]{8}"), "a req=1234abcd")).toBe("req=1234abcd");
    expect(answerFor(policy("x(y)?"), "x")).toBe("x");
    expect(answerFor(policy("nothing"), "a req=1234abcd")).toBeNull();
    expect(answerFor(policy("("), "(")).toBeNull();
  });

  it("pageNote and nextOffset read the proxy's note: next follows it, last jumps to the last page once", () => {
    const first = "line 1\nline 2\n[showing lines 1-112 of 8000; pass offset=112 for more]";
    expect(pageNote(first)).toEqual({ first: 1, last: 112, total: 8000, next: 112 });
    expect(nextOffset("next", first)).toBe(112);
    expect(nextOffset("last", first)).toBe(8000 - 112);
    const middle = "x\n[showing lines 7889-7990 of 8000; pass offset=7990 for more]";
    expect(nextOffset("last", middle)).toBe(7990);
    expect(nextOffset("next", "x\n[showing lines 7889-8000 of 8000]")).toBeNull();
    expect(nextOffset("last", "no note at all")).toBeNull();
    // A short result on one page: the jump never goes backwards.
    expect(nextOffset("last", "x\n[showing lines 1-50 of 60; pass offset=50 for more]")).toBe(50);
    // The last note counts (a page may quote an earlier one).
    expect(pageNote("[showing lines 1-2 of 3; pass offset=2 for more]\n[showing lines 3-3 of 3]")?.next).toBeNull();
  });

  it("resultText joins the text blocks and skips the rest", () => {
    expect(
      resultText({
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "x" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\nb");
    expect(resultText({ content: "no" })).toBe("");
    expect(resultText(null)).toBe("");
  });

  it("followPolicy: answers from a page, seeks, gives up over the cap, at the end, or after maxCalls", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
    const paged = async (args: Record<string, unknown>) => {
      const offset = typeof args.offset === "number" ? args.offset : 0;
      const end = Math.min(offset + 100, lines.length);
      const more = end < lines.length ? `; pass offset=${end} for more` : "";
      return { content: [{ type: "text", text: `${lines.slice(offset, end).join("\n")}\n[showing lines ${offset + 1}-${end} of ${lines.length}${more}]` }] };
    };
    const calls: unknown[] = [];
    const last = await followPolicy(
      policy("(line 300)", "last"),
      async (args) => {
        calls.push(args);
        return paged(args);
      },
      { cap: 100_000 },
    );
    expect(last).toMatchObject({ answer: "line 300", error: null, calls: 2 });
    expect(calls).toEqual([{ path: "logs/app.log" }, { path: "logs/app.log", offset: 200 }]);
    expect(await followPolicy(policy("(line 250)"), paged, { cap: 100_000 })).toMatchObject({ answer: "line 250", calls: 3 });
    expect(await followPolicy(policy("(line 999)"), paged, { cap: 100_000 })).toMatchObject({
      answer: null,
      error: "no result matched the answer pattern",
      calls: 3,
    });
    expect(await followPolicy(policy("(line 250)"), paged, { cap: 100_000, maxCalls: 2 })).toMatchObject({ answer: null, error: "no answer after 2 calls" });
    const big = async () => ({ content: [{ type: "text", text: "x".repeat(100_001) }] });
    expect(await followPolicy(policy("(x)"), big, { cap: 100_000 })).toMatchObject({
      answer: null,
      error: "a result of 100001 characters is over the cap of 100000",
      calls: 1,
      longest: 100_001,
    });
  });
});
