// Word diffs of model-read text as the terminal shows them (issue 22 item 3).
import { describe, expect, it } from "vitest";
import { changeMessage } from "../../../src/report/messages.js";
import { diffDisplayLines, isRewrite, textSegments, whitespaceOnly } from "../../../src/report/text-diff.js";

const shown = (before: string, after: string) => diffDisplayLines(textSegments(before, after), (text) => text);

describe("diffDisplayLines", () => {
  it("keeps the space after an edit when the unchanged rest is elided", () => {
    const rest = " to false when you are truly done and have a satisfactory answer for the user here and now";
    const lines = shown(`Only set next_thought_needed${rest}\nMore lines follow.`, `Only set nextThoughtNeeded${rest}\nMore lines follow.`);
    expect(lines[0]).toBe("Only set [-next_thought_needed-]{+nextThoughtNeeded+} to false when you are truly done ...");
  });

  it("elides long unchanged stretches on both sides of an edit, with a space on each side of the dots", () => {
    const head = "one two three four five six seven eight nine ten eleven twelve";
    const lines = shown(`${head} old ${head}`, `${head} new ${head}`);
    expect(lines).toEqual(["... five six seven eight nine ten eleven twelve [-old-]{+new+} one two three four five six seven ..."]);
  });
});

describe("isRewrite", () => {
  const old =
    "Execute a command in the terminal. NEVER EVER use the analysis tool for local file access (IT WILL FAIL). Always wait for the output before the next step.";
  const rewritten =
    "Examples: start a Python REPL, read a CSV with pandas, then inspect the first rows; the session keeps its state between calls until it is closed.";
  it("is true when most of a longer text changed", () => {
    expect(isRewrite(old, rewritten, textSegments(old, rewritten))).toBe(true);
  });
  it("is false for a small edit and for short texts", () => {
    const edited = old.replace("Always wait", "Please wait");
    expect(isRewrite(old, edited, textSegments(old, edited))).toBe(false);
    expect(isRewrite("Read a file.", "Write a note.", textSegments("Read a file.", "Write a note."))).toBe(false);
  });
});

describe("whitespaceOnly", () => {
  it("is true when only spaces, tabs and line breaks moved, came or went", () => {
    expect(whitespaceOnly("Reads a file. Then returns it.", "Reads  a   file.\nThen returns it. ")).toBe(true);
    expect(whitespaceOnly("one\r\ntwo", "one\ntwo")).toBe(true);
    expect(whitespaceOnly("a\tb", "\ta b")).toBe(true);
  });

  it("is false for the same text, a word change, and a joined or split word", () => {
    expect(whitespaceOnly("same", "same")).toBe(false);
    expect(whitespaceOnly("Read a file.", "Read the file.")).toBe(false);
    expect(whitespaceOnly("the rapist", "therapist")).toBe(false);
    expect(whitespaceOnly("not dangerous", "notdangerous")).toBe(false);
  });

  it("does not count a no-break, zero-width, ideographic or other odd space as white space (they hide or join words)", () => {
    for (const space of ["\u00a0", "\u200b", "\u3000", "\u2009", "\u000b", "\u000c", "\u2028"]) {
      expect(whitespaceOnly("Read a file.", `Read a${space} file.`)).toBe(false);
      expect(whitespaceOnly("Read a file.", `Read a${space}file.`)).toBe(false);
    }
  });
});

describe("a whitespace-only edit in a change's message", () => {
  it('regression (issue 37): is one line, not `removed " "` hunk by hunk', () => {
    const before = "Reads a file. Then returns it.";
    const after = "Reads  a   file.\nThen  returns it. ";
    const message = changeMessage({ kind: "description_changed", severity: "error", tool: "t", path: "/description", args: { before, after } });
    expect(message).toBe("description changed: whitespace only, the same words in the same order (1 insertion, 3 replacements)");
  });

  it("a zero-width space slipped between words is still shown edit by edit, escaped", () => {
    const message = changeMessage({
      kind: "description_changed",
      severity: "error",
      tool: "t",
      path: "/description",
      args: { before: "Reads a file.", after: "Reads a\u200b file." },
    });
    expect(message).not.toContain("whitespace only");
    expect(message).toContain("\\u{200B}");
  });
});
