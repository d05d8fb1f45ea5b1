// The Action's pure formats (action/format.mjs, action/env.mjs), tested without running anything:
// annotation escaping read back with the runner's rules, Markdown cells and code blocks rendered
// by a CommonMark + GFM-tables renderer (markdown-it with HTML and linkify on, as GitHub's summary
// renders both), and the environment allowlist.
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { cliEnvironment } from "../../action/env.mjs";
import { codeBlock, escapeData, escapeProperty, fenceFor, markdownCell, workflowCommand } from "../../action/format.mjs";
import { neutralize, neutralizeLines } from "../../src/text/neutralize.js";
import { runnerView } from "./action-harness.js";

const markdown = new MarkdownIt({ html: true, linkify: true });

const decode = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The cells of each body row of the only table in `html`. */
function cells(html: string): string[][] {
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(html)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...(row[1] ?? "").matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] ?? ""));
}

const HOSTILE = [
  "a|b",
  "a\\|b",
  "```",
  "<img src=https://evil.example/p.png>",
  "**bold** _em_ ~~strike~~",
  "[link](https://evil.example) ![img](https://evil.example/i.png)",
  "https://evil.example/auto www.evil.example me@evil.example",
  "&lt; &amp; &#x3C;img&#x3E;",
  "</details><script>alert(1)</script>",
  "# heading",
  "<!-- comment -->",
  "$x$ \\(x\\)",
  "`code` ``two``",
];

describe("markdownCell", () => {
  it.each(HOSTILE)("shows %j as one plain cell", (text) => {
    const html = markdown.render(`| Head |\n|---|\n| ${markdownCell(text)} |\n`);
    const rows = cells(html);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveLength(1);
    const cell = rows[0]?.[0] ?? "";
    // No element at all inside the cell: no image, link, emphasis, code, script or comment.
    expect(cell).not.toMatch(/<|>/);
    expect(decode(cell)).toBe(text);
  });

  it("shows any neutralized text as exactly one cell holding exactly that text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), fc.string({ maxLength: 20 }), (text, other) => {
        const shown = neutralize(text);
        const html = markdown.render(`| A | B |\n|---|---|\n| ${markdownCell(shown)} | ${markdownCell(other)} |\n`);
        const rows = cells(html);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toHaveLength(2);
        expect(rows[0]?.[0]).not.toMatch(/<|>/);
        expect(decode(rows[0]?.[0] ?? "")).toBe(shown.trim());
      }),
      { numRuns: 500 },
    );
  });

  it("makes line breaks and controls visible instead of ending the row", () => {
    expect(markdownCell("a\nb\rc\u2028d")).toBe("a\\\\u\\{A\\}b\\\\u\\{D\\}c\\\\u\\{2028\\}d");
  });
});

describe("fenceFor and codeBlock", () => {
  it("picks a fence longer than any backtick run", () => {
    expect(fenceFor("plain")).toBe("```");
    expect(fenceFor("a ``` b")).toBe("````");
    expect(fenceFor("``````")).toBe("```````");
  });

  it("shows any output verbatim in one code block that the output cannot close", () => {
    const line = fc.oneof(fc.string({ unit: "binary", maxLength: 30 }), fc.constantFrom("```", "````", "~~~", "</details>", "    ```", "<img src=x>"));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const text = neutralizeLines(lines.join("\n")).join("\n");
        const html = markdown.render(`<details><summary>Output</summary>\n\n${codeBlock(text)}\n</details>\n\nafter\n`);
        const blocks = [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)];
        expect(blocks).toHaveLength(1);
        expect(decode(blocks[0]?.[1] ?? "")).toBe(text === "" || text.endsWith("\n") ? text : `${text}\n`);
        expect(html.endsWith("</details>\n<p>after</p>\n")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("workflow commands", () => {
  it("escape %, CR and LF in data, and : and , in properties", () => {
    expect(escapeData("50% done\r\n::next")).toBe("50%25 done%0D%0A::next");
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
    expect(workflowCommand("error", { file: "servers/x.lock", title: "t" }, "m")).toBe("::error file=servers/x.lock,title=t::m");
    expect(workflowCommand("error", { file: undefined, title: "t" }, "m")).toBe("::error title=t::m");
  });

  it("read back by the runner's rules as one command with the same title, file and message", () => {
    // As in run.mjs, server text is neutralized first; the runner trims the property list, so a
    // property keeps no outer spaces either way.
    const text = fc
      .string({ unit: "binary", minLength: 1, maxLength: 40 })
      .map((raw) => neutralize(raw).trim())
      .filter((shown) => shown !== "");
    fc.assert(
      fc.property(text, text, text, (title, file, message) => {
        const view = runnerView(`${workflowCommand("warning", { file, title }, message)}\n`);
        expect(view.commands).toEqual([{ command: "warning", properties: { file, title }, data: message }]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("cliEnvironment", () => {
  const job = {
    PATH: "/usr/bin",
    HOME: "/home/runner",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    RUNNER_TEMP: "/tmp/runner",
    NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
    GITHUB_TOKEN: "ghs_secret",
    AWS_SECRET_ACCESS_KEY: "aws_secret",
    GITHUB_STEP_SUMMARY: "/tmp/summary",
    INPUT_COMMAND: "npx server",
    API_TOKEN: "passed",
    MCP_AUTH: "Bearer x",
    HTTPS_PROXY: "http://user:pw@proxy:3128",
    NODE_OPTIONS: "--require /tmp/evil.js",
  };

  it("keeps the basics and the variables pass-env names, nothing else", () => {
    expect(cliEnvironment(job, { passEnv: ["API_TOKEN"] })).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/runner",
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      RUNNER_TEMP: "/tmp/runner",
      NODE_EXTRA_CA_CERTS: "/etc/ca.pem",
      API_TOKEN: "passed",
    });
  });

  it("keeps header-env variables and proxies for a remote check", () => {
    const env = cliEnvironment(job, { headerEnv: ["Authorization=MCP_AUTH"], remote: true });
    expect(env.MCP_AUTH).toBe("Bearer x");
    expect(env.HTTPS_PROXY).toBe("http://user:pw@proxy:3128");
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.NODE_OPTIONS).toBeUndefined();
  });
});
