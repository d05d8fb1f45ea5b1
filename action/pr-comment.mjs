// Pure text of the pull-request comment: the hidden marker and the author check that find it again,
// its body (the job summary's Markdown, already escaped by format.mjs), and the cut to GitHub's body
// limit.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { markdownCell } from "./format.mjs";

/** GitHub refuses an issue comment body longer than this. */
export const BODY_LIMIT = 65_536;

const MARKER_PREFIX = "<!-- mcp-lint-report lock=";

/** What the comment is keyed on: the lockfile's path from the workspace root (absolute when outside it), with `/`. */
export function lockKey(root, cwd, lock) {
  const path = resolve(cwd, lock);
  const rel = relative(root, path);
  return (rel === "" || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? path : rel).split(sep).join("/");
}

/**
 * The hidden first line of the comment for one lockfile (its path from the workspace root), so two
 * jobs that check different locks keep separate comments. The path is percent-encoded, so it holds
 * no `-`, `<` or `>` and cannot end the HTML comment early.
 */
export function commentMarker(key) {
  return `${MARKER_PREFIX}${encodeURIComponent(key).replace(/[-!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)} -->`;
}

/**
 * Whether a comment is this lock's. Only the first line counts: the Action writes the marker there
 * and server text never comes first, so text quoted further down (a tool description, a reply that
 * quotes the comment) cannot make a comment look like the Action's.
 */
export function isOurComment(body, marker) {
  return typeof body === "string" && (body === marker || body.startsWith(`${marker}\n`));
}

/** Who the job's github.token comments as: the GitHub Actions app's bot user. */
export const ACTIONS_BOT = Object.freeze({ login: "github-actions[bot]", type: "Bot" });

/**
 * Whether `identity` ({ login, type }) wrote the comment: the same login, and the same account type
 * when it is known (no user's login can end in `[bot]`, but the type is checked too).
 */
export function isAuthor(comment, identity) {
  const user = comment?.user;
  if (typeof user?.login !== "string" || user.login !== identity.login) return false;
  return identity.type === null || user.type === identity.type;
}

const CUT_NOTE = "**This comment stops here: GitHub keeps 65,536 characters in a comment. The job summary has the whole report.**\n";

/**
 * Markdown cut to at most `limit` characters with the note above, at a line that ends a block: never
 * inside a code fence or a `<details>` element, so the note stays Markdown and no fence is left open.
 */
export function cutMarkdown(markdown, limit) {
  if (markdown.length <= limit) return markdown;
  const budget = limit - CUT_NOTE.length - 2;
  let safe = 0;
  let fence = null;
  let details = false;
  let offset = 0;
  for (const line of markdown.split("\n")) {
    const end = offset + line.length + 1;
    if (end > budget) break;
    if (fence !== null) {
      if (line === fence) fence = null;
    } else if (/^`{3,}$/.test(line)) {
      fence = line;
    } else if (line.startsWith("<details>")) {
      details = true;
    } else if (line === "</details>") {
      details = false;
    }
    if (fence === null && !details) safe = end;
    offset = end;
  }
  return `${markdown.slice(0, safe).replace(/\n*$/, "\n\n")}${CUT_NOTE}`;
}

/**
 * The comment: the marker, one line that says what the run found, and the job summary's Markdown
 * for this step. `quiet` is a run with no change and no finding, which is said in so many words.
 */
export function commentBody({ key, markdown, quiet }) {
  const head = quiet
    ? `**No changes:** the server matches ${markdownCell(key)}, as of the latest run.\n\n`
    : `**mcp-lint** checked the server against ${markdownCell(key)}.\n\n`;
  const marker = commentMarker(key);
  return `${marker}\n${head}${cutMarkdown(markdown, BODY_LIMIT - marker.length - 1 - head.length)}`;
}

/**
 * The pull request's number from the event payload: `pull_request.number` (pull_request and
 * pull_request_target events), or `issue.number` of an issue_comment on a pull request. null otherwise.
 */
export function pullRequestNumber(event) {
  const valid = (value) => (Number.isSafeInteger(value) && value > 0 ? value : null);
  if (event === null || typeof event !== "object") return null;
  const pull = valid(event.pull_request?.number);
  if (pull !== null) return pull;
  return event.issue?.pull_request ? valid(event.issue.number) : null;
}
