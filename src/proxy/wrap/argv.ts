/** What a wrapped server runs: `<node> <mcp-lint's cli.js> proxy [flags] -- <original command and args>` (or `npx -y mcp-lint@<version> proxy ...`), and how to recognise and undo it. Pure. */

/**
 * How a wrapped entry starts mcp-lint. `node`: the node and the CLI file that ran `wrap`, by
 * absolute path (the default: it works offline and runs exactly the mcp-lint that locked the
 * server). `npx`: `npx -y mcp-lint@<version>`, which `wrap --npx` writes only once that exact
 * version is on the registry. `path`: the `mcp-lint` on the client's PATH (recognised when unwrapping).
 */
export type Launcher = { kind: "node"; node: string; cli: string } | { kind: "npx" } | { kind: "path" };

/** The command a wrapped entry runs. */
export function launcherCommand(launcher: Launcher): string {
  return launcher.kind === "node" ? launcher.node : launcher.kind === "npx" ? "npx" : "mcp-lint";
}

/** The launcher's own args, before `proxy`. */
function launcherArgs(version: string, launcher: Launcher): string[] {
  return launcher.kind === "node" ? [launcher.cli] : launcher.kind === "npx" ? ["-y", `mcp-lint@${version}`] : [];
}

/** How one entry is wrapped. */
export interface WrapSpec {
  version: string;
  launcher: Launcher;
  /** Absolute path of the server's lock. */
  lock: string;
  /** Environment variables the entry sets, passed on to the server by name (values stay in the config). */
  passEnv: string[];
  /**
   * The entry had no `args`: the lock flag is written `--lock=PATH` instead of `--lock PATH`, the
   * one mark unwrap needs to remove the whole `args` again rather than leave an empty list.
   */
  argsAbsent: boolean;
  /**
   * The config file (absolute) and the entry's name, written as `--from-config FILE --entry NAME`:
   * the proxy only names them in its review command (`lock --review --config FILE --server NAME`).
   */
  source?: { config: string; entry: string };
  /** `wrap --pin`: the proxy runs the package tree the lock pins (`--pinned`). */
  pinned?: boolean;
}

/** The args a wrapped entry runs before the original command: everything up to and including `--`. */
export function wrapPrefix(spec: WrapSpec): string[] {
  const lock = spec.argsAbsent ? [`--lock=${spec.lock}`] : ["--lock", spec.lock];
  const source = spec.source === undefined ? [] : ["--from-config", spec.source.config, "--entry", spec.source.entry];
  const pinned = spec.pinned === true ? ["--pinned"] : [];
  return [...launcherArgs(spec.version, spec.launcher), "proxy", ...spec.passEnv.flatMap((name) => ["--pass-env", name]), ...lock, ...source, ...pinned, "--"];
}

/** The whole wrapped argv (command first). */
export function wrappedArgv(spec: WrapSpec, original: readonly string[]): string[] {
  return [launcherCommand(spec.launcher), ...wrapPrefix(spec), ...original];
}

/** A wrapped argv taken apart. */
export interface Unwrapped {
  /** How many args belong to the wrapper (through `--`). */
  prefixLength: number;
  /** The original command and args. */
  original: string[];
  argsAbsent: boolean;
  lock: string | null;
  /** A remote server wrapped with `--url`: no original command, the entry's text is in its env. */
  remote: boolean;
}

/**
 * Recognise an argv that runs mcp-lint's proxy (wrapped by `wrap`, or by hand): a launcher
 * (node with mcp-lint's dist/cli.js, `npx`, `pnpm dlx`, `bunx`, or `mcp-lint` itself) running the proxy,
 * then `--` and the server. Null for any other argv, so nothing is wrapped twice.
 */
export function unwrapArgv(argv: readonly string[]): Unwrapped | null {
  const found = wrappedParts(argv);
  if (found === null) return null;
  const { flagsAt: _flagsAt, ...parts } = found;
  return parts;
}

/** unwrapArgv's answer and where the proxy's flags start. */
function wrappedParts(argv: readonly string[]): (Unwrapped & { flagsAt: number }) | null {
  const command =
    (argv[0] ?? "")
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(cmd|exe)$/i, "")
      .toLowerCase() ?? "";
  let at = 1;
  if (command === "node" || command === "nodejs") {
    // The default launcher: node and mcp-lint's CLI file by path (<package>/dist/cli.js).
    if (!/(^|[\\/])dist[\\/]cli\.js$/.test(argv[1] ?? "")) return null;
    at = 2;
  } else if (command === "npx" || command === "bunx" || command === "pnpx") {
    while (at < argv.length && /^(-y|--yes|--quiet|-q)$/.test(argv[at] as string)) at++;
    if (!/^mcp-lint(@[^\s]+)?$/.test(argv[at] ?? "")) return null;
    at++;
  } else if (command !== "mcp-lint") {
    return null;
  }
  if (argv[at] !== "proxy") return null;
  const separator = argv.indexOf("--", at + 1);
  const remote = separator < 0 && argv.includes("--url", at + 1);
  if (!remote && (separator < 0 || separator + 1 >= argv.length)) return null;
  const flags = argv.slice(at + 1, remote ? argv.length : separator);
  const inline = flags.find((flag) => flag.startsWith("--lock="));
  const spaced = flags.indexOf("--lock");
  const lock = inline !== undefined ? inline.slice("--lock=".length) : spaced >= 0 ? (flags[spaced + 1] ?? null) : null;
  if (remote) return { prefixLength: argv.length - 1, original: [], argsAbsent: false, lock, remote: true, flagsAt: at + 1 };
  return { prefixLength: separator, original: argv.slice(separator + 1), argsAbsent: inline !== undefined, lock, remote: false, flagsAt: at + 1 };
}

/** The proxy's flags of a wrapped argv that say what it launches and enforces, as `lock --config` reads them again. */
export interface ProxyArgs {
  /** `--lock`: the lock the proxy reads, as written (maybe relative). */
  lock: string | null;
  /** `--server`: the entry of a v2 lock it enforces. */
  server: string | null;
  failOn: string | null;
  passEnv: string[];
  url: string | null;
  /** `--header "Name: value"`, as written. */
  headers: string[];
  /** `--header-env Name=VARIABLE`, as written. */
  headerEnv: string[];
}

/** Proxy flags that take a value (`--name VALUE` or `--name=VALUE`); any other flag is a switch. */
const VALUE_FLAGS = new Set([
  "--lock",
  "--server",
  "--fail-on",
  "--audit",
  "--results",
  "--descriptions",
  "--pass-env",
  "--header",
  "--header-env",
  "--url",
  "--timeout",
  "--startup-timeout",
  "--deadline",
  "--known-bad",
  "--from-config",
  "--entry",
  "--oauth-client-id",
  "--oauth-client-secret-env",
  "--oauth-scope",
  "--oauth-redirect-port",
]);

/** Read the proxy's flags of an argv `unwrapArgv` recognises (null for any other argv); the last of a repeated single flag wins, as the CLI takes it. */
export function proxyArgs(argv: readonly string[]): ProxyArgs | null {
  const parts = wrappedParts(argv);
  if (parts === null) return null;
  const flags = argv.slice(parts.flagsAt, parts.remote ? argv.length : parts.prefixLength);
  const values = new Map<string, string[]>();
  for (let index = 0; index < flags.length; index++) {
    const flag = flags[index] as string;
    const equals = flag.indexOf("=");
    const name = flag.startsWith("--") && equals > 0 ? flag.slice(0, equals) : flag;
    if (!VALUE_FLAGS.has(name)) continue;
    const value = name === flag ? flags[++index] : flag.slice(equals + 1);
    if (value === undefined) break;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  const last = (name: string) => values.get(name)?.at(-1) ?? null;
  return {
    lock: last("--lock"),
    server: last("--server"),
    failOn: last("--fail-on"),
    passEnv: values.get("--pass-env") ?? [],
    url: last("--url"),
    headers: values.get("--header") ?? [],
    headerEnv: values.get("--header-env") ?? [],
  };
}

/** The env variable of a wrapped remote entry that holds the original entry's text, for unwrap. */
export const ORIGINAL_ENTRY_VARIABLE = "MCP_LINT_WRAPPED_ENTRY";
/** Header values of a wrapped remote entry go into env variables named so (`--header-env NAME=VAR`). */
export const HEADER_VARIABLE_PREFIX = "MCP_LINT_HEADER_";

/** How a remote entry is wrapped. */
export interface RemoteWrapSpec {
  version: string;
  launcher: Launcher;
  lock: string;
  url: string;
  /** Header names, in order; header n is sent from variable MCP_LINT_HEADER_<n>. */
  headerNames: string[];
  /** As in WrapSpec: the config and entry the proxy's review command names. */
  source?: { config: string; entry: string };
}

/** The args of a wrapped remote entry (after `npx`): the proxy with --url and a --header-env per header. */
export function remoteArgs(spec: RemoteWrapSpec): string[] {
  const headers = spec.headerNames.flatMap((name, index) => ["--header-env", `${name}=${HEADER_VARIABLE_PREFIX}${index + 1}`]);
  const source = spec.source === undefined ? [] : ["--from-config", spec.source.config, "--entry", spec.source.entry];
  return [...launcherArgs(spec.version, spec.launcher), "proxy", ...headers, "--lock", spec.lock, ...source, "--url", spec.url];
}
