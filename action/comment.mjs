// The Action's comment step (with `comment: true`), after the check: post the report run.mjs left in
// the private folder as one comment on the pull request, or update the comment an earlier run
// posted (found by its hidden first line and its author, the token's own identity). A run with no
// change updates an existing comment to say so and posts none where there is none, so a clean pull
// request gets no comment at all.
//
// Commenting never changes the check's result: a refused request (403 on a fork's read-only token),
// a network error or anything else is one warning, and this step exits 0. The token is read from
// GITHUB_TOKEN, sent only to the API address and never printed.
//
//   node action/comment.mjs    env: GITHUB_TOKEN, MCP_LINT_REPORT_DIR, MCP_LINT_API_URL,
//                                   MCP_LINT_REPOSITORY, MCP_LINT_EVENT_PATH
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { basename } from "node:path";
import { workflowCommand } from "./format.mjs";
import { ACTIONS_BOT, commentBody, commentMarker, isAuthor, isOurComment, pullRequestNumber } from "./pr-comment.mjs";

const env = process.env;
const REQUEST_TIMEOUT_MS = 20_000;
/** Pages of 100 comments read to find the earlier one. */
const MAX_PAGES = 30;

const annotate = (level, message) => process.stdout.write(`${workflowCommand(level, { title: "mcp-lint comment" }, message)}\n`);
const say = (line) => process.stdout.write(`mcp-lint comment: ${line}\n`);

/** A request the API answered with an error status. */
class ApiError extends Error {
  constructor(what, status) {
    super(`${what} answered HTTP ${status}`);
    this.status = status;
  }
}

/** A request that got no answer. */
class NetworkError extends Error {}

function client(api, token) {
  return async (method, path, what, body) => {
    let response;
    try {
      response = await fetch(`${api}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: "application/vnd.github+json",
          "X-GitHub-Api-Version": "2022-11-28",
          "User-Agent": "mcp-lint-action",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // A redirect could lead the token elsewhere: the API answers at the address given, or not at all.
        redirect: "error",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      // Only the error's name or code: its message could quote the request.
      const reason = error?.name === "TimeoutError" ? `no answer in ${REQUEST_TIMEOUT_MS / 1000} s` : (error?.cause?.code ?? error?.name ?? "error");
      throw new NetworkError(`${what} failed (${reason})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ApiError(what, response.status);
    }
    try {
      return await response.json();
    } catch {
      throw new NetworkError(`${what} answered with a body that is not JSON`);
    }
  };
}

/**
 * Who the token comments as: a user token (a PAT) says so at GET /user; an installation token (the
 * job's github.token) cannot read /user and comments as the Actions bot. Asked only once a comment
 * with the marker is found, so a first run makes no extra request.
 */
async function tokenIdentity(request) {
  try {
    const user = await request("GET", "/user", "reading whom the token belongs to");
    if (typeof user?.login === "string" && user.login !== "") return { login: user.login, type: typeof user.type === "string" ? user.type : null };
  } catch (error) {
    if (!(error instanceof ApiError) || ![401, 403, 404].includes(error.status)) throw error;
  }
  return ACTIONS_BOT;
}

/**
 * The earlier comment of this lock among the pull request's comments, or null: the first whose first
 * line is the marker and whose author is the token's own identity. A marker comment by anyone else
 * (anyone who can comment can copy the marker) is left alone, and a new comment is posted.
 */
async function findComment(request, issuePath, marker) {
  let identity = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const comments = await request("GET", `${issuePath}/comments?per_page=100&page=${page}`, "listing the pull request's comments");
    if (!Array.isArray(comments)) throw new NetworkError("listing the pull request's comments answered with something other than a list");
    for (const comment of comments) {
      if (!isOurComment(comment?.body, marker) || !Number.isSafeInteger(comment?.id)) continue;
      identity ??= await tokenIdentity(request);
      if (isAuthor(comment, identity)) return comment;
    }
    if (comments.length < 100) return null;
  }
  return null;
}

/** What the check left: { key, markdown, quiet }, or null when it left nothing usable. */
function readReport(dir) {
  try {
    const report = JSON.parse(readFileSync(`${dir}/comment.json`, "utf8"));
    if (typeof report?.key === "string" && typeof report.markdown === "string" && typeof report.quiet === "boolean") return report;
  } catch {
    // missing or unreadable: said below
  }
  return null;
}

async function main() {
  const dir = env.MCP_LINT_REPORT_DIR ?? "";
  // Only a folder the check step made (mktemp's mcp-lint-action.XXXXXX) is read and then removed.
  const ours = dir !== "" && basename(dir).startsWith("mcp-lint-action.");
  try {
    const report = ours ? readReport(dir) : null;
    await comment(report);
  } finally {
    if (ours) rmSync(dir, { recursive: true, force: true });
  }
}

async function comment(report) {
  let event = null;
  try {
    event = JSON.parse(readFileSync(env.MCP_LINT_EVENT_PATH || env.GITHUB_EVENT_PATH || "", "utf8"));
  } catch {
    // no event payload: not a pull request
  }
  const number = pullRequestNumber(event);
  if (number === null) {
    annotate("notice", "Not a pull request event, so no comment was posted.");
    return;
  }
  if (report === null) {
    annotate("warning", "The check left no report to comment with (it stopped before writing one): no comment was posted. See the job summary.");
    return;
  }
  const repository = env.MCP_LINT_REPOSITORY || env.GITHUB_REPOSITORY || "";
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) {
    annotate("warning", "No repository to comment in (github.repository is empty or malformed): no comment was posted.");
    return;
  }
  const token = env.GITHUB_TOKEN ?? "";
  if (token === "") {
    annotate("warning", "The github-token input is empty: no comment was posted.");
    return;
  }
  let api = (env.MCP_LINT_API_URL || env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  try {
    const url = new URL(api);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("scheme");
    if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") throw new Error("parts");
    api = url.href.replace(/\/+$/, "");
  } catch {
    annotate("warning", "The GitHub API address (github.api_url) is not an http(s) URL: no comment was posted.");
    return;
  }

  const request = client(api, token);
  const issuePath = `/repos/${repository}/issues/${number}`;
  const marker = commentMarker(report.key);
  try {
    const earlier = await findComment(request, issuePath, marker);
    const body = commentBody(report);
    let posted;
    if (earlier !== null) {
      posted = await request("PATCH", `/repos/${repository}/issues/comments/${earlier.id}`, "updating the comment", { body });
      say(`updated comment ${earlier.id} on pull request #${number}${report.quiet ? " to say there are no changes" : ""}.`);
    } else if (report.quiet) {
      say(`no changes and no earlier comment on pull request #${number}: nothing posted.`);
      return;
    } else {
      posted = await request("POST", `${issuePath}/comments`, "posting the comment", { body });
      say(`posted comment ${Number.isSafeInteger(posted?.id) ? posted.id : "?"} on pull request #${number}.`);
    }
    const url = typeof posted?.html_url === "string" && /^https?:\/\/[^\s]+$/.test(posted.html_url) ? posted.html_url : "";
    if (url !== "" && env.GITHUB_OUTPUT) appendFileSync(env.GITHUB_OUTPUT, `comment-url=${url}\n`);
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof NetworkError)) throw error;
    const hint =
      error instanceof ApiError && (error.status === 403 || error.status === 404)
        ? " The job needs `permissions: pull-requests: write`; a pull request from a fork gets a read-only token."
        : "";
    annotate("warning", `Could not comment on pull request #${number}: ${error.message}.${hint} The check's result is unchanged.`);
  }
}

try {
  await main();
} catch (error) {
  annotate("warning", `Could not comment on the pull request: ${error instanceof Error ? error.name : "error"}. The check's result is unchanged.`);
}
process.exitCode = 0;
