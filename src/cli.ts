#!/usr/bin/env node
/** Command-line entry: parse flags with cac, run a command, map expected failures to one line and exit 2. */

import { readFileSync } from "node:fs";
import nodeModule from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { cac } from "cac";
import { didYouMean } from "./cli/suggest.js";
import { KnownBadRefusal, McpLintError, UsageError } from "./errors.js";
import type { FailOn } from "./lock/engine.js";
import type { ResultsMode } from "./proxy/results.js";
import type { Output } from "./cli/source.js";
import { LineStartGuard } from "./text/line-start.js";
import { neutralize } from "./text/neutralize.js";
import { styleFor } from "./report/style.js";
import { pushAll } from "./arrays.js";

const FAIL_ON_LEVELS = ["info", "warning", "error", "never"] as const;
const DEFAULT_TIMEOUT_SECONDS = 30;
// A first `npx -y` download can take a minute or more; the whole run is bounded too (100 pages of 30 s each would be 50 minutes).
const DEFAULT_STARTUP_SECONDS = 120;
const DEFAULT_DEADLINE_SECONDS = 600;

function packageVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  const version = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === "string" ? version : "0.0.0";
}

/**
 * Node 22.1+ can keep the compiled code of the chunks a command loads between runs (about 7% of a
 * `lock --check --url` on Node 24 here); Node 20 has no such cache. It goes in the user's own cache
 * folder, never Node's default in the shared temporary folder, where another user could plant
 * compiled code. NODE_DISABLE_COMPILE_CACHE=1 turns it off; NODE_COMPILE_CACHE=DIR moves it.
 */
function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: (directory?: string) => unknown }).enableCompileCache;
  if (enable === undefined) return;
  try {
    enable(process.env.NODE_COMPILE_CACHE ? undefined : join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "mcp-lint", "node-compile-cache"));
  } catch {
    // A cache is only an optimisation.
  }
}

/** Run the CLI with the given arguments (without `node` and the script); returns the exit code. */
export async function main(args: readonly string[], output: Output): Promise<number> {
  let argv = args;
  const version = packageVersion();
  // `mcp-lint help [command]` is `mcp-lint [command] --help`; `--version` prints the bare version.
  if (argv[0] === "help") argv = [...argv.slice(1, 2), "--help"];
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    output.out(`${version}\n`);
    return 0;
  }
  argv = glueStdoutJson(argv);
  const cli = cac("mcp-lint");
  let task: Promise<number> | null = null;
  sourceOptions(cli.command("lock", "Record a server's tools in a lockfile, or check the live server against it (--check)"))
    .usage(
      "lock [--check] [--accept] [--accept-tool NAME]... [--review] [--brief] [--lock PATH] [--fail-on LEVEL] [--json PATH] ( --from FILE | --config FILE [--server NAME]... | --url URL | -- command args... )",
    )
    .option("--lock <path>", "Lockfile to write or check", { default: "mcp-lint.lock" })
    .option("--from <file>", "Read a saved tools/list result instead of launching a server")
    .option("--check", "Compare with the lock and report; never write it")
    .option("--accept", "Write the lock even when the changes include errors (after reviewing them)")
    .option("--fail-on <level>", "With --check: lowest severity that exits 1 (info, warning, error, never)", { default: "warning" })
    .option("--json <path>", "Also write the report as JSON to this file (- for stdout; the report then goes to stderr)")
    .option("--sarif <path>", "Also write the changes and hidden-text findings as SARIF 2.1.0 to this file")
    .option("--config <file>", "Lock every server of an MCP client config file into one lock (format v2)")
    .option("--server <name>", "With --config: only this server (repeatable); alone: the entry of a v2 lock to use")
    .option("--jobs <n>", "With --config: servers read at once (default 4)")
    .option("--accept-tool <name>", "Accept the changes of this tool or prompt only (SERVER/NAME with --config; repeatable)")
    .option("--review", "On a terminal: show each change that would be refused and ask y/n/j/q/? (accepted ones are written as --accept-tool would)")
    .option("--ignore <rule>", "Record an ignore rule in the lock for the change at TOOL:JSON-PATH (with --reason; v2 locks)")
    .option("--reason <text>", "Why the --ignore rule is granted; stored in the lock")
    .option("--as-client <identity>", "Also read the server as client NAME/VERSION and report where it serves something else (repeatable)")
    .option("--brief", "On a first lock, list only each tool's description and the instructions, not every string the model reads")
    .option("--no-artifact", "Neither record nor check what the launch runs (its npm package, dependency tree and provenance)", { default: "record and check" })
    .option("--registry-keys <file>", "The npm registry's signing keys as its /-/npm/v1/keys serves them, for a registry that does not serve them")
    .option("--trusted-root <file>", "A Sigstore trusted root (JSON) to verify provenance with, instead of the public-good instance's")
    .example("mcp-lint lock -- npx -y some-server@1.2.3")
    .example("mcp-lint lock --check -- npx -y some-server@1.2.3")
    .example("mcp-lint lock --check --from tools.json")
    .action((options: Record<string, unknown>) => {
      task = import("./cli/lock.js").then(({ runLock }) =>
        runLock(
          {
            lock: single(options.lock, "--lock") ?? "mcp-lint.lock",
            from: single(options.from, "--from"),
            check: flag(options.check, "--check"),
            accept: flag(options.accept, "--accept"),
            failOn: failOn(options.failOn),
            json: single(options.json, "--json"),
            sarif: single(options.sarif, "--sarif"),
            ...sourceValues(options),
            config: single(options.config, "--config"),
            servers: list(options.server, "--server", /^[\s\S]+$/, "a server name"),
            jobs: jobCount(options.jobs),
            acceptTools: list(options.acceptTool, "--accept-tool", /^[\s\S]+$/, "a tool or prompt name"),
            review: flag(options.review, "--review"),
            ignores: list(options.ignore, "--ignore", /^[\s\S]+$/, "TOOL:JSON-PATH"),
            reason: single(options.reason, "--reason"),
            asClients: list(options.asClient, "--as-client", /^[\s\S]+$/, "NAME/VERSION"),
            brief: flag(options.brief, "--brief"),
            // cac reads --no-artifact as artifact: false.
            ...(options.artifact === false ? { artifact: false } : {}),
            registryKeys: single(options.registryKeys, "--registry-keys"),
            trustedRoot: single(options.trustedRoot, "--trusted-root"),
            version,
          },
          output,
        ),
      );
    });
  cli
    .command("check-config [...files]", "Check MCP client config files for unpinned or known-bad server launches (rule I1)")
    .usage("check-config [FILE...] [--fail-on LEVEL] [--min-severity LEVEL] [--json PATH] [--sarif PATH] [--known-bad FILE]")
    .option("--fail-on <level>", "Lowest severity that exits 1 (info, warning, error, never)", { default: "warning" })
    .option("--min-severity <level>", "Hide findings below this severity in the terminal report", { default: "info" })
    .option("--json <path>", "Also write the findings as JSON to this file (- for stdout; the report then goes to stderr)")
    .option("--sarif <path>", "Also write the findings as SARIF 2.1.0 to this file")
    .option("--known-bad <file>", "Add known-bad releases from a JSON file (same shape as the built-in list)")
    .example("mcp-lint check-config")
    .example("mcp-lint check-config ~/.claude.json .mcp.json --fail-on error")
    .action((files: string[], options: Record<string, unknown>) => {
      const minSeverity = failOn(options.minSeverity, "--min-severity");
      if (minSeverity === "never") throw new UsageError("--min-severity must be one of info, warning, error");
      task = import("./cli/check-config.js").then(({ runCheckConfig }) =>
        runCheckConfig(
          {
            files,
            failOn: failOn(options.failOn),
            minSeverity,
            json: single(options.json, "--json"),
            sarif: single(options.sarif, "--sarif"),
            knownBad: single(options.knownBad, "--known-bad"),
            version,
          },
          output,
        ),
      );
    });
  // `run` and `check` (issue 12): lint a live server or a saved tools/list result.
  const lintCommand = (name: "run" | "check", file: string | null, options: Record<string, unknown>) => {
    const minSeverity = failOn(options.minSeverity ?? "info", "--min-severity");
    if (minSeverity === "never") throw new UsageError("--min-severity must be one of info, warning, error");
    task = import("./cli/lint.js").then(({ runLint, lintFlagValues, probeFlagValues }) =>
      runLint(
        {
          mode: name,
          probeFlags: probeFlagValues(options),
          from: file,
          fromWhat: "tools file",
          json: single(options.json, "--json"),
          sarif: single(options.sarif, "--sarif"),
          minSeverity,
          failOn: failOn(options.failOn ?? "error"),
          ...lintFlagValues(options),
          ...sourceValues(options),
          version,
        },
        output,
      ),
    );
  };
  const lintOptions = (command: ReturnType<typeof cli.command>) =>
    command
      .option("--json <path>", "Also write the report as JSON to this file (- for stdout; the report then goes to stderr)")
      .option("--sarif <path>", "Also write the findings as SARIF 2.1.0 to this file")
      .option("--min-severity <level>", "Hide terminal findings below this severity (info, warning, error)")
      .option("--fail-on <level>", "Lowest severity that exits 1 (info, warning, error, never; default error)")
      .option("--fail-under <score>", "Also exit 1 when the server score (0-100) is below this")
      .option("--disable <rules>", "Rule IDs not to run, comma-separated (repeatable)")
      .option("--portability <mode>", "default, or strict to add the opt-in portability rules")
      .option("--format-allowlist <formats>", "Formats schema-format-portability accepts besides OpenAI's nine, comma-separated");
  sourceOptions(lintOptions(cli.command("run", "Lint a live server's tools (rules S1-S8, definition rules, score)")))
    .usage(
      "run [--json PATH] [--sarif PATH] [--fail-on LEVEL] [--fail-under SCORE] [--probe FIXTURES] [--error-probes] [--probe-timeout SECONDS] [--include-responses] ( --url URL [--header ...] | [--pass-env NAME]... -- command args... )",
    )
    // Probes (issue 15): call the tools a fixtures file lists and judge the answers (rules P1-P5, format-parity).
    .option("--probe <fixtures>", "Also call the tools this fixtures file lists (see mcp-lint init-fixtures) and check the answers")
    .option("--error-probes", "Also send generated bad arguments to every read-only tool and check the errors (P4)")
    .option("--probe-timeout <seconds>", "Bound on each probe call; a call over it is cancelled (default 30)")
    .option("--include-responses", "Keep whole probe responses in --json instead of a 400-character preview")
    .example("mcp-lint run -- npx -y @modelcontextprotocol/server-everything@2026.1.26")
    .example("mcp-lint run --url https://example.com/mcp --header-env Authorization=MCP_AUTH --sarif mcp-lint.sarif")
    .action((options: Record<string, unknown>) => lintCommand("run", null, options));
  lintOptions(cli.command("check <file>", "Lint a saved tools/list result ({tools}, a JSON-RPC response or an array of tools)"))
    .usage("check FILE [--json PATH] [--sarif PATH] [--min-severity LEVEL] [--fail-on LEVEL] [--fail-under SCORE] [--disable RULES]")
    .example("mcp-lint check tools.json --json report.json --sarif mcp-lint.sarif")
    .action((file: string, options: Record<string, unknown>) => lintCommand("check", file, options));
  // `init-fixtures` (issue 15): a starter fixtures file for `run --probe`.
  sourceOptions(cli.command("init-fixtures <file>", "Write a starter fixtures file for run --probe: one skipped probe per tool, arguments from its schema"))
    .usage("init-fixtures FILE [--force] ( --url URL [--header ...] | [--pass-env NAME]... -- command args... )")
    .option("--force", "Overwrite FILE if it exists")
    .example("mcp-lint init-fixtures fixtures.json -- npx -y @modelcontextprotocol/server-filesystem@2026.1.14 ./sandbox")
    .action((file: string, options: Record<string, unknown>) => {
      task = import("./cli/init-fixtures.js").then(({ runInitFixtures }) =>
        runInitFixtures(
          {
            file,
            force: flag(options.force, "--force"),
            from: null,
            ...sourceValues(options),
            version,
          },
          output,
        ),
      );
    });
  // `proxy`, `wrap` and `unwrap` (issue 13).
  // For the proxy, --timeout bounds each request it makes itself and --deadline each whole read of the tool list.
  sourceOptions(
    cli.command("proxy", "Serve a server to an MCP client over stdio, enforcing its lock (--lock) and/or fixing long results, errors and descriptions"),
  )
    .usage(
      "proxy [--lock PATH [--fail-on LEVEL] [--from-config FILE --entry NAME]] [--audit FILE] [--results strict|clean|off] [--[no-]paging] [--[no-]errors] [--descriptions FILE] [--pinned [--allow-install-scripts]] ( --url URL [--header ...] | [--pass-env NAME]... -- command args... )",
    )
    .option("--lock <path>", "Enforce this lock: withhold changed and new tools (and prompts and resources a v2 lock pins), serve the locked instructions")
    .option("--server <name>", "With --lock: the server to enforce in a lock that holds several")
    .option("--from-config <file>", "With --lock and --entry: the client config this proxy runs from, named in its review command (wrap writes it)")
    .option("--entry <name>", "With --from-config: the server's name in that config")
    .option("--fail-on <level>", "With --lock: lowest change severity that withholds a tool (info, warning, error, never; default warning)")
    .option("--audit <file>", "Append every comparison, withheld tool and refused call to this file as JSON lines")
    .option(
      "--results <mode>",
      "Answers to calls, prompts/get and resources/read: clean removes hidden text and logs poisoning, strict also withholds a poisoned answer, off passes them untouched (default clean)",
    )
    // cac shows a negated option's default; the fixes' default depends on --lock, so say that.
    .option("--paging", "Cut results over ~2,000 tokens to a page and give every tool offset/limit")
    .option("--no-paging", "Turn paging off", { default: "on without --lock, off with it" })
    .option("--errors", "Mark error text returned as a success with isError")
    .option("--no-errors", "Turn the errors fix off", { default: "on without --lock, off with it" })
    .option("--descriptions <file>", "Replace tool descriptions from a JSON file of tool name to description")
    .option(
      "--pinned",
      "With --lock: run the npm package tree the lock pins (installed exactly, integrity checked, into a cache) instead of what npx would fetch today",
    )
    .option("--allow-install-scripts", "With --pinned: run the install scripts the lock records (off by default)")
    .example("mcp-lint proxy --lock mcp-lint.lock -- npx -y some-server@1.2.3")
    .example("mcp-lint proxy --descriptions fixes.json -- uvx mcp-server-git")
    .action((options: Record<string, unknown>) => {
      const given = (name: string): boolean | null => {
        const before = argv.indexOf("--") < 0 ? argv : argv.slice(0, argv.indexOf("--"));
        const last = before.findLast((arg) => arg === `--${name}` || arg === `--no-${name}`);
        return last === undefined ? null : last === `--${name}`;
      };
      const written = (name: string): string => {
        if (Array.isArray(options[name])) throw new UsageError(`--${name} was given more than once`);
        const before = argv.indexOf("--") < 0 ? argv : argv.slice(0, argv.indexOf("--"));
        const at = before.findLastIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
        const arg = before[at] ?? "";
        const value = arg === `--${name}` ? (before[at + 1] ?? "") : arg.slice(name.length + 3);
        if (value === "") throw new UsageError(`--${name} needs a value`);
        return value;
      };
      task = import("./cli/proxy.js").then(({ runProxy }) =>
        runProxy(
          {
            lock: single(options.lock, "--lock"),
            server: single(options.server, "--server"),
            fromConfig: single(options.fromConfig, "--from-config"),
            // As written: cac reads a name such as 007 as the number 7.
            entry: options.entry === undefined ? null : written("entry"),
            failOn: options.failOn === undefined ? null : failOn(options.failOn),
            audit: single(options.audit, "--audit"),
            paging: given("paging"),
            errors: given("errors"),
            descriptions: single(options.descriptions, "--descriptions"),
            results: resultsMode(options.results),
            pinned: flag(options.pinned, "--pinned"),
            allowInstallScripts: flag(options.allowInstallScripts, "--allow-install-scripts"),
            from: null,
            ...sourceValues(options),
            version,
          },
          output,
        ),
      );
    });
  cli
    .command("wrap [...files]", "Put mcp-lint proxy --lock in front of every stdio server of client config files, locking each first")
    .usage("wrap FILE... [--dry-run] [--verbose] [--include-remote] [--lock-dir DIR] [--npx] [--pin] [--known-bad FILE]")
    .option("--dry-run", "Print the changes as a diff; write nothing and start nothing")
    .option("--verbose", "Also print each first lock's whole listing (every string the model reads, with its findings) on stderr")
    .option("--include-remote", "Also wrap remote (HTTP) servers")
    .option("--lock-dir <dir>", "Keep the locks here instead of next to each config (project) or in your config folder (user)")
    .option("--npx", "Write npx -y mcp-lint@<this version> instead of this node and mcp-lint by path (refused unless that version is on your npm registry)")
    .option("--pin", "Write proxy --pinned for servers launched through an npm package runner: they run the package tree their lock pins")
    .option("--installed", "This node and mcp-lint by absolute path (the default; works offline)")
    .option("--known-bad <file>", "Add known-bad releases from a JSON file (same shape as the built-in list)")
    .option("--timeout <seconds>", `Bound on each request while locking (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option("--startup-timeout <seconds>", `Bound on starting each server to lock it (default ${DEFAULT_STARTUP_SECONDS})`)
    .option("--deadline <seconds>", `Bound on locking each server (default ${DEFAULT_DEADLINE_SECONDS})`)
    .example("mcp-lint wrap ~/.config/Claude/claude_desktop_config.json --dry-run")
    .action((files: string[], options: Record<string, unknown>) => {
      task = import("./cli/wrap.js").then(({ runWrap }) =>
        runWrap(
          {
            files,
            dryRun: flag(options.dryRun, "--dry-run"),
            includeRemote: flag(options.includeRemote, "--include-remote"),
            lockDir: single(options.lockDir, "--lock-dir"),
            npx: flag(options.npx, "--npx"),
            pin: flag(options.pin, "--pin"),
            installed: flag(options.installed, "--installed"),
            knownBad: single(options.knownBad, "--known-bad"),
            verbose: flag(options.verbose, "--verbose"),
            ...bounds(options),
            version,
          },
          output,
        ),
      );
    });
  cli
    .command("unwrap [...files]", "Take mcp-lint proxy out of client config files again, restoring each wrapped server as it was")
    .usage("unwrap FILE... [--dry-run]")
    .option("--dry-run", "Print the changes as a diff; write nothing")
    .action((files: string[], options: Record<string, unknown>) => {
      task = import("./cli/wrap.js").then(({ runUnwrap }) => runUnwrap({ files, dryRun: flag(options.dryRun, "--dry-run") }, output));
    });
  // `crosscheck` (issue 27): what real clients show their model, against tools/list.
  sourceOptions(cli.command("crosscheck", "Run real MCP clients against a server and report how the tools they show their model differ from tools/list"))
    .usage(
      "crosscheck [--clients LIST] [--client-bin NAME=PATH]... [--baseline FILE [--update-baseline]] [--json PATH] [--sarif PATH] [--fail-on LEVEL] ( --url URL [--header ...] | [--pass-env NAME]... -- command args... )",
    )
    .option("--clients <list>", "Clients to run, comma-separated: claude-code, codex, gemini-cli, inspector (default all; a missing one is skipped)")
    .option("--client-bin <pair>", "Run client NAME from PATH instead of looking it up on PATH, as NAME=PATH (repeatable)")
    .option("--baseline <file>", "Acknowledge the reviewed rendering drift this file lists")
    .option("--update-baseline", "Rewrite --baseline with this run's findings for the clients that ran")
    .option("--json <path>", "Also write the report as JSON to this file (- for stdout; the report then goes to stderr)")
    .option("--sarif <path>", "Also write the findings as SARIF 2.1.0 to this file")
    .option("--min-severity <level>", "Hide terminal findings below this severity (info, warning, error)")
    .option("--fail-on <level>", "Lowest severity that exits 1 (info, warning, error, never; default error)")
    .example("mcp-lint crosscheck -- node ./dist/index.js")
    .example("mcp-lint crosscheck --clients claude-code,inspector --baseline crosscheck-baseline.json -- npx -y some-server@1.2.3")
    .action((options: Record<string, unknown>) => {
      const minSeverity = failOn(options.minSeverity ?? "info", "--min-severity");
      if (minSeverity === "never") throw new UsageError("--min-severity must be one of info, warning, error");
      task = import("./cli/crosscheck.js").then(({ runCrosscheck }) =>
        runCrosscheck(
          {
            clients: list(options.clients, "--clients", /^[\s\S]+$/, "a client name").flatMap((item) => item.split(",").map((part) => part.trim())),
            clientBins: list(options.clientBin, "--client-bin", /^[\s\S]+$/, "NAME=PATH"),
            baseline: single(options.baseline, "--baseline"),
            updateBaseline: flag(options.updateBaseline, "--update-baseline"),
            json: single(options.json, "--json"),
            sarif: single(options.sarif, "--sarif"),
            failOn: failOn(options.failOn ?? "error"),
            minSeverity,
            from: null,
            ...sourceValues(options),
            version,
          },
          output,
        ),
      );
    });
  // `eval` (issue 28): do the fixes help a real agent? Tasks run direct and behind the proxy.
  cli
    .command("eval [dir]", "Measure whether mcp-lint proxy's fixes help an agent: --setup the tasks, --run them direct and proxied, --report")
    .usage(
      "eval (--setup | --run | --report) [DIR] [--split test|train|all] [--runs N] [--agent CMD] [--model NAME] [--tasks IDS] [--arms direct,proxy] [--allow-uncontained]",
    )
    .option("--setup", "Write the task set, build the sandbox and install the servers into DIR (default mcp-lint-eval)")
    .option("--run", "Run every task of the split once direct and once behind the proxy per run; appends to DIR/results.jsonl, skipping finished runs")
    .option("--report", "Print the tables of DIR/results.jsonl and write DIR/report.md and DIR/success.svg")
    .option("--split <split>", "With --run: test (default), train or all")
    .option("--runs <n>", "With --run: runs per task and arm (default 1)")
    .option("--agent <command>", "With --run: the agent command, Claude Code's headless contract (default claude)")
    .option("--model <name>", "With --run: the model the agent is asked for (default haiku)")
    .option("--max-turns <n>", "With --run: the agent's turn bound (default 20)")
    .option("--agent-timeout <seconds>", "With --run: bound on one agent run (default 300)")
    .option("--tasks <ids>", "With --run: only these tasks, comma-separated")
    .option("--arms <arms>", "With --run: direct, proxy or both (default direct,proxy)")
    .option(
      "--pass-env <name>",
      "With --run: also pass this variable to the agent (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN and ANTHROPIC_BASE_URL always are; repeatable)",
    )
    .option("--markdown <path>", "With --report: where the Markdown report goes (default DIR/report.md)")
    .option("--svg <path>", "With --report: where the chart goes (default DIR/success.svg)")
    .option("--no-pid-namespace", "Start the agent without a PID namespace of its own (Linux); the servers still get theirs", {
      default: "a namespace where available",
    })
    .option("--allow-uncontained", "With --run: run with a model key even where the servers cannot get a PID namespace (a server could read the key)")
    .example("mcp-lint eval --setup")
    .example("mcp-lint eval --run --split test --runs 3")
    .example("mcp-lint eval --report")
    .action((dir: string | undefined, options: Record<string, unknown>) => {
      const modes = (["setup", "run", "report"] as const).filter((mode) => flag(options[mode], `--${mode}`));
      if (modes.length !== 1) throw new UsageError("eval takes one of --setup, --run or --report");
      const whole = (value: unknown, name: string, fallback: number, max: number) => {
        const text = single(typeof value === "number" ? String(value) : value, name) ?? String(fallback);
        const amount = Number(text);
        if (!Number.isInteger(amount) || amount < 1 || amount > max)
          throw new UsageError(`${name} takes a whole number from 1 to ${max}, not ${JSON.stringify(text)}`);
        return amount;
      };
      const split = single(options.split, "--split") ?? "test";
      if (split !== "test" && split !== "train" && split !== "all") throw new UsageError(`--split must be test, train or all, not ${JSON.stringify(split)}`);
      const arms = (single(options.arms, "--arms") ?? "direct,proxy").split(",").map((arm) => arm.trim());
      if (arms.length === 0 || arms.some((arm) => arm !== "direct" && arm !== "proxy") || new Set(arms).size !== arms.length) {
        throw new UsageError(`--arms takes direct, proxy or direct,proxy, not ${JSON.stringify(options.arms)}`);
      }
      task = import("./cli/eval.js").then(({ runEval, DEFAULT_EVAL_DIR }) =>
        runEval(
          {
            mode: modes[0] as "setup" | "run" | "report",
            dir: dir ?? DEFAULT_EVAL_DIR,
            split,
            runs: whole(options.runs, "--runs", 1, 100),
            agent: single(options.agent, "--agent") ?? "claude",
            model: single(options.model, "--model") ?? "haiku",
            maxTurns: whole(options.maxTurns, "--max-turns", 20, 500),
            agentTimeoutMs: whole(options.agentTimeout, "--agent-timeout", 300, 86_400) * 1000,
            tasks: (single(options.tasks, "--tasks") ?? "")
              .split(",")
              .map((id) => id.trim())
              .filter((id) => id !== ""),
            arms: arms as ("direct" | "proxy")[],
            passEnv: list(options.passEnv, "--pass-env", /^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name"),
            markdown: single(options.markdown, "--markdown"),
            svg: single(options.svg, "--svg"),
            pidNamespace: options.pidNamespace !== false,
            allowUncontained: flag(options.allowUncontained, "--allow-uncontained"),
          },
          output,
        ),
      );
    });
  cli
    .command("logout [url]", "Forget the OAuth login kept for a remote server (every login without a URL)")
    .usage("logout [URL]")
    .example("mcp-lint logout https://mcp.example.com/mcp")
    .action((url: string | undefined) => {
      task = import("./cli/logout.js").then(({ runLogout }) => runLogout(url ?? null, output));
    });
  cli.help();
  cli.option("-v, --version", "Print the version");
  argv = camelBooleanFlags(argv, cli);
  try {
    cli.parse(["node", "mcp-lint", ...argv], { run: false });
  } catch (error) {
    throw new UsageError(`${cacMessage(error)}; see mcp-lint --help`);
  }
  const { options } = cli;
  if (options.help) return 0;
  if (options.version) {
    output.out(`${version}\n`);
    return 0;
  }
  if (cli.matchedCommand === undefined) {
    const name = cli.args[0];
    if (name === undefined) {
      // An option without a command is a typo, not a request for help: one line, as for any bad flag.
      const first = argv[0];
      if (first?.startsWith("-") && first !== "--") throw new UsageError(`unknown option ${first.split("=")[0]}; see mcp-lint --help`);
      cli.outputHelp();
      throw new UsageError("no command given; run mcp-lint help to list the commands");
    }
    const commands = cli.commands.map((command) => command.name.split(" ")[0] as string).filter((command) => command !== "");
    throw new UsageError(`unknown command ${JSON.stringify(name)}${didYouMean(name, commands)}; see mcp-lint --help`);
  }
  const matched = cli.matchedCommand;
  try {
    cli.runMatchedCommand();
  } catch (error) {
    if (error instanceof McpLintError) throw error;
    throw new UsageError(
      `${explainCacError(cacMessage(error), matched.name.split(" ")[0] as string, [...matched.options, ...cli.globalCommand.options])}; see mcp-lint --help`,
    );
  }
  return task === null ? 0 : await task;
}

/** The options every command that reads a server takes (lock, run, init-fixtures, proxy). */
function sourceOptions<T extends ReturnType<ReturnType<typeof cac>["command"]>>(command: T): T {
  return command
    .option("--pass-env <name>", "Pass this environment variable to the server (repeatable)")
    .option("--timeout <seconds>", `Bound on each request (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option(
      "--startup-timeout <seconds>",
      `Bound on starting a launched server and its initialize (default ${DEFAULT_STARTUP_SECONDS}, or --timeout when given)`,
    )
    .option("--deadline <seconds>", `Bound on the whole run (default ${DEFAULT_DEADLINE_SECONDS})`)
    .option("--url <url>", "Connect to a Streamable HTTP endpoint (SSE fallback) instead of launching a command")
    .option("--header <header>", "With --url: send 'NAME: VALUE' (not for secrets; repeatable)")
    .option("--header-env <pair>", "With --url: send header NAME with the value of environment variable VAR, as NAME=VAR (repeatable)")
    .option("--known-bad <file>", "Add known-bad releases from a JSON file (same shape as the built-in list)")
    .option("--no-oauth", "With --url: never log in (the MCP authorization flow), even when the server asks", { default: "log in when asked" })
    .option("--oauth-client-id <id>", "With --url: log in as this client, registered beforehand with the authorization server")
    .option("--oauth-client-secret-env <var>", "With --url: the client's secret is in environment variable VAR")
    .option("--oauth-client-credentials", "With --url: the client-credentials grant (machine to machine, no browser; for CI)")
    .option("--oauth-private-key-env <var>", "With --oauth-client-credentials: authenticate with a private-key JWT, the PEM key in environment variable VAR")
    .option("--oauth-jwt-alg <alg>", "With --oauth-private-key-env: the key's algorithm (default RS256; ES256 and others)")
    .option("--oauth-client-metadata-url <url>", "With --url: an https:// client ID metadata document to use as the client ID where the server supports them")
    .option("--oauth-scope <scopes>", "With --url: the scopes to ask for when the server names none (space-separated)")
    .option("--oauth-issuer <url>", "With --oauth-client-credentials: the only authorization server the client's credentials may go to")
    .option("--no-pid-namespace", "Start a launched server without a PID namespace of its own (Linux), for a server that must see or signal other processes", {
      default: "a namespace where available",
    }) as T;
}

/** Those options' values, checked for shape, and the server command after `--`. */
function sourceValues(options: Record<string, unknown>) {
  return {
    passEnv: list(options.passEnv, "--pass-env", /^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name such as API_TOKEN"),
    ...bounds(options),
    command: (options["--"] as string[] | undefined) ?? [],
    url: single(options.url, "--url"),
    headers: list(options.header, "--header", /^[\s\S]+$/, "'NAME: VALUE'"),
    headerEnv: list(options.headerEnv, "--header-env", /^[\s\S]+$/, "NAME=VAR"),
    knownBad: single(options.knownBad, "--known-bad"),
    oauth: {
      // cac reads --no-oauth as oauth: false.
      enabled: options.oauth !== false,
      clientId: single(options.oauthClientId, "--oauth-client-id"),
      clientSecretEnv: single(options.oauthClientSecretEnv, "--oauth-client-secret-env"),
      clientCredentials: flag(options.oauthClientCredentials, "--oauth-client-credentials"),
      privateKeyEnv: single(options.oauthPrivateKeyEnv, "--oauth-private-key-env"),
      jwtAlg: single(options.oauthJwtAlg, "--oauth-jwt-alg"),
      clientMetadataUrl: single(options.oauthClientMetadataUrl, "--oauth-client-metadata-url"),
      scope: single(options.oauthScope, "--oauth-scope"),
      issuer: single(options.oauthIssuer, "--oauth-issuer"),
    },
    // cac reads --no-pid-namespace as pidNamespace: false; it is true (or the help's default text) otherwise.
    ...(options.pidNamespace === false ? { pidNamespace: false } : {}),
  };
}

/** cac reads a lone "-" as a missing value; `--json -` (stdout) is passed on as `--json=-`. Server args after `--` stay as given. */
/**
 * cac tells its argument parser which options are booleans by their camel-case names, but the
 * parser matches the names as typed, so `wrap --dry-run config.json` read the file name as the
 * flag's value. Before `--`, a kebab-case boolean flag is passed in the camel-case form the parser
 * recognises (cac maps both to the same option).
 */
function camelBooleanFlags(argv: readonly string[], cli: ReturnType<typeof cac>): string[] {
  const booleans = new Map<string, string>();
  for (const command of [cli.globalCommand, ...cli.commands]) {
    for (const option of command.options) {
      const long = optionFlags(option).find((part) => /^--[a-z0-9]+(-[a-z0-9]+)+$/.test(part));
      if (option.isBoolean && !option.negated && long !== undefined) booleans.set(long, `--${option.name}`);
    }
  }
  const end = argv.indexOf("--");
  return argv.map((arg, index) => ((end < 0 || index < end) && booleans.get(arg)) || arg);
}

function glueStdoutJson(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === "--") {
      pushAll(out, argv.slice(index));
      break;
    }
    if (arg === "--json" && argv[index + 1] === "-") {
      out.push("--json=-");
      index++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Commands that launch a server after `--`. */
const LAUNCHING = new Set(["lock", "run", "proxy", "init-fixtures"]);

/**
 * cac's own words, made useful: an unknown option gets the closest known one, and arguments left
 * over (a server command without `--` in front of it) are named with the fix.
 */
function explainCacError(message: string, command: string, options: readonly { rawName: string }[]): string {
  const unknown = /^Unknown option (\S+)$/.exec(message);
  if (unknown !== null) {
    // cac reports --pass-evn as --passEvn; show it as typed.
    const word = unknown[1]?.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) as string;
    // cac also reports `--no-x` as `--x`, and accepts `--x` for a negated `--no-x`, so both are candidates.
    const known = options.flatMap(optionFlags).flatMap((flag) => (flag.startsWith("--no-") ? [flag, `--${flag.slice(5)}`] : [flag]));
    return `unknown option ${word}${didYouMean(word, [...new Set(known)])}`;
  }
  const unused = /^Unused args: (.*)$/.exec(message);
  if (unused !== null) {
    const args = unused[1] as string;
    if (LAUNCHING.has(command)) {
      const first = args.split(", ")[0] ?? "";
      return `unexpected arguments ${args}: a server's command goes after --, as in mcp-lint ${command} -- ${first}${args.includes(", ") ? " ..." : ""}`;
    }
    return `unexpected arguments ${args}`;
  }
  return message;
}

/** The flags an option is written as, from its declaration: `--pass-env`, `-v` and `--version`, `--no-pid-namespace`. */
function optionFlags(option: { rawName: string }): string[] {
  return option.rawName
    .split(",")
    .map((part) => part.trim().split(/[\s<[]/)[0] as string)
    .filter((flag) => flag.startsWith("-"));
}

function cacMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/`/g, "");
}

function single(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) throw new UsageError(`${name} was given more than once`);
  if (typeof value !== "string" || value === "") throw new UsageError(`${name} needs a value`);
  return value;
}

function flag(value: unknown, name: string): boolean {
  if (Array.isArray(value)) throw new UsageError(`${name} was given more than once`);
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  throw new UsageError(`${name} takes no value`);
}

function list(value: unknown, name: string, shape: RegExp, what: string): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return values.map((item) => {
    // cac turns a value that looks like a number into one (--server 123); names are text.
    const text = typeof item === "number" ? String(item) : item;
    if (typeof text !== "string" || !shape.test(text)) throw new UsageError(`${name} takes ${what}`);
    return text;
  });
}

/** The `--results` modes (listed here so the CLI's start loads nothing of the proxy). */
const RESULTS_MODES: readonly ResultsMode[] = ["strict", "clean", "off"];

/** `--results`: strict, clean or off; null when not given. */
function resultsMode(value: unknown): ResultsMode | null {
  const text = single(value, "--results");
  if (text === null) return null;
  if (!(RESULTS_MODES as readonly string[]).includes(text))
    throw new UsageError(`--results must be one of ${RESULTS_MODES.join(", ")}, not ${JSON.stringify(text)}`);
  return text as ResultsMode;
}

function failOn(value: unknown, flagName = "--fail-on"): FailOn {
  const text = single(typeof value === "number" ? String(value) : value, flagName) ?? "warning";
  if (!(FAIL_ON_LEVELS as readonly string[]).includes(text)) {
    const levels = flagName === "--fail-on" ? FAIL_ON_LEVELS : FAIL_ON_LEVELS.filter((level) => level !== "never");
    throw new UsageError(`${flagName} must be one of ${levels.join(", ")}, not ${JSON.stringify(text)}`);
  }
  return text as FailOn;
}

/** The three time bounds in ms. An explicit --timeout also bounds start-up unless --startup-timeout is given. */
function bounds(options: Record<string, unknown>): { timeoutMs: number; startupTimeoutMs: number; deadlineMs: number } {
  const timeoutMs = seconds(options.timeout, "--timeout", DEFAULT_TIMEOUT_SECONDS);
  const startupDefault = options.timeout === undefined ? DEFAULT_STARTUP_SECONDS : timeoutMs / 1000;
  return {
    timeoutMs,
    startupTimeoutMs: seconds(options.startupTimeout, "--startup-timeout", startupDefault),
    deadlineMs: seconds(options.deadline, "--deadline", DEFAULT_DEADLINE_SECONDS),
  };
}

/** `--jobs N`: a whole number from 1 to 32 (default 4). */
function jobCount(value: unknown): number {
  const text = single(typeof value === "number" ? String(value) : value, "--jobs") ?? "4";
  const jobs = Number(text);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 32) throw new UsageError(`--jobs takes a whole number from 1 to 32, not ${JSON.stringify(text)}`);
  return jobs;
}

function seconds(value: unknown, flagName: string, fallback: number): number {
  const text = single(typeof value === "number" ? String(value) : value, flagName) ?? String(fallback);
  const amount = Number(text);
  if (!Number.isFinite(amount) || amount <= 0 || amount > 86_400) {
    throw new UsageError(`${flagName} takes seconds between 0 and 86400, not ${JSON.stringify(text)}`);
  }
  return Math.round(amount * 1000);
}

// A reader that goes away (`mcp-lint ... | head`: EPIPE) is not an error and never a stack trace:
// writing stops, the exit code stays what the run decided.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

// Whatever a report does with server text, no line either stream carries can start a CI workflow command.
const guards = { out: new LineStartGuard(), err: new LineStartGuard() };
const output: Output = {
  out: (text) => {
    if (!process.stdout.destroyed) process.stdout.write(guards.out.apply(text));
  },
  err: (text) => {
    if (!process.stderr.destroyed) process.stderr.write(guards.err.apply(text));
  },
  styles: { out: styleFor(process.stdout, process.env), err: styleFor(process.stderr, process.env) },
};

enableCompileCache();

// A run whose work ran out before it decided (a promise nothing will settle) must not pass as clean.
let decided = false;
process.on("exit", (code) => {
  if (decided || code !== 0) return;
  process.stderr.write("mcp-lint: internal error: the run ended before it finished; please report it\n");
  process.exitCode = 2;
});

main(process.argv.slice(2), output).then(
  (code) => {
    decided = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    decided = true;
    if (error instanceof KnownBadRefusal) {
      process.exitCode = 1;
      return;
    }
    // Messages can quote what a server sent: redact secrets, then make the rest inert, on one line.
    const redact = output.redact ?? ((text: string) => text);
    const oneLine = (text: string) => neutralize(redact(text.replace(/\s*\n\s*/g, " ")));
    if (error instanceof McpLintError) {
      output.err(`mcp-lint: ${oneLine(error.message)}\n`);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      output.err(`mcp-lint: internal error: ${oneLine(message.split("\n")[0] ?? "")}; please report it\n`);
      if (process.env.MCP_LINT_DEBUG) process.stderr.write(`${error instanceof Error ? error.stack : ""}\n`);
    }
    process.exitCode = 2;
  },
);
