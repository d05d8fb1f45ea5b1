/** The I1 driver: unwrap wrappers, dispatch each command to its launcher, classify packages, and apply the known-bad list. */

import type { KnownBadEntry, KnownBadList } from "./bad-list.js";
import { advisoryFacts, type BadHit, matchResolution, scanNames, scanText } from "./bad-match.js";
import { type InstallFinding, installFinding, kindRank } from "./kinds.js";
import { LAUNCHERS } from "./launchers/index.js";
import { spellings, squash } from "./spellings.js";
import { commandName, hasVariable, isAssignment, isCommandWord, safeDisplay, splitScript } from "./tokens.js";
import type { CommandHandler, LaunchParse, PackageRef, Problem, ShellDialect } from "./types.js";
import { comparable, normalizeName } from "./versions.js";
import { WRAPPERS } from "./wrappers/index.js";
import { pushAll } from "../arrays.js";

/** Wrappers inside wrappers deeper than this are not followed (`sh -c "bash -c \"...\""`...). */
export const MAX_WRAPPER_DEPTH = 8;

const HANDLERS: ReadonlyMap<string, CommandHandler> = (() => {
  const map = new Map<string, CommandHandler>();
  for (const handler of [...WRAPPERS, ...LAUNCHERS]) {
    for (const name of handler.commands) if (!map.has(name)) map.set(name, handler);
  }
  return map;
})();

interface Collected {
  packages: (PackageRef & { launcher: string })[];
  problems: Problem[];
  /** A command no handler knows, skipped prefix words, or inline code: what runs is not fully known. */
  opaque: boolean;
  /** What the outermost command's package runner executes, when the launch is a runner called directly. */
  runs?: NonNullable<LaunchParse["runs"]>;
}

/** Everything a launch fetches and runs, unwrapped, for callers that act on the package (the artifact pin). */
export function collectLaunch(argv: readonly string[]): Readonly<Collected> {
  const collected: Collected = { packages: [], problems: [], opaque: false };
  collectArgv(argv, 0, collected);
  return collected;
}

/** Check a launch command given as argv (`command` plus `args`). Findings are sorted worst first. */
export function lintLaunch(argv: readonly string[], knownBad: KnownBadList): InstallFinding[] {
  const collected: Collected = { packages: [], problems: [], opaque: false };
  collectArgv(argv, 0, collected);
  // The whole line too: PowerShell, cmd and `env -S` join their arguments into one script.
  return findings(collected, argv.length > 1 ? [...argv, argv.join(" ")] : argv, knownBad);
}

/** Check a launch command given as one shell string (a config `command` with spaces and no `args`). */
export function lintShellString(command: string, knownBad: KnownBadList): InstallFinding[] {
  const collected: Collected = { packages: [], problems: [], opaque: false };
  collectScript(command, "posix", 0, collected);
  return findings(collected, [command], knownBad);
}

/**
 * The known-bad finding for a launch, or null: call before starting any process, and refuse when
 * not null. Fails closed: when any part of the launch is not understood (an unknown flag, a shell
 * construct, an unknown command) and any token, decoded the way a shell could decode it, names a
 * known-bad package, the launch is refused; for an advisory with no fixed release, naming the
 * package is enough.
 */
export function knownBadLaunch(argv: readonly string[], knownBad: KnownBadList): InstallFinding | null {
  return lintLaunch(argv, knownBad).find((finding) => finding.kind === "known_bad") ?? null;
}

function collectArgv(argv: readonly string[], depth: number, out: Collected): void {
  if (depth > MAX_WRAPPER_DEPTH) {
    out.problems.push({ reason: "too_deep" });
    return;
  }
  let start = 0;
  while (start < argv.length && isAssignment(argv[start] as string)) start++;
  const tokens = argv.slice(start);
  const first = tokens[0];
  if (first === undefined || first === "") return;
  const name = commandName(first);
  if (hasVariable(name)) {
    out.problems.push({ reason: "variable", display: safeDisplay(first) });
    return;
  }
  const handler = HANDLERS.get(name);
  if (handler === undefined) {
    // An unknown prefix (sudo, timeout 10, op run --): continue at the first word that names a known
    // command. What the skipped words do is unknown (`mise exec npm:pkg -- ...` installs one).
    out.opaque = true;
    const next = tokens.findIndex((token, index) => index > 0 && isCommandWord(token) && !token.includes("://") && HANDLERS.has(commandName(token)));
    if (next > 0) collectArgv(tokens.slice(next), depth + 1, out);
    return;
  }
  let parsed: LaunchParse;
  try {
    parsed = handler.parse(tokens);
  } catch {
    // A parser (or a library under it) choking on odd input: not understood, so the text scans decide.
    out.problems.push({ reason: "invalid_spec", display: safeDisplay(first) });
    return;
  }
  if (parsed.opaque) out.opaque = true;
  if (depth === 0 && start === 0 && parsed.runs !== undefined) out.runs = parsed.runs;
  for (const item of parsed.packages) out.packages.push({ ...item, launcher: item.launcher ?? handler.id });
  pushAll(out.problems, parsed.problems);
  for (const nested of parsed.nested) {
    if ("argv" in nested) collectArgv(nested.argv, depth + 1, out);
    else collectScript(nested.script, nested.dialect, depth + 1, out);
  }
}

function collectScript(script: string, dialect: ShellDialect, depth: number, out: Collected): void {
  if (depth > MAX_WRAPPER_DEPTH) {
    out.problems.push({ reason: "too_deep" });
    return;
  }
  const split = splitScript(script, dialect);
  for (const reason of split.problems) out.problems.push({ reason });
  for (const command of split.commands) collectArgv(command, depth + 1, out);
}

/** Identity of a release for de-duplication: registry, normalised name and version. */
function releaseId(ecosystem: string, name: string, version: string): string {
  const usable = ecosystem === "npm" || ecosystem === "PyPI" ? comparable(ecosystem, version) : null;
  return `${ecosystem}\u0000${normalizeName(name)}\u0000${usable ?? version}`;
}

function findings(collected: Collected, rawTokens: readonly string[], knownBad: KnownBadList): InstallFinding[] {
  const out: InstallFinding[] = [];
  const seen = new Set<string>();
  const badReleases = new Set<string>();
  const badEntries = new Set<KnownBadEntry>();
  const push = (finding: InstallFinding) => {
    const key = JSON.stringify([finding.kind, finding.package, finding.args.reason, finding.args.flag ?? null, finding.args.role ?? null]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(finding);
  };
  const remember = (hit: BadHit) => {
    badReleases.add(releaseId(hit.entry.ecosystem, hit.entry.name, hit.version));
    badEntries.add(hit.entry);
  };
  for (const item of collected.packages) {
    const common = {
      ecosystem: item.ecosystem,
      launcher: item.launcher,
      role: item.role,
      ...(item.spec === undefined ? {} : { spec: item.spec }),
    };
    if ((item.ecosystem === "npm" || item.ecosystem === "PyPI") && item.name !== null) {
      const hit = matchResolution(knownBad, item.ecosystem, item.name, item.resolves);
      if (hit !== null) {
        remember(hit);
        const reason = hit.how === "exact" ? "bad_version" : item.reason === "range" ? "bad_range" : "bad_any";
        push(installFinding("known_bad", item.display, { ...common, reason, advisory: advisoryFacts(hit) }));
        continue;
      }
    }
    // A file name or URL that names a bad release (`.../litellm-1.82.8-py3-none-any.whl`, also percent-encoded).
    const named = item.verdict === "unparsed" ? [] : spellings(item.display).texts.flatMap((text) => scanText(knownBad, text));
    const first = named[0];
    if (first !== undefined) {
      for (const { hit } of named) remember(hit);
      push(installFinding("known_bad", item.display, { ...common, reason: "bad_text", advisory: advisoryFacts(first.hit) }));
      continue;
    }
    if (item.verdict === "pinned" || item.verdict === "local" || item.reason === null) continue;
    push(installFinding(item.verdict, item.display, { ...common, reason: item.reason }));
  }
  for (const problem of collected.problems) {
    push(
      installFinding("unparsed", problem.display ?? null, {
        reason: problem.reason,
        ...(problem.flag === undefined ? {} : { flag: problem.flag }),
      }),
    );
  }
  scanSpellings(rawTokens, knownBad, collected.opaque || collected.problems.length > 0, {
    release(hit, text) {
      const id = releaseId(hit.entry.ecosystem, hit.entry.name, hit.version);
      if (badReleases.has(id)) return;
      remember(hit);
      push(installFinding("known_bad", safeDisplay(text), { reason: "bad_text", ecosystem: hit.entry.ecosystem, advisory: advisoryFacts(hit) }));
    },
    name(hit, text, reason) {
      if (badEntries.has(hit.entry)) return;
      remember(hit);
      push(installFinding("known_bad", safeDisplay(text), { reason, ecosystem: hit.entry.ecosystem, advisory: advisoryFacts(hit) }));
    },
  });
  return out
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => kindRank(a.finding.kind) - kindRank(b.finding.kind) || a.index - b.index)
    .map(({ finding }) => finding);
}

interface SpellingHits {
  /** A bad release (name and version) named in some spelling of a token. */
  release(hit: BadHit, text: string): void;
  /** A known-bad package named in a launch that was not fully understood. */
  name(hit: BadHit, text: string, reason: "bad_name" | "bad_range"): void;
}

const squashedKeys = new WeakMap<KnownBadEntry, string>();

function squashedKey(entry: KnownBadEntry): string {
  let key = squashedKeys.get(entry);
  if (key === undefined) {
    key = squash(entry.key);
    squashedKeys.set(entry, key);
  }
  return key;
}

/**
 * Look for known-bad names in every spelling of every token (see spellings.ts). A bad release
 * named anywhere is refused. When the launch was not fully understood (`opaque`), so is a package
 * whose advisory has no fixed release, named in any way, and a bad version or range written after
 * any other bad name. A spelling is read only when its squashed text holds an entry's squashed
 * name, the same test the start-up prefilter makes.
 */
function scanSpellings(tokens: readonly string[], knownBad: KnownBadList, opaque: boolean, report: SpellingHits): void {
  // A range is judged once, however often it is written.
  const judged = new Map<string, BadHit | null>();
  for (const token of tokens) {
    for (const text of spellings(token).texts) {
      const squashed = squash(text);
      const entries = knownBad.entries.filter((entry) => squashed.includes(squashedKey(entry)));
      if (entries.length === 0) continue;
      const list: KnownBadList = { entries };
      for (const { hit, text: named } of scanText(list, text)) report.release(hit, named);
      if (!opaque) continue;
      for (const entry of entries) {
        const openRange = entry.ranges.find((range) => range.fixed === null);
        for (const found of scanNames({ entries: [entry] }, text)) {
          if (openRange !== undefined) {
            // Every release from `introduced` on is bad: naming the package is enough, once.
            report.name({ entry, version: openRange.introduced, openEnded: true, how: "any" }, found.text, "bad_name");
            break;
          }
          // An exact version is the release scan's job; no version or a tag resolves to the newest release,
          // which an advisory with a fixed release does not cover. Only a range is left to judge.
          if (found.resolves.type !== "range") continue;
          const key = `${entry.ecosystem}\u0000${entry.key}\u0000${found.resolves.range}`;
          let hit = judged.get(key);
          if (hit === undefined) {
            hit = matchResolution({ entries: [entry] }, entry.ecosystem, entry.name, found.resolves);
            judged.set(key, hit);
          }
          if (hit !== null) report.name(hit, found.text, "bad_range");
        }
      }
    }
  }
}
