// What `mcp-lint eval` reports (src/eval/report.ts): exact figures on a hand-made set, the last line
// of a run winning, agents and models kept apart, pinned terminal text and Markdown, hostile ids
// inert in every channel, and an SVG chart that is well-formed XML and the same bytes every time.
// Runs the agent failed on its own (issue 37) are listed apart and counted nowhere else.
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { reportMarkdown, reportText, type Summary, successChartSvg, summarize } from "../../../src/eval/report.js";
import type { EvalArm, EvalResult, EvalTask } from "../../../src/eval/types.js";
import { neutralize } from "../../../src/text/neutralize.js";
import { expectInert, HOSTILE } from "../../hostile-strings.js";

const SERVER: Record<string, string> = { t1: "fs", t2: "fs", t3: "mem" };

function run(
  task: string,
  arm: EvalArm,
  number: number,
  success: boolean,
  figures: [tokens: number | null, turns: number | null, toolCalls: number | null, ms: number],
  who: Partial<EvalResult> = {},
): EvalResult {
  const [tokens, turns, toolCalls, ms] = figures;
  return {
    task,
    server: SERVER[task] ?? "other",
    arm,
    run: number,
    success,
    tokens,
    turns,
    toolCalls,
    ms,
    error: success ? null : "wrong answer",
    agent: "claude",
    model: "sonnet",
    infrastructure: false,
    ...who,
  };
}

/** A run the agent failed on its own: not a task result. */
function ownFailure(task: string, arm: EvalArm, number: number, error: string, who: Partial<EvalResult> = {}): EvalResult {
  return { ...run(task, arm, number, false, [null, 1, 0, 400], who), error, infrastructure: true };
}

const NOT_LOGGED_IN = "the agent failed (api_error): Not logged in \u00b7 Please run /login";
const OVERLOADED = "the agent failed (api_error): API Error: 529 Overloaded";

/** 3 tasks (two on fs, one on mem) x 2 arms x 2 runs. */
const SET: EvalResult[] = [
  run("t1", "direct", 1, true, [1000, 2, 1, 1000]),
  run("t1", "direct", 2, true, [2000, 2, 1, 3000]),
  run("t2", "direct", 1, false, [3000, 4, 3, 5000]),
  run("t2", "direct", 2, false, [null, null, null, 7000]),
  run("t3", "direct", 1, true, [500, 1, 1, 2000]),
  run("t3", "direct", 2, false, [700, 3, 2, 4000]),
  run("t1", "proxy", 1, true, [800, 2, 1, 1000]),
  run("t1", "proxy", 2, true, [800, 2, 1, 1000]),
  run("t2", "proxy", 1, true, [1200, 3, 2, 2000]),
  run("t2", "proxy", 2, false, [1600, 5, 4, 6000]),
  run("t3", "proxy", 1, true, [400, 1, 1, 1000]),
  run("t3", "proxy", 2, true, [600, 1, 1, 1000]),
];

const TEXT = `agent claude, model sonnet: 12 runs

server  arm        success  tokens  turns  tool calls  time
fs      direct   2/4 (50%)   2,000    2.7         1.7  4.0s
        proxy    3/4 (75%)   1,100    3.0         2.0  2.5s
mem     direct   1/2 (50%)     600    2.0         1.5  3.0s
        proxy   2/2 (100%)     500    1.0         1.0  1.0s
all     direct   3/6 (50%)   1,440    2.4         1.6  3.7s
        proxy    5/6 (83%)     900    2.3         1.7  2.0s

tasks that came out differently in the two arms:
  t2 (fs): direct 0/2, proxy 1/2
  t3 (mem): direct 1/2, proxy 2/2
`;

const MARKDOWN = `# mcp-lint eval

## agent claude, model sonnet

12 runs.

| server | arm | success | tokens | turns | tool calls | time |
| --- | --- | ---: | ---: | ---: | ---: | ---: |
| fs | direct | 2/4 (50%) | 2,000 | 2.7 | 1.7 | 4.0s |
| fs | proxy | 3/4 (75%) | 1,100 | 3.0 | 2.0 | 2.5s |
| mem | direct | 1/2 (50%) | 600 | 2.0 | 1.5 | 3.0s |
| mem | proxy | 2/2 (100%) | 500 | 1.0 | 1.0 | 1.0s |
| **all** | direct | 3/6 (50%) | 1,440 | 2.4 | 1.6 | 3.7s |
| **all** | proxy | 5/6 (83%) | 900 | 2.3 | 1.7 | 2.0s |

Tasks that came out differently in the two arms:

| task | server | direct | proxy |
| --- | --- | ---: | ---: |
| t2 | fs | 0/2 | 1/2 |
| t3 | mem | 1/2 | 2/2 |
`;

describe("summarize", () => {
  it("gives runs, successes, rates and means per server and arm, and for all servers", () => {
    const [group, ...others] = summarize(SET).groups;
    expect(others).toEqual([]);
    expect(group?.runs).toBe(12);
    const [fs, mem] = group?.servers ?? [];
    expect(fs).toEqual({
      server: "fs",
      // Tokens, turns and tool calls: the mean over the three runs that reported them.
      direct: { runs: 4, successes: 2, rate: 0.5, tokens: 2000, turns: 8 / 3, toolCalls: 5 / 3, seconds: 4 },
      proxy: { runs: 4, successes: 3, rate: 0.75, tokens: 1100, turns: 3, toolCalls: 2, seconds: 2.5 },
    });
    expect(mem).toEqual({
      server: "mem",
      direct: { runs: 2, successes: 1, rate: 0.5, tokens: 600, turns: 2, toolCalls: 1.5, seconds: 3 },
      proxy: { runs: 2, successes: 2, rate: 1, tokens: 500, turns: 1, toolCalls: 1, seconds: 1 },
    });
    expect(group?.all.direct).toEqual({ runs: 6, successes: 3, rate: 0.5, tokens: 1440, turns: 2.4, toolCalls: 1.6, seconds: 22 / 6 });
    expect(group?.all.proxy).toEqual({ runs: 6, successes: 5, rate: 5 / 6, tokens: 900, turns: 14 / 6, toolCalls: 10 / 6, seconds: 2 });
    expect(group?.tasks).toEqual([
      { task: "t1", server: "fs", direct: { runs: 2, successes: 2 }, proxy: { runs: 2, successes: 2 } },
      { task: "t2", server: "fs", direct: { runs: 2, successes: 0 }, proxy: { runs: 2, successes: 1 } },
      { task: "t3", server: "mem", direct: { runs: 2, successes: 1 }, proxy: { runs: 2, successes: 2 } },
    ]);
  });

  it("counts the last line of a run when a run has several", () => {
    const rerun = run("t2", "direct", 1, true, [100, 1, 1, 1000]);
    const group = summarize([...SET, rerun]).groups[0];
    expect(group?.runs).toBe(12);
    expect(group?.servers[0]?.direct).toEqual({ runs: 4, successes: 3, rate: 0.75, tokens: 3100 / 3, turns: 5 / 3, toolCalls: 1, seconds: 3 });
    expect(group?.tasks[1]?.direct).toEqual({ runs: 2, successes: 1 });
    // And an earlier success overwritten by a later failure is a failure.
    const failed = summarize([run("t1", "proxy", 1, true, [1, 1, 1, 1]), run("t1", "proxy", 1, false, [1, 1, 1, 1])]).groups[0];
    expect(failed?.all.proxy.successes).toBe(0);
    expect(failed?.all.proxy.runs).toBe(1);
  });

  it("keeps agents and models apart, ordered by agent then model", () => {
    const gemini = SET.map((one) => ({ ...one, agent: "gemini", model: "pro", success: true }));
    const otherModel = SET.slice(0, 2).map((one) => ({ ...one, model: "opus" }));
    const summary = summarize([...gemini, ...SET, ...otherModel]);
    expect(summary.groups.map((group) => [group.agent, group.model, group.runs])).toEqual([
      ["claude", "opus", 2],
      ["claude", "sonnet", 12],
      ["gemini", "pro", 12],
    ]);
    expect(summary.groups[1]?.all.direct.successes).toBe(3);
    expect(summary.groups[2]?.all.direct.successes).toBe(6);
    const text = reportText(summary);
    expect(text).toContain("agent claude, model opus: 2 runs");
    expect(text).toContain(TEXT);
    expect(text).toContain("agent gemini, model pro: 12 runs");
    expect(text.indexOf("model opus")).toBeLessThan(text.indexOf("model sonnet"));
    const markdown = reportMarkdown(summary);
    expect(markdown.match(/^## .*$/gm)).toEqual(["## agent claude, model opus", "## agent claude, model sonnet", "## agent gemini, model pro"]);
  });

  it("follows the task set's order and lists servers and tasks that have no runs yet", () => {
    const tasks = ["t3", "t1", "web1", "t2"].map((id) => ({ id, server: SERVER[id] ?? "web" }) as EvalTask);
    const group = summarize(SET, tasks).groups[0];
    expect(group?.servers.map((server) => server.server)).toEqual(["mem", "fs", "web"]);
    expect(group?.servers[2]?.direct).toEqual({ runs: 0, successes: 0, rate: null, tokens: null, turns: null, toolCalls: null, seconds: null });
    expect(group?.tasks.map((task) => task.task)).toEqual(["t3", "t1", "web1", "t2"]);
    expect(reportText(summarize(SET, tasks))).toContain(
      "\nweb     direct     0/0 (-)       -      -           -     -\n        proxy      0/0 (-)       -      -           -     -\nall ",
    );
  });

  it("has no groups without results", () => {
    expect(summarize([])).toEqual({ groups: [] });
    expect(reportText(summarize([]))).toBe("no eval results\n");
    expect(reportMarkdown(summarize([]))).toBe("# mcp-lint eval\n\nNo eval results.\n");
  });
});

describe("runs the agent failed on its own", () => {
  const failures = [ownFailure("t1", "direct", 3, NOT_LOGGED_IN), ownFailure("t2", "proxy", 3, OVERLOADED), ownFailure("t3", "direct", 3, NOT_LOGGED_IN)];

  it("count in no figure, no rate and no chart bar, and are listed apart by why", () => {
    const group = summarize([...SET, ...failures]).groups[0];
    const plain = summarize(SET).groups[0];
    expect(group?.runs).toBe(12);
    expect(group?.servers).toEqual(plain?.servers);
    expect(group?.all).toEqual(plain?.all);
    expect(group?.tasks).toEqual(plain?.tasks);
    expect(group?.notCounted).toEqual({
      runs: 3,
      reasons: [
        { reason: NOT_LOGGED_IN, runs: 2 },
        { reason: OVERLOADED, runs: 1 },
      ],
    });
    const text = reportText(summarize([...SET, ...failures]));
    expect(text).toBe(
      TEXT.replace("model sonnet: 12 runs", "model sonnet: 12 runs, 3 not counted") +
        "\n3 runs not counted: they failed for the agent's own reasons, not the task's; the next eval --run runs them again:\n" +
        `  2x ${NOT_LOGGED_IN}\n  1x ${OVERLOADED}\n`,
    );
    const markdown = reportMarkdown(summarize([...SET, ...failures]));
    expect(markdown).toContain("12 runs, 3 not counted.");
    expect(markdown).toContain(
      "3 runs not counted: they failed for the agent's own reasons, not the task's; the next eval --run runs them again:\n\n| runs | why |\n| ---: | --- |\n| 2 | the agent failed \\(api\\_error\\)\\: Not logged in · Please run \\/login |\n",
    );
    expect(new MarkdownIt().render(markdown).match(/<table>/g)).toHaveLength(3);
    const bars = (svg: string) => [...svg.matchAll(/<rect [^>]*><title>[^<]*<\/title><\/rect>/g)].map((match) => match[0]);
    expect(bars(successChartSvg(summarize([...SET, ...failures])))).toEqual(bars(successChartSvg(summarize(SET))));
  });

  // Issue 37: without model access every run failed alike, and the report showed 0% success with a chart.
  it("only such runs: no table, no 0% and no bar, but why", () => {
    const onlyFailures = summarize(failures);
    expect(onlyFailures.groups[0]?.runs).toBe(0);
    const text = reportText(onlyFailures);
    expect(text).toBe(
      "agent claude, model sonnet: 0 runs, 3 not counted\n\nno task result to count\n\n" +
        "3 runs not counted: they failed for the agent's own reasons, not the task's; the next eval --run runs them again:\n" +
        `  2x ${NOT_LOGGED_IN}\n  1x ${OVERLOADED}\n`,
    );
    expect(text).not.toContain("%");
    const markdown = reportMarkdown(onlyFailures);
    expect(markdown).toContain("No task result to count.");
    expect(markdown).not.toContain("%");
    const svg = successChartSvg(onlyFailures);
    checkXml(svg);
    expect(svg).toContain(">no results</text>");
    expect(svg).not.toMatch(/<rect [^>]*><title>/);
  });

  it("never replace a task result of the same run, before or after it; a later task result replaces them", () => {
    const done = run("t1", "direct", 1, true, [1, 1, 1, 1]);
    const own = ownFailure("t1", "direct", 1, OVERLOADED);
    for (const order of [
      [own, done],
      [done, own],
      [own, done, own],
    ]) {
      const group = summarize(order).groups[0];
      expect(group?.runs).toBe(1);
      expect(group?.all.direct.successes).toBe(1);
      expect(group?.notCounted.runs).toBe(0);
    }
    // Two failures of one run count once, by the last.
    expect(summarize([ownFailure("t1", "direct", 1, NOT_LOGGED_IN), own]).groups[0]?.notCounted).toEqual({
      runs: 1,
      reasons: [{ reason: OVERLOADED, runs: 1 }],
    });
  });

  it("list five reasons at most, the rest added up", () => {
    const many = Array.from({ length: 8 }, (_, index) => ownFailure("t1", "direct", index + 1, `reason ${index}`));
    const text = reportText(summarize([...many, ownFailure("t2", "direct", 1, "reason 7")]));
    expect(text).toContain("  2x reason 7\n  1x reason 0\n  1x reason 1\n  1x reason 2\n  1x reason 3\n  3x other reasons\n");
  });

  it("show a hostile reason inert in the text and the Markdown", () => {
    const hostile = [...HOSTILE, HOSTILE_TASK].map((reason, index) => ownFailure("t1", "direct", index + 1, reason));
    // More than five reasons are added up: show each hostile one in a summary of its own.
    for (const one of hostile) {
      const summary = summarize([one]);
      const text = reportText(summary);
      expectInert("text", text);
      expect(text).toContain(`  1x ${neutralize(one.error ?? "")}`);
      const markdown = reportMarkdown(summary);
      expectInert("markdown", markdown);
      const html = new MarkdownIt({ html: true, linkify: true }).render(markdown);
      for (const tag of ["<script", "<img", "<a "]) expect(html).not.toContain(tag);
      const cells = html.match(/<td>[\s\S]*?<\/td>/g)?.map(htmlText) ?? [];
      expect(cells).toContain(neutralize(one.error ?? ""));
    }
  });
});

describe("reportText and reportMarkdown", () => {
  it("pin the terminal text", () => {
    expect(reportText(summarize(SET))).toBe(TEXT);
  });

  it("pin the Markdown, which renders as two tables", () => {
    const markdown = reportMarkdown(summarize(SET));
    expect(markdown).toBe(MARKDOWN);
    const html = new MarkdownIt().render(markdown);
    expect(html.match(/<table>/g)).toHaveLength(2);
    expect(html.match(/<tr>/g)).toHaveLength(7 + 3);
  });

  it("say so when no task came out differently", () => {
    const same = SET.filter((one) => one.task === "t1");
    expect(reportText(summarize(same))).toContain("\n\nno task came out differently in the two arms\n");
    expect(reportMarkdown(summarize(same))).toContain("\n\nNo task came out differently in the two arms.\n");
  });
});

const HOSTILE_SERVER = "evil|srv\n::error::x";
const HOSTILE_TASK = "<script>x</script>&amp;\u001b[31m*_`[x](http://e)";
const HOSTILE_AGENT = "\u001b]8;;https://evil.example\u0007a";
const HOSTILE_MODEL = "m\r0 errors <b>&</b>";

function hostileSet(): EvalResult[] {
  const who = { server: HOSTILE_SERVER, agent: HOSTILE_AGENT, model: HOSTILE_MODEL };
  return [
    run(HOSTILE_TASK, "direct", 1, false, [1, 1, 1, 1], who),
    run(HOSTILE_TASK, "proxy", 1, true, [1, 1, 1, 1], who),
    ...HOSTILE.map((id, index) => run(id, "proxy", index + 1, true, [1, 1, 1, 1], { ...who, server: id })),
  ];
}

/** The text of HTML markdown-it wrote, entities decoded. */
function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

describe("hostile ids", () => {
  it("are inert in the terminal text", () => {
    const text = reportText(summarize(hostileSet()));
    expectInert("text", text);
    expect(text).toContain("evil|srv\\u{A}::error::x");
    expect(text).toContain(`${neutralize(HOSTILE_TASK)} (evil|srv\\u{A}::error::x): direct 0/1, proxy 1/1`);
    expect(text).toContain("agent \\u{1B}]8;;https://evil.example\\u{7}a, model m\\u{D}0 errors <b>&</b>:");
    // A server id that starts a line cannot start a workflow command.
    expect(text).toContain("\n\\u{3A}:warning file=a::b");
  });

  it("are inert in the Markdown: no markup, HTML, link or extra cell, and shown as they are", () => {
    const markdown = reportMarkdown(summarize(hostileSet()));
    expectInert("markdown", markdown);
    const html = new MarkdownIt({ html: true, linkify: true }).render(markdown);
    for (const tag of ["<script", "<b>", "<a ", "<em>", "<strong>e", "<code>", "<img", "<h1>#"]) expect(html).not.toContain(tag);
    // Every row of the server table has its seven cells, and each cell shows the neutralized id.
    const rows = html.split("<tr>").slice(1);
    for (const row of rows.slice(0, 1 + 2 * (HOSTILE.length + 1) + 2)) expect(row.match(/<t[hd][ >]/g)).toHaveLength(7);
    const cells = html.match(/<td>[\s\S]*?<\/td>/g)?.map(htmlText) ?? [];
    expect(cells).toContain(neutralize(HOSTILE_SERVER));
    expect(cells).toContain(neutralize(HOSTILE_TASK));
    for (const id of HOSTILE) expect(cells).toContain(neutralize(id));
    expect(htmlText(html)).toContain(`agent ${neutralize(HOSTILE_AGENT)}, model ${neutralize(HOSTILE_MODEL)}`);
  });

  it("are escaped in the SVG, which stays well-formed", () => {
    const svg = successChartSvg(
      summarize([...hostileSet(), run("t1", "direct", 1, true, [1, 1, 1, 1], { server: "\uffff&<'\">", agent: HOSTILE_AGENT, model: HOSTILE_MODEL })]),
    );
    checkXml(svg);
    expectInert("svg", svg);
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("evil|srv\\u{A}::error::x, direct: 0/1 (0.0%)");
    expect(svg).toContain("<title>&lt;img src=x onerror=alert(1)&gt;, proxy: 1/1 (100.0%)</title>");
    expect(svg).toContain("<title>\\u{FFFF}&amp;&lt;&apos;&quot;&gt;, direct: 1/1 (100.0%)</title>");
    // The subtitle is cut to fit beside the legend.
    expect(svg).toContain(">agent \\u{1B}]8;;https://evil.example\\u{7}a, model m\u2026; 24 runs</text>");
    const short = successChartSvg(summarize([run("t1", "direct", 1, true, [1, 1, 1, 1], { agent: "<a>", model: "&'\"\r" })]));
    checkXml(short);
    expect(short).toContain(">agent &lt;a&gt;, model &amp;&apos;&quot;\\u{D}; 1 run</text>");
  });
});

describe("successChartSvg", () => {
  const svg = successChartSvg(summarize(SET));

  it("is well-formed XML of a fixed size with generic fonts", () => {
    expect(checkXml(svg)[0]).toBe("svg");
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="720" height="360" viewBox="0 0 720 360" font-family="sans-serif"')).toBe(true);
    expect(svg.endsWith("</svg>\n")).toBe(true);
    const fonts = [...svg.matchAll(/font-family="([^"]*)"/g)].map((match) => match[1]);
    expect(new Set(fonts)).toEqual(new Set(["sans-serif"]));
  });

  it("draws a direct and a proxy bar per server and for all, labelled, on a 0-100% axis, with a legend and a title", () => {
    const bars = [...svg.matchAll(/<rect [^>]*fill="(#[0-9a-f]+)"><title>([^<]*)<\/title>/g)].map((match) => match[2]);
    expect(bars).toEqual([
      "fs, direct: 2/4 (50.0%)",
      "fs, proxy: 3/4 (75.0%)",
      "mem, direct: 1/2 (50.0%)",
      "mem, proxy: 2/2 (100.0%)",
      "all servers, direct: 3/6 (50.0%)",
      "all servers, proxy: 5/6 (83.3%)",
    ]);
    const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);
    for (const text of ["0%", "25%", "50%", "75%", "100%", "50.0%", "75.0%", "100.0%", "83.3%", "fs", "mem", "all", "direct (before)", "proxy (after)"]) {
      expect(texts).toContain(text);
    }
    expect(texts).toContain("Task success: direct vs through the mcp-lint proxy");
    expect(texts).toContain("agent claude, model sonnet; 12 runs");
    // A full bar is the plot's height (72 to 304), a half bar half of it.
    expect(svg).toContain('<rect x="165" y="130" width="48" height="174" fill="#1a73e8"><title>fs, proxy');
    expect(svg).toContain('<rect x="381" y="72" width="48" height="232" fill="#1a73e8"><title>mem, proxy');
  });

  it("writes every number with at most one decimal", () => {
    const numbers = [...svg.matchAll(/ (?:x|y|x1|x2|y1|y2|width|height)="([^"]*)"/g)].map((match) => match[1]);
    expect(numbers.length).toBeGreaterThan(20);
    for (const number of numbers) expect(number).toMatch(/^\d+(\.\d)?$/);
    const labels = [...svg.matchAll(/>(\d+(?:\.\d+)?)%</g)].map((match) => match[1]);
    for (const label of labels) expect(label).toMatch(/^\d+(\.\d)?$/);
  });

  it("gives the same bytes for the same results, in any order", () => {
    expect(successChartSvg(summarize(SET))).toBe(svg);
    expect(successChartSvg(summarize([...SET].reverse()))).toBe(svg);
    expect(reportText(summarize([...SET].reverse()))).toBe(TEXT);
    expect(reportMarkdown(summarize([...SET].reverse()))).toBe(MARKDOWN);
  });

  it("draws n/a for an arm without runs, cuts long names between escapes, and says when there is nothing to draw", () => {
    const servers = Array.from({ length: 10 }, (_, index) => run(`x${index}`, "direct", 1, true, [1, 1, 1, 1], { server: `abcdef\u001b${index}` }));
    const crowded = successChartSvg(summarize(servers));
    checkXml(crowded);
    expect(crowded.match(/>n\/a</g)).toHaveLength(11);
    // Eight characters fit a slot; the escape \u{1B} would not fit whole after "abcdef", so it is left out.
    expect(crowded).toContain(">abcdef\u2026</text>");
    const empty: Summary = { groups: [] };
    const nothing = successChartSvg(empty);
    checkXml(nothing);
    expect(nothing).toContain(">no results</text>");
    expect(successChartSvg(summarize(SET), 5)).toContain(">no results</text>");
  });
});

/**
 * A small well-formedness check of the XML this file's SVGs can hold: one root element, tags
 * balanced and properly nested, attributes quoted and not repeated, `<` never raw in text or
 * attribute values, `&` only as one of the five named or a numeric entity, no character XML does
 * not allow. Returns the element names in document order.
 */
function checkXml(text: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`not well-formed XML at offset ${at}: ${why}: ${JSON.stringify(text.slice(at, at + 40))}`);
  };
  const isNameStart = (char: string) => /[A-Za-z_:]/.test(char);
  const isNameChar = (char: string) => /[A-Za-z0-9_:.-]/.test(char);
  const readName = (): string => {
    const start = at;
    if (!isNameStart(text[at] ?? "")) fail("expected a name");
    while (at < text.length && isNameChar(text[at] as string)) at++;
    return text.slice(start, at);
  };
  const skipSpace = (): boolean => {
    const start = at;
    while (at < text.length && " \t\r\n".includes(text[at] as string)) at++;
    return at > start;
  };
  const checkEntity = () => {
    const end = text.indexOf(";", at);
    const body = end < 0 ? "" : text.slice(at + 1, end);
    if (!["amp", "lt", "gt", "quot", "apos"].includes(body) && !/^#([0-9]+|x[0-9a-fA-F]+)$/.test(body)) fail("bad entity");
    at = end + 1;
  };
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    const allowed = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
    if (!allowed) fail(`character U+${code.toString(16)} is not allowed in XML`);
  }
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "<") {
      at++;
      if (text[at] === "/") {
        at++;
        const name = readName();
        skipSpace();
        if (text[at] !== ">") fail("expected > after a closing tag");
        at++;
        if (stack.pop() !== name) fail(`</${name}> closes the wrong element`);
        continue;
      }
      const name = readName();
      if (stack.length === 0) roots++;
      if (roots > 1) fail("a second root element");
      names.push(name);
      const attributes = new Set<string>();
      for (;;) {
        const spaced = skipSpace();
        if (text.startsWith("/>", at)) {
          at += 2;
          break;
        }
        if (text[at] === ">") {
          at++;
          stack.push(name);
          break;
        }
        if (!spaced) fail("expected a space before an attribute");
        const attribute = readName();
        if (attributes.has(attribute)) fail(`attribute ${attribute} repeated`);
        attributes.add(attribute);
        if (text[at] !== "=") fail("expected =");
        at++;
        const quote = text[at];
        if (quote !== '"' && quote !== "'") fail("expected a quoted value");
        at++;
        while (text[at] !== quote) {
          if (at >= text.length) fail("unterminated attribute value");
          if (text[at] === "<") fail("raw < in an attribute value");
          if (text[at] === "&") checkEntity();
          else at++;
        }
        at++;
      }
      continue;
    }
    if (char === "&") {
      checkEntity();
      continue;
    }
    if (stack.length === 0 && !" \t\r\n".includes(char)) fail("text outside the root element");
    at++;
  }
  if (stack.length > 0) fail(`unclosed <${stack.join("> <")}>`);
  if (roots !== 1) fail("no root element");
  return names;
}

describe("checkXml (the test's own well-formedness check)", () => {
  it("refuses what is not well-formed", () => {
    for (const bad of [
      "<svg><text>a</svg>",
      "<svg><a></b></svg>",
      "<svg>a & b</svg>",
      "<svg>a < b</svg>",
      '<svg x="1" x="2"/>',
      "<svg x=1/>",
      '<svg x="<"/>',
      "<svg/><svg/>",
      "<svg>\u0001</svg>",
      "<svg>\uffff</svg>",
      "<svg>",
      "text<svg/>",
    ]) {
      expect(() => checkXml(bad), bad).toThrow("not well-formed XML");
    }
    expect(checkXml('<svg a="&amp;&#38;&#x26;"><t>&lt;&apos;</t><r/></svg>\n')).toEqual(["svg", "t", "r"]);
  });
});
