// spellings.ts: every way a shell, launcher or URL could decode a token, and the squash both the prefilter and the full check compare.
import fc from "fast-check";
import { parse as shellParse } from "shell-quote";
import { describe, expect, it } from "vitest";
import { expandAnsiC, spellings, squash } from "../../../src/install/spellings.js";

describe("spellings", () => {
  it.each([
    ["as written", "postmark-mcp", "postmark-mcp"],
    ["ANSI-C hex", "$'\\x70ostmark-mcp'", "postmark-mcp"],
    ["ANSI-C octal", "$'\\160'ostmark-mcp", "postmark-mcp"],
    ["ANSI-C \\u", "$'\\u0070'ostmark-mcp", "postmark-mcp"],
    ["ANSI-C \\U", "$'\\U00000070'ostmark-mcp", "postmark-mcp"],
    ["ANSI-C NUL ends the segment", "$'post\\0junk'mark-mcp", "postmark-mcp"],
    ["ANSI-C \\c@ is a NUL", "$'post\\c@junk'mark-mcp", "postmark-mcp"],
    ["nested quoting", "sh -c \"npx \\$'\\\\x70ostmark-mcp'\"", "sh -c npx postmark-mcp"],
    ["double and single quotes", "po\"st\"'mark'-mcp", "postmark-mcp"],
    ["backslashes", "post\\mark-mcp", "postmark-mcp"],
    ["cmd carets", "post^mark-mcp", "postmark-mcp"],
    ["PowerShell backtick", "post`mark-mcp", "postmark-mcp"],
    ["PowerShell `u{}", "post`u{6d}ark-mcp", "postmark-mcp"],
    ["PowerShell doubled single quote", "'post''mark'", "post'mark"],
    ["percent-encoding", "postmark%2Dmcp", "postmark-mcp"],
    ["double percent-encoding", "postmark%252Dmcp", "postmark-mcp"],
    ["an unset variable", "post${EMPTY}mark-mcp", "postmark-mcp"],
    ["a $NAME variable", "post$EMPTY\\mark-mcp", "postmark-mcp"],
    ["a variable's default", "${PKG:-postmark-mcp}", "postmark-mcp"],
    ["an empty substitution", "post$(true)mark-mcp", "postmark-mcp"],
    ["backtick substitution", "post`true`mark-mcp", "postmark-mcp"],
    ["a cmd variable", "post%X%mark-mcp", "postmark-mcp"],
    ["a PowerShell env variable", "post${env:X}mark-mcp", "postmark-mcp"],
    ["brace alternatives", "{x,p}ostmark-mcp", "xostmark-mcp postmark-mcp"],
    ["a brace sequence", "p{o..o}stmark-mcp", "postmark-mcp"],
  ])("%s: %s", (_, token, expected) => {
    const { texts } = spellings(token);
    expect(texts).toContain(token);
    expect(texts).toContain(expected);
  });

  it("is complete for ordinary tokens and says so when a limit cuts it short", () => {
    expect(spellings("npx").complete).toBe(true);
    expect(spellings("'a'\"b\"\\c`d^e$'f'").complete).toBe(true);
    expect(spellings("x".repeat(20_000)).complete).toBe(false);
  });

  it("still decodes a token too long for the parser, coarsely", () => {
    const padding = "a ".repeat(10_000);
    const { texts } = spellings(`${padding}npx -y $'\\x70'os"t"ma^rk-mcp`);
    expect(texts.some((text) => text.endsWith("npx -y postmark-mcp"))).toBe(true);
  });

  it("never throws and stays bounded on hostile input", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("$", "'", '"', "\\", "`", "^", "{", "}", ",", ".", "(", ")", "%", "2", "5", "x", "u", "0", "a"), maxLength: 40 }),
        (token) => {
          const { texts } = spellings(token);
          expect(texts.length).toBeGreaterThan(0);
          expect(texts.length).toBeLessThanOrEqual(48 * 4 + 8);
        },
      ),
      { seed: 5, numRuns: 500 },
    );
  });
});

describe("expandAnsiC", () => {
  it("decodes exactly as shell-quote does (the parser's own reading)", () => {
    const body = fc.string({
      unit: fc.constantFrom("\\", "x", "u", "U", "c", "0", "7", "1", "a", "F", "n", "e", "?", '"', "p", "@", "9", "E", "v"),
      maxLength: 10,
    });
    fc.assert(
      fc.property(body, (text) => {
        // Bodies shell-quote reads as one whole `$'...'` (an unescaped quote would end it early).
        const parsed = shellParse(`$'${text}'`);
        fc.pre(parsed.length === 1 && typeof parsed[0] === "string" && !text.endsWith("\\"));
        expect(expandAnsiC(text)).toBe(parsed[0]);
      }),
      { seed: 3, numRuns: 3000 },
    );
  });
});

describe("squash", () => {
  it("keeps lower-case letters and digits, folding case and compatibility forms", () => {
    expect(squash("Post_Mark.MCP-1.0.16")).toBe("postmarkmcp1016");
    expect(squash("ｐｏｓｔｍａｒｋ")).toBe("postmark");
    expect(squash("poſtmar\u212A")).toBe("postmark");
    expect(squash("\u3392")).toBe("mhz");
  });

  it("maps text one piece at a time: squash(a + b) === squash(a) + squash(b)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.string({ unit: "grapheme-composite" }), (a, b) => {
        expect(squash(a + b)).toBe(squash(a) + squash(b));
      }),
      { seed: 4, numRuns: 1000 },
    );
  });
});
