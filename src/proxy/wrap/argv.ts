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
}

/** The args a wrapped entry runs before the original command: everything up to and including `--`. */
export function wrapPrefix(spec: WrapSpec): string[] {
  const lock = spec.argsAbsent ? [`--lock=${spec.lock}`] : ["--lock", spec.lock];
  return [...launcherArgs(spec.version, spec.launcher), "proxy", ...spec.passEnv.flatMap((name) => ["--pass-env", name]), ...lock, "--"];
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
  if (remote) return { prefixLength: argv.length - 1, original: [], argsAbsent: false, lock, remote: true };
  return { prefixLength: separator, original: argv.slice(separator + 1), argsAbsent: inline !== undefined, lock, remote: false };
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
}

/** The args of a wrapped remote entry (after `npx`): the proxy with --url and a --header-env per header. */
export function remoteArgs(spec: RemoteWrapSpec): string[] {
  const headers = spec.headerNames.flatMap((name, index) => ["--header-env", `${name}=${HEADER_VARIABLE_PREFIX}${index + 1}`]);
  return [...launcherArgs(spec.version, spec.launcher), "proxy", ...headers, "--lock", spec.lock, "--url", spec.url];
}
