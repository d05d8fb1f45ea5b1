// Types for pre-commit-hook.mjs, for the tests.
/** A word as a POSIX shell reads it back. */
export function shellWord(word: string): string;
/** The `--json` path among the hook's arguments (before `--`), or undefined. */
export function jsonPath(args: readonly string[]): string | undefined;
/** The lines printed after a failed check: `--review` on a terminal, else `--accept-tool` for the refused names (null: unknown). */
export function nextStepHint(args: readonly string[], decision: { review: true } | { names: readonly string[] | null; serverLevel: boolean }): string;
