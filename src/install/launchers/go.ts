/** `go run pkg@version` (and `go install`): exact only at a full semver version, a pseudo-version or a full commit. */

import semver from "semver";
import { type FlagTable, flagSet, walkFlags } from "../flags.js";
import type { Classified } from "../specs/classified.js";
import { hasVariable, MAX_SPEC, safeDisplay } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const VALUES =
  "-C -p -tags -ldflags -gcflags -asmflags -mod -modfile -overlay -pgo -exec -toolexec -pkgdir -buildmode -buildvcs -compiler -gccgoflags -installsuffix -o -coverpkg -covermode";
const BOOLEANS = "-a -n -race -msan -asan -cover -v -work -x -trimpath -linkshared";
const double = (list: string) =>
  `${list} ${list
    .split(" ")
    .map((flag) => `-${flag}`)
    .join(" ")}`;

const FLAGS: FlagTable = { values: flagSet(double(VALUES)), booleans: flagSet(double(BOOLEANS)) };

/** Classify the version query of `module/path@query`. */
export function classifyGoTarget(target: string): Classified {
  const display = safeDisplay(target);
  if (target.length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(target)) return { reason: "variable", display };
  const at = target.lastIndexOf("@");
  const name = target.slice(0, at);
  const query = target.slice(at + 1);
  const base = { ecosystem: "Go" as const, name, display, role: "main" as const, resolves: { type: "none" as const } };
  if (query === "") return { reason: "invalid_spec", display };
  if (["latest", "upgrade", "patch"].includes(query)) return { ...base, verdict: "unpinned", reason: "tag", spec: query };
  if (/^[0-9a-f]{40}$/.test(query)) return { ...base, verdict: "pinned", reason: null };
  // Canonical semver (pseudo-versions included): v1.2.3, v1.2.3-pre, v0.0.0-20260101000000-abcdefabcdef, +incompatible.
  if (/^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+incompatible)?$/.test(query) && semver.valid(query.slice(1)) !== null) {
    return { ...base, verdict: "pinned", reason: null };
  }
  if (/^v\d+(?:\.\d+)?$/.test(query) || /^[<>]/.test(query)) return { ...base, verdict: "unpinned", reason: "range", spec: safeDisplay(query) };
  // A branch, a non-semver tag or a short hash: whatever it points at today.
  return { ...base, verdict: "unpinned_source", reason: "git_ref", spec: safeDisplay(query) };
}

/** go: `go run|install [build flags] <pkg>@<version> [args]`; without `@version` it builds local code. */
export const go: CommandHandler = {
  id: "go run",
  commands: ["go"],
  parse(argv) {
    const result = emptyParse();
    const sub = argv[1];
    if (sub !== "run" && sub !== "install") return result;
    const walk = walkFlags(argv.slice(2), FLAGS);
    if (noteStop(walk, result)) return result;
    const target = walk.rest[0];
    if (target === undefined) missing(result);
    else if (target.includes("@")) addFrom(result, classifyGoTarget(target), `go ${sub}`);
    return result;
  },
};
