/** npm package specs, classified the way npm decides: npm-package-arg with semver (exact version, range, tag, git, URL). */

import npa from "npm-package-arg";
import type { InstallReason } from "../kinds.js";
import { hasVariable, isFullCommit, MAX_SPEC, safeDisplay } from "../tokens.js";
import type { PackageRef } from "../types.js";
import type { Classified } from "./classified.js";

/** Classify one npm spec (`foo`, `@scope/foo@^1`, `github:u/r#sha`, `https://x/y.tgz`, `alias@npm:real@1.0.0`). */
export function classifyNpm(spec: string, role: PackageRef["role"] = "main"): Classified {
  const display = safeDisplay(spec);
  // npm names stop at 214 characters; a longer spec is never read by npm-package-arg and its regexes.
  if (spec.length > MAX_SPEC) return { reason: "too_long", display };
  if (hasVariable(spec)) return { reason: "variable", display };
  let parsed: npa.Result;
  try {
    // A fixed `where` keeps npa from reading the working directory; local paths only need to be recognised.
    parsed = npa(spec, "/");
  } catch {
    if (/@(?:catalog|workspace):/.test(spec) || /^(?:catalog|workspace):/.test(spec)) return { reason: "workspace_protocol", display };
    return { reason: "invalid_spec", display };
  }
  const classified = fromResult(parsed, display, role);
  return "verdict" in classified ? { ...classified, request: spec } : classified;
}

function fromResult(parsed: npa.Result, display: string, role: PackageRef["role"]): Classified {
  const name = parsed.name ?? null;
  const base = { ecosystem: "npm" as const, name, display, role };
  const unpinned = (reason: InstallReason, spec?: string): PackageRef => ({
    ...base,
    verdict: "unpinned",
    reason,
    ...(spec === undefined ? {} : { spec: safeDisplay(spec) }),
    resolves: reason === "range" || reason === "no_version" ? { type: "range", range: parsed.fetchSpec ?? "*" } : { type: "any" },
  });
  switch (parsed.type) {
    case "version":
      return { ...base, verdict: "pinned", reason: null, resolves: { type: "exact", version: parsed.fetchSpec ?? parsed.rawSpec } };
    case "range": {
      const spec = parsed.rawSpec.trim();
      return spec === "" || spec === "*" ? unpinned("no_version") : unpinned("range", spec);
    }
    case "tag":
      return unpinned("tag", parsed.rawSpec);
    case "git": {
      const committish = parsed.gitCommittish ?? null;
      if (committish !== null && isFullCommit(committish)) {
        return { ...base, verdict: "pinned", reason: null, resolves: { type: "none" } };
      }
      const ref = parsed.gitRange !== undefined ? `semver:${parsed.gitRange}` : committish;
      return {
        ...base,
        verdict: "unpinned_source",
        reason: ref === null || ref === "" ? "git_no_ref" : "git_ref",
        ...(ref === null || ref === "" ? {} : { spec: safeDisplay(ref) }),
        resolves: { type: "none" },
      };
    }
    case "remote":
      return { ...base, verdict: "unpinned_source", reason: "url", resolves: { type: "none" } };
    case "file":
    case "directory":
      return { ...base, verdict: "local", reason: null, resolves: { type: "none" } };
    case "alias": {
      const sub = (parsed as npa.AliasResult).subSpec;
      const inner = fromResult(sub, display, role);
      return inner;
    }
    default:
      return { reason: "invalid_spec", display };
  }
}
