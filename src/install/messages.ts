/** One-line sentences for I1 findings: the only place install-lint data becomes words. */

import { neutralize } from "../text/neutralize.js";
import type { AdvisoryFacts, InstallFinding } from "./kinds.js";

/** Why part of a command was not checked; every unparsed reason has its own sentence. */
function unparsedMessage(finding: InstallFinding): string {
  const pkg = finding.package;
  const flag = finding.args.flag ?? "";
  switch (finding.args.reason) {
    case "variable":
      return `${pkg ?? "the command"} contains a variable, so the package or version is only known at launch; not checked`;
    case "unsplittable":
      return "the shell string has an unterminated quote and cannot be split; not checked";
    case "substitution":
      return "the shell string uses command substitution ($(...) or backticks), so what runs is only known at launch; not checked";
    case "pipeline":
      return "the shell string pipes one command into another; the pipeline was not checked";
    case "control_flow":
      return "the shell string uses a loop, condition or subshell, so what runs is only known at launch; not checked";
    case "cmd_metachar":
      return "the cmd line uses &, |, ^, %, < or >, which cmd interprets itself; not checked";
    case "encoded_command":
      return "PowerShell -EncodedCommand hides the command; not checked";
    case "unknown_flag":
      return `the unknown option ${flag} may take a value, so the package position is unknown; not checked`;
    case "invalid_spec":
      return `${pkg ?? "the package"} is not a valid package spec for this launcher; not checked`;
    case "workspace_protocol":
      return `${pkg ?? "the package"} is resolved from the workspace (catalog: or workspace:), which I1 does not read; not checked`;
    case "requirements_file":
      return `${pkg ?? "a requirements file"} holds the pins and hashes, and I1 does not open it; not checked`;
    case "missing_package":
      return flag === "" ? "the launcher has no package to run; not checked" : `the option ${flag} has no value; not checked`;
    case "ambiguous_command":
      return `${pkg ?? "the command"}: npm exec reads --package anywhere, so this runs as a command name, not the package it looks like; not checked`;
    case "unsupported":
      return `${pkg ?? "this command"} takes its packages from elsewhere (a catalog, a compose file or script metadata); not checked`;
    case "too_long":
      return `${pkg ?? "a part of the command"} is too long to be a package or a script I1 splits; not checked`;
    case "too_deep":
      return "wrappers are nested too deeply to follow; not checked";
    default:
      return `${pkg ?? "part of the command"} could not be understood; not checked`;
  }
}

/** Which releases an advisory covers, in words. */
function advisoryScope(advisory: AdvisoryFacts): string {
  const parts = advisory.ranges.map((range) =>
    range.fixed === null
      ? `every ${advisory.name} release from ${range.introduced} on`
      : `${advisory.name} ${range.introduced} up to (not including) ${range.fixed}`,
  );
  if (advisory.versions.length > 0) parts.unshift(`${advisory.name} ${advisory.versions.join(" and ")}`);
  const plural = parts.length > 1 || advisory.versions.length > 1;
  return `${parts.join(", and ")} ${plural ? "are" : "is"} known-bad`;
}

function launcherText(finding: InstallFinding): string {
  const { launcher } = finding.args;
  return launcher === undefined ? "" : ` (${launcher})`;
}

function subject(finding: InstallFinding): string {
  const pkg = finding.package ?? "the command";
  return finding.args.role === "extra" ? `extra package ${pkg}` : pkg;
}

/**
 * The sentence for one finding (no trailing period; names the package, never env values or whole
 * commands), neutralized: config and command text in it cannot move a terminal or start a workflow command.
 */
export function installMessage(finding: InstallFinding): string {
  return neutralize(sentence(finding), { lineStart: true });
}

function sentence(finding: InstallFinding): string {
  const { args } = finding;
  const who = subject(finding);
  const via = launcherText(finding);
  const quoted = args.spec === undefined ? "" : ` "${args.spec}"`;
  switch (finding.kind) {
    case "known_bad": {
      const advisory = args.advisory;
      if (advisory === undefined) return `${who}${via} is on the known-bad list`;
      const cite = [advisory.id, advisory.date, advisory.source].filter((part) => part !== null).join(", ");
      const fact = `${advisoryScope(advisory)} (${advisory.summary === null ? "" : `${advisory.summary}; `}${cite})`;
      if (args.reason === "bad_range") return `${who}${via} resolves to a known-bad release: ${fact}`;
      if (args.reason === "bad_any") return `${who}${via} has no exact version and resolves to a known-bad release: ${fact}`;
      if (args.reason === "bad_text") return `${who}${via} names a known-bad release: ${fact}`;
      if (args.reason === "bad_name") return `${who} is named in a launch that I1 could not fully follow, so it may run a known-bad release: ${fact}`;
      return `${who}${via} is a known-bad release: ${fact}`;
    }
    case "unpinned":
      if (args.reason === "tag") return `${who}${via} uses the tag${quoted}, which moves to new releases; pin an exact version`;
      if (args.reason === "range") return `${who}${via} uses the range${quoted}, so each start may run a different release; pin an exact version`;
      if (args.reason === "not_a_version") return `${who}${via}: ${quoted.trim()} is not a version, so the newest release runs; pin an exact version`;
      return `${who}${via} has no version, so each start may run a different release; pin an exact version`;
    case "unpinned_source":
      if (args.reason === "git_ref") return `${who}${via} is a git source at${quoted}, a branch or tag that can move; pin a full 40-character commit SHA`;
      if (args.reason === "git_no_ref")
        return `${who}${via} is a git source with no commit, so it follows the default branch; pin a full 40-character commit SHA`;
      return `${who}${via} is fetched from a URL whose content can change; pin a registry version or a full commit SHA`;
    case "no_digest":
      if (args.reason === "image_no_tag") return `image ${who}${via} has no tag or digest, so it runs whatever :latest is; pin it with @sha256:<digest>`;
      if (args.reason === "invalid_digest")
        return `image ${who}${via} has a digest that is not a full sha256:<64 lower-case hex>, so it pins nothing; pin it with @sha256:<digest>`;
      return `image ${who}${via} uses the tag${quoted} without a digest, and a tag can point at new content; pin it with @sha256:<digest>`;
    case "no_hashes":
      return `${who}${via} is installed without --require-hashes, so the files pip downloads are not hash-checked; pin with == and add --require-hashes and a hashed requirements file`;
    case "insecure_transport":
      return `remote server ${who} is reached over plain ${args.spec ?? "http"}:// on a host that is not this machine, so anyone on the network path can read and change what it tells the model; use https://`;
    case "unreadable_entry":
      if (args.reason === "entry_not_object") return "the server entry is not an object; it was not checked";
      if (args.reason === "command_type") return `the entry's "${args.field ?? "command"}" is not a non-empty string; it was not checked`;
      if (args.reason === "args_type") return `the entry's "${args.field ?? "args"}" is not a list of strings; it was not checked`;
      return "the entry has neither a command nor a url; it was not checked";
    case "unparsed":
      return unparsedMessage(finding);
  }
}
