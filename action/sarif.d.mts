// Types for sarif.mjs (plain JS, run by the runner's node), for the tests.
/** Why `log` is not a usable SARIF 2.1.0 log, or null. */
export function sarifProblem(log: unknown): string | null;
/** The URI reference of a relative folder, percent-encoded per segment, ending in `/` ("" for the root). */
export function folderUri(folder: string): string;
/** `log` with `prefix` before every relative artifact URI based on `%SRCROOT%`. */
export function rebaseSarif<T>(log: T, prefix: string): T;
/** JSON with every character outside printable ASCII as a `\uXXXX` escape, and a trailing newline. */
export function asciiJson(value: unknown): string;
