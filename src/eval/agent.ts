/** Run the agent once on one task: Claude Code's headless contract (`-p`, `--mcp-config`, stream-json), an isolated config folder, contained and bounded like every launch. */

import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { lastErrorLine, runContained } from "../connect/run-contained.js";
import { isJsonObject, ownField } from "../json/value.js";
import { writeFileSafely } from "../lock/io.js";
import { couldBeSecret, makeRedactor } from "../text/redact.js";

/** How one agent run is set up. */
export interface AgentRun {
  /** The agent command and its own leading arguments (`claude`, or `node my-agent.mjs`). */
  command: string[];
  prompt: string;
  model: string;
  maxTurns: number;
  timeoutMs: number;
  /** The server as the agent's MCP config names it (under `target`); null for none (the access check). */
  server: { command: string; args: string[]; env: Record<string, string> } | null;
  /** The folder the agent works in (the run's copy of the sandbox). */
  cwd: string;
  /** A fresh folder of this run's own for the agent's home and config. */
  scratch: string;
  /** Variables passed from this environment (the model's credentials and endpoint). */
  passEnv: Record<string, string>;
  pidNamespace: boolean;
  warn: (line: string) => void;
}

/** What the agent said, as its result line reports it. */
export interface AgentOutcome {
  /** The final answer text; null when the agent printed no result. */
  result: string | null;
  tokens: number | null;
  turns: number | null;
  toolCalls: number | null;
  /** Why the run did not give a result (timeout, exit, agent error), one line; null when it did. */
  error: string | null;
  /**
   * When `error` is the agent's own failure, which says nothing about the task, what kind: its
   * model call failed (not logged in, a refused key, an unreachable endpoint, a rate limit, an
   * overload) or it failed inside; it printed no result (a crash); it ran out of time; it could
   * not start. Null for a run that ended for the task's reasons, well or not.
   */
  ownFailure: OwnFailure | null;
  ms: number;
}

/** The kinds of an agent's own failure (AgentOutcome.ownFailure). */
export type OwnFailure = "model" | "no-result" | "timeout" | "start";

/** Variables that hold the model's credentials: blanked for the server, and never shown. */
export const CREDENTIAL_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

/** The values among the agent's passed variables that must never be shown: the credentials, and any other value that can be a secret. */
export function secretValues(passEnv: Readonly<Record<string, string>>): string[] {
  return Object.entries(passEnv)
    .filter(([name, value]) => (CREDENTIAL_VARIABLES as readonly string[]).includes(name) || couldBeSecret(value))
    .map(([, value]) => value);
}

/**
 * Claude Code's `terminal_reason`s that are the agent's own failure: a model call that failed after
 * its retries (api_error, a missing login included), an internal error (model_error), a turn that
 * could not be set up. The others end a turn for the task's reasons (max_turns, prompt_too_long, a
 * context limit) or are a normal end (completed).
 */
const AGENT_FAILURE_REASONS: ReadonlySet<string> = new Set(["api_error", "model_error", "turn_setup_failed"]);

/** The longest piece of an agent's own text kept in an error. */
const MAX_ERROR_TEXT = 200;

/** Largest output kept from an agent: a stream of every turn of a long session. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The arguments of Claude Code's headless contract, after the agent command. */
export function agentArgs(run: Pick<AgentRun, "prompt" | "model" | "maxTurns">, mcpConfig: string): string[] {
  return [
    "-p",
    run.prompt,
    "--mcp-config",
    mcpConfig,
    "--strict-mcp-config",
    // Only the server's tools may run without asking: no shell, no file edits of the agent's own.
    "--allowedTools",
    "mcp__target",
    "--output-format",
    "stream-json",
    "--verbose",
    "--max-turns",
    String(run.maxTurns),
    "--model",
    run.model,
  ];
}

/**
 * Read an agent's output: stream-json lines (each assistant message's `tool_use` blocks counted, the
 * `result` line's answer, turns and tokens), or one JSON result object (`--output-format json`).
 * Pure.
 */
export function parseAgentOutput(text: string): Omit<AgentOutcome, "ms"> {
  let toolCalls = 0;
  let sawStream = false;
  let result: Record<string, unknown> | null = null;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed.startsWith("{")) continue;
    let event: unknown;
    try {
      event = JSON.parse(trimmed);
    } catch {
      continue;
    }
    if (!isJsonObject(event)) continue;
    const type = ownField(event, "type");
    if (type === "assistant") {
      sawStream = true;
      const content = isJsonObject(event.message) ? ownField(event.message, "content") : undefined;
      if (Array.isArray(content)) toolCalls += content.filter((block) => isJsonObject(block) && block.type === "tool_use").length;
    }
    if (type === "result") result = event;
  }
  if (result === null)
    return { result: null, tokens: null, turns: null, toolCalls: sawStream ? toolCalls : null, error: "the agent printed no result", ownFailure: "no-result" };
  const usage = isJsonObject(result.usage) ? result.usage : {};
  const count = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
  const anyTokens = ["input_tokens", "output_tokens"].some((key) => typeof usage[key] === "number");
  const tokens = anyTokens ? count("input_tokens") + count("output_tokens") + count("cache_creation_input_tokens") + count("cache_read_input_tokens") : null;
  const answer = typeof result.result === "string" ? result.result : null;
  const ending = endingOf(result, answer);
  return {
    result: answer,
    tokens,
    turns: typeof result.num_turns === "number" ? result.num_turns : null,
    toolCalls: sawStream ? toolCalls : null,
    error: ending?.error ?? null,
    ownFailure: ending?.agentsOwn === true ? "model" : null,
  };
}

/** How a result line ended when it did not end well: why, and whether that is the agent's own failure; null for a normal end. */
function endingOf(result: Record<string, unknown>, answer: string | null): { error: string; agentsOwn: boolean } | null {
  const subtype = typeof result.subtype === "string" ? result.subtype : null;
  const reason = typeof result.terminal_reason === "string" ? result.terminal_reason : null;
  if (result.is_error !== true && (subtype === null || subtype === "success")) return null;
  // The reason is the terminal_reason, or the subtype when it names one ("success" never does: an
  // error on a success subtype is how Claude Code reports a failed model call).
  const named = subtype !== null && subtype !== "success" ? subtype : reason;
  const said = answer === null ? "" : firstLine(answer);
  let agentsOwn: boolean;
  if (subtype === "error_during_execution") agentsOwn = true;
  else if (reason !== null) agentsOwn = AGENT_FAILURE_REASONS.has(reason);
  // Without a terminal_reason (an older Claude Code, another agent): an error on a success subtype
  // is a failed model call, unless it is the prompt grown too long, which the task's results caused.
  else agentsOwn = subtype !== null && subtype !== "success" ? false : !/prompt is too long/i.test(said);
  const what = named === null ? "an error" : named;
  const error = agentsOwn
    ? `the agent failed (${what})${said === "" ? "" : `: ${said}`}`
    : `the agent ended with ${what}${said === "" || result.is_error !== true ? "" : `: ${said}`}`;
  return { error, agentsOwn };
}

/** The first non-blank line of an agent's text, cut to MAX_ERROR_TEXT characters. */
function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > MAX_ERROR_TEXT ? `${trimmed.slice(0, MAX_ERROR_TEXT)}...` : trimmed;
}

/** Run the agent once and read what it answered. Never throws for an agent failure. */
export async function runAgent(run: AgentRun): Promise<AgentOutcome> {
  const started = Date.now();
  const home = join(run.scratch, "home");
  const config = join(run.scratch, "claude-config");
  await Promise.all([home, config].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  const mcpConfig = join(run.scratch, "mcp.json");
  // The agent hands a stdio server its own environment: the model's credentials are blanked in it. What
  // keeps a server from the agent's own copy is the launch (serverCommand: the proxy starts it in a PID
  // namespace of its own with the minimal environment, so neither its environment nor /proc shows the key).
  const blanked = Object.fromEntries(Object.keys(run.passEnv).map((name) => [name, ""]));
  const servers =
    run.server === null ? {} : { target: { type: "stdio", command: run.server.command, args: run.server.args, env: { ...blanked, ...run.server.env } } };
  await writeFileSafely(mcpConfig, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`, { mode: 0o600 });
  const { HOME: _home, ...base } = getDefaultEnvironment();
  const [command, ...leading] = run.command as [string, ...string[]];
  const ran = await runContained({
    command,
    args: [...leading, ...agentArgs(run, mcpConfig)],
    env: {
      ...base,
      ...run.passEnv,
      HOME: home,
      CLAUDE_CONFIG_DIR: config,
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
    cwd: run.cwd,
    timeoutMs: run.timeoutMs,
    maxOutputBytes: MAX_OUTPUT_BYTES,
    pidNamespace: run.pidNamespace,
    warn: run.warn,
  });
  // What the agent says goes into results and onto the terminal: the credentials it was given never do.
  const redactor = makeRedactor(secretValues(run.passEnv));
  const redacted = (outcome: AgentOutcome): AgentOutcome => ({ ...outcome, error: outcome.error === null ? null : redactor.text(outcome.error) });
  if (ran.startError !== null) {
    const code = ran.startError === "" ? "" : ` (${ran.startError})`;
    return redacted({
      result: null,
      tokens: null,
      turns: null,
      toolCalls: null,
      error: `could not start ${command}${code}`,
      ownFailure: "start",
      ms: Date.now() - started,
    });
  }
  const parsed = parseAgentOutput(ran.stdout.toString("utf8"));
  const ms = Date.now() - started;
  if (ran.timedOut) return redacted({ ...parsed, result: null, error: `no answer within ${Math.round(run.timeoutMs / 1000)} s`, ownFailure: "timeout", ms });
  if (parsed.result === null && parsed.error !== null) {
    const last = lastErrorLine(ran.stderrTail);
    return redacted({ ...parsed, error: last === undefined ? parsed.error : `${parsed.error}; its last error line: ${last.slice(0, MAX_ERROR_TEXT)}`, ms });
  }
  return redacted({ ...parsed, ms });
}
