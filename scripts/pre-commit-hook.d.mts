// Types for pre-commit-hook.mjs, for the tests.
/** A word as a POSIX shell reads it back. */
export function shellWord(word: string): string;
/** The `mcp-lint lock --accept ...` words for the hook's arguments, and what was left out. */
export function acceptCommand(args: readonly string[]): { words: string[]; omitted: number; urlHidden: boolean; config: boolean };
/** The lines printed after a failed check. */
export function acceptHint(args: readonly string[]): string;
