// The last guard on the CLI's streams: whatever is written, in whatever pieces, no line is a CI
// workflow command once its leading whitespace is trimmed, and lines that are not stay untouched.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineStartGuard } from "../../../src/text/line-start.js";

/** Lines a runner would run as commands (GitHub's `::`, `##[`; Azure's `##vso[`), after trimming. */
function commands(output: string): string[] {
  return output.split(/\r\n|\r|\n/).filter((line) => /^(::|##\[|##vso\[)/.test(line.trimStart()));
}

const through = (writes: readonly string[]) => {
  const guard = new LineStartGuard();
  return writes.map((text) => guard.apply(text)).join("");
};

describe("LineStartGuard", () => {
  it("escapes a command at the start of a line, after indentation, and after a CR", () => {
    expect(through(["::error::x\n"])).toBe("\\u{3A}:error::x\n");
    expect(through(["  \t##[error]x\n"])).toBe("  \t\\u{23}#[error]x\n");
    expect(through(["ok\r##vso[task.setvariable variable=a]b\n"])).toBe("ok\r\\u{23}#vso[task.setvariable variable=a]b\n");
  });

  it("sees a line split over two writes whole", () => {
    expect(through(["    ", "::set-output name=a::b\n"])).toBe("    \\u{3A}:set-output name=a::b\n");
    expect(through([":", ":add-mask::x\n"])).toBe("\\u{3A}:add-mask::x\n");
  });

  it("leaves everything else alone: colons and hashes inside a line, Markdown headings, URLs", () => {
    const text = "a::b\n## Heading\n#1 first\nhttps://example.com::x\n  - item: value\n";
    expect(through([text])).toBe(text);
  });

  it("property: no written sequence leaves a command line, and text without one is unchanged", () => {
    const piece = fc.constantFrom(
      "::error::x",
      "::",
      ":",
      "#",
      "##",
      "##[",
      "##[error]y",
      "##vso[task.x]z",
      "##v",
      "\n",
      "\r",
      "\r\n",
      "  ",
      "\t",
      "a",
      "b:",
      "note",
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 6 }).map((parts) => parts.join("")),
          { maxLength: 10 },
        ),
        (writes) => {
          const output = through(writes);
          expect(commands(output)).toEqual([]);
          const input = writes.join("");
          if (
            commands(input).length === 0 &&
            !/(^|[\r\n])[ \t]*(:|#|##|##v|##vs|##vso)$/.test(input) &&
            !writes.some((w) => /(^|[\r\n])[ \t]*(:|#|##v?s?o?)$/.test(w))
          ) {
            expect(output).toBe(input);
          }
        },
      ),
      { numRuns: 3000, seed: 20261201 },
    );
  });
});
