// Types for pr-comment.mjs (plain JS, run by the runner's node), for the tests.
/** GitHub's limit on an issue comment body, in characters. */
export const BODY_LIMIT: number;
/** The lockfile's path from the workspace root (absolute when outside it), with `/`. */
export function lockKey(root: string, cwd: string, lock: string): string;
/** The hidden first line of the comment for one lockfile. */
export function commentMarker(key: string): string;
/** Whether a comment body is this lock's: the marker is its first line. */
export function isOurComment(body: unknown, marker: string): boolean;
/** Who the job's github.token comments as. */
export const ACTIONS_BOT: { readonly login: string; readonly type: string };
/** Whether `identity` wrote the comment: same login, and same account type when both are known. */
export function isAuthor(comment: unknown, identity: { login: string; type: string | null }): boolean;
/** Markdown cut to at most `limit` characters at a block boundary, with a note. */
export function cutMarkdown(markdown: string, limit: number): string;
/** The comment's body: marker, a line on the result, the summary's Markdown. */
export function commentBody(report: { key: string; markdown: string; quiet: boolean }): string;
/** The pull request's number from an event payload, or null. */
export function pullRequestNumber(event: unknown): number | null;
