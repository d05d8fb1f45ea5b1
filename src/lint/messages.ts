/** One-line sentences and fix hints for lint findings: the only place lint data becomes words. */

import { capDisplay, neutralize } from "../text/neutralize.js";
import { RULES } from "./table.js";
import type { HiddenKind, LintFinding, PoisoningPart } from "./types.js";
import { plural, thousands } from "../numbers.js";

/** Server text as a quoted, neutralized, length-capped string. */
function quoted(text: string | undefined, max = 120): string {
  const raw = text ?? "";
  // Cut before neutralizing so a multi-megabyte name costs nothing; escapes make the text longer, never shorter.
  const head = raw.length > max * 2 ? raw.slice(0, max * 2) : raw;
  const shown = capDisplay(neutralize(head), max);
  return `"${head.length < raw.length && !shown.includes("...(") ? `${shown}...` : shown}"`;
}

const HIDDEN_WORDS: Record<HiddenKind, (count: number, text: string) => string> = {
  tag: (count, text) => `${plural(count, "invisible TAG character")} spelling ${text}`,
  bidi: (count, text) => `${plural(count, "bidirectional control")}, which reorder what a person sees: ${text}`,
  zero_width: (count, text) => `${plural(count, "zero-width or invisible character")}: ${text}`,
  bom: (_count, text) => `a byte order mark at the start of the text: ${text}`,
  mixed_script: (count, text) => `${plural(count, "word")} mixing look-alike letters of another script into Latin ones: ${text}`,
  encoded_text: (_count, text) => `an encoded blob that decodes to text: ${text}`,
  html_comment: (count, text) => `${plural(count, "HTML comment")}, which rendered Markdown hides, speaking to the model: ${text}`,
  markdown_comment: (count, text) => `${plural(count, "Markdown comment")}, which rendered Markdown hides, speaking to the model: ${text}`,
  quiet_comment: (count, text) => `${plural(count, "comment")} that rendered Markdown hides: ${text}`,
  credential_file: (_count, text) => `a reference to a credential file: ${text}`,
  mcp_config: (_count, text) => `a reference to the client's MCP configuration: ${text}`,
  env_file: (_count, text) => `a reference to a .env file: ${text}`,
  secret_words: (_count, text) => `a secret named in words: ${text}`,
  hide_from_user: (_count, text) => `an instruction to hide something from the user: ${text}`,
  quiet_action: (_count, text) => `an instruction to act without the user seeing: ${text}`,
  override_tools: (_count, text) => `a claim to override or replace other tools or servers: ${text}`,
  session_claim: (_count, text) => `a rule for the whole session: ${text}`,
  exfiltration: (_count, text) => `an instruction to put something in a call or send it away: ${text}`,
  tool_hijack: (_count, text) => `an instruction to change what the model sends to another tool: ${text}`,
  tool_chain: (_count, text) => `an instruction to call another tool first: ${text}`,
  user_override: (_count, text) => `a claim of priority over the user's own request: ${text}`,
  coercion: (_count, text) => `a threat that forces a step: ${text}`,
  harmful_action: (_count, text) => `an order to destroy, run or open something: ${text}`,
  poisoning: (_count, text) => `tool poisoning: ${text}`,
};

const PART_WORDS: Readonly<Record<PoisoningPart["part"], string>> = {
  source: "a secret to read",
  sink: "where to send it",
  secrecy: "secrecy",
  precedence: "precedence over other tools or the user",
  hijack: "an order on another tool's call",
  effect: "a harmful effect",
};

const CARRIER_WORDS: Readonly<Record<NonNullable<PoisoningPart["carrier"]>, string>> = {
  folded: "in look-alike letters",
  comment: "in a hidden comment",
  encoded: "in an encoded blob",
  translated: "in another language",
};

/** The parts of a poisoning finding, one phrase each: `a secret to read "~/.ssh/id_rsa" at /inputSchema/...`. */
function poisoningParts(finding: LintFinding): string {
  const phrases: string[] = [];
  const seen = new Set<string>();
  for (const part of finding.args.parts ?? []) {
    if (seen.has(part.part)) continue;
    seen.add(part.part);
    const where = part.path !== (finding.path ?? "") && part.path !== "" ? ` at ${neutralize(part.path.slice(0, 240)).slice(0, 120)}` : "";
    const carrier = part.carrier === undefined ? "" : ` ${CARRIER_WORDS[part.carrier]}`;
    phrases.push(`${PART_WORDS[part.part]} ${quoted(part.text, 80)}${carrier}${where}`);
  }
  return phrases.join(", ");
}

/** How a hidden-text message starts: what holds the text. */
function hiddenPlace(args: LintFinding["args"]): string {
  if (args.where === "instructions") return "The server instructions contain ";
  if (args.where !== undefined) return args.inKey === true ? `A key name of the ${args.where} contains ` : `The ${args.where} contains `;
  return args.inKey === true ? "A key name contains " : "Contains ";
}

function hiddenMessage(finding: LintFinding): string {
  const { args } = finding;
  const kind = args.kind ?? "zero_width";
  const where = hiddenPlace(finding.args);
  if (kind === "poisoning") return `${where}tool poisoning: ${poisoningParts(finding)}.`;
  // TAG text is already decoded to printable ASCII; quoting still neutralizes it like any server text.
  const body = HIDDEN_WORDS[kind](args.count ?? 1, quoted(args.text, 200));
  const carrier = args.carrier === undefined ? "" : ` (${CARRIER_WORDS[args.carrier]})`;
  const subject = args.ownSubject === true ? " (the tool's own subject)" : "";
  return `${where}${body}${carrier}${subject}.`;
}

const SDK1_REASONS: Record<string, (finding: LintFinding) => string> = {
  missing: () => "The tool has no inputSchema",
  not_object: (finding) => `${finding.args.schema ?? "the schema"} is not a JSON object`,
  type: (finding) =>
    finding.path?.endsWith("/type") === true
      ? `${finding.args.schema ?? "the schema"} has type ${capDisplay(neutralize(finding.args.value ?? "null"), 60)}, not "object", at its root`
      : `${finding.args.schema ?? "the schema"} has no "type": "object" at its root`,
  properties: (finding) => `${finding.args.schema ?? "the schema"}.properties is not an object`,
  property: (finding) =>
    `Property ${quoted(finding.args.name, 60)} of ${finding.args.schema ?? "the schema"} is ${neutralize(finding.args.value ?? "")}, not a schema object`,
  required: (finding) => `${finding.args.schema ?? "the schema"}.required is not a list of strings`,
  title: () => "The tool's title is not a string",
};

const VARIANT_WORDS: Readonly<Record<string, string>> = {
  missing_required: "missing required",
  wrong_type: "wrong type for",
  invalid_enum: "invalid value for",
  unknown_value: "unknown value for",
};

/** Which probe a finding is about: a generated error probe by what it sent, a fixture by its label; null for a fixture without one. */
function probeRef(finding: LintFinding): string | null {
  const { args } = finding;
  if (args.variant !== undefined) return `error probe (${VARIANT_WORDS[args.variant] ?? args.variant} ${quoted(args.name, 60)})`;
  if (args.label !== undefined) return `probe ${quoted(args.label, 60)}`;
  return null;
}

function probeMessage(finding: LintFinding): string {
  const { args } = finding;
  const ref = probeRef(finding);
  const also = ref === null ? "" : `; ${ref}`;
  const probe = ref ?? "probe";
  const excerpt = args.text === undefined || args.text === "" ? "" : `: ${quoted(args.text, 120)}`;
  switch (finding.rule) {
    case "P1": {
      const why = args.reason === "over_cap" ? " (Claude Code's default cap on tool output, so the agent sees it cut off)" : "";
      return `Returned ~${thousands(args.tokens ?? 0)} tokens (estimated${also}), over ~${thousands(args.limit ?? 0)}${why}.`;
    }
    case "P2":
      return `Opaque IDs take ${args.share ?? 0}% of the response (${plural(args.count ?? 0, "ID")}${also}) and most records holding one have no readable label.`;
    case "P3": {
      const params =
        args.reason === "has_params"
          ? "; the tool has paging or limit parameters an agent can use to ask for less"
          : " and the tool has no paging or limit parameter";
      return `A ~${thousands(args.tokens ?? 0)}-token response${ref === null ? "" : ` (${ref})`} has no paging cursor or note on what is left in its first and last 600 characters${params}.`;
    }
    case "P4":
      switch (args.reason) {
        case "stack_trace":
          return `The error to the ${probe} leaks a stack trace${excerpt}.`;
        case "empty":
          return `The error to the ${probe} is empty.`;
        case "opaque":
          return `The error to the ${probe} says only that something failed${excerpt}.`;
        case "as_success":
          return `The ${probe} got an error returned as a successful result (no isError)${excerpt}.`;
        case "accepted":
          return args.variant === undefined
            ? `The ${probe}, marked expect_error, was answered without an error.`
            : `The ${probe} was accepted without an error.`;
        case "untested": {
          const count = args.count ?? 1;
          const total = args.total ?? count;
          const who = count < total ? `${count} of ${total} error probes` : count === 1 ? "the error probe" : `all ${count} error probes`;
          const show = count === 1 ? "it shows" : "they show";
          return `Untested: ${who} got the same error whatever was sent${excerpt}, so ${show} nothing of how the tool answers bad input (a missing browser, key or service fails every call alike).`;
        }
        default:
          return `The error to the ${probe} neither names the bad input nor says what is expected${excerpt}.`;
      }
    case "P5":
      return `Returned ~${thousands(args.tokens ?? 0)} tokens (estimated${also}) but has no way to ask for less: no response_format, verbosity or fields-style parameter, no concise/detailed enum, no limit, head or max_* parameter.`;
    default:
      return `structuredContent field ${quoted(args.field, 80)} is not in the content text (${thousands(args.count ?? 0)} of ${plural(args.total ?? 0, "value")} missing${also}).`;
  }
}

/** The one-line message for a finding; every piece of server text in it is neutralized. */
export function message(finding: LintFinding): string {
  const { args } = finding;
  switch (finding.rule) {
    case "S1":
      if (args.reason === "short") return `Description is only ${plural(args.words ?? 0, "word")} (aim for 15+).`;
      if (args.reason === "not_string") return "Description is not a string (MCP SDK 1.x clients also reject the whole tools/list result).";
      return args.reason === "empty" ? "Description is empty." : "Description is missing.";
    case "S2":
      return args.reason === "self_explanatory"
        ? `Parameter ${quoted(args.name, 60)} has a vague name and no description, though its values or the key beside it say what it takes (not scored).`
        : `Parameter ${quoted(args.name, 60)} has a vague name and no description.`;
    case "S3":
      if (args.reason === "untyped") return `Parameter ${quoted(args.name, 60)} has no type or enum.`;
      return args.reason === "self_explanatory"
        ? `Parameter ${quoted(args.name, 60)} has no description; its name, type and constraints (or its described fields) say what it takes (not scored).`
        : `Parameter ${quoted(args.name, 60)} has no description.`;
    case "S4": {
      if (args.reason === "budget") {
        return `Overlap search stopped after ${thousands(args.count ?? 0)} comparisons; some of the ${plural(args.total ?? 0, "tool")} were not compared.`;
      }
      const shared = (args.shared ?? []).map((name) => quoted(name, 40)).join(", ");
      const more = (args.count ?? 1) > 1 ? ` It overlaps ${args.count} tools in all.` : "";
      if (args.reason === "deprecated") {
        const other = quoted(args.other, 80);
        return `Its description says to use ${other} instead; ${other} is served too and shares parameters ${shared}.${more}`;
      }
      if (args.reason === "replacement") {
        return `Overlaps ${quoted(args.other, 80)}, whose description says to use this tool instead; both are served and share parameters ${shared}.${more}`;
      }
      return `Overlaps ${quoted(args.other, 80)}: similar name and description (TF-IDF ${(args.similarity ?? 0).toFixed(2)}) and shared parameters ${shared}.${more}`;
    }
    case "S5":
      if (args.reason === "no_prefix") return "Tool names have no shared service prefix.";
      if (args.reason === "mixed_styles") {
        const styles = (args.styles ?? []).map((entry) => `${entry.style} ${entry.count} (e.g. ${quoted(entry.example, 40)})`).join(", ");
        return `Tool names mix naming styles: ${styles}.`;
      }
      return `Name lacks the prefix ${quoted(args.prefix, 40)} that ${args.count ?? 0} of ${args.total ?? 0} tools share.`;
    case "S6":
      return `All ${plural(args.total ?? 0, "tool definition")} take ~${thousands(args.tokens ?? 0)} tokens (estimated), over ~${thousands(args.limit ?? 0)}.`;
    case "S7":
      if (args.reason === "described") return `The description says ${quoted(args.text, 80)}, and no parameter limits, pages or filters the result.`;
      if (args.reason === "tree") return "Returns a whole tree, and no parameter limits its depth, pages or filters it.";
      if (args.reason === "collection") return `Reads the whole ${quoted(args.text, 40)} and takes no parameters: no limit, paging or filter.`;
      return args.count === 0 ? "List tool with no parameters: no limit, paging or filter." : "List tool with no limit, paging or filter parameter.";
    case "S8":
      return hiddenMessage(finding);
    case "name-format":
      if (args.reason === "not_string") return "Tool name is not a string.";
      if (args.reason === "empty") return "Tool name is empty.";
      if (args.reason === "too_long") return `Tool name is ${plural(args.count ?? 0, "character")} long (at most 128).`;
      return `Tool name has characters outside A-Z, a-z, 0-9, _, - and .: ${quoted(args.value, 40)}.`;
    case "name-unique":
      return `${args.count ?? 2} tools are named ${quoted(finding.tool ?? "", 80)}; a client keeps only one.`;
    case "annotation-type":
      if (args.reason === "not_object") return `annotations is ${neutralize(args.value ?? "")}, not an object.`;
      if (args.reason === "title") return `annotations.title is ${neutralize(args.value ?? "")}, not a string.`;
      return `annotations.${args.key ?? "hint"} is ${capDisplay(neutralize(args.value ?? ""), 60)}, not a boolean.`;
    case "annotation-coherence":
      return "Claims to be read-only (readOnlyHint) and destructive (destructiveHint) at once.";
    case "annotation-missing": {
      const effect = "clients cannot tell whether it only reads, so they must assume it may change or delete data.";
      if (args.reason === "none") {
        if ((args.total ?? 0) === 1) return `The server's only tool has no annotations: ${effect}`;
        return `None of the ${args.total ?? 0} tools has annotations: clients cannot tell which only read, so they must assume any may change or delete data.`;
      }
      return args.reason === "empty" ? `annotations has no readOnlyHint or other hint: ${effect}` : `No annotations: ${effect}`;
    }
    case "meta-ui-type":
      return `_meta.ui is ${neutralize(args.value ?? "")}, not an object.`;
    case "meta-ui-resource-uri-required":
      if (args.reason === "not_string") return "_meta.ui.resourceUri is not a string.";
      return args.reason === "empty" ? "_meta.ui.resourceUri is empty." : "_meta.ui has no resourceUri.";
    case "meta-ui-resource-uri-scheme":
      return `_meta.ui.resourceUri ${quoted(args.value, 80)} does not use the ui:// scheme.`;
    case "mcp-header":
      return mcpHeaderMessage(finding);
    case "schema-format-portability":
      return `format ${quoted(args.value, 60)} is not one OpenAI's strict mode accepts; Claude Code, Codex and Gemini CLI all list the tool (Codex drops the format).`;
    case "schema-anyof-needs-type":
      return `${args.reason ?? "anyOf"} branch has no type of its own; clients pass it on, but the Gemini API's OpenAPI-style parameters field (not the one Gemini CLI uses) wants one.`;
    case "schema-no-discriminator-keyword":
      return "Uses the OpenAPI discriminator keyword, which is not JSON Schema; Codex drops it.";
    case "schema-no-defs":
      return `Input schema uses $defs, definitions or $ref (${plural(args.count ?? 1, "place")}); clients pass them on, but the Gemini API's OpenAPI-style parameters field (not the one Gemini CLI uses) cannot resolve them.`;
    case "schema-root-oneof-portability":
      return "Input schema has oneOf at its root; Claude Code drops it, merging the branches' parameters as optional and stating the rule in the description.";
    case "schema-dialect-tag":
      return "Input schema has no $schema; a validator that assumes an older dialect may read it otherwise.";
    case "client-unknown-dialect": {
      const effect = args.schema === "outputSchema" ? "; it rejects every call to this tool" : "";
      return `${args.schema ?? "inputSchema"} declares $schema ${quoted(args.value, 80)}, which the MCP SDK v2 client does not recognize${effect}.`;
    }
    case "client-sdk1-rejects": {
      const reason = SDK1_REASONS[args.reason ?? "missing"] ?? SDK1_REASONS.missing;
      // Measured with crosscheck (docs/rules/client-sdk1-rejects.md): Claude Code lets a boolean
      // property schema and a bad outputSchema through; Gemini CLI rejects every case.
      const effect =
        args.schema === "outputSchema" || args.reason === "property"
          ? "Gemini CLI (MCP SDK 1.x) rejects the whole tools/list result, so it shows"
          : "MCP SDK 1.x clients (Claude Code, Gemini CLI) reject the whole tools/list result, so they show";
      return `${(reason as (finding: LintFinding) => string)(finding)}; ${effect} the model none of this server's tools.`;
    }
    case "P1":
    case "P2":
    case "P3":
    case "P4":
    case "P5":
    case "format-parity":
      return probeMessage(finding);
  }
}

/** The one-line fix hint for a finding: the rule's hint, or a more specific one for some cases. */
export function fix(finding: LintFinding): string {
  const { args } = finding;
  switch (finding.rule) {
    case "S1":
      return args.reason === "short" ? "Add when to use the tool, what it returns and its limits." : RULES.S1.fix;
    case "S2":
      return args.reason === "self_explanatory" ? "Optional: a specific name or a one-line description still helps a model choose." : RULES.S2.fix;
    case "S3":
      if (args.reason === "untyped") return "Give the parameter a type or an enum.";
      return args.reason === "self_explanatory"
        ? "Optional: a one-line description still helps a model choose."
        : "Say what the value means and give an example format.";
    case "S4":
      if (args.reason === "deprecated")
        return "Stop listing this tool (keep answering calls to it if old clients need that), so the model sees one tool for the job.";
      if (args.reason === "replacement") return `Stop listing ${quoted(args.other, 80)}, which defers to this tool, so the model sees one tool for the job.`;
      return RULES.S4.fix;
    case "S5":
      if (args.reason === "mixed_styles") return "Use one naming style (snake_case is the convention) for every tool.";
      if (args.reason === "no_prefix") {
        return "Prefix names by service (github_create_issue) so they stay distinct when an agent loads many servers; some clients add a namespace for you.";
      }
      return `Rename the tool to start with ${quoted(args.prefix, 40)} like the others.`;
    case "S8":
      if (args.kind === "poisoning") {
        return "Do not approve or use it: it tells the model to act outside the tool's job (steer another tool's call, destroy or run something, or take a secret or the user's data somewhere), which a well-made server never does. Report it to the server's authors; if you have read it and judged it a false alarm, accept that tool alone with --accept-tool.";
      }
      if (args.kind === "credential_file" || args.kind === "env_file" || args.kind === "mcp_config" || args.kind === "secret_words") {
        return "Check why the text names this file; a tool should never ask the model to read credentials or client configuration.";
      }
      if (
        args.kind === "hide_from_user" ||
        args.kind === "override_tools" ||
        args.kind === "quiet_action" ||
        args.kind === "session_claim" ||
        args.kind === "user_override" ||
        args.kind === "tool_hijack" ||
        args.kind === "tool_chain" ||
        args.kind === "coercion"
      )
        return "Remove the instruction: a tool must not steer the model against the user or other servers.";
      if (args.kind === "quiet_comment") return "Remove the comment, or write it visibly if the model needs it.";
      return RULES.S8.fix;
    case "mcp-header":
      return args.reason?.startsWith("secret_") === true
        ? "Remove x-mcp-header from this parameter: a secret belongs in the request's authentication, not in a header every proxy sees and may log."
        : RULES["mcp-header"].fix;
    case "annotation-missing":
      return args.reason === "none"
        ? "Add annotations with readOnlyHint (and destructiveHint, idempotentHint, openWorldHint) to every tool, so clients can tell tools that only read from tools that change things."
        : RULES["annotation-missing"].fix;
    case "P3":
      return args.reason === "has_params" ? "Say in the answer what is left and which parameter gets the next page." : RULES.P3.fix;
    case "P4":
      switch (args.reason) {
        case "stack_trace":
          return "Catch the exception and return a one-line message naming the bad input; keep the trace in the server's log.";
        case "empty":
        case "opaque":
          return "Say what failed and why, naming the argument and what it expects (in the MCP Python SDK, raise ToolError, or the message is hidden).";
        case "as_success":
          return "Set isError: true on error results so the agent can tell a failure from data.";
        case "accepted":
          return "Validate arguments against the input schema and return isError naming the bad one.";
        case "untested":
          return "Fix what makes every call fail (a missing browser, API key or service), then probe again; until then P4 has judged none of these errors.";
        default:
          return RULES.P4.fix;
      }
    default:
      return RULES[finding.rule].fix;
  }
}

const MCP_HEADER_PROBLEMS: Record<string, string> = {
  empty: "an empty header name",
  not_token: "a header name that is not an HTTP token (RFC 9110 tchar only)",
  duplicate: "a header name another parameter of the tool already uses (names compare case-insensitively)",
  unreachable: "a header outside a chain of properties from the schema's root (under items, a combinator or a reference)",
  type: "a header on a parameter that is not a string, integer or boolean",
};

const SECRET_CLUES: Record<string, string> = {
  secret_name: "its name",
  secret_description: "its description",
  secret_schema: "its schema (format password or writeOnly)",
};

/** mcp-header: the parameter, the header it would send, and why that is a problem. */
function mcpHeaderMessage(finding: LintFinding): string {
  const { args } = finding;
  const parameter = args.name === undefined || args.name === "" ? "A schema node" : `Parameter ${quoted(args.name, 60)}`;
  const clue = SECRET_CLUES[args.reason ?? ""];
  if (clue !== undefined) {
    return `${parameter} looks like a secret (${clue}) and carries x-mcp-header, so MCP 2026-07-28 clients send its value in an Mcp-Param- HTTP header every proxy on the way sees.`;
  }
  const problem = MCP_HEADER_PROBLEMS[args.reason ?? ""] ?? MCP_HEADER_PROBLEMS.not_token;
  return `${parameter} declares x-mcp-header ${quoted(args.value, 60)}: ${problem}; MCP 2026-07-28 clients drop the whole tool.`;
}
