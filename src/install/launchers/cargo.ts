/** `cargo install` / `cargo binstall`: a bare `X.Y.Z` (or `=X.Y.Z`) is exact; `--git` needs `--rev` with a full commit. */

import semver from "semver";
import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import type { Classified } from "../specs/classified.js";
import { hasVariable, isFullCommit, MAX_SPEC, safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const FLAGS: FlagTable = {
  values: flagSet(
    "--version --vers --git --branch --tag --rev --path --root --registry --index -j --jobs --target --target-dir --features -F --profile --config -Z --bin --example --color",
  ),
  booleans: flagSet(
    "--locked --force -f --no-track --debug --all-features --no-default-features --offline --frozen -q --quiet -v --verbose --list --ignore-rust-version --bins --examples --no-confirm -y",
  ),
  aliases: { "--vers": "--version" },
};

/** Classify a crate with its version requirement. */
export function classifyCrate(name: string, version: string | null, display: string): Classified {
  if (name.length + (version ?? "").length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(display)) return { reason: "variable", display };
  const base = { ecosystem: "crates.io" as const, name, display, role: "main" as const, resolves: { type: "none" as const } };
  const written = (version ?? "").trim();
  if (written === "") return { ...base, verdict: "unpinned", reason: "no_version" };
  // "If the version does not have a requirement operator, it must be MAJOR.MINOR.PATCH and installs exactly that."
  const bare = written.replace(/^=\s*/, "");
  if (/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(bare) && semver.valid(bare) !== null) {
    return { ...base, verdict: "pinned", reason: null };
  }
  if (/^\d+(?:\.\d+)?$/.test(written)) return { reason: "invalid_spec", display };
  if (semver.validRange(written) !== null) return { ...base, verdict: "unpinned", reason: "range", spec: safeDisplay(written) };
  return { reason: "invalid_spec", display };
}

/** cargo: `cargo install [options] <crate>[@version]...`; `cargo run` builds local code. */
export const cargo: CommandHandler = {
  id: "cargo install",
  commands: ["cargo"],
  parse(argv) {
    const result = emptyParse();
    const sub = argv[1];
    if (sub !== "install" && sub !== "binstall") return result;
    const launcher = `cargo ${sub}`;
    const walk = walkFlags(argv.slice(2), FLAGS, true);
    if (noteStop(walk, result)) return result;
    if (valuesOf(walk, "--path").length > 0) return result;
    const git = valuesOf(walk, "--git")[0];
    if (git !== undefined) {
      const rev = valuesOf(walk, "--rev")[0] ?? valuesOf(walk, "--tag")[0] ?? valuesOf(walk, "--branch")[0] ?? null;
      const display = safeDisplay(git);
      const base = { ecosystem: "crates.io" as const, name: null, display, role: "main" as const, resolves: { type: "none" as const }, launcher };
      if (rev !== null && isFullCommit(rev)) return result;
      result.packages.push(
        rev === null
          ? { ...base, verdict: "unpinned_source", reason: "git_no_ref" }
          : { ...base, verdict: "unpinned_source", reason: "git_ref", spec: safeDisplay(rev) },
      );
      return result;
    }
    const crates = [...walk.positionals, ...walk.rest];
    if (crates.length === 0) missing(result);
    const flagVersion = valuesOf(walk, "--version")[0] ?? null;
    for (const crate of crates) {
      const at = crate.indexOf("@");
      const name = at < 0 ? crate : crate.slice(0, at);
      const version = at < 0 ? flagVersion : crate.slice(at + 1);
      addFrom(result, classifyCrate(name, version, safeDisplay(at < 0 && version !== null ? `${crate}@${version}` : crate)), launcher);
    }
    return result;
  },
};
