/** The I1 driver: unwrap wrappers, dispatch each command to its launcher, classify packages, and apply the known-bad list. */

import type { KnownBadList } from "./bad-list.js";
import { advisoryFacts, matchResolution, scanText } from "./bad-match.js";
import { type InstallFinding, installFinding, kindRank } from "./kinds.js";
import { LAUNCHERS } from "./launchers/index.js";
import { commandName, hasVariable, isAssignment, isCommandWord, safeDisplay, splitScript } from "./tokens.js";
import type { CommandHandler, PackageRef, Problem, ShellDialect } from "./types.js";
import { comparable, normalizeName } from "./versions.js";
import { WRAPPERS } from "./wrappers/index.js";

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
}

/** Check a launch command given as argv (`command` plus `args`). Findings are sorted worst first. */
export function lintLaunch(argv: readonly string[], knownBad: KnownBadList): InstallFinding[] {
  const collected: Collected = { packages: [], problems: [] };
  collectArgv(argv, 0, collected);
  return findings(collected, argv, knownBad);
}

/** Check a launch command given as one shell string (a config `command` with spaces and no `args`). */
export function lintShellString(command: string, knownBad: KnownBadList): InstallFinding[] {
  const collected: Collected = { packages: [], problems: [] };
  collectScript(command, "posix", 0, collected);
  return findings(collected, [command], knownBad);
}

/** The known-bad finding for a launch, or null: call before starting any process, and refuse when not null. */
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
    // An unknown prefix (sudo, timeout 10, op run --): continue at the first word that names a known command.
    const next = tokens.findIndex(
      (token, index) => index > 0 && isCommandWord(token) && !token.includes("://") && HANDLERS.has(commandName(token)),
    );
    if (next > 0) collectArgv(tokens.slice(next), depth + 1, out);
    return;
  }
  const parsed = handler.parse(tokens);
  for (const item of parsed.packages) out.packages.push({ ...item, launcher: item.launcher ?? handler.id });
  out.problems.push(...parsed.problems);
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
  const push = (finding: InstallFinding) => {
    const key = JSON.stringify([finding.kind, finding.package, finding.args.reason, finding.args.flag ?? null, finding.args.role ?? null]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(finding);
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
        badReleases.add(releaseId(item.ecosystem, item.name, hit.version));
        const reason = hit.how === "exact" ? "bad_version" : item.reason === "range" ? "bad_range" : "bad_any";
        push(installFinding("known_bad", item.display, { ...common, reason, advisory: advisoryFacts(hit) }));
        continue;
      }
    }
    // A file name or URL that names a bad release (`.../litellm-1.82.8-py3-none-any.whl`).
    const named = item.verdict === "unparsed" ? [] : scanText(knownBad, item.display);
    const first = named[0];
    if (first !== undefined) {
      for (const { hit } of named) badReleases.add(releaseId(hit.entry.ecosystem, hit.entry.name, hit.version));
      push(installFinding("known_bad", item.display, { ...common, reason: "bad_text", advisory: advisoryFacts(first.hit) }));
      continue;
    }
    if (item.verdict === "pinned" || item.verdict === "local" || item.reason === null) continue;
    push(installFinding(item.verdict, item.display, { ...common, reason: item.reason }));
  }
  for (const problem of collected.problems) {
    push(installFinding("unparsed", problem.display ?? null, {
      reason: problem.reason,
      ...(problem.flag === undefined ? {} : { flag: problem.flag }),
    }));
  }
  // A bad release named anywhere (a wheel file, a tarball URL, behind an unknown prefix) is refused too.
  for (const token of rawTokens) {
    for (const { hit, text } of scanText(knownBad, token)) {
      const id = releaseId(hit.entry.ecosystem, hit.entry.name, hit.version);
      if (badReleases.has(id)) continue;
      badReleases.add(id);
      push(installFinding("known_bad", safeDisplay(text), { reason: "bad_text", ecosystem: hit.entry.ecosystem, advisory: advisoryFacts(hit) }));
    }
  }
  return out.map((finding, index) => ({ finding, index }))
    .sort((a, b) => kindRank(a.finding.kind) - kindRank(b.finding.kind) || a.index - b.index)
    .map(({ finding }) => finding);
}
