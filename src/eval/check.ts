/**
 * Checking a task's answer (`checkAnswer`), and what the tests' scripted fake model does with a
 * policy: extract the answer from a result (`answerFor`), pick the page it asks for next
 * (`nextOffset`) and walk a whole run (`followPolicy`). Pure except the file check, which reads
 * below the sandbox and nowhere else.
 */

import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { EvalCheck, ScriptedPolicy } from "./types.js";

/** A file check reads at most this much; a larger file fails the check rather than fill memory. */
const MAX_CHECK_FILE_BYTES = 16 * 1024 * 1024;

/** Whether an agent's final text passes a task's check, and why not (one line) when it does not. */
export function checkAnswer(check: EvalCheck, finalText: string, sandbox: string): { success: boolean; reason: string | null } {
  if (check.kind === "exact") {
    const answer = check.answer.trim();
    if (answer === "") return fail("the check's exact answer is empty");
    return finalText.trim().includes(answer) ? pass() : fail(`the answer does not contain ${quote(answer)}`);
  }
  if (check.kind === "pattern") {
    const pattern = compile(check.pattern, check.flags ?? "");
    if (typeof pattern === "string") return fail(`the check's pattern does not compile: ${pattern}`);
    return pattern.test(finalText) ? pass() : fail(`the answer does not match /${oneLine(check.pattern)}/${check.flags ?? ""}`);
  }
  return checkFile(check, sandbox);
}

/** What is wrong with a check's shape (an empty answer, a pattern that does not compile, a path that leaves the sandbox), or null. Pure. */
export function checkProblem(check: EvalCheck): string | null {
  if (check.kind === "exact") return check.answer.trim() === "" ? "the exact answer is empty" : null;
  if (check.kind === "pattern") {
    const pattern = compile(check.pattern, check.flags ?? "");
    return typeof pattern === "string" ? `the pattern does not compile: ${pattern}` : null;
  }
  const path = pathProblem(check.path);
  if (path !== null) return path;
  if (check.exists === false && (check.contains !== undefined || check.equals !== undefined)) return "a file that must not exist cannot hold text";
  return null;
}

function checkFile(check: Extract<EvalCheck, { kind: "file" }>, sandbox: string): { success: boolean; reason: string | null } {
  const problem = checkProblem(check);
  if (problem !== null) return fail(`the check's ${problem}`);
  let root: string;
  try {
    root = realpathSync(sandbox);
  } catch {
    return fail(`the sandbox ${sandbox} cannot be read`);
  }
  const target = join(root, check.path);
  const exists = check.exists ?? true;
  let info: ReturnType<typeof lstatSync> | undefined;
  try {
    info = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && (error as NodeJS.ErrnoException).code !== "ENOTDIR") return fail(`${check.path} cannot be read`);
  }
  // Every folder on the way, and the file itself when it is a link, must resolve inside the sandbox.
  if (escapes(root, target)) return fail(`${check.path} leads out of the sandbox (a symbolic link)`);
  if (info === undefined) return exists ? fail(`${check.path} does not exist`) : pass();
  if (!exists) return fail(`${check.path} exists`);
  if (check.contains === undefined && check.equals === undefined) return pass();
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return fail(`${check.path} is a broken symbolic link`);
  }
  const resolved = lstatSync(real);
  if (!resolved.isFile()) return fail(`${check.path} is not a file`);
  if (resolved.size > MAX_CHECK_FILE_BYTES) return fail(`${check.path} is over ${MAX_CHECK_FILE_BYTES} bytes`);
  const text = readFileSync(real, "utf8");
  if (check.equals !== undefined && text !== check.equals) return fail(`${check.path} does not equal the expected text`);
  if (check.contains !== undefined && !text.includes(check.contains)) return fail(`${check.path} does not contain ${quote(check.contains)}`);
  return pass();
}

/**
 * Whether `path` resolves outside `root`: its real path when it exists, else the real path of its
 * deepest existing folder; a dangling symbolic link is judged by where it points.
 */
function escapes(root: string, path: string, depth = 0): boolean {
  if (depth > 40) return true;
  try {
    return !inside(root, realpathSync(path));
  } catch {
    // Missing, or a link that points nowhere.
  }
  let link: string | null = null;
  try {
    if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
  } catch {
    link = null;
  }
  if (link !== null) return escapes(root, resolve(dirname(path), link), depth + 1);
  const parent = dirname(path);
  return parent === path ? true : escapes(root, parent, depth + 1);
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function pathProblem(path: string): string | null {
  if (path === "") return "path is empty";
  if (path.includes("\0")) return "path holds a NUL character";
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.startsWith("\\")) return `path ${quote(path)} is absolute; give it relative to the sandbox`;
  if (path.split(/[\\/]/).includes("..")) return `path ${quote(path)} leaves the sandbox (..)`;
  return null;
}

/**
 * The scripted fake model's answer from one result text: the first match of the policy's `answer`
 * (its first group, or the whole match when it has none or the group took no part), or null when
 * nothing matches.
 */
export function answerFor(policy: ScriptedPolicy, resultText: string): string | null {
  const pattern = compile(policy.answer, "");
  if (typeof pattern === "string") return null;
  const match = pattern.exec(resultText);
  if (match === null) return null;
  return match[1] ?? match[0];
}

/** The paging note the proxy ends a page with (docs/proxy.md, "Paging"). */
const PAGE_NOTE = /\[showing lines (\d+)-(\d+) of (\d+)(?:; pass offset=(\d+) for more)?\]/g;

/** The numbers of the last paging note in a result text, or null when it is not a page. */
export function pageNote(resultText: string): { first: number; last: number; total: number; next: number | null } | null {
  let found: RegExpExecArray | null = null;
  for (const match of resultText.matchAll(PAGE_NOTE)) found = match;
  if (found === null) return null;
  return { first: Number(found[1]), last: Number(found[2]), total: Number(found[3]), next: found[4] === undefined ? null : Number(found[4]) };
}

/**
 * The `offset` the scripted model asks for after this result, or null when the result is not one
 * page of more. `next` follows the note; `last` jumps from the first page to the page that ends
 * the result (as many lines as this page showed), and follows the notes from there.
 */
export function nextOffset(seek: ScriptedPolicy["seek"], resultText: string): number | null {
  const note = pageNote(resultText);
  if (note === null || note.next === null) return null;
  if (seek === "last" && note.first === 1) return Math.max(note.next, note.total - (note.last - note.first + 1));
  return note.next;
}

/** The text blocks of a tools/call result, joined by newlines, as the scripted model reads them. */
export function resultText(result: unknown): string {
  if (typeof result !== "object" || result === null) return "";
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } =>
        typeof block === "object" && block !== null && block.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join("\n");
}

/** How a scripted run ended: its answer, or why it gave up, and the calls it made. */
export interface ScriptedOutcome {
  answer: string | null;
  error: string | null;
  calls: number;
  /** The longest result text it read, in characters. */
  longest: number;
}

/**
 * Play the scripted fake model on one task: call the tool with the policy's arguments (`call` adds
 * `offset` when asked for a page), answer from the first result that matches, follow the pages the
 * policy's `seek` names, and give up on a result over `cap` characters, after `maxCalls` calls or
 * at the end of the pages without a match.
 */
export async function followPolicy(
  policy: ScriptedPolicy,
  call: (args: Record<string, unknown>) => Promise<unknown>,
  options: { cap: number; maxCalls?: number },
): Promise<ScriptedOutcome> {
  const maxCalls = options.maxCalls ?? 200;
  let args: Record<string, unknown> = { ...policy.arguments };
  let longest = 0;
  for (let calls = 1; calls <= maxCalls; calls++) {
    const text = resultText(await call(args));
    longest = Math.max(longest, text.length);
    if (text.length > options.cap) return { answer: null, error: `a result of ${text.length} characters is over the cap of ${options.cap}`, calls, longest };
    const answer = answerFor(policy, text);
    if (answer !== null) return { answer, error: null, calls, longest };
    const offset = nextOffset(policy.seek, text);
    if (offset === null) return { answer: null, error: "no result matched the answer pattern", calls, longest };
    args = { ...policy.arguments, offset };
  }
  return { answer: null, error: `no answer after ${maxCalls} calls`, calls: maxCalls, longest };
}

function compile(source: string, flags: string): RegExp | string {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    return oneLine(error instanceof Error ? error.message : String(error));
  }
}

function pass(): { success: boolean; reason: string | null } {
  return { success: true, reason: null };
}

function fail(reason: string): { success: boolean; reason: string | null } {
  return { success: false, reason: oneLine(reason) };
}

function quote(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return JSON.stringify(short);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}
