// Types for env.mjs (plain JS, run by the runner's node), for the tests.
/** The variables of `env` that mcp-lint may see. */
export function cliEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options?: { headerEnv?: readonly string[]; passEnv?: readonly string[]; remote?: boolean },
): Record<string, string>;
/** Whether a variable is one of the basics (never a secret: paths, user, locale), not one an input named. */
export function isBasic(name: string): boolean;
