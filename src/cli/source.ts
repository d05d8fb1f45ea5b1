/** Where a command's tools come from: flag checks, the launch's own install lint, and reading the server or a saved list. */

import { redactSnapshot } from "../connect/redact.js";
import { makeRedactor, type Redactor } from "../text/redact.js";
import type { OpenSession } from "../connect/session.js";
import { resolveTarget, type StdioTarget, type Target } from "../connect/target.js";
import type { Launch } from "../connect/launch.js";
import { KnownBadRefusal, UsageError } from "../errors.js";
import type { InstallFinding } from "../install/index.js";
import type { KnownBadList } from "../install/bad-list.js";
import { preloadJsonTools } from "../json/parse.js";
import { preloadWriter, readJsonFile, readRequiredText } from "../lock/io.js";
import { snapshotFromFile, type ServerSnapshot } from "../lock/snapshot.js";
import { neutralize } from "../text/neutralize.js";
import { pushAll } from "../arrays.js";
import { NO_OAUTH_FLAGS, type OAuthFlags, resolveOAuth } from "./oauth-flags.js";
import type { TerminalStyle } from "../report/style.js";

/** Where a command writes; tests and embedders can capture it. */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Set by a command that knows secrets, so even error messages are redacted. */
  redact?: (text: string) => string;
  /** How each stream shows a report (colour, width); plain when not given. */
  styles?: { out: TerminalStyle; err: TerminalStyle };
}

/** The flags that choose and bound a source, shared by every command that reads a server. */
export interface SourceFlags {
  from: string | null;
  /** How errors name the `from` file (default "--from file"; `check` reads it as a positional). */
  fromWhat?: string;
  command: string[];
  url: string | null;
  headers: string[];
  headerEnv: string[];
  passEnv: string[];
  timeoutMs: number;
  /** Bound on starting a launched server and its initialize. */
  startupTimeoutMs: number;
  /** Bound on the whole run. */
  deadlineMs: number;
  knownBad: string | null;
  version: string;
  /** False for --no-pid-namespace: a launched server starts without a PID namespace. */
  pidNamespace?: boolean;
  /** The --oauth-* flags (absent: log in when asked, as an unregistered client). */
  oauth?: OAuthFlags;
}

/**
 * Check the source flags and resolve the live target (null for a file). Runs before anything
 * starts, so a bad flag never launches a server. `example` shows the command in the usage error.
 */
export function resolveSource(flags: SourceFlags, example: string, options: { fromAllowed?: boolean } = {}): Target | null {
  const fromAllowed = options.fromAllowed ?? true;
  const live = flags.command.length > 0 || flags.url !== null;
  if (flags.from !== null && live) {
    throw new UsageError(`give one source: ${fromAllowed ? "--from FILE, " : ""}--url URL or a server command after --`);
  }
  if (!live && flags.from === null) {
    throw new UsageError(
      `nothing to read: give a server command after -- (${example} -- npx -y some-server)${fromAllowed ? ", --url URL or --from FILE" : " or --url URL"}`,
    );
  }
  if (flags.from !== null && (flags.passEnv.length > 0 || flags.headers.length > 0 || flags.headerEnv.length > 0)) {
    throw new UsageError("--pass-env, --header and --header-env apply to a live server, not to --from");
  }
  const target = live
    ? resolveTarget(
        {
          command: flags.command,
          url: flags.url,
          headers: flags.headers,
          headerEnv: flags.headerEnv,
          passEnv: flags.passEnv,
          ...(flags.pidNamespace === false ? { pidNamespace: false } : {}),
        },
        process.env,
      )
    : null;
  const login = resolveOAuth(flags.oauth ?? NO_OAUTH_FLAGS, target?.kind === "http" ? target.url : null, process.env);
  if (target?.kind === "http") {
    target.oauth = login.settings;
    pushAll(target.secrets, login.secrets);
  }
  return target;
}

/** A redactor for the target's secrets, also installed on `output` so error lines are redacted. */
export function redactorFor(target: Target | null, output: Output): Redactor {
  const redactor = makeRedactor(target?.secrets ?? []);
  output.redact = (text) => redactor.text(text);
  return redactor;
}

/** Modules loaded before a server starts (a same-user server could rewrite mcp-lint's files on disk). */
export interface VerdictModules {
  install: typeof import("../install/index.js") | null;
  /** The structural schema diff, loaded now for a live server and on first use for a file. */
  schemaDiff: () => Promise<(before: unknown, after: unknown, pointer?: string) => string[]>;
}

/**
 * Load everything a verdict depends on; call before a server is launched. A run from a file starts
 * no server, so it loads these on first use instead and stays quick for a commit hook. The CLI is
 * split into chunks that load on demand, so every module a live run may need after the spawn is
 * named here; `https` adds the proxy-aware fetch for a run that also reads an https:// server.
 */
export async function loadVerdictModules(live: boolean, https = false, remote = https): Promise<VerdictModules> {
  const lazyDiff = async () => (await import("../report/schema-diff.js")).schemaDiffLines;
  if (!live) return { install: null, schemaDiff: lazyDiff };
  const [install, schemaDiff] = await Promise.all([
    import("../install/index.js"),
    import("../report/schema-diff.js"),
    preloadWriter(),
    preloadJsonTools(),
    import("../connect/sdk-compat.js"),
    import("../connect/stdio.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("../report/text-diff.js").then((module) => module.preloadWordDiff()),
    https ? import("../connect/http.js").then((module) => module.preloadProxyFetch()) : undefined,
    // A remote server of the same run may ask for a login after a launched one is running.
    remote ? preloadLogin() : undefined,
  ]);
  return { install, schemaDiff: async () => schemaDiff.schemaDiffLines };
}

async function preloadLogin(): Promise<void> {
  await Promise.all([
    import("../connect/http.js"),
    import("../connect/oauth/login.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
    // The client-credentials providers (connect/oauth/login.ts).
    import("@modelcontextprotocol/client"),
  ]);
}

/** The built-in known-bad list, with the releases of a `--known-bad FILE` added. */
export async function knownBadList(file: string | null, install: typeof import("../install/index.js")): Promise<KnownBadList> {
  return file === null ? install.loadKnownBad() : install.loadKnownBad(await readRequiredText(file, "--known-bad file"), file);
}

/**
 * Install lint of the launch itself, before anything starts: a known-bad release is refused (the
 * reason on stderr, exit 1); warnings such as an unpinned package are shown and the run goes on.
 */
export async function lintOwnLaunch(
  command: string[],
  knownBadFile: string | null,
  install: typeof import("../install/index.js") | null,
  output: Output,
  options: { print: boolean } = { print: true },
): Promise<InstallFinding[]> {
  if (install === null) return [];
  const { lintLaunch, installMessage } = install;
  const list = await knownBadList(knownBadFile, install);
  const findings = lintLaunch(command, list);
  const bad = findings.find((finding) => finding.kind === "known_bad");
  if (bad !== undefined) {
    output.err(`mcp-lint: refusing to launch the server: ${neutralize(installMessage(bad))}\n`);
    throw new KnownBadRefusal();
  }
  if (options.print) {
    for (const finding of findings) {
      if (finding.severity === "info") continue;
      output.err(`mcp-lint: ${finding.severity}: I1 ${finding.kind}: ${neutralize(installMessage(finding))}\n`);
    }
  }
  return findings;
}

/** How a live read goes: prompts and resources too, as another client, with a progress line. */
export interface ReadOptions {
  catalog?: boolean;
  clientInfo?: { name: string; version: string } | null;
  /** Capabilities to declare in `initialize` (ConnectOptions.clientCapabilities). */
  clientCapabilities?: import("../connect/bounds.js").ConnectOptions["clientCapabilities"];
  progress?: boolean;
  /** A server launched already (launchEarly), to speak to instead of launching one. */
  early?: EarlyLaunch | null;
  /** The --from file read already (prereadFromFile), to use instead of reading it again. */
  preread?: PrereadFile | null;
}

/** A --from file read ahead: the first read takes its snapshot, or the error reading it gave. */
export interface PrereadFile {
  take: () => Promise<ServerSnapshot> | null;
}

/**
 * Read the --from file now. What went wrong is kept, not thrown, so it comes out where the file
 * is used and an earlier error (a missing lock) still comes first.
 */
export async function prereadFromFile(flags: SourceFlags): Promise<PrereadFile> {
  let read: Promise<ServerSnapshot> | null = snapshotFromSourceFile(flags);
  // Settled here, so the file's text is dropped before the caller goes on.
  await read.then(
    () => undefined,
    () => undefined,
  );
  return {
    take: () => {
      const taken = read;
      read = null;
      return taken;
    },
  };
}

async function snapshotFromSourceFile(flags: SourceFlags): Promise<ServerSnapshot> {
  return snapshotFromFile(await readJsonFile(flags.from as string, flags.fromWhat ?? "--from file"), flags.from as string);
}

/**
 * A stdio server started before the command's own preparation (reading the lock) is done, so the
 * server boots while it runs. Whoever speaks to it takes it once; `discard` ends it if nobody did
 * (the preparation failed).
 */
export interface EarlyLaunch {
  take: () => Launch | null;
  discard: () => Promise<void>;
}

/**
 * Start a stdio target's process now. Call only after loadVerdictModules(true) and the launch's
 * install lint, like any other launch.
 */
export async function launchEarly(target: StdioTarget & Target, warn: (text: string) => void): Promise<EarlyLaunch> {
  const launched = await startStdio(target, warn);
  // Wait for the spawn itself (a few ms): the containment probe before it finishes in a callback,
  // which the synchronous lock parse that follows would otherwise hold back until it is done.
  // A failed spawn is reported by the session's initialize, as for any launch.
  await launched.running.catch(() => undefined);
  let taken = false;
  return {
    take: () => {
      if (taken) return null;
      taken = true;
      return launched;
    },
    discard: async () => {
      if (taken) return;
      taken = true;
      launched.running.catch(() => undefined);
      await launched.server.transport.close();
    },
  };
}

async function startStdio(target: StdioTarget & Target, warn: (text: string) => void): Promise<Launch> {
  const { launchStdioServer } = await import("../connect/launch.js");
  for (const name of target.unset) {
    warn(`mcp-lint: warning: --pass-env ${name}: ${name} is not set here, so the server starts without it\n`);
  }
  return launchStdioServer(target);
}

/**
 * Launch or connect to the server and keep the session open (probes go on to call tools). The
 * snapshot in it is not redacted yet; `onStarted` runs once a launched server's process runs.
 */
export async function openSession(
  flags: SourceFlags,
  target: Target,
  redactor: Redactor,
  warn: (text: string) => void,
  read: ReadOptions = {},
  onStarted: () => void = () => {},
): Promise<OpenSession> {
  const options = {
    timeoutMs: flags.timeoutMs,
    startupTimeoutMs: flags.startupTimeoutMs,
    deadlineMs: flags.deadlineMs,
    clientVersion: flags.version,
    redactor,
    progress: read.progress ?? true,
    catalog: read.catalog === true,
    ...(read.clientInfo ? { clientInfo: read.clientInfo } : {}),
    ...(read.clientCapabilities ? { clientCapabilities: read.clientCapabilities } : {}),
    ...(target.kind === "http" && target.oauth != null
      ? { login: { settings: target.oauth, say: warn, waitMs: flags.startupTimeoutMs, env: process.env } }
      : {}),
  };
  if (target.kind === "stdio") {
    // A launched server runs as this user and can rewrite any file loaded after it starts (dist/,
    // node_modules/): the SDK client is loaded before the spawn, like the modules loadVerdictModules
    // loads (so it no longer overlaps the server's boot, about 100-250 ms).
    const { openStdioSession } = await import("../connect/stdio.js");
    const { server, running } = read.early?.take() ?? (await startStdio(target, warn));
    // A failed spawn is reported by the session's initialize; this only keeps the rejection handled.
    running.then(onStarted, onStarted);
    return openStdioSession(target, server, options);
  }
  onStarted();
  return (await import("../connect/http.js")).openHttpSession(target, options);
}

/**
 * Read the tools: launch or connect to the server (calling `onStarted` once it runs), read, and
 * close; or read the saved list. Secrets the server echoed are already redacted in what this returns.
 */
export async function readSnapshot(
  flags: SourceFlags,
  target: Target | null,
  redactor: Redactor,
  onStarted: () => void,
  warn: (text: string) => void,
  read: ReadOptions = {},
): Promise<ServerSnapshot> {
  if (target === null) return read.preread?.take() ?? snapshotFromSourceFile(flags);
  const session = await openSession(flags, target, redactor, warn, read, onStarted);
  let raw: ServerSnapshot;
  try {
    raw = session.snapshot;
  } finally {
    await session.close();
  }
  return target.secrets.length === 0 && !redactor.active ? raw : redactSnapshot(raw, redactor);
}
