/** The linter's view of a server: each tool read once (name, description, parameters, size), shared by every rule. */

import { compactJsonLength, isObject, type JsonObject, nonEmptyString, own } from "./json.js";
import { type SchemaVisit, walkSchema } from "./schema-walk.js";
import { nameSegments } from "./text.js";
import type { LintArgs, LintFinding, LintOptions, RuleId } from "./types.js";
import type { Severity } from "../lock/kinds.js";
import { TooManyFindingsError } from "../errors.js";
import { MAX_FINDINGS } from "../limits.js";
import { thousands } from "../numbers.js";

/** One tool as the rules read it. */
export interface ToolView {
  index: number;
  /** The name as served, or `#N` (1-based) when it is not a string. */
  name: string;
  /** The definition; an entry that is not an object reads as an empty one. */
  definition: JsonObject;
  /** The description when it is a non-empty string. */
  description: string | null;
  inputSchema: unknown;
  /** Top-level parameter names (root `properties`, and those of root `anyOf`/`oneOf`/`allOf` branches). */
  params: string[];
  /** Lower-case segments of the name (`github_listIssues` -> github, list, issues). */
  segments: string[];
  /** Estimated tokens of what clients send the model (FORWARDED_FIELDS): compact JSON characters / 4, rounded up. */
  tokens: number;
}

/** Everything a rule may read. */
export interface LintContext {
  tools: readonly ToolView[];
  instructions: string | null;
  options: LintOptions;
}

/** Characters per estimated token of compact JSON. */
export const CHARS_PER_TOKEN = 4;

const EMPTY: JsonObject = Object.freeze({});

/**
 * The fields of a tool definition that agent clients send their model, in the order they send them.
 * Claude Code, Codex and Gemini CLI send these three and nothing else: no `outputSchema`, `title`,
 * `annotations` or `_meta` (crosscheck's `render-output-lost`, docs/crosscheck.md).
 */
export const FORWARDED_FIELDS = ["name", "description", "inputSchema"] as const;

/** Estimated tokens of the fields clients forward; an entry that is not an object counts whole. */
function forwardedTokens(entry: unknown): number {
  if (!isObject(entry)) return Math.ceil(compactJsonLength(entry) / CHARS_PER_TOKEN);
  const sent: Record<string, unknown> = {};
  for (const field of FORWARDED_FIELDS) {
    const value = own(entry, field);
    if (value !== undefined) sent[field] = value;
  }
  return Math.ceil(compactJsonLength(sent) / CHARS_PER_TOKEN);
}

/** Top-level parameter names of an input schema, including those only declared in root combinator branches. */
export function parameterNames(inputSchema: unknown): string[] {
  if (!isObject(inputSchema)) return [];
  const names = new Set<string>();
  const collect = (schema: unknown) => {
    const properties = isObject(schema) ? own(schema, "properties") : undefined;
    if (isObject(properties)) for (const name of Object.keys(properties)) names.add(name);
  };
  collect(inputSchema);
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const branches = own(inputSchema, keyword);
    if (Array.isArray(branches)) for (const branch of branches as unknown[]) collect(branch);
  }
  return [...names];
}

/** Read each tool once. */
export function buildContext(tools: readonly unknown[], instructions: string | null, options: LintOptions): LintContext {
  const views = tools.map((entry, index): ToolView => {
    const definition = isObject(entry) ? entry : EMPTY;
    const rawName = own(definition, "name");
    const name = typeof rawName === "string" ? rawName : `#${index + 1}`;
    const inputSchema = own(definition, "inputSchema");
    return {
      index,
      name,
      definition,
      description: nonEmptyString(own(definition, "description")),
      inputSchema,
      params: parameterNames(inputSchema),
      segments: typeof rawName === "string" ? nameSegments(rawName) : [],
      tokens: forwardedTokens(entry),
    };
  });
  return { tools: views, instructions, options };
}

/** Where a rule sends its findings; the rule ID is bound by the runner. */
export interface Reporter {
  /** A finding on one tool; `path` is a JSON Pointer into it, or null for the whole tool. */
  tool(view: ToolView, severity: Severity, path: string | null, args?: LintArgs): void;
  /** A finding about the server as a whole. */
  server(severity: Severity, args?: LintArgs): void;
}

/** A reporter that appends findings of one rule to a list, up to MAX_FINDINGS in all. */
export function collector(rule: RuleId, into: LintFinding[]): Reporter {
  const add = (finding: LintFinding) => {
    if (into.length >= MAX_FINDINGS) throw tooManyFindings(into);
    into.push(finding);
  };
  return {
    tool(view, severity, path, args = {}) {
      add({ rule, severity, tool: view.name, toolIndex: view.index, path, args });
    },
    server(severity, args = {}) {
      add({ rule, severity, tool: null, toolIndex: null, path: null, args });
    },
  };
}

/** The error for a run past MAX_FINDINGS, naming the rules that fired most so the user knows what to turn off. */
function tooManyFindings(findings: readonly LintFinding[]): TooManyFindingsError {
  const byRule = new Map<RuleId, number>();
  for (const finding of findings) byRule.set(finding.rule, (byRule.get(finding.rule) ?? 0) + 1);
  const loudest = [...byRule].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 3);
  const counts = loudest.map(([rule, count]) => `${rule} ${thousands(count)}`).join(", ") + (byRule.size > loudest.length ? ", ..." : "");
  const top = (loudest[0] as [RuleId, number])[0];
  return new TooManyFindingsError(
    `more than ${thousands(MAX_FINDINGS)} lint findings (${counts}); stopping rather than build a report that size: lint fewer tools at a time, or turn the loudest rule off with --disable ${top}`,
  );
}

const inputNodes = new WeakMap<ToolView, readonly SchemaVisit[]>();

/** Every sub-schema of a tool's input schema reachable from its root, walked once and shared by the rules. */
export function inputSchemaNodes(view: ToolView): readonly SchemaVisit[] {
  let nodes = inputNodes.get(view);
  if (nodes === undefined) {
    const list: SchemaVisit[] = [];
    walkSchema(view.inputSchema, "/inputSchema", 2, (item) => list.push(item));
    nodes = list;
    inputNodes.set(view, nodes);
  }
  return nodes;
}
