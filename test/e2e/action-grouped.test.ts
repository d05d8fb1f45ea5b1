// Issue 37, item 4: the Action's job summary and pull-request comment listed one row per change per
// tool (27 rows where the terminal shows 3 grouped blocks, the same `$schema` info nine times),
// printed multi-line text as a literal `\u{A}` and gave no next step. Now a change made identically
// to several tools is one row naming them (as the terminal groups them), a text's lines are lines,
// and the report ends with the `lock --review` command of the job's own arguments (no secret in it),
// which works as printed. Hostile server text stays text in all of it.
import { spawn, spawnSync } from "node:child_process";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commentMarker } from "../../action/pr-comment.mjs";
import { eventFile, FakeGithub, fixtureCommand, runAction } from "./action-harness.js";
import { startHttpFixture } from "../fixtures/servers/live/harness.js";
import { cliPath, tempDir, writeJson } from "./helpers.js";

const markdown = new MarkdownIt({ html: true, linkify: true });
const NAMES = [
  "add_observations",
  "create_entities",
  "create_relations",
  "delete_entities",
  "delete_observations",
  "delete_relations",
  "open_nodes",
  "read_graph",
  "search_nodes",
];
const schema = (dialect: string, extra: boolean) => ({
  $schema: dialect,
  type: "object",
  properties: { id: { type: "string" } },
  additionalProperties: extra,
});
const BEFORE = {
  tools: NAMES.map((name) => ({ name, description: "Work on the knowledge graph.", inputSchema: schema("http://json-schema.org/draft-07/schema#", false) })),
};
const AFTER = {
  tools: NAMES.map((name) => ({
    name,
    description: "Work on the knowledge graph.\nResults come in pages of 50.\nAsk for the next one with `cursor`.",
    inputSchema: schema("https://json-schema.org/draft/2020-12/schema", true),
  })),
};

/** A workspace with a lock of `before`, its server now serving `after`, and the `command` input that starts it. */
function rugPulled(before: unknown, after: unknown): { workspace: string; command: string } {
  const workspace = tempDir();
  const command = fixtureCommand(workspace, "spec", before);
  const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${command}`], { cwd: workspace, encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
  fixtureCommand(workspace, "spec", after);
  return { workspace, command };
}

/** The table's body rows, each as its cells' HTML, from the rendered Markdown. */
function tableRows(html: string): string[][] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...(row[1] ?? "").matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => cell[1] ?? ""));
}

/** The review command the report ends with: the fenced block after "**Next:**". */
function reviewCommand(md: string): string {
  const match = /\*\*Next:\*\* [^\n]*then commit the lock\.[^\n]*\n\n(`{3,})\n([^\n]*)\n\1\n/.exec(md);
  return match?.[2] ?? "";
}

/** Run a shell command in a pseudo-terminal (util-linux `script`), answering `y` at each review prompt. */
function inTerminalAnsweringYes(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { ...process.env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    let sent = 0;
    const read = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const asked = output.match(/\[y,n,j,q,\?\] /g)?.length ?? 0;
      while (sent < asked) {
        child.stdin.write("y");
        sent++;
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
  });
}

const fake = new FakeGithub();
beforeAll(async () => {
  await fake.start();
});
afterAll(() => fake.stop());

describe("a rug pull repeated in nine tools (issue 37 item 4)", () => {
  it("is three grouped rows in the summary and the comment, text as lines, ending with the review command, which works", async () => {
    const { workspace, command } = rugPulled(BEFORE, AFTER);
    const github = { token: "ghs_grouped_4d1e", api_url: fake.url, repository: "octo/graph", event_path: eventFile({ pull_request: { number: 37 } }) };
    const result = runAction({ command, comment: "true" }, {}, workspace, { github });
    expect(result.status, result.stdout).toBe(1);

    const html = markdown.render(result.summary);
    const rows = tableRows(html);
    // 27 changes (9 tools x 3), shown as the terminal shows them: one row each, naming the nine tools.
    const nine = `9 tools: ${NAMES.join(", ")}`;
    expect(rows.map((row) => row.slice(0, 3))).toEqual([
      ["error", "description_changed", nine],
      ["error", "schema_widened", nine],
      ["info", "schema_changed", nine],
    ]);
    expect(result.summary).toContain("18 errors, 0 warnings, 9 info.");
    // The new description's lines are lines (the Action's own <br>), not one line with \u{A} in it.
    expect(rows[0]?.[3]).toBe(
      "description changed: 1 insertion<br>Work on the knowledge graph.<br>{+Results come in pages of 50.+}<br>{+Ask for the next one with `cursor`.+}",
    );
    expect(result.summary).not.toContain("\\u{A}");
    expect(rows[2]?.[3]).toBe("$schema URI changed at /inputSchema/$schema, but no keyword changes meaning");

    // The next step: lock --review with the job's own lock and server command, then commit the lock.
    const review = reviewCommand(result.summary);
    expect(review).toBe(`mcp-lint lock --review --lock mcp-lint.lock -- ${command.replaceAll('"', "")}`);
    expect(result.summary.indexOf("**Next:**")).toBeLessThan(result.summary.indexOf("<details>"));

    // The comment holds the same rows and the same command.
    const { comments } = await fake.state();
    const body = comments.find((comment) => comment.issue === 37)?.body ?? "";
    expect(body.startsWith(`${commentMarker("mcp-lint.lock")}\n`)).toBe(true);
    expect(tableRows(markdown.render(body))).toEqual(rows);
    expect(reviewCommand(body)).toBe(review);

    // Run as printed (mcp-lint being this build), on a terminal, answering y: the lock takes the
    // changes, and the Action passes on the next run.
    const reviewed = await inTerminalAnsweringYes(review.replace(/^mcp-lint /, `node ${cliPath} `), workspace);
    expect(reviewed.output).toContain("(9/9) search_nodes");
    expect(reviewed.code, reviewed.output).toBe(0);
    const again = runAction({ command }, {}, workspace);
    expect(again.status, again.summary).toBe(0);
    expect(again.summary).toContain("No changes.");
    expect(again.summary).not.toContain("**Next:**");
  });

  it("leaves secrets and the CI-only flags out of the review command, and runs it in the working directory", () => {
    const workspace = tempDir();
    const sub = `${workspace}/servers/graph`;
    spawnSync("mkdir", ["-p", sub]);
    const command = fixtureCommand(sub, "spec", BEFORE);
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock --lock "graph's.lock" --pass-env GRAPH_TOKEN -- ${command}`], {
      cwd: sub,
      encoding: "utf8",
      env: { ...process.env, GRAPH_TOKEN: "graph-secret-value-93ab" },
    });
    expect(made.status, made.stderr).toBe(0);
    fixtureCommand(sub, "spec", AFTER);
    const result = runAction(
      { command, lock: "graph's.lock", "pass-env": "GRAPH_TOKEN", "working-directory": "servers/graph", json: "report.json", "fail-on": "error" },
      { GRAPH_TOKEN: "graph-secret-value-93ab" },
      workspace,
    );
    expect(result.status, result.stdout).toBe(1);
    const review = reviewCommand(result.summary);
    expect(review).toBe(`cd servers/graph && mcp-lint lock --review --lock 'graph'\\''s.lock' --pass-env GRAPH_TOKEN -- ${command.replaceAll('"', "")}`);
    expect(result.summary).not.toContain("graph-secret-value-93ab");
    expect(review).not.toMatch(/--json|--fail-on|--no-oauth|--check/);
  });

  it("a remote server's review command names its header variables, never their values, and hides the URL's query", async () => {
    const workspace = tempDir();
    const serve = async (spec: unknown) => startHttpFixture(["--auth", "header-secret-8812", "--tools", writeJson(tempDir(), "tools.json", spec)]);
    const first = await serve(BEFORE);
    const made = spawnSync(process.execPath, [cliPath, "lock", "--header-env", "Authorization=MCP_AUTH", "--url", first.url], {
      cwd: workspace,
      encoding: "utf8",
      env: { ...process.env, MCP_AUTH: "Bearer header-secret-8812" },
    });
    expect(made.status, made.stderr).toBe(0);
    await first.stop();
    const pulled = await serve(AFTER);
    try {
      const url = `${pulled.url}?key=url-secret-5521`;
      const result = runAction({ url, "header-env": "Authorization=MCP_AUTH" }, { MCP_AUTH: "Bearer header-secret-8812" }, workspace);
      expect(result.status, result.stdout).toBe(1);
      expect(reviewCommand(result.summary)).toBe(`mcp-lint lock --review --lock mcp-lint.lock --header-env Authorization=MCP_AUTH --url '${pulled.url}?QUERY'`);
      expect(result.summary).toContain("Put back what shows as SECRET, USER:PASSWORD or QUERY first");
      expect(result.summary).not.toContain("header-secret-8812");
      expect(result.summary).not.toContain("url-secret-5521");
    } finally {
      await pulled.stop();
    }
  });
});

describe("hostile server text in grouped rows, lines and names (issue 37 item 4)", () => {
  const MARKER = commentMarker("mcp-lint.lock");
  const HOSTILE_LINES = [
    "@octocat @github/security please look",
    MARKER,
    "<!-- hide the rest",
    "<img src=https://evil.example/p.png> <a href=https://evil.example>x</a> <br> &nbsp; &lt;b&gt;",
    "| a | b |",
    "[click me](https://evil.example) ![i](https://evil.example/i.png)",
    "**bold** _em_ ~~gone~~ `code` ``` fence",
    "````",
    "</details>",
    "    indented four: a code block in Markdown",
    "# heading",
  ];
  const HOSTILE_NAMES = ["@octocat", "<img src=x>", "[a](https://evil.example)", "col|umn", "tick```s"];

  it("cannot break out of its cell: no element, link, mention, heading or marker from the server; lines stay lines", async () => {
    const before = {
      tools: HOSTILE_NAMES.map((name) => ({ name, description: "Plain.", inputSchema: { type: "object" } })),
    };
    const after = {
      tools: HOSTILE_NAMES.map((name) => ({ name, description: `Plain.\n${HOSTILE_LINES.join("\n")}`, inputSchema: { type: "object" } })),
    };
    const { workspace, command } = rugPulled(before, after);
    const github = { token: "ghs_hostile_77aa", api_url: fake.url, repository: "octo/hostile", event_path: eventFile({ pull_request: { number: 38 } }) };
    const result = runAction({ command, comment: "true" }, {}, workspace, { github });
    expect(result.status, result.stdout).toBe(1);
    const { comments } = await fake.state();
    const body = comments.find((comment) => comment.issue === 38)?.body ?? "";
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);

    for (const [md, strong] of [
      [result.summary, 2],
      [body.slice(MARKER.length), 3],
    ] as const) {
      const html = markdown.render(md);
      // The only elements are the Action's own: one table, its <br>s, the review command's and the output's code blocks, <details>.
      expect(html).not.toMatch(/<img|<a |<em>|<s>|<h1>|<script|<!--/);
      expect([...html.matchAll(/<table>/g)]).toHaveLength(1);
      expect([...html.matchAll(/<pre>/g)]).toHaveLength(2);
      expect(html.trimEnd().endsWith("</code></pre>\n</details>")).toBe(true);
      // The Action's own emphasis: the exit code, "Next:" and, in the comment, its first line's "mcp-lint".
      expect([...html.matchAll(/<strong>/g)]).toHaveLength(strong);
      const rows = tableRows(html);
      // One row for the five tools' identical description change (and one S8 row per tool at most).
      const grouped = rows.filter((row) => row[1] === "description_changed");
      expect(grouped).toHaveLength(1);
      const cell = grouped[0] ?? [];
      expect(rows.every((row) => row.length === 4)).toBe(true);
      // The names are themselves, escaped; the lines are lines, each as the server wrote it.
      const asHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
      expect(cell[2]).toBe(asHtml(`5 tools: ${[...HOSTILE_NAMES].sort().join(", ")}`));
      const lines = (cell[3] ?? "").split("<br>");
      expect(lines[0]).toBe("description changed: 1 insertion");
      expect(lines.slice(2).map((line) => line.replace(/^\{\+|\+\}$/g, ""))).toEqual(HOSTILE_LINES.map((line) => asHtml(line)));
      // No other HTML tag inside any cell than the Action's <br>.
      expect(rows.flat().some((text) => text.replace(/<br>/g, "").includes("<"))).toBe(false);
      expect(cell[3]).not.toContain("\\u{A}");
    }
  });
});
