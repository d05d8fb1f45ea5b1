/** SARIF 2.1.0 logs for `run`, `check`, `lock --check` and `check-config`: one rule entry per rule ID or change kind, results with levels and locations. Pure. */

import { INSTALL_KINDS, type InstallFinding } from "../install/kinds.js";
import { installMessage } from "../install/messages.js";
import { canonicalSha256 } from "../json/canonical.js";
import { CHANGE_KINDS, type Change, type ChangeKind, type Severity } from "../lock/kinds.js";
import { fix, message } from "../lint/messages.js";
import { RULES } from "../lint/table.js";
import { type LintFinding, RULE_IDS } from "../lint/types.js";
import { installFix, type LintReport } from "./lint-report.js";
import { capDisplay, neutralize } from "../text/neutralize.js";
import type { LockLines } from "./sarif-places.js";

/** The `$schema` a SARIF log names: the `$id` of the official OASIS schema. */
export const SARIF_SCHEMA_URI = "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json";

/** A SARIF level. mcp-lint's info is SARIF's note. */
export type SarifLevel = "error" | "warning" | "note";

/** A SARIF log as plain data; the writer serializes it like the JSON report (ASCII-only). */
export type SarifLog = { $schema: string; version: "2.1.0"; runs: Record<string, unknown>[] };

/** The SARIF level for a severity. */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === "info" ? "note" : severity;
}

/** The project's home, where each rule's docs page lives (SARIF's informationUri and helpUri). */
export const PROJECT_URL = "https://github.com/mcp-lint/mcp-lint";

/** What a rule entry says; becomes a SARIF reportingDescriptor. */
interface RuleEntry {
  id: string;
  title: string;
  /** What the rule finds and why it matters (fullDescription). */
  meaning: string;
  help: string;
  level: SarifLevel;
  /** Repository-relative docs page (`docs/rules/S1.md`, `docs/lock.md#what-it-checks`) or README anchor (`README.md#quick-start`). */
  docs: string;
  /** GitHub's tags for the rule; security rules also get `security` and a security severity. */
  tags: readonly string[];
  securitySeverity: string | null;
}

/** `Missing or short description` -> `MissingOrShortDescription`, SARIF's suggested form for a rule name. */
function ruleName(title: string): string {
  return title
    .replace(/[^A-Za-z0-9 ]+/g, " ")
    .split(" ")
    .filter((word) => word !== "")
    .map((word) => (word[0] as string).toUpperCase() + word.slice(1))
    .join("");
}

/** The docs page of a rule as a web address: README anchors on the project page, other pages on the main branch. */
export function helpUri(docs: string): string {
  const [page, anchor] = docs.split("#") as [string, string | undefined];
  if (page === "README.md") return anchor === undefined ? PROJECT_URL : `${PROJECT_URL}#${anchor}`;
  return `${PROJECT_URL}/blob/main/${page}${anchor === undefined ? "" : `#${anchor}`}`;
}

function descriptor(rule: RuleEntry): Record<string, unknown> {
  const uri = helpUri(rule.docs);
  const properties: Record<string, unknown> = { tags: rule.securitySeverity === null ? [...rule.tags] : ["security", ...rule.tags] };
  if (rule.securitySeverity !== null) properties["security-severity"] = rule.securitySeverity;
  return {
    id: rule.id,
    name: ruleName(rule.title),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.meaning },
    help: { text: `${rule.help} ${rule.meaning} See ${uri}`, markdown: `**Fix:** ${rule.help}\n\n${rule.meaning}\n\n[Documentation](${uri})` },
    helpUri: uri,
    defaultConfiguration: { level: rule.level },
    properties,
  };
}

/** A rule table as SARIF descriptors, with each ID's index for results. */
class RuleSet {
  readonly entries: RuleEntry[] = [];
  private readonly index = new Map<string, number>();

  add(rule: RuleEntry): void {
    if (this.index.has(rule.id)) return;
    this.index.set(rule.id, this.entries.length);
    this.entries.push(rule);
  }

  indexOf(id: string): number {
    const found = this.index.get(id);
    if (found === undefined) throw new Error(`SARIF rule ${id} was not declared`);
    return found;
  }
}

function lintRuleEntry(id: (typeof RULE_IDS)[number]): RuleEntry {
  const info = RULES[id];
  return {
    id,
    title: info.title,
    meaning: info.meaning,
    help: info.fix,
    level: sarifLevel(info.severities[0] as Severity),
    docs: info.docs,
    tags: ["mcp", info.family],
    securitySeverity: id === "S8" ? "7.5" : null,
  };
}

/** Install kinds are one rule each, `I1/<kind>`, so code scanning titles and groups them apart. */
export function installRuleId(kind: string): string {
  return `I1/${kind}`;
}

function installRuleEntries(): RuleEntry[] {
  return Object.entries(INSTALL_KINDS).map(([kind, info]) => ({
    id: installRuleId(kind),
    title: info.title,
    meaning: info.meaning,
    help: installFix(kind),
    level: sarifLevel(info.severity),
    docs: "docs/install-lint.md",
    tags: ["mcp", "supply-chain"],
    securitySeverity: kind === "known_bad" ? "9.0" : "5.0",
  }));
}

function changeRuleEntries(): RuleEntry[] {
  return (Object.keys(CHANGE_KINDS) as ChangeKind[]).map((kind) => {
    const info = CHANGE_KINDS[kind];
    return {
      id: kind,
      title: kind.replaceAll("_", " ").replace(/^./, (first) => first.toUpperCase()),
      meaning: info.meaning,
      help: "Review the change on a terminal with mcp-lint lock --review (it shows each change and asks), or accept a tool you have read with mcp-lint lock --accept-tool NAME; then commit the lock.",
      level: sarifLevel(info.severity),
      docs: "docs/lock.md#what-it-checks",
      tags: ["mcp", "lockfile"],
      // A change the lock refuses is what a rug pull looks like; a widened schema asks for the most.
      securitySeverity: kind === "schema_widened" ? "8.0" : info.severity === "error" ? "7.0" : null,
    };
  });
}

/** Where a result is: a file (relative URI), optional line, and a tool or server as the logical place. */
interface Place {
  uri: string | null;
  line: number | null;
  /** Tool name (raw) or null for the server. */
  tool: string | null;
  server: string | null;
  path: string | null;
}

function locations(place: Place): Record<string, unknown>[] {
  const location: Record<string, unknown> = {};
  if (place.uri !== null) {
    const artifact: Record<string, unknown> = { uri: place.uri };
    // A relative URI is relative to the repository root; code scanning reads this base ID.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(place.uri)) artifact.uriBaseId = "%SRCROOT%";
    const physical: Record<string, unknown> = { artifactLocation: artifact };
    if (place.line !== null && place.line >= 1) physical.region = { startLine: place.line };
    location.physicalLocation = physical;
  }
  const server = place.server === null ? "server" : capDisplay(neutralize(place.server), 120);
  location.logicalLocations = [
    place.tool === null
      ? { name: server, kind: "module" }
      : { name: capDisplay(neutralize(place.tool), 120), fullyQualifiedName: `${server}/${capDisplay(neutralize(place.tool), 120)}`, kind: "function" },
  ];
  return [location];
}

function result(rules: RuleSet, ruleId: string, severity: Severity, text: string, place: Place, identity: unknown[]): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    ruleId,
    ruleIndex: rules.indexOf(ruleId),
    level: sarifLevel(severity),
    message: { text },
    locations: locations(place),
    // Stable across runs without source lines to hash: the same finding on the same tool keeps its alert.
    partialFingerprints: { "mcpLint/v1": canonicalSha256([ruleId, place.tool, place.path, ...identity]) },
  };
  if (place.path !== null) entry.properties = { path: neutralize(place.path) };
  return entry;
}

function log(
  version: string,
  rules: RuleSet,
  results: Record<string, unknown>[],
  properties: Record<string, unknown> | null,
  base: SarifBase | null,
): SarifLog {
  const run: Record<string, unknown> = {
    tool: {
      driver: {
        name: "mcp-lint",
        version,
        semanticVersion: version,
        informationUri: PROJECT_URL,
        rules: rules.entries.map(descriptor),
      },
    },
  };
  if (base !== null) {
    // Code scanning resolves relative URIs against the repository root; this says which folder they start from.
    run.originalUriBaseIds = {
      "%SRCROOT%": {
        uri: baseUri(base),
        description: { text: base.kind === "git-root" ? "The root of the git work tree." : "The folder mcp-lint ran in (no git work tree holds it)." },
        properties: { "mcpLint/base": base.kind },
      },
    };
  }
  run.results = results;
  if (properties !== null) run.properties = properties;
  return { $schema: SARIF_SCHEMA_URI, version: "2.1.0", runs: [run] };
}

/** The file a `check` read, as a SARIF artifact: its URI and the line of each tool object (toolObjectLines). */
export interface CheckedFile {
  uri: string;
  toolLines: readonly number[];
}

/**
 * SARIF for `run` and `check`: every lint rule as a rule entry (and the install kinds for `run`),
 * one result per finding. `file` is what `check` read (null for a live server: results then carry
 * only a logical location, the tool or the server); a result about a tool points at the tool's
 * object in it, one about the whole server at line 1.
 */
export function lintSarif(report: LintReport, checked: CheckedFile | string | null, base: SarifBase | null = null): SarifLog {
  // A bare URI (the library's older form) is a file without lines.
  const file = typeof checked === "string" ? { uri: checked, toolLines: [] } : checked;
  const rules = new RuleSet();
  for (const id of RULE_IDS) rules.add(lintRuleEntry(id));
  if (report.command === "run") for (const entry of installRuleEntries()) rules.add(entry);
  const server = report.snapshot.name;
  const toolLine = new Map<string, number>();
  if (file !== null) {
    report.snapshot.tools.forEach((tool, index) => {
      const line = file.toolLines[index];
      if (typeof tool.name === "string" && line !== undefined && !toolLine.has(tool.name)) toolLine.set(tool.name, line);
    });
  }
  const results = report.items.map((item) => {
    const ruleId = item.kind === null ? item.rule : installRuleId(item.kind);
    const text = `${item.message} Fix: ${item.fix}`;
    const identity =
      item.finding === null ? [item.kind, item.message] : [item.finding.args.reason ?? null, item.finding.args.kind ?? null, item.finding.args.name ?? null];
    // Without the file's lines (a bare URI), a result names the file alone.
    const line = file === null || file.toolLines.length === 0 ? null : item.tool === null ? 1 : (toolLine.get(item.tool) ?? 1);
    return result(rules, ruleId, item.severity, text, { uri: file?.uri ?? null, line, tool: item.tool, server, path: item.path }, identity);
  });
  const { score } = report.result;
  return log(
    report.toolVersion,
    rules,
    results,
    {
      tools: report.result.tools,
      tokens_estimated: report.result.tokens.total,
      score: { server: score.server, grade: score.grade, static_only: score.static_only },
    },
    file === null ? null : base,
  );
}

/**
 * SARIF for `lock --check`: every change kind as a rule entry, plus S8 for hidden text found in new
 * or changed tools; results point at the lock file, on the line of the entry they are about.
 */
export function lockSarif(input: {
  version: string;
  lockUri: string | null;
  server: string | null;
  changes: readonly Change[];
  /** Hidden-text findings, each with the server it was found on when the lock holds several. */
  hidden: ReadonlyArray<LintFinding & { server?: string }>;
  /** The lock report's one-line message for a change (report/messages.ts `changeMessage`), passed in so lint runs never load the diff code. */
  changeMessage: (change: Change) => string;
  /** Lines of the lock's entries (lockLines), when the lock's text was kept. */
  lines?: LockLines | null;
  base?: SarifBase | null;
}): SarifLog {
  const rules = new RuleSet();
  for (const entry of changeRuleEntries()) rules.add(entry);
  rules.add(lintRuleEntry("S8"));
  const lineOf = (server: string | undefined, name: string | null, kind: string) => input.lines?.lineOf(server ?? null, name, kind) ?? null;
  const results = input.changes.map((change) =>
    // A change of a v2 lock names its own server; the fingerprint includes it, so two servers' tools of one name never collide.
    result(
      rules,
      change.kind,
      change.severity,
      input.changeMessage(change),
      {
        uri: input.lockUri,
        line: lineOf(change.server, change.tool, change.kind),
        tool: change.tool,
        server: change.server ?? input.server,
        path: change.path ?? null,
      },
      [change.args.reason ?? null, ...(change.server === undefined ? [] : [change.server])],
    ),
  );
  for (const finding of input.hidden) {
    results.push(
      result(
        rules,
        "S8",
        finding.severity,
        `${message(finding)} Fix: ${fix(finding)}`,
        {
          uri: input.lockUri,
          line: lineOf(finding.server, finding.tool, "tool"),
          tool: finding.tool,
          server: finding.server ?? input.server,
          path: finding.path,
        },
        [finding.args.kind ?? null, ...(finding.server === undefined ? [] : [finding.server])],
      ),
    );
  }
  return log(input.version, rules, results, null, input.lockUri === null ? null : (input.base ?? null));
}

/** One server entry of a client config file and its install findings, for {@link installSarif}. */
export interface InstallSarifServer {
  /** The config file as a URI reference (relative to the repository root when inside it). */
  uri: string;
  /** 1-based line where the entry starts, when known. */
  line: number | null;
  /** The server's name in the config. */
  name: string;
  findings: readonly InstallFinding[];
}

/** SARIF for `check-config`: every install kind as a rule entry (`I1/<kind>`), results at the config file and entry line. */
export function installSarif(version: string, servers: readonly InstallSarifServer[], base: SarifBase | null = null): SarifLog {
  const rules = new RuleSet();
  for (const entry of installRuleEntries()) rules.add(entry);
  const results: Record<string, unknown>[] = [];
  for (const server of servers) {
    for (const finding of server.findings) {
      const text = `${installMessage(finding)} Fix: ${installFix(finding.kind)}`;
      // The config entry is the logical place; its name is the user's, shown inert like server text.
      results.push(
        result(
          rules,
          installRuleId(finding.kind),
          finding.severity,
          text,
          { uri: server.uri, line: server.line, tool: server.name, server: null, path: null },
          [finding.package],
        ),
      );
    }
  }
  return log(version, rules, results, null, base);
}

/** Where relative artifact URIs start: the git work tree root, or the folder mcp-lint ran in when there is none. */
export interface SarifBase {
  /** Absolute POSIX-style path of the folder. */
  dir: string;
  kind: "git-root" | "working-directory";
}

/** The segments of an absolute or `cwd`-relative POSIX path, with `.` and `..` resolved. */
function segments(path: string, cwd: string): string[] {
  const absolute = path.startsWith("/") ? path : `${cwd.replace(/\/+$/, "")}/${path}`;
  const parts: string[] = [];
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts;
}

const encodeSegments = (parts: readonly string[]) => parts.map((part) => encodeURIComponent(part)).join("/");

/**
 * A file path as a SARIF artifact URI reference relative to `base` (forward slashes, each segment
 * percent-encoded), with `../` steps for a file outside it: never absolute, so a log names no
 * machine's folders in its results. Pure string work on POSIX-style paths as the CLI got them.
 */
export function artifactUri(path: string, cwd: string, base: string): string {
  const target = segments(path, cwd);
  const root = segments(base, cwd);
  let shared = 0;
  while (shared < root.length && shared < target.length - 1 && root[shared] === target[shared]) shared++;
  const up = root.length - shared;
  return `${"../".repeat(up)}${encodeSegments(target.slice(shared))}`;
}

/** The `file:` URL of a base folder, ending in `/` as SARIF's originalUriBaseIds asks. */
export function baseUri(base: SarifBase): string {
  const parts = segments(base.dir, "/");
  return parts.length === 0 ? "file:///" : `file:///${encodeSegments(parts)}/`;
}

/**
 * SARIF for `crosscheck`: every crosscheck rule (and the linter's client rules for ground-truth
 * notes) as a rule entry; one result per finding, with the client in its message and fingerprint.
 * A finding the baseline acknowledges is kept with an external suppression, as code scanning shows them.
 */
export function crosscheckSarif(
  report: import("../crosscheck/report.js").CrosscheckReport,
  rulesTable: {
    ids: readonly string[];
    info: (id: string) => { title: string; meaning: string; fix: string; severity: Severity; docs: string };
  },
): SarifLog {
  const rules = new RuleSet();
  for (const id of rulesTable.ids) {
    const info = rulesTable.info(id);
    rules.add({
      id,
      title: info.title,
      meaning: info.meaning,
      help: info.fix,
      level: sarifLevel(info.severity),
      docs: info.docs,
      tags: ["mcp", "client-rendering"],
      securitySeverity: null,
    });
  }
  for (const item of report.groundTruth) if (item.finding !== null) rules.add(lintRuleEntry(item.finding.rule));
  const server = report.server.name;
  const results: Record<string, unknown>[] = [];
  for (const item of report.groundTruth) {
    results.push(
      result(rules, item.rule, item.severity, `${item.message} Fix: ${item.fix}`, { uri: null, line: null, tool: item.tool, server, path: item.path }, [
        "ground-truth",
      ]),
    );
  }
  for (const client of report.clients) {
    for (const item of client.items) {
      const entry = result(
        rules,
        item.rule,
        item.severity,
        `${item.message} Fix: ${item.fix}`,
        { uri: null, line: null, tool: item.tool, server, path: item.path },
        [client.id, item.evidence],
      );
      entry.properties = { ...((entry.properties as Record<string, unknown> | undefined) ?? {}), client: client.id, evidence: neutralize(item.evidence) };
      if (item.acknowledged) entry.suppressions = [{ kind: "external", justification: "Acknowledged in the crosscheck baseline." }];
      results.push(entry);
    }
  }
  return log(
    report.toolVersion,
    rules,
    results,
    { clients: report.clients.map((client) => ({ id: client.id, version: client.version, status: client.status })) },
    null,
  );
}
