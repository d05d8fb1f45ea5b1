import { describe, expect, it } from "vitest";
import { looseUri, MAX_MATCH_LENGTH, matchTemplate } from "../../../src/proxy/uri-match.js";

describe("matchTemplate", () => {
  it("reads a simple expression as one or more characters other than a slash", () => {
    expect(matchTemplate("notes://by-date/{date}", "notes://by-date/2024-05-01")).toBe("yes");
    expect(matchTemplate("notes://by-date/{date}", "notes://by-date/")).toBe("no");
    expect(matchTemplate("notes://by-date/{date}", "notes://by-date/2024/05")).toBe("no");
    expect(matchTemplate("users/{id}/posts/{post}", "users/7/posts/9")).toBe("yes");
    expect(matchTemplate("users/{id}/posts/{post}", "users/7/posts")).toBe("no");
  });

  it("reads reserved, fragment and path expressions as any characters, and query ones as optional", () => {
    expect(matchTemplate("file:///{+path}", "file:///home/a/b.txt")).toBe("yes");
    expect(matchTemplate("docs{/segments*}", "docs/a/b")).toBe("yes");
    expect(matchTemplate("search{?q,lang}", "search")).toBe("yes");
    expect(matchTemplate("search{?q,lang}", "search?q=x&lang=en")).toBe("yes");
    expect(matchTemplate("page{#section}", "page#intro")).toBe("yes");
  });

  it("matches literal text exactly unless loose, and treats an unclosed brace as text", () => {
    expect(matchTemplate("Notes://{x}", "notes://a")).toBe("no");
    expect(matchTemplate("Notes://{x}", "NOTES://a", true)).toBe("yes");
    expect(matchTemplate("a{b", "a{b")).toBe("yes");
  });

  it("answers unknown past the length bound, and stays fast on a template built to backtrack", () => {
    expect(matchTemplate(`${"a".repeat(MAX_MATCH_LENGTH)}{x}`, "a")).toBe("unknown");
    expect(matchTemplate("{x}", "a".repeat(MAX_MATCH_LENGTH + 1))).toBe("unknown");
    // 500 adjacent `(.+)` and no match: a backtracking regex would not finish; the NFA walks 4,000 x 1,000 places.
    const hostile = `${"{+a}".repeat(500)}!`;
    expect(matchTemplate(hostile, "a".repeat(4000))).toBe("no");
  });
});

describe("looseUri", () => {
  it("gives one form for spellings a lax server may read as one resource", () => {
    const forms = [
      "notes://daily",
      "NOTES://Daily",
      "notes://dai%6Cy",
      "notes://dai%256Cy",
      "notes://daily/",
      "notes:///daily",
      "notes://a/../daily",
      "notes://./daily",
      "notes://daily#x",
      "notes://da\u200Bily",
      "notes://ｄａｉｌｙ",
    ];
    for (const form of forms) expect(looseUri(form), form).toBe(looseUri("notes://daily"));
    expect(looseUri("notes://weekly")).not.toBe(looseUri("notes://daily"));
    expect(looseUri("notes://daily?page=2")).not.toBe(looseUri("notes://daily"));
  });

  it("keeps malformed escapes as they are", () => {
    expect(looseUri("a%zz%C3")).toBe("a%zz\u00c3".toLowerCase());
  });
});
