/**
 * Before `eval --run` spends anything: one short run of the agent, with no server and a one-word
 * prompt, shows whether it reaches its model. Without access every task would fail alike (issue 37:
 * "Not logged in" recorded as a failed task, or 200 s of retries per run against an endpoint that
 * does not answer). Pure but for checkModelAccess.
 */

import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentOutcome, CREDENTIAL_VARIABLES, runAgent } from "./agent.js";

/** What the agent is asked: the cheapest answer a model can give. */
export const ACCESS_PROMPT = "Reply with the single word OK.";

/** The longest the check waits for the agent (at most the run's --agent-timeout). */
export const ACCESS_TIMEOUT_MS = 45_000;

/**
 * Claude Code retries a failed model call ten times over about three minutes; the check allows one
 * retry, so an endpoint that refuses or is not there answers within seconds and a passing blip
 * does not stop the eval.
 */
const ACCESS_ENV: Readonly<Record<string, string>> = { CLAUDE_CODE_MAX_RETRIES: "1" };

/** Claude Code's endpoint when ANTHROPIC_BASE_URL is not set. */
const DEFAULT_ENDPOINT = "https://api.anthropic.com";

/** How the access check runs the agent. */
export interface AccessCheck {
  command: string[];
  model: string;
  /** The variables the task runs get (the model's credentials and endpoint, and --pass-env). */
  passEnv: Record<string, string>;
  timeoutMs: number;
  pidNamespace: boolean;
}

/** Run the agent once on ACCESS_PROMPT; returns why it cannot reach its model (one line, for a UsageError), or null when it can. */
export async function checkModelAccess(check: AccessCheck): Promise<string | null> {
  const scratch = await mkdtemp(join(tmpdir(), "mcp-lint-eval-access-"));
  try {
    const cwd = join(scratch, "work");
    await mkdir(cwd, { mode: 0o700 });
    const outcome = await runAgent({
      command: check.command,
      prompt: ACCESS_PROMPT,
      model: check.model,
      maxTurns: 1,
      timeoutMs: check.timeoutMs,
      server: null,
      cwd,
      scratch: join(scratch, "agent"),
      passEnv: { ...check.passEnv, ...ACCESS_ENV },
      pidNamespace: check.pidNamespace,
      warn: () => {},
    });
    return accessProblem(outcome, check.model, check.passEnv);
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Why an access check's outcome shows the agent cannot reach its model, as one line that says what
 * to fix, or null when it reached it (whatever it answered). The outcome's error is redacted already;
 * the caller neutralizes the line like every error. Pure.
 */
export function accessProblem(outcome: Pick<AgentOutcome, "error" | "ownFailure">, model: string, passEnv: Readonly<Record<string, string>>): string | null {
  if (outcome.ownFailure === null) return null;
  const why = outcome.error ?? "no reason given";
  const stopped = "; nothing was run or recorded";
  if (outcome.ownFailure === "start") return `eval --run: the agent did not start for the access check: ${why}${stopped}`;
  if (outcome.ownFailure === "no-result") {
    return `eval --run: the agent printed no result for a one-line prompt (${why}); --agent must print Claude Code's stream-json result line${stopped}`;
  }
  const where = endpointText(passEnv.ANTHROPIC_BASE_URL);
  const hasCredential = CREDENTIAL_VARIABLES.some((name) => passEnv[name] !== undefined);
  const fix = hasCredential
    ? `check ${CREDENTIAL_VARIABLES.filter((name) => passEnv[name] !== undefined).join(" and ")}, the model name and that ${where.url} answers from here`
    : `set ${CREDENTIAL_VARIABLES.join(" or ")}: the agent runs with a config folder of its own, so a claude.ai login is not used`;
  return `eval --run: the agent cannot reach its model ${JSON.stringify(model)} at ${where.text}: ${why}; ${fix}${stopped}`;
}

/** The endpoint the agent calls, for a message: its scheme, host and path, never its user info, query or fragment. */
function endpointText(baseUrl: string | undefined): { url: string; text: string } {
  if (baseUrl === undefined) return { url: DEFAULT_ENDPOINT, text: `${DEFAULT_ENDPOINT} (Claude Code's default; ANTHROPIC_BASE_URL is not set)` };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { url: "ANTHROPIC_BASE_URL", text: "ANTHROPIC_BASE_URL (not a URL)" };
  }
  const shown = `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  return { url: shown, text: `${shown} (ANTHROPIC_BASE_URL)` };
}
