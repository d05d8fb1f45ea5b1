// Issue 25, item 4: the Action's pull-request comment. With `comment: true` the comment step posts
// the report as one comment, found again by its hidden first line and its author (the token's own
// identity: a marker comment by anyone else is left alone, issue 37 item 4) and updated by later runs (to say
// "no changes" when a run finds none; a clean pull request with no comment gets none). It runs the
// real action.yml steps (action-harness.ts) against a fake GitHub API on 127.0.0.1, in its own
// process (fixtures/action/fake-github.mjs). The token reaches only the comment step: never the
// server, the logs, the summary or the comment; a refused request is a warning, never the verdict.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIONS_BOT, BODY_LIMIT, commentBody, commentMarker, cutMarkdown, isAuthor, isOurComment, pullRequestNumber } from "../../action/pr-comment.mjs";
import { type ActionResult, annotations, eventFile, FakeGithub, fixtureCommand, type GithubContext, lockedPlainFixture, runAction } from "./action-harness.js";
import { cliPath, demoServer, pathWithout, tempDir } from "./helpers.js";

const TOKEN = "ghs_comment_token_never_shown_5a9c0e";
const MARKER = commentMarker("mcp-lint.lock");

/** Everything the job's log, summary and outputs show. */
const shown = (result: ActionResult) => [result.stdout, result.stderr, result.summary, result.outputs, JSON.stringify(annotations(result.runner))].join("\n");

/** The comment step's annotations (title `mcp-lint comment`). */
const commentAnnotations = (result: ActionResult) => annotations(result.runner).filter((entry) => entry.properties.title === "mcp-lint comment");

/** The body's text outside fenced code blocks (where Markdown and HTML would be live), but for the Action's <details> lines. */
function outsideFences(body: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of body.split("\n")) {
    if (fence !== null) {
      if (line === fence) fence = null;
    } else if (/^`{3,}$/.test(line)) {
      fence = line;
    } else if (!/^<details><summary>[^<]*<\/summary>$|^<\/details>$/.test(line)) {
      // (the Action's own <details> element around the output block is left out)
      kept.push(line);
    }
  }
  return kept.join("\n");
}

const fake = new FakeGithub();
beforeAll(async () => {
  const built = spawnSync(process.execPath, [cliPath, "--version"], { encoding: "utf8" });
  if (built.status !== 0) throw new Error("dist/cli.js is missing: run npm run build first");
  await fake.start();
});
afterAll(() => fake.stop());

describe("the comment's text (action/pr-comment.mjs)", () => {
  it("keys the marker on the lock path, encoded so it cannot end the HTML comment", () => {
    expect(MARKER).toBe("<!-- mcp-lint-report lock=mcp%2Dlint.lock -->");
    expect(commentMarker("a/--> <b>")).toBe("<!-- mcp-lint-report lock=a%2F%2D%2D%3E%20%3Cb%3E -->");
    expect(commentMarker("servers/a.lock")).not.toBe(commentMarker("servers/b.lock"));
    expect(isOurComment(`${MARKER}\nbody`, MARKER)).toBe(true);
    expect(isOurComment(`quoted:\n${MARKER}\nbody`, MARKER)).toBe(false);
    expect(isOurComment(`${MARKER} more`, MARKER)).toBe(false);
  });

  it("takes a comment as the token's own only by its author's login and type", () => {
    const bot = { login: "github-actions[bot]", type: "Bot" };
    expect(isAuthor({ user: bot }, ACTIONS_BOT)).toBe(true);
    expect(isAuthor({ user: { login: "github-actions[bot]", type: "User" } }, ACTIONS_BOT)).toBe(false);
    expect(isAuthor({ user: { login: "github-actions", type: "Bot" } }, ACTIONS_BOT)).toBe(false);
    expect(isAuthor({ user: { login: "mallory", type: "User" } }, ACTIONS_BOT)).toBe(false);
    expect(isAuthor({ user: null }, ACTIONS_BOT)).toBe(false);
    expect(isAuthor({}, ACTIONS_BOT)).toBe(false);
    expect(isAuthor({ user: { login: "ci-user", type: "User" } }, { login: "ci-user", type: "User" })).toBe(true);
    expect(isAuthor({ user: { login: "ci-user", type: "User" } }, { login: "ci-user", type: null })).toBe(true);
  });

  it("finds the pull request in pull_request and issue_comment payloads only", () => {
    expect(pullRequestNumber({ pull_request: { number: 12 } })).toBe(12);
    expect(pullRequestNumber({ issue: { number: 5, pull_request: { url: "x" } } })).toBe(5);
    expect(pullRequestNumber({ issue: { number: 5 } })).toBeNull();
    expect(pullRequestNumber({ ref: "refs/heads/main" })).toBeNull();
    expect(pullRequestNumber({ pull_request: { number: "12" } })).toBeNull();
    expect(pullRequestNumber(null)).toBeNull();
  });

  it("cuts a long report at a block boundary, never inside a fence or <details>, within GitHub's limit", () => {
    const rows = Array.from({ length: 2000 }, (_, index) => `| error | kind | tool${index} | ${"m".repeat(40)} |`).join("\n");
    const output = `<details><summary>Output</summary>\n\n\`\`\`\n${"line\n".repeat(20_000)}\`\`\`\n</details>\n\n`;
    const markdown = `## mcp-lint lock --check\n\n| a | b | c | d |\n|---|---|---|---|\n${rows}\n\n${output}`;
    const body = commentBody({ key: "mcp-lint.lock", markdown, quiet: false });
    expect(body.length).toBeLessThanOrEqual(BODY_LIMIT);
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(body.endsWith("The job summary has the whole report.**\n")).toBe(true);
    expect(body).not.toContain("<details>");
    // A report the cut lands in the output block of: the cut is before the block, and the fence is closed.
    const small = `## head\n\n${output}`;
    const cut = cutMarkdown(small, 5000);
    expect(cut.startsWith("## head\n\n**This comment stops here")).toBe(true);
    expect(cutMarkdown("short", 10)).toBe("short");
  });
});

describe("the comment flow against a fake GitHub API (issue 25 item 4)", () => {
  let workspace: string;
  const command = `node "${demoServer}"`;
  const inputs = { command, "pass-env": "MCP_LINT_DEMO_RUGPULL", comment: "true" };
  const github = (): GithubContext => ({ token: TOKEN, api_url: fake.url, repository: "octo/weather", event_path: eventFile({ pull_request: { number: 7 } }) });
  beforeAll(() => {
    workspace = tempDir();
    const made = spawnSync(process.execPath, [cliPath, "lock", "--", "node", demoServer], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
  });

  let firstId = 0;
  it("first run on a rug-pulled server: one POST with the marker and the changes, with the job's token", async () => {
    const result = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: github() });
    expect(result.status, result.stdout).toBe(1);
    expect(result.outputs).toContain("exit-code=1");
    expect(result.stdout).toContain("mcp-lint comment: posted comment");
    expect(commentAnnotations(result)).toEqual([]);
    const { requests, comments } = await fake.state();
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /repos/octo/weather/issues/7/comments?per_page=100&page=1",
      "POST /repos/octo/weather/issues/7/comments",
    ]);
    for (const request of requests) {
      expect(request.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.accept).toBe("application/vnd.github+json");
      expect(request.apiVersion).toBe("2022-11-28");
      expect(request.userAgent).toBe("mcp-lint-action");
    }
    expect(comments).toHaveLength(1);
    const body = comments[0]?.body ?? "";
    firstId = comments[0]?.id ?? 0;
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    // The same Markdown as the summary.
    expect(body).toContain("Exit code: **1** (failed: changes at or above `warning`)");
    expect(body).toContain("| error | annotations\\_changed | send\\_note |");
    expect(body).toContain(result.summary.slice(0, result.summary.indexOf("<details>")));
    expect(result.outputs).toContain(`comment-url=https://github.example/o/r/pull/7#issuecomment-${firstId}`);
    // The private folder (plan, reports, then the comment's report) is gone after the comment step.
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });

  it("second run updates the same comment (PATCH, no second POST), after checking it is the token's own", async () => {
    const before = (await fake.state()).requests.length;
    const result = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: github() });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`mcp-lint comment: updated comment ${firstId} on pull request #7.`);
    const { requests, comments } = await fake.state();
    // GET /user answers 403 to the job's installation token: its comments are the Actions bot's.
    expect(requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /repos/octo/weather/issues/7/comments?per_page=100&page=1",
      "GET /user",
      `PATCH /repos/octo/weather/issues/comments/${firstId}`,
    ]);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain("annotations\\_changed");
  });

  it("a clean run updates it to say there are no changes", async () => {
    const before = (await fake.state()).requests.length;
    const result = runAction(inputs, {}, workspace, { github: github() });
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toContain(`updated comment ${firstId} on pull request #7 to say there are no changes.`);
    const { requests, comments } = await fake.state();
    expect(requests.slice(before).map((request) => request.method)).toEqual(["GET", "GET", "PATCH"]);
    expect(comments).toHaveLength(1);
    const body = comments[0]?.body ?? "";
    expect(body.startsWith(`${MARKER}\n**No changes:** the server matches mcp\\-lint\\.lock, as of the latest run.\n`)).toBe(true);
    expect(body).toContain("No changes.");
    expect(body).not.toContain("annotations\\_changed");
  });

  it("a clean run on a pull request without a comment posts none", async () => {
    const before = (await fake.state()).requests.length;
    const result = runAction(inputs, {}, workspace, { github: { ...github(), event_path: eventFile({ pull_request: { number: 8 } }) } });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("no changes and no earlier comment on pull request #8: nothing posted.");
    const { requests, comments } = await fake.state();
    expect(requests.slice(before).map((request) => request.method)).toEqual(["GET"]);
    expect(comments.filter((comment) => comment.issue === 8)).toEqual([]);
  });

  it("finds its comment past the first page, and never takes one that only quotes the marker", async () => {
    await fake.config({
      comments: [
        { issue: 9, body: `> quoting the bot:\n${MARKER}\n`, login: "someone" },
        ...Array.from({ length: 120 }, (_, index) => ({ issue: 9, body: `chatter ${index}` })),
      ],
    });
    const before = (await fake.state()).requests.length;
    const pr9 = { ...github(), event_path: eventFile({ pull_request: { number: 9 } }) };
    const first = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: pr9 });
    expect(first.status).toBe(1);
    const second = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: pr9 });
    expect(second.status).toBe(1);
    const { requests, comments } = await fake.state();
    const ours = comments.filter((comment) => comment.issue === 9 && comment.user.login === "github-actions[bot]");
    expect(ours).toHaveLength(1);
    expect(requests.slice(before).map((request) => `${request.method} ${request.path.replace(/page=\d+$/, "page=N")}`)).toEqual([
      "GET /repos/octo/weather/issues/9/comments?per_page=100&page=N",
      "GET /repos/octo/weather/issues/9/comments?per_page=100&page=N",
      "POST /repos/octo/weather/issues/9/comments",
      "GET /repos/octo/weather/issues/9/comments?per_page=100&page=N",
      "GET /repos/octo/weather/issues/9/comments?per_page=100&page=N",
      "GET /user",
      `PATCH /repos/octo/weather/issues/comments/${ours[0]?.id}`,
    ]);
    expect(comments.find((comment) => comment.body.startsWith("> quoting"))?.body).toBe(`> quoting the bot:\n${MARKER}\n`);
  });

  it("leaves a marker comment by anyone else alone and posts its own (issue 37 item 4)", async () => {
    // Anyone who can comment can copy the marker, with a fake verdict under it; the Action used to
    // try to edit that comment, get 403, post nothing and blame the job's permissions.
    const fakeVerdict = `${MARKER}\n**No changes:** the server matches mcp\\-lint\\.lock, as of the latest run.\n`;
    await fake.config({ comments: [{ issue: 11, body: fakeVerdict, login: "mallory" }] });
    const pr11 = { ...github(), event_path: eventFile({ pull_request: { number: 11 } }) };
    const before = (await fake.state()).requests.length;
    const first = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: pr11 });
    expect(first.status).toBe(1);
    expect(commentAnnotations(first)).toEqual([]);
    expect(first.stdout).toContain("mcp-lint comment: posted comment");
    const second = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: pr11 });
    expect(second.status).toBe(1);
    expect(commentAnnotations(second)).toEqual([]);
    const { requests, comments } = await fake.state();
    const onEleven = comments.filter((comment) => comment.issue === 11);
    expect(onEleven.map((comment) => comment.user)).toEqual([
      { login: "mallory", type: "User" },
      { login: "github-actions[bot]", type: "Bot" },
    ]);
    expect(onEleven[0]?.body).toBe(fakeVerdict);
    expect(onEleven[1]?.body).toContain("annotations\\_changed");
    // Never a PATCH of mallory's comment; the second run updates the Action's own.
    expect(requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /repos/octo/weather/issues/11/comments?per_page=100&page=1",
      "GET /user",
      "POST /repos/octo/weather/issues/11/comments",
      "GET /repos/octo/weather/issues/11/comments?per_page=100&page=1",
      "GET /user",
      `PATCH /repos/octo/weather/issues/comments/${onEleven[1]?.id}`,
    ]);
    expect(second.outputs).toContain(`comment-url=https://github.example/o/r/pull/11#issuecomment-${onEleven[1]?.id}`);
  });

  it("with a user's token, updates only that user's marker comment", async () => {
    await fake.config({
      user: "release-bot-user",
      comments: [
        { issue: 12, body: `${MARKER}\nby someone else`, login: "mallory" },
        { issue: 12, body: `${MARKER}\nby the job's default token`, login: "github-actions[bot]" },
        { issue: 12, body: `${MARKER}\nby the user`, login: "release-bot-user" },
      ],
    });
    try {
      const pr12 = { ...github(), event_path: eventFile({ pull_request: { number: 12 } }) };
      const result = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: pr12 });
      expect(result.status).toBe(1);
      expect(commentAnnotations(result)).toEqual([]);
      const onTwelve = (await fake.state()).comments.filter((comment) => comment.issue === 12);
      expect(onTwelve.map((comment) => [comment.user.login, comment.body.split("\n")[1]])).toEqual([
        ["mallory", "by someone else"],
        ["github-actions[bot]", "by the job's default token"],
        ["release-bot-user", "**mcp-lint** checked the server against mcp\\-lint\\.lock."],
      ]);
    } finally {
      await fake.config({ user: null });
    }
  });

  it("keeps a separate comment for another lockfile", async () => {
    const other = join(workspace, "other");
    spawnSync("mkdir", ["-p", other]);
    const made = spawnSync(process.execPath, [cliPath, "lock", "--lock", "other/servers.lock", "--", "node", demoServer], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const result = runAction({ ...inputs, lock: "other/servers.lock" }, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: github() });
    expect(result.status).toBe(1);
    const { comments } = await fake.state();
    const onSeven = comments.filter((comment) => comment.issue === 7);
    expect(onSeven).toHaveLength(2);
    expect(onSeven[1]?.body.startsWith(`${commentMarker("other/servers.lock")}\n`)).toBe(true);
    expect(onSeven[0]?.body.startsWith(`${MARKER}\n**No changes:**`)).toBe(true);
  });

  it("outside a pull request prints one notice and posts nothing", async () => {
    const before = (await fake.state()).requests.length;
    const result = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, {
      github: { ...github(), event_path: eventFile({ ref: "refs/heads/main", pusher: {} }) },
    });
    expect(result.status).toBe(1);
    expect(commentAnnotations(result)).toEqual([
      { command: "notice", properties: { title: "mcp-lint comment" }, data: "Not a pull request event, so no comment was posted." },
    ]);
    expect((await fake.state()).requests.length).toBe(before);
  });

  it("a 403 is a warning naming the status; the exit code stays the check's", async () => {
    await fake.config({ fail: 403 });
    try {
      const pulled = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: github() });
      expect(pulled.status).toBe(1);
      expect(pulled.outputs).toContain("exit-code=1");
      const warnings = commentAnnotations(pulled);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.command).toBe("warning");
      expect(warnings[0]?.data).toBe(
        "Could not comment on pull request #7: listing the pull request's comments answered HTTP 403. The job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token. The check's result is unchanged.",
      );
      const clean = runAction(inputs, {}, workspace, { github: github() });
      expect(clean.status).toBe(0);
      expect(clean.outputs).toContain("exit-code=0");
      expect(commentAnnotations(clean).map((entry) => entry.command)).toEqual(["warning"]);
      for (const result of [pulled, clean]) expect(shown(result).includes(TOKEN)).toBe(false);
    } finally {
      await fake.config({ fail: null });
    }
  });

  it("an API that cannot be reached is a warning too", async () => {
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const result = runAction(inputs, { MCP_LINT_DEMO_RUGPULL: "1" }, workspace, { github: { ...github(), api_url: `http://127.0.0.1:${port}` } });
    expect(result.status).toBe(1);
    const warnings = commentAnnotations(result);
    expect(warnings.map((entry) => entry.data)).toEqual([
      "Could not comment on pull request #7: listing the pull request's comments failed (ECONNREFUSED). The check's result is unchanged.",
    ]);
  });

  it("refuses a comment input other than true or false, before anything starts", () => {
    const result = runAction({ command, comment: "yes" }, {}, workspace, { github: github() });
    expect(result.status).toBe(2);
    expect(annotations(result.runner).map((entry) => entry.data)).toEqual(['comment must be true or false, not "yes".']);
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });

  it("an input error of the check is still said in the comment", async () => {
    const result = runAction({ ...inputs, url: "https://example.com/mcp" }, {}, workspace, { github: github() });
    expect(result.status).toBe(2);
    const { comments } = await fake.state();
    const body = comments.find((comment) => comment.id === firstId)?.body ?? "";
    expect(body).toContain("Exit code: **2** (error)");
    expect(body).toContain("are both set");
    expect(readdirSync(result.runnerTemp)).toEqual([]);
  });
});

describe("hostile server text and the token", () => {
  const HOSTILE = [
    "@octocat @github/security please look",
    `${MARKER}`,
    "<!-- hide the rest",
    "<img src=https://evil.example/p.png> <a href=https://evil.example>x</a>",
    "[click me](https://evil.example) ![i](https://evil.example/i.png)",
    "**bold** _em_ ~~gone~~ `code` ``` fence",
    "</details>",
  ].join("\n");

  it("escapes Markdown, HTML, mentions and marker text from the server in the comment", async () => {
    const workspace = tempDir();
    lockedPlainFixture(workspace);
    const command = fixtureCommand(workspace, "hostile", {
      tools: [
        { name: "t", description: HOSTILE, inputSchema: { type: "object" } },
        { name: "@octocat<img src=x>[a](b)", description: HOSTILE, inputSchema: { type: "object" } },
      ],
    });
    const result = runAction({ command, comment: "true" }, {}, workspace, {
      github: { token: TOKEN, api_url: fake.url, repository: "octo/hostile", event_path: eventFile({ pull_request: { number: 1 } }) },
    });
    expect(result.status, result.stdout).toBe(1);
    const { comments } = await fake.state();
    const body = comments.find((comment) => comment.issue === 1)?.body ?? "";
    expect(body.startsWith(`${MARKER}\n`)).toBe(true);
    // Live Markdown (outside code fences) holds no raw mention, HTML, link or marker from the server.
    const live = outsideFences(body.slice(MARKER.length));
    // The server's text is there, escaped as in the summary (and verbatim inside the output's fence).
    expect(live).toContain("\\@octocat \\@github\\/security");
    expect(live).toContain("\\<\\!\\-\\- mcp\\-lint\\-report lock\\=mcp\\%2Dlint\\.lock \\-\\-\\>");
    expect(live).toContain("\\[click me\\]\\(https\\:\\/\\/evil");
    expect(live).not.toMatch(/(^|[^\\])@octocat/);
    // (the <br>s between a text's lines are the Action's own)
    expect(live.replaceAll("<br>", "")).not.toMatch(/(^|[^\\])[<[]/);
    expect(live).not.toContain("mcp-lint-report");
    // Rendered as GitHub would: no element from the server, the output stays one code block.
    const html = new MarkdownIt({ html: true, linkify: true }).render(body);
    expect(html.startsWith(`${MARKER}\n`)).toBe(true);
    const rendered = html.slice(MARKER.length);
    expect(rendered).not.toMatch(/<img|<a |<em>|<s>|<script|<!--/);
    // Two code blocks: the review command and the output.
    expect([...rendered.matchAll(/<pre>/g)]).toHaveLength(2);
    expect(rendered.trimEnd().endsWith("</code></pre>\n</details>")).toBe(true);
    // The description's lines are lines, each escaped on its own.
    expect(rendered).toContain("<br>{+&lt;!-- hide the rest+}<br>{+&lt;img src=https://evil.example/p.png&gt;");
    expect(body.includes(TOKEN)).toBe(false);
  });

  it.skipIf(process.platform !== "linux")("the token is in no output and no process the server can read, even when the job exports it", async () => {
    const workspace = tempDir();
    const baseline = fixtureCommand(workspace, "baseline", { tools: [{ name: "environ", description: "none", inputSchema: { type: "object" } }] });
    const made = spawnSync("bash", ["-c", `node "${cliPath}" lock -- ${baseline}`], { cwd: workspace, encoding: "utf8" });
    expect(made.status, made.stderr).toBe(0);
    const command = fixtureCommand(workspace, "probe", { probeEnviron: true });
    // No PID namespace (no unshare on PATH), so the server does read its ancestors' environments;
    // and the job exports the token too, as a workflow with `env: GITHUB_TOKEN` would.
    const result = runAction(
      { command, comment: "true", json: "report.json" },
      { GITHUB_TOKEN: TOKEN, PATH: pathWithout(["unshare"]), LANG: "C.UTF-8" },
      workspace,
      {
        github: { token: TOKEN, api_url: fake.url, repository: "octo/probe", event_path: eventFile({ pull_request: { number: 2 } }) },
      },
    );
    expect(result.status, result.stdout).toBe(1);
    const { comments, requests } = await fake.state();
    const body = comments.find((comment) => comment.issue === 2)?.body ?? "";
    // The probe read both ancestors (mcp-lint's basics; the Action's empty environment) and found no token.
    expect(body).toMatch(/parent \\?\d+\\?: .*PATH/);
    expect(body).toContain("grandparent");
    expect(body.includes(TOKEN)).toBe(false);
    expect(shown(result).includes(TOKEN)).toBe(false);
    const report = spawnSync("cat", [join(workspace, "report.json")], { encoding: "utf8" }).stdout;
    expect(report).toContain("grandparent");
    expect(report.includes(TOKEN)).toBe(false);
    // The comment step did use it.
    expect(requests.filter((request) => request.path.startsWith("/repos/octo/probe/")).every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    );
  });
});
