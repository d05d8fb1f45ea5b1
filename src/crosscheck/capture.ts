/** Run one client against the server in a scratch folder of its own, contained like every launch, and capture the tools it renders. */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ProcessGroupTransport } from "../connect/process-group.js";
import { lastErrorLine, runContained } from "../connect/run-contained.js";
import { keyMatches, newModelKey } from "./model-key.js";
import { startRecorder } from "./recorder.js";
import type { ClientAdapter, ModelClientAdapter, RecordedRequest, RecorderReply, RenderedTool, ServerLaunch } from "./types.js";

/** What one client run gave; `refused` counts requests to its model endpoint without the run's key. */
export type Capture =
  | { status: "captured"; tools: RenderedTool[]; version: string | null; ms: number; refused: number }
  | { status: "failed"; reason: string; version: string | null; ms: number; refused: number };

/** Options of one capture. */
export interface CaptureOptions {
  /** Bound on the whole client run, spawn to capture. */
  timeoutMs: number;
  /** False for --no-pid-namespace. */
  pidNamespace: boolean;
  /** Redact a line before it leaves (stderr tails in reasons). */
  redact: (text: string) => string;
  /** Where the one warning of a launch without a namespace goes. */
  warn: (line: string) => void;
  /** Told the run's model key before the client starts, so every output redacts it as a secret. */
  learnSecret: (secret: string) => void;
}

/** Standard output kept from an output client (the Inspector's JSON); more is refused. */
const MAX_STDOUT_BYTES = 32 * 1024 * 1024;
/** The end of the client's stderr kept to explain a failure. */
const STDERR_KEEP = 4096;

/**
 * The environment a client starts from: the SDK's minimal safe set (PATH, USER, SHELL, TERM, ...)
 * without HOME, which the adapter points at the scratch folder. Nothing else of the user's is passed.
 */
export function clientBaseEnv(): Record<string, string> {
  const { HOME: _home, ...rest } = getDefaultEnvironment();
  for (const name of ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "LANG", "LC_ALL", "TZ"]) {
    const value = process.env[name];
    if (value !== undefined && value !== "") rest[name] = value;
  }
  return rest;
}

/**
 * The client's version as it prints it (`2.1.332 (Claude Code)` -> `2.1.332`), or null. Contained
 * like the capture itself: `--version` of a --client-bin program runs whatever that program is.
 */
export async function clientVersion(
  bin: string,
  env: Record<string, string>,
  options: { timeoutMs: number; pidNamespace: boolean; warn: (line: string) => void },
): Promise<string | null> {
  const run = await runContained({ command: bin, args: ["--version"], env, maxOutputBytes: 64 * 1024, ...options });
  if (run.startError !== null) return null;
  const match = /\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/.exec(run.stdout.toString("utf8"));
  return match === null ? null : match[0];
}

/**
 * What the model endpoint does with a request that carried the run's key: the first that carries
 * any of the server's tools is the capture, handed to `onCapture` once; nothing after it is looked
 * at. Every request is answered as the adapter says, so the client ends its turn by itself.
 */
export function modelTurns(adapter: ModelClientAdapter, serverName: string, onCapture: (tools: RenderedTool[]) => void) {
  let captured = false;
  let sawModelRequest = false;
  return {
    take(request: RecordedRequest): RecorderReply {
      if (!captured) {
        const tools = adapter.toolsIn(request, serverName);
        if (tools !== null && tools.length > 0) {
          captured = true;
          onCapture(tools);
        } else if (adapter.modelRequest(request)) sawModelRequest = true;
      }
      return adapter.reply(request);
    },
    /** Whether a conversation turn without the server's tools came before any capture. */
    sawModelRequest: () => sawModelRequest,
  };
}

/** Run `adapter`'s client once against `server` and capture what it renders. Never throws for a client failure. */
export async function captureClient(adapter: ClientAdapter, bin: string, server: ServerLaunch, serverName: string, options: CaptureOptions): Promise<Capture> {
  const started = Date.now();
  const baseEnv = clientBaseEnv();
  const scratch = await mkdtemp(join(tmpdir(), "mcp-lint-crosscheck-"));
  let version: string | null = null;
  let recorder: Awaited<ReturnType<typeof startRecorder>> | null = null;
  let transport: ProcessGroupTransport | null = null;
  let versionAsked: Promise<void> = Promise.resolve();
  try {
    // Asked beside the capture, not before it: a Node client spends a second or more just starting.
    versionAsked = clientVersion(
      bin,
      { ...baseEnv, HOME: join(scratch, "version-home"), GEMINI_CLI_NO_RELAUNCH: "true" },
      {
        timeoutMs: Math.min(20_000, options.timeoutMs),
        pidNamespace: options.pidNamespace,
        warn: options.warn,
      },
    ).then((found) => {
      version = found;
    });
    let settle: (result: { tools: RenderedTool[] } | { reason: string }) => void = () => {};
    const outcome = new Promise<{ tools: RenderedTool[] } | { reason: string }>((resolve) => {
      settle = resolve;
    });
    let sawModelRequest = () => false;
    let modelKey: string | null = null;
    if (adapter.kind === "model") {
      const key = newModelKey();
      modelKey = key;
      options.learnSecret(key);
      const turns = modelTurns(adapter, serverName, (tools) => settle({ tools }));
      sawModelRequest = turns.sawModelRequest;
      recorder = await startRecorder({ admits: (head) => keyMatches(adapter.keyIn(head), key), refusal: (head) => adapter.refusal(head) }, turns.take);
    }
    const refused = () => recorder?.refused() ?? 0;
    const launch = await adapter.prepare({ scratch, bin, server, serverName, modelUrl: recorder?.url ?? null, modelKey, baseEnv });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = "";
    transport = new ProcessGroupTransport({
      command: launch.command,
      args: launch.args,
      env: launch.env,
      cwd: launch.cwd,
      noInput: true,
      maxMessageBytes: MAX_STDOUT_BYTES,
      pidNamespace: options.pidNamespace,
      warn: options.warn,
      onStderr: (chunk) => {
        stderrTail = (stderrTail + chunk).slice(-STDERR_KEEP);
      },
      onStdout: (chunk) => {
        stdoutBytes += chunk.length;
        if (stdoutBytes <= MAX_STDOUT_BYTES) stdout.push(chunk);
      },
    });
    const running = transport;
    running.onclose = () => {
      if (adapter.kind === "output") {
        if (stdoutBytes > MAX_STDOUT_BYTES) return settle({ reason: `printed more than ${MAX_STDOUT_BYTES} bytes` });
        try {
          settle({ tools: adapter.parseOutput(Buffer.concat(stdout).toString("utf8")) });
        } catch (error) {
          settle({ reason: withTail(error instanceof Error ? error.message : String(error), stderrTail, options.redact) });
        }
        return;
      }
      // Requests still in flight when the process ended have been answered by now.
      if (sawModelRequest()) settle({ tools: [] });
      else settle({ reason: withTail(`ended (${exitText(running)}) before it asked its model`, stderrTail, options.redact) });
    };
    try {
      await running.launch();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      await versionAsked;
      const reason = `could not start ${bin}${typeof code === "string" ? ` (${code})` : ""}`;
      return { status: "failed", reason, version, ms: Date.now() - started, refused: refused() };
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<{ reason: string }>((resolve) => {
      timer = setTimeout(
        () => resolve({ reason: withTail(`gave no tools within ${Math.round(options.timeoutMs / 1000)} s`, stderrTail, options.redact) }),
        options.timeoutMs,
      );
    });
    const result = await Promise.race([outcome, timedOut]);
    clearTimeout(timer);
    await versionAsked;
    const ms = Date.now() - started;
    return "tools" in result
      ? { status: "captured", tools: result.tools, version, ms, refused: refused() }
      : { status: "failed", reason: result.reason, version, ms, refused: refused() };
  } finally {
    await versionAsked;
    await transport?.close();
    await recorder?.close();
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

function exitText(transport: ProcessGroupTransport): string {
  const exit = transport.exit;
  if (exit === null) return "closed its output";
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

/** A reason with the last non-empty line of the client's stderr, redacted and capped. */
function withTail(reason: string, stderr: string, redact: (text: string) => string): string {
  const last = lastErrorLine(stderr);
  if (last === undefined) return reason;
  const shown = redact(last);
  return `${reason}; its last error line: ${shown.length > 300 ? `${shown.slice(0, 297)}...` : shown}`;
}
