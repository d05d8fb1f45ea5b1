/** Shapes of `mcp-lint eval`: the task set, one run's result line, and the scripted policy the tests' fake model plays. Pure. */

/** One MCP server of the task set, installed by `eval --setup` from npm at a pinned version. */
export interface EvalServer {
  /** Short id used in task files, results and reports (`filesystem`). */
  id: string;
  /** npm package and exact version (`@modelcontextprotocol/server-filesystem`, `2026.1.14`). */
  package: string;
  version: string;
  /** The file to run with node, relative to the package folder (`dist/index.js`). */
  entry: string;
  /** Arguments after the entry; `{sandbox}` stands for the sandbox folder's absolute path. */
  args: string[];
  /** Environment the server needs; `{sandbox}` is replaced as in args. */
  env: Record<string, string>;
  /** The proxy's `--descriptions` file for this server, relative to the task folder, or null for none. */
  descriptions: string | null;
}

/** How a task's answer is checked. */
export type EvalCheck =
  /** The agent's final text holds this exact string (after trimming both). */
  | { kind: "exact"; answer: string }
  /** The agent's final text matches this regular expression (JavaScript syntax, `flags` optional). */
  | { kind: "pattern"; pattern: string; flags?: string }
  /** A file below the sandbox exists (or not) and holds (or equals) this text afterwards. */
  | { kind: "file"; path: string; exists?: boolean; contains?: string; equals?: string };

/**
 * What the scripted fake model of the tests does for a task (no real model reads this): call `tool`
 * with `arguments`; when a result says it is one page of more (the proxy's paging note), call again
 * for the page `seek` names; answer with the first match of `answer` (its first group, or the whole
 * match) in a result; give up when a result is over the agent's cap or holds no match.
 */
export interface ScriptedPolicy {
  tool: string;
  arguments: Record<string, unknown>;
  /** Which page to ask for next when a result is paged: the next one, or the last one. */
  seek: "next" | "last";
  answer: string;
}

/** One task. */
export interface EvalTask {
  id: string;
  /** An EvalServer id. */
  server: string;
  split: "train" | "test";
  prompt: string;
  check: EvalCheck;
  policy: ScriptedPolicy;
}

/** The file `eval --setup` writes (`tasks.json`). */
export interface TaskSet {
  version: 1;
  servers: EvalServer[];
  tasks: EvalTask[];
}

/** One arm of the experiment. */
export type EvalArm = "direct" | "proxy";

/** One line of results.jsonl. */
export interface EvalResult {
  task: string;
  server: string;
  arm: EvalArm;
  /** 1-based run number. */
  run: number;
  success: boolean;
  /** Input plus output tokens the agent reported; null when it reported none. */
  tokens: number | null;
  turns: number | null;
  toolCalls: number | null;
  /** Wall time of the agent run, ms. */
  ms: number;
  /** Why it failed (wrong answer, turns used up, the agent's own failure), one line; null on success. */
  error: string | null;
  /** The agent command's first word and the model, so mixed results stay apart in a report. */
  agent: string;
  model: string;
  /**
   * The run failed for the agent's own reasons (its model unreachable, refused or rate-limited, a
   * crash, the time bound), so it says nothing about the task: not counted in a report, and run
   * again by the next `eval --run`. Always false with `success`. Lines written before this field
   * existed are read with it worked out from their error (see parseResults).
   */
  infrastructure: boolean;
}
