/** results.jsonl of `mcp-lint eval`: one result line per task run, read back for resuming and reports. Pure but for appendResult. */

import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { InputFileError, UsageError } from "../errors.js";
import { checkOutputPath } from "../lock/io.js";
import { neutralize } from "../text/neutralize.js";
import type { EvalArm, EvalResult } from "./types.js";

/**
 * The result lines of a results.jsonl text; `file` names it in errors. Blank lines are skipped. A
 * line that is not a result (not JSON, not an object, a field missing or of the wrong type) is a
 * UsageError naming the file and the line. Keys a result does not have are ignored. A line written
 * before `infrastructure` existed gets it from its error (legacyInfrastructure).
 */
export function parseResults(text: string, file: string): EvalResult[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n");
  const results: EvalResult[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).replace(/\r$/, "");
    if (line.trim() === "") continue;
    // Only the text after the last newline can be unterminated (split leaves it as the last item).
    const unterminated = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      // A run killed mid-write (or a full disk) leaves its line cut off with no newline: that run
      // did not finish, so the line is ignored, not an error, and a resumed eval runs it again
      // (appendResult first removes the cut-off piece).
      if (unterminated) break;
      throw badLine(file, index + 1, "it is not JSON");
    }
    const problem = resultProblem(value, false);
    if (problem !== null) throw badLine(file, index + 1, problem);
    const read = value as Omit<EvalResult, "infrastructure"> & { infrastructure?: boolean };
    results.push(pickResult({ ...read, infrastructure: read.infrastructure ?? legacyInfrastructure(read) }));
  }
  return results;
}

function badLine(file: string, line: number, why: string): UsageError {
  return new UsageError(`${neutralize(file)} line ${line} is not an eval result: ${why}; fix or delete that line`);
}

type FieldCheck = readonly [field: keyof EvalResult, valid: (value: unknown) => boolean, expected: string];

const isText = (value: unknown) => typeof value === "string";
const isId = (value: unknown) => typeof value === "string" && value !== "";
const isCount = (value: unknown) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const isCountOrNull = (value: unknown) => value === null || isCount(value);

/** Every field of a result, in the order resultLine writes them. */
const FIELDS: readonly FieldCheck[] = [
  ["task", isId, "a non-empty string"],
  ["server", isId, "a non-empty string"],
  ["arm", (value) => value === "direct" || value === "proxy", '"direct" or "proxy"'],
  ["run", (value) => isCount(value) && (value as number) >= 1, "a whole number of at least 1"],
  ["success", (value) => typeof value === "boolean", "true or false"],
  ["tokens", isCountOrNull, "a whole number of at least 0, or null"],
  ["turns", isCountOrNull, "a whole number of at least 0, or null"],
  ["toolCalls", isCountOrNull, "a whole number of at least 0, or null"],
  ["ms", (value) => typeof value === "number" && Number.isFinite(value) && value >= 0, "a number of at least 0"],
  ["error", (value) => value === null || typeof value === "string", "a string or null"],
  ["agent", isText, "a string"],
  ["model", isText, "a string"],
];

/**
 * Why a parsed value is not an EvalResult, or null when it is one. `infrastructure` may be missing
 * on a line read (older lines have none) but not on one written.
 */
function resultProblem(value: unknown, writing: boolean): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "it is not a JSON object";
  const record = value as Record<string, unknown>;
  for (const [field, valid, expected] of FIELDS) {
    if (!Object.hasOwn(record, field)) return `"${field}" is missing`;
    if (!valid(record[field])) return `"${field}" must be ${expected}`;
  }
  if (!Object.hasOwn(record, "infrastructure")) return writing ? '"infrastructure" is missing' : null;
  if (typeof record.infrastructure !== "boolean") return '"infrastructure" must be true or false';
  if (record.infrastructure && record.success === true) return '"success" must be false when "infrastructure" is true';
  return null;
}

/**
 * The errors versions before the `infrastructure` field wrote for a run that failed for the agent's
 * own reasons. "the agent ended with success" is the one of issue 37: a model call that failed (no
 * login, no key, an unreachable API) reported as an error on a success result.
 */
const LEGACY_AGENT_FAILURES: readonly RegExp[] = [
  /^the agent ended with success$/,
  /^the agent ended with error_during_execution$/,
  /^the agent printed no result(?:;|$)/,
  /^could not start /,
  /^no answer within \d+ s$/,
];

/** Whether an older line (one without `infrastructure`) records the agent's own failure, from its error. */
export function legacyInfrastructure(result: Pick<EvalResult, "success" | "error">): boolean {
  const error = result.error;
  return !result.success && error !== null && LEGACY_AGENT_FAILURES.some((pattern) => pattern.test(error));
}

/** A fresh result holding only the known fields, in order (a parsed line's extra keys, `__proto__` included, are dropped). */
function pickResult(value: EvalResult): EvalResult {
  return {
    task: value.task,
    server: value.server,
    arm: value.arm,
    run: value.run,
    success: value.success,
    tokens: value.tokens,
    turns: value.turns,
    toolCalls: value.toolCalls,
    ms: value.ms,
    error: value.error,
    agent: value.agent,
    model: value.model,
    infrastructure: value.infrastructure,
  };
}

/**
 * One result as a compact JSON line ending in "\n", keys in a fixed order. A result parseResults
 * would refuse (a NaN, a fractional token count) throws instead, so no line written can stop a
 * later resume.
 */
export function resultLine(result: EvalResult): string {
  const problem = resultProblem(result, true);
  if (problem !== null) throw new TypeError(`not an eval result: ${problem}`);
  return `${JSON.stringify(pickResult(result))}\n`;
}

/** The identity of one run: what resuming matches on. Unambiguous whatever the strings hold. */
export function runKey(task: string, arm: EvalArm, run: number, agent: string, model: string): string {
  return JSON.stringify([task, arm, run, agent, model]);
}

/**
 * The runKeys of the runs that have a task result, successful or not: a resumed eval skips them. A
 * run with only infrastructure lines is not finished: the next eval runs it again.
 */
export function finishedKeys(results: readonly EvalResult[]): Set<string> {
  return new Set(results.filter((result) => !result.infrastructure).map((result) => runKey(result.task, result.arm, result.run, result.agent, result.model)));
}

/** The longest unterminated tail appendResult looks at; a longer one is kept and ended with a newline. */
const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/**
 * Append one result line to `file` in a single O_APPEND write, creating the file (mode 0644, less
 * the umask) if missing; several evals appending to one file do not interleave their lines. A path
 * that is a symbolic link or a folder is refused, as for every file mcp-lint writes.
 *
 * A file that does not end in a newline has a last line cut off by a killed run (parseResults
 * ignores it): that piece is truncated away first, or the new line would be glued to it and the
 * file would no longer parse. An unterminated last line that is whole JSON (a hand edit) is kept
 * and ended with a newline instead.
 */
export async function appendResult(file: string, result: EvalResult): Promise<void> {
  const line = resultLine(result);
  await checkOutputPath(file);
  let handle: FileHandle;
  try {
    // O_NOFOLLOW closes the gap between checkOutputPath's look and the open (0 where the platform has none).
    handle = await open(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o644);
  } catch (error) {
    throw new InputFileError(`cannot write ${file}: ${errnoText(error)}`);
  }
  try {
    const tail = await unterminatedTail(handle);
    let text = line;
    if (tail !== null) {
      if (tail.cutOff) await handle.truncate(tail.start);
      else text = `\n${line}`;
    }
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
  } catch (error) {
    throw new InputFileError(`cannot write ${file}: ${errnoText(error)}`);
  } finally {
    await handle.close();
  }
}

/** The file's text after its last newline, when it does not end in one: where it starts, and whether it is a cut-off line. */
async function unterminatedTail(handle: FileHandle): Promise<{ start: number; cutOff: boolean } | null> {
  const { size } = await handle.stat();
  if (size === 0) return null;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return null;
  const chunk = 64 * 1024;
  const pieces: Buffer[] = [];
  let start = size;
  while (start > 0 && size - start < MAX_TAIL_BYTES) {
    const from = Math.max(0, start - chunk);
    const piece = Buffer.alloc(start - from);
    await handle.read(piece, 0, piece.length, from);
    const newline = piece.lastIndexOf(0x0a);
    if (newline >= 0) {
      pieces.unshift(piece.subarray(newline + 1));
      start = from + newline + 1;
      return { start, cutOff: !isJson(Buffer.concat(pieces).toString("utf8")) };
    }
    pieces.unshift(piece);
    start = from;
  }
  // No newline in the whole file (one cut-off line), or a tail too long to judge: keep a long one.
  if (start > 0) return { start, cutOff: false };
  return { start: 0, cutOff: !isJson(Buffer.concat(pieces).toString("utf8")) };
}

function isJson(text: string): boolean {
  if (text.replace(/\r$/, "").trim() === "") return true;
  try {
    JSON.parse(text.replace(/\r$/, ""));
    return true;
  } catch {
    return false;
  }
}

function errnoText(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    if (code === "ELOOP") return "it is a symbolic link";
    if (code === "EISDIR") return "it is a folder";
    if (typeof code === "string") return code;
    if (typeof message === "string") return message.split("\n")[0] ?? "unknown error";
  }
  return String(error);
}
