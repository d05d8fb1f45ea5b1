/** Run the agent once on one task: Claude Code's headless contract (`-p`, `--mcp-config`, stream-json), an isolated config folder, contained and bounded like every launch. */

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { lastErrorLine, runContained } from "../connect/run-contained.js";
import { isJsonObject, ownField } from "../json/value.js";

/** How one agent run is set up. */
export interface AgentRun {
  /** The agent command and its own leading arguments (`claude`, or `node my-agent.mjs`). */
  command: string[];
  prompt: string;
  model: string;
  maxTurns: number;
  timeoutMs: number;
  /** The server as the agent's MCP config names it (under `target`). */
  server: { command: string; args: string[]; env: Record<string, string> };
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
  ms: number;
}

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
  if (result === null) return { result: null, tokens: null, turns: null, toolCalls: sawStream ? toolCalls : null, error: "the agent printed no result" };
  const usage = isJsonObject(result.usage) ? result.usage : {};
  const count = (key: string) => (typeof usage[key] === "number" ? (usage[key] as number) : 0);
  const anyTokens = ["input_tokens", "output_tokens"].some((key) => typeof usage[key] === "number");
  const tokens = anyTokens ? count("input_tokens") + count("output_tokens") + count("cache_creation_input_tokens") + count("cache_read_input_tokens") : null;
  const answer = typeof result.result === "string" ? result.result : null;
  const failed = result.is_error === true || (typeof result.subtype === "string" && result.subtype !== "success");
  return {
    result: answer,
    tokens,
    turns: typeof result.num_turns === "number" ? result.num_turns : null,
    toolCalls: sawStream ? toolCalls : null,
    error: failed ? `the agent ended with ${typeof result.subtype === "string" ? result.subtype : "an error"}` : null,
  };
}

/** Run the agent once and read what it answered. Never throws for an agent failure. */
export async function runAgent(run: AgentRun): Promise<AgentOutcome> {
  const started = Date.now();
  const home = join(run.scratch, "home");
  const config = join(run.scratch, "claude-config");
  await Promise.all([home, config].map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
  const mcpConfig = join(run.scratch, "mcp.json");
  // The agent hands a stdio server its own environment: the model's credentials are blanked for it, so a
  // server (or a task that lists its environment) never sees them.
  const blanked = Object.fromEntries(Object.keys(run.passEnv).map((name) => [name, ""]));
  const entry = { type: "stdio", command: run.server.command, args: run.server.args, env: { ...blanked, ...run.server.env } };
  await writeFile(mcpConfig, `${JSON.stringify({ mcpServers: { target: entry } }, null, 2)}\n`, { mode: 0o600 });
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
  if (ran.startError !== null) {
    const code = ran.startError === "" ? "" : ` (${ran.startError})`;
    return { result: null, tokens: null, turns: null, toolCalls: null, error: `could not start ${command}${code}`, ms: Date.now() - started };
  }
  const parsed = parseAgentOutput(ran.stdout.toString("utf8"));
  const ms = Date.now() - started;
  if (ran.timedOut) return { ...parsed, result: null, error: `no answer within ${Math.round(run.timeoutMs / 1000)} s`, ms };
  if (parsed.result === null && parsed.error !== null) {
    const last = lastErrorLine(ran.stderrTail);
    return { ...parsed, error: last === undefined ? parsed.error : `${parsed.error}; its last error line: ${last.slice(0, 200)}`, ms };
  }
  return { ...parsed, ms };
}
