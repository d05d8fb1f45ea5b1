/** Python package specs: PEP 508 requirements, uv's `name@version` targets and direct URLs, classified by PEP 440 rules. */

import * as pep440 from "@renovatebot/pep440";
import { parse as parseSpecifier } from "@renovatebot/pep440/lib/specifier.js";
import { hasVariable, isFullCommit, isLocalPath, MAX_SPEC, safeDisplay } from "../tokens.js";
import type { PackageRef } from "../types.js";
import type { Classified } from "./classified.js";

/** A PEP 508 requirement split into its parts (markers dropped: they do not change what is pinned). */
export interface Requirement {
  name: string;
  specifier: string;
  url: string | null;
}

const NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$/s;

/** Split a PEP 508 requirement, or null when it is not one (the specifier must be valid PEP 440). */
export function parseRequirement(text: string): Requirement | null {
  const match = NAME.exec(text);
  if (match === null) return null;
  const name = match[1] as string;
  let rest = (match[3] as string).trim();
  if (rest.startsWith("@")) {
    // `(?<!\s)`: start only at the first space of a run, or each later space rescans the run.
    const url = rest
      .slice(1)
      .replace(/(?<!\s)\s+;.*$/s, "")
      .trim();
    return url === "" ? null : { name, specifier: "", url };
  }
  rest = rest.replace(/;.*$/s, "").trim();
  if (rest.startsWith("(") && rest.endsWith(")")) rest = rest.slice(1, -1).trim();
  if (rest !== "" && !pep440.validRange(rest)) return null;
  return { name, specifier: rest, url: null };
}

/** Classify a pip/pipx/uv requirement string, a direct URL, or a local path. */
export function classifyRequirement(text: string, role: PackageRef["role"] = "main"): Classified {
  const display = safeDisplay(text);
  if (text.length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(text)) return { reason: "variable", display };
  if (isLocalPath(text) || (/\.(?:whl|tar\.gz|zip)$/i.test(text) && !/^[a-z+]+:\/\//i.test(text))) {
    return { ecosystem: "PyPI", name: null, display, verdict: "local", reason: null, resolves: { type: "none" }, role };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return classifyUrl(text, null, display, role);
  const requirement = parseRequirement(text);
  if (requirement === null) return { reason: "invalid_spec", display };
  if (requirement.url !== null) return classifyUrl(requirement.url, requirement.name, display, role);
  return classifySpecifier(requirement.name, requirement.specifier, display, role);
}

/**
 * Classify a uv target (`uvx TARGET`, `--from TARGET`): `name@version` is an exact version,
 * `name@latest` floats, and anything else is a PEP 508 requirement.
 */
export function classifyUvTarget(text: string, role: PackageRef["role"] = "main"): Classified {
  if (text.length > MAX_SPEC) return { reason: "too_long", display: safeDisplay(text) };
  const at = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(\[[^\]]*\])?@(?!\s)(.*)$/s.exec(text);
  if (at === null || (at[3] as string).includes("://")) return classifyRequirement(text, role);
  const display = safeDisplay(text);
  if (hasVariable(text)) return { reason: "variable", display };
  const name = at[1] as string;
  const version = (at[3] as string).trim();
  const base = { ecosystem: "PyPI" as const, name, display, role };
  if (version === "") return { ...base, verdict: "unpinned", reason: "no_version", resolves: { type: "any" } };
  if (version.toLowerCase() === "latest") return { ...base, verdict: "unpinned", reason: "tag", spec: "latest", resolves: { type: "any" } };
  if (pep440.valid(version) === null) {
    // uv treats `name@<not a version>` as the bare name.
    return { ...base, verdict: "unpinned", reason: "not_a_version", spec: safeDisplay(version), resolves: { type: "any" } };
  }
  return { ...base, verdict: "pinned", reason: null, resolves: { type: "exact", version } };
}

function classifySpecifier(name: string, specifier: string, display: string, role: PackageRef["role"]): Classified {
  const base = { ecosystem: "PyPI" as const, name, display, role };
  if (specifier === "") return { ...base, verdict: "unpinned", reason: "no_version", resolves: { type: "any" } };
  const clauses = parseSpecifier(specifier) as { operator: string; prefix?: string; version: string }[] | null;
  if (clauses === null || clauses.length === 0) return { reason: "invalid_spec", display };
  const only = clauses.length === 1 ? clauses[0] : undefined;
  const exact = only !== undefined && (only.operator === "===" || (only.operator === "==" && (only.prefix ?? "") === ""));
  if (exact) return { ...base, verdict: "pinned", reason: null, resolves: { type: "exact", version: only.version } };
  return { ...base, verdict: "unpinned", reason: "range", spec: safeDisplay(specifier), resolves: { type: "range", range: specifier } };
}

/** A direct URL: git sources are pinned only at a full commit; archives and scripts by URL never are. */
function classifyUrl(url: string, name: string | null, display: string, role: PackageRef["role"]): Classified {
  const base = { ecosystem: "PyPI" as const, name, display, role, resolves: { type: "none" as const } };
  if (/^file:/i.test(url)) return { ...base, verdict: "local", reason: null };
  if (/^git\+/i.test(url)) {
    const ref = gitRef(url);
    if (ref !== null && isFullCommit(ref)) return { ...base, verdict: "pinned", reason: null };
    return ref === null
      ? { ...base, verdict: "unpinned_source", reason: "git_no_ref" }
      : { ...base, verdict: "unpinned_source", reason: "git_ref", spec: safeDisplay(ref) };
  }
  return { ...base, verdict: "unpinned_source", reason: "url" };
}

/** The `@ref` of `git+https://host/org/repo@ref#subdirectory=x` (an `@` after the host), or null. */
export function gitRef(url: string): string | null {
  const withoutFragment = url.replace(/#.*$/s, "");
  const afterScheme = withoutFragment.replace(/^[a-z+]+:\/\//i, "");
  const slash = afterScheme.indexOf("/");
  if (slash < 0) return null;
  const path = afterScheme.slice(slash);
  const at = path.lastIndexOf("@");
  if (at < 0) return null;
  const ref = path.slice(at + 1);
  return ref === "" ? null : ref;
}
