// S1's word count (countWords): runs between whitespace that hold a letter or a digit, one per identifier.
import { describe, expect, it } from "vitest";
import { countWords } from "../../../src/lint/text.js";

// [name, text, words]; counted with a cap far above every case.
const CASES: [string, string, number][] = [
  ["a snake_case identifier is one word (regression: read_text_file counted as three)", "Use read_text_file instead.", 3],
  ["server-filesystem's deprecated read_file description", "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.", 13],
  ["camelCase, kebab-case, dotted and slashed runs are one word each", "call listHTTPRoutes on x-api-key e.g. a/b.txt", 6],
  ["punctuation alone is no word", "Notion | Retrieve a user\nError Responses:\n400: 400", 8],
  ["a Markdown fence and braces are no words", "```json\n{ }\n```", 1],
  ["every kind of whitespace separates", "one\ttwo\u00a0three\u3000four\u2028five", 5],
  ["Japanese counts one word per two characters", "ファイルを読む", 4],
  ["a Latin word glued to Japanese adds one", "JSONファイル", 3],
  ["empty and blank texts have none", " \n\t ", 0],
];

describe("countWords", () => {
  it.each(CASES)("%s", (_name, text, words) => {
    expect(countWords(text, 1_000)).toBe(words);
  });

  it("stops at the cap", () => {
    expect(countWords("word ".repeat(100), 15)).toBe(15);
    expect(countWords("漢".repeat(100), 15)).toBe(15);
  });
});
