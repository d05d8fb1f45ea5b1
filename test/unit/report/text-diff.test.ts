// Word diffs of model-read text as the terminal shows them (issue 22 item 3).
import { describe, expect, it } from "vitest";
import { diffDisplayLines, isRewrite, textSegments } from "../../../src/report/text-diff.js";

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
