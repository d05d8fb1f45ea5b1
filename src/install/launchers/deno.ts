/** `deno run`: `npm:` and `jsr:` specifiers follow npm semver rules; `https:` modules are URL sources. */

import semver from "semver";
import { type FlagTable, flagSet, walkFlags } from "../flags.js";
import { type Classified, isPackage } from "../specs/classified.js";
import { classifyNpm } from "../specs/npm.js";
import { hasVariable, MAX_SPEC, safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

// Deno's options that take a separate value; the rest (permissions, --reload, ...) take values only with `=`.
const FLAGS: FlagTable = {
  values: flagSet("--config -c --import-map --cert --location --seed --ext --inspect-wait --node-modules-dir"),
  booleans: flagSet(""),
  booleanPattern: /^-/,
};

const RUNNERS = new Set(["run", "serve"]);
const OTHER = new Set([
  "task",
  "install",
  "uninstall",
  "compile",
  "eval",
  "repl",
  "test",
  "fmt",
  "lint",
  "cache",
  "check",
  "bench",
  "doc",
  "info",
  "init",
  "upgrade",
  "add",
  "remove",
  "outdated",
  "publish",
  "jupyter",
  "coverage",
  "clean",
  "types",
  "completions",
  "vendor",
  "lsp",
  "bundle",
]);

/** Split `name[@version][/sub/path]` of an npm: or jsr: specifier. */
function splitSpecifier(text: string): { name: string; version: string | null } | null {
  const match = /^((?:@[^/@]+\/)?[^/@]+)(?:@([^/]*))?(?:\/.*)?$/.exec(text);
  if (match === null) return null;
  return { name: match[1] as string, version: match[2] ?? null };
}

function classifyJsr(text: string): Classified {
  const display = safeDisplay(`jsr:${text}`);
  if (hasVariable(text)) return { reason: "variable", display };
  const parts = splitSpecifier(text);
  if (parts === null) return { reason: "invalid_spec", display };
  const base = { ecosystem: "JSR" as const, name: parts.name, display, role: "main" as const, resolves: { type: "none" as const } };
  const version = (parts.version ?? "").trim();
  if (version === "" || version === "*") return { ...base, verdict: "unpinned", reason: "no_version" };
  if (semver.valid(version, { loose: true }) !== null) return { ...base, verdict: "pinned", reason: null };
  if (semver.validRange(version, { loose: true }) !== null) return { ...base, verdict: "unpinned", reason: "range", spec: safeDisplay(version) };
  return { ...base, verdict: "unpinned", reason: "tag", spec: safeDisplay(version) };
}

function classifyDenoNpm(text: string): Classified {
  const parts = splitSpecifier(text);
  const spec = parts === null ? text : parts.version === null ? parts.name : `${parts.name}@${parts.version}`;
  const item = classifyNpm(spec);
  return isPackage(item) ? { ...item, display: safeDisplay(`npm:${text}`) } : item;
}

/** deno: `deno run [options] <specifier> [args]` (also `deno serve`, and `deno <specifier>`). */
export const deno: CommandHandler = {
  id: "deno run",
  commands: ["deno"],
  parse(argv) {
    const result = emptyParse();
    let tokens = argv.slice(1);
    const first = tokens[0];
    if (first !== undefined && RUNNERS.has(first)) tokens = tokens.slice(1);
    else if (first === "eval") return { ...result, opaque: true };
    else if (first !== undefined && OTHER.has(first)) return result;
    const walk = walkFlags(tokens, FLAGS);
    if (noteStop(walk, result)) return result;
    const specifier = walk.rest[0];
    if (specifier === undefined) {
      missing(result);
    } else if (specifier.length > MAX_SPEC) {
      result.problems.push({ reason: "too_long", display: safeDisplay(specifier) });
    } else if (specifier.startsWith("npm:")) {
      addFrom(result, classifyDenoNpm(specifier.slice(4)), "deno run");
    } else if (specifier.startsWith("jsr:")) {
      addFrom(result, classifyJsr(specifier.slice(4)), "deno run");
    } else if (/^https?:\/\//i.test(specifier)) {
      result.packages.push({
        ecosystem: "url",
        name: null,
        display: safeDisplay(specifier),
        verdict: "unpinned_source",
        reason: "url",
        resolves: { type: "none" },
        role: "main",
        launcher: "deno run",
      });
    }
    return result;
  },
};
