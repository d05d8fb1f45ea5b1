/** File IO for locks and input files: bounded strict reads, atomic writes. */

import type { Stats } from "node:fs";
import { lstat, open, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { InputFileError } from "../errors.js";
import { decodeUtf8Strict, parseJsonStrict } from "../json/parse.js";

/** Largest input file read (a lock or a saved tools/list); bigger is refused rather than read. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** Files at least this large are decoded by Node as they are read (see readTextIfExists). */
const LARGE_TEXT_BYTES = 1024 * 1024;

/**
 * Read a file as strict UTF-8 text, or null when it does not exist. A large file is decoded as
 * Node reads it, so no buffer of its bytes is left for the garbage collector (a 27 MB lock's bytes
 * would otherwise stay in memory beside its text). Node's decoder replaces invalid UTF-8 with
 * U+FFFD: a text holding that character is read again as bytes, which names the bad byte or keeps
 * a real U+FFFD.
 */
export async function readTextIfExists(path: string): Promise<string | null> {
  const size = await inputSize(path);
  if (size === null) return null;
  if (size >= LARGE_TEXT_BYTES) {
    const text = await readOrNull(path, () => readFile(path, "utf8"));
    if (text === null) return null;
    if (!text.includes("\uFFFD")) return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  const read = await readBytes(path);
  return read === null ? null : read.text;
}

/** Bytes read at a time into one piece of a large text read in pieces. */
const PIECE_BYTES = 1024 * 1024;

/**
 * readTextIfExists for a text that can be used in pieces (a large lock, lock/deferred.ts): a large
 * file comes as the pieces it was decoded in, never joined, so its text is never in memory twice
 * (pieces and joined copy); a small one is one piece. The same checks as readTextIfExists.
 */
export async function readTextPiecesIfExists(path: string): Promise<string[] | null> {
  const size = await inputSize(path);
  if (size === null) return null;
  if (size >= LARGE_TEXT_BYTES) {
    const pieces = await readOrNull(path, () => decodeInPieces(path));
    if (pieces === null) return null;
    if (!pieces.some((piece) => piece.includes("\uFFFD"))) {
      const first = pieces[0] ?? "";
      if (first.charCodeAt(0) === 0xfeff) pieces[0] = first.slice(1);
      return pieces;
    }
  }
  const read = await readBytes(path);
  return read === null ? null : [read.text];
}

/** A file decoded PIECE_BYTES at a time; invalid UTF-8 (even cut at the end) becomes U+FFFD. */
async function decodeInPieces(path: string): Promise<string[]> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(PIECE_BYTES);
    const decoder = new StringDecoder("utf8");
    const pieces: string[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      // The file grew after its size was checked.
      if (total > MAX_INPUT_BYTES)
        throw new InputFileError(`${path} is over ${MAX_INPUT_BYTES / 1048576} MiB; files over ${MAX_INPUT_BYTES / 1048576} MiB are refused`);
      pieces.push(decoder.write(buffer.subarray(0, bytesRead)));
    }
    pieces.push(decoder.end());
    return pieces;
  } finally {
    await handle.close();
  }
}

/** A file's bytes as read, and its text (strict UTF-8, one leading BOM removed). */
export interface ReadFile {
  bytes: Buffer;
  text: string;
  /** The file began with a UTF-8 byte order mark (removed from `text`). */
  bom: boolean;
}

/** Read a file's bytes and text, or null when it does not exist; the same checks as readTextIfExists. */
export async function readBytesIfExists(path: string): Promise<ReadFile | null> {
  return (await inputSize(path)) === null ? null : readBytes(path);
}

/** The size of an input file, null when it does not exist; refuses what is not a file or is over MAX_INPUT_BYTES. */
async function inputSize(path: string): Promise<number | null> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new InputFileError(`${path} is not a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    if (isErrno(error, "ENOENT")) return null;
    throw new InputFileError(`cannot read ${path}: ${errnoText(error)}`);
  }
  if (size > MAX_INPUT_BYTES) {
    throw new InputFileError(`${path} is ${Math.round(size / 1048576)} MiB; files over ${MAX_INPUT_BYTES / 1048576} MiB are refused`);
  }
  return size;
}

/** A file's bytes and strict text, once inputSize has accepted it; null if it vanished meanwhile. */
function readBytes(path: string): Promise<ReadFile | null> {
  return readOrNull(path, async () => {
    const bytes = await readFile(path);
    return { bytes, text: decodeUtf8Strict(bytes, path), bom: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf };
  });
}

/** Run a read of `path`: null when the file is gone, a one-line InputFileError for any other system error. */
async function readOrNull<T>(path: string, read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return null;
    if (error instanceof Error && !("code" in error)) throw error;
    throw new InputFileError(`cannot read ${path}: ${errnoText(error)}`);
  }
}

/** Read a file that must exist; `what` names it in the error (for example "--from file"). */
export async function readRequiredText(path: string, what: string): Promise<string> {
  const text = await readTextIfExists(path);
  if (text === null) throw new InputFileError(`${what} ${path} does not exist`);
  return text;
}

/** readBytesIfExists for a file that must exist. */
export async function readRequiredBytes(path: string, what: string): Promise<ReadFile> {
  const read = await readBytesIfExists(path);
  if (read === null) throw new InputFileError(`${what} ${path} does not exist`);
  return read;
}

/** Read and strictly parse a JSON file that must exist. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  return parseJsonStrict(await readRequiredText(path, what), path);
}

/** Load the atomic writer now (before a server that could tamper with files runs). */
export async function preloadWriter(): Promise<void> {
  await import("write-file-atomic");
}

/** The writer used for every file mcp-lint writes; tests may swap it to simulate a crash. */
export const fileWriter = {
  write: async (path: string, text: string | Buffer, mode?: number): Promise<void> => {
    // Loaded on first write: --check runs never write and never pay for it.
    const { default: writeFileAtomic } = await import("write-file-atomic");
    await writeFileAtomic(path, text, mode === undefined ? { encoding: "utf8" } : { encoding: "utf8", mode });
  },
};

/**
 * Write a file atomically: readers see the old bytes or the new ones, never half. A path that is a
 * symbolic link is refused: a committed link could otherwise aim a lock or report at any file the
 * user can write (write-file-atomic follows links to their target). `mode` sets the file's
 * permissions (a copy of a private file stays private); otherwise an existing file keeps its own.
 */
export async function writeFileSafely(path: string, text: string | Buffer, options: { mode?: number } = {}): Promise<void> {
  await checkOutputPath(path);
  try {
    await fileWriter.write(path, text, options.mode);
  } catch (error) {
    throw new InputFileError(`cannot write ${path}: ${errnoText(error)}`);
  }
}

/**
 * Check an output path before doing work that would be lost: refuse a symbolic link (see
 * writeFileSafely), a folder, and a path whose folder does not exist.
 */
export async function checkOutputPath(path: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw new InputFileError(`cannot write ${path}: ${errnoText(error)}`);
    await checkParentFolder(path);
    return;
  }
  if (stats.isSymbolicLink()) {
    throw new InputFileError(`refusing to write ${path}: it is a symbolic link; mcp-lint never writes through one, so give the real path`);
  }
  if (stats.isDirectory()) throw new InputFileError(`cannot write ${path}: it is a folder`);
}

async function checkParentFolder(path: string): Promise<void> {
  const folder = dirname(path);
  let isFolder: boolean;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch (error) {
    const why = isErrno(error, "ENOENT") ? "does not exist" : errnoText(error);
    throw new InputFileError(`cannot write ${path}: folder ${folder} ${why}; create it first`);
  }
  if (!isFolder) throw new InputFileError(`cannot write ${path}: ${folder} is not a folder`);
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}

function errnoText(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === "ENOENT") return "no such file or folder";
    if (code === "EACCES" || code === "EPERM") return "permission denied";
    if (code === "EISDIR") return "it is a folder";
    if (typeof code === "string") return code;
    if (typeof message === "string") return message.split("\n")[0] ?? "unknown error";
  }
  return String(error);
}
