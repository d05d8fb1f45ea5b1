/** `lock --review`: walk each change that would be refused and ask, as `git add -p` does; a pure decision loop over injected keys, and the thin TTY edge that feeds it. */

import { McpLintError, UsageError } from "../errors.js";
import type { Change } from "../lock/kinds.js";
import { type ReportInput, reportGroups } from "../report/terminal.js";
import type { TerminalStyle } from "../report/style.js";
import { neutralizeLines } from "../text/neutralize.js";

/** One thing to decide about: a tool, prompt, resource or template (or the server itself) with error-level changes. */
export interface ReviewItem {
  /** The v2 entry it belongs to (`--config`), or null for a single-server run. */
  server: string | null;
  /** The name `--accept-tool` takes; null for the server's own changes. */
  name: string | null;
  /** How the prompt and the summary name it (inert). */
  label: string;
  /** Whether every item is a tool (the summary then says "tool"). */
  isTool: boolean;
  /** The block of the report for it. */
  text: string;
  /** The JSON of its changes, shown on `j` (inert). */
  json: string;
  /** Whether `y` can accept it by name: the server's own changes need `--accept`. */
  acceptable: boolean;
}

/** What the review needs of one server's part of the run. */
export interface ReviewSource {
  server: string | null;
  input: ReportInput;
  /** Changes after the lock's ignore rules (what the plan will see). */
  changes: readonly Change[];
  /** Hidden-text findings that refuse like an error-level change of their tool. */
  blocking: readonly { tool: string | null }[];
}

/** The items to ask about: each group with a change (or finding) that refuses unless accepted, in the report's order. */
export function reviewItems(sources: readonly ReviewSource[], style: TerminalStyle, scoped: boolean): ReviewItem[] {
  const items: ReviewItem[] = [];
  for (const source of sources) {
    // A first lock has no changes to refuse (only hidden text, which the plan handles as a whole).
    if (source.input.lock === null) continue;
    for (const group of reportGroups({ ...source.input, changes: source.changes }, style)) {
      const refusing =
        group.changes.some((change) => change.severity === "error" && change.kind !== "ignore_stale") ||
        (group.subject === "tool" && source.blocking.some((finding) => finding.tool === group.name));
      if (!refusing) continue;
      const prefix = scoped && source.server !== null ? `${neutralizeLines(source.server).join(" ")}/` : "";
      items.push({
        server: source.server,
        name: group.name,
        label: `${prefix}${group.label}`,
        isTool: group.name !== null && group.subject === "tool",
        text: group.text,
        json: `${neutralizeLines(JSON.stringify(group.changes, null, 2)).join("\n")}\n`,
        acceptable: group.name !== null,
      });
    }
  }
  return items;
}

/** Where the loop reads keys and writes text: a terminal in the CLI, arrays in tests. */
export interface KeyIo {
  /** The next key pressed (one character, or one escape sequence); null at end of input. */
  nextKey: () => Promise<string | null>;
  write: (text: string) => void;
}

/** How the review ended. */
export interface ReviewOutcome {
  /** One per item: true when accepted. Items not reached after `q` are kept. */
  accepted: boolean[];
  /** Ctrl-C (or end of input): nothing is to be written. */
  interrupted: boolean;
}

/** The key help `?` prints. */
export const REVIEW_HELP = [
  "y - accept the changes of this one (as --accept-tool NAME would)",
  "n - keep it locked",
  "j - show the JSON of its changes",
  "q - quit; write what was accepted, keep the rest locked",
  "? - print this help",
  "Ctrl-C - stop without writing anything",
].join("\n");

const INTERRUPT = new Set(["\u0003", "\u0004"]);

/** Ask about each item in turn. Enter alone (or after a key) is skipped; an unknown key asks again. */
export async function reviewLoop(items: readonly ReviewItem[], io: KeyIo): Promise<ReviewOutcome> {
  const accepted = items.map(() => false);
  for (const [index, item] of items.entries()) {
    io.write(`\n(${index + 1}/${items.length}) ${item.text}`);
    const keys = item.acceptable ? "y,n,j,q,?" : "n,j,q,?";
    const question = item.acceptable ? `Accept the changes of ${item.label}?` : "The server's own changes (only --accept accepts them); keep them locked?";
    let decided = false;
    while (!decided) {
      io.write(`${question} [${keys}] `);
      let key = await io.nextKey();
      while (key === "\r" || key === "\n") key = await io.nextKey();
      if (key === null || INTERRUPT.has(key)) {
        io.write("\n");
        return { accepted: items.map(() => false), interrupted: true };
      }
      io.write(`${/^[\x21-\x7e]$/.test(key) ? key : ""}\n`);
      if (key === "y" && item.acceptable) {
        accepted[index] = true;
        decided = true;
      } else if (key === "y") io.write("The server's own changes are accepted only by --accept; n keeps them locked.\n");
      else if (key === "n") decided = true;
      else if (key === "j") io.write(item.json);
      else if (key === "q") return { accepted, interrupted: false };
      else if (key === "?") io.write(`${REVIEW_HELP}\n`);
      else io.write("Unknown key; ? prints the keys.\n");
    }
  }
  return { accepted, interrupted: false };
}

/** The closing line: `accepted 1 tool (get_weather); 1 still differs from the lock: send_note`. */
export function reviewSummary(items: readonly ReviewItem[], accepted: readonly boolean[]): string {
  const yes = items.filter((_, index) => accepted[index] === true);
  const no = items.filter((_, index) => accepted[index] !== true);
  const word = items.every((item) => item.isTool) ? "tool" : "item";
  const taken =
    yes.length === 0 ? "accepted nothing" : `accepted ${yes.length} ${word}${yes.length === 1 ? "" : "s"} (${yes.map((item) => item.label).join(", ")})`;
  const left =
    no.length === 0
      ? "nothing else differs from the lock"
      : `${no.length} still differ${no.length === 1 ? "s" : ""} from the lock: ${no.map((item) => item.label).join(", ")}`;
  return `${taken}; ${left}`;
}

/** Stopped with Ctrl-C: nothing was written. */
export class ReviewInterruptedError extends McpLintError {
  override name = "ReviewInterruptedError";
}

/** Refuse `--review` unless both stdin and stdout are a terminal (a key press cannot come from a pipe). */
export function checkReviewTerminal(stdin: { isTTY?: boolean } = process.stdin, stdout: { isTTY?: boolean } = process.stdout): void {
  if (stdin.isTTY !== true || stdout.isTTY !== true) {
    throw new UsageError("--review needs a terminal (stdin and stdout are not both one); use --accept-tool NAME instead");
  }
}

/** Split what a terminal sent into keys: an escape sequence (an arrow key) is one key, anything else one character each. */
export function splitKeys(chunk: string): string[] {
  return chunk.match(/\u001b\[[0-9;]*[@-~]|\u001b[\s\S]?|[\s\S]/gu) ?? [];
}

/** Run `use` with keys read from stdin in raw mode (one key press is enough), restoring the terminal after. */
export async function withTerminalKeys<T>(write: (text: string) => void, use: (io: KeyIo) => Promise<T>): Promise<T> {
  const stdin = process.stdin;
  const queue: Array<string | null> = [];
  let waiting: ((key: string | null) => void) | null = null;
  const push = (key: string | null) => {
    if (waiting === null) queue.push(key);
    else {
      const wake = waiting;
      waiting = null;
      wake(key);
    }
  };
  const onData = (chunk: string) => {
    for (const key of splitKeys(chunk)) push(key);
  };
  const onEnd = () => push(null);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.on("data", onData);
  stdin.on("end", onEnd);
  stdin.resume();
  try {
    return await use({
      write,
      nextKey: () => (queue.length > 0 ? Promise.resolve(queue.shift() ?? null) : new Promise((wake) => (waiting = wake))),
    });
  } finally {
    stdin.off("data", onData);
    stdin.off("end", onEnd);
    stdin.setRawMode(false);
    stdin.pause();
  }
}
