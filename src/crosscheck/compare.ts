/** Compare what a client rendered for its model with the server's tools/list, tool by tool and property by property. Pure. */

import type { Severity } from "../lock/kinds.js";
import { canonicalSha256 } from "../json/canonical.js";
import { jsonEqual } from "../json/equal.js";
import { escapePointer, isJsonObject, type JsonObject, ownField } from "../json/value.js";
import { indexDocument, resolveRef, type DocIndex } from "../schema/resolve.js";
import type { CrosscheckRuleId } from "./rules.js";
import type { RenderedTool } from "./types.js";

/** One difference between the server's definition and what one client showed its model. */
export interface RenderFinding {
  rule: CrosscheckRuleId;
  severity: Severity;
  /** The server's tool name, or null for a finding about the whole client run. */
  tool: string | null;
  /** JSON Pointer into the server's tool definition (`/inputSchema/properties/limit`), or null. */
  path: string | null;
  /**
   * The stable fact behind the finding, for baselines: a keyword (`enum`), a type change
   * (`integer->number`), lengths (`3390->2048`), a text hash. Never free wording.
   */
  evidence: string;
  /** Facts for the message, beside the evidence. */
  detail: RenderDetail;
}

/** Facts a message needs; server text here is raw. */
export interface RenderDetail {
  /** The property name, for parameter findings. */
  name?: string;
  keyword?: string;
  /** Types as declared and as rendered (sorted, lower case). */
  declared?: string[];
  rendered?: string[];
  /** Description lengths in characters. */
  declaredLength?: number;
  renderedLength?: number;
  /** What the client sent for a rewritten description (raw, the caller caps it). */
  renderedText?: string;
  /** The rendered description holds the whole original; `renderedText` is only what was added. */
  added?: boolean;
  /** For a failed client: why, in one line (already redacted by the caller). */
  reason?: string;
  /** For a changed constraint: the values, as compact JSON. */
  declaredValue?: string;
  renderedValue?: string;
}

/** How far comparison goes below a tool's root: deeper properties are not compared (and are listed). */
export const MAX_COMPARE_DEPTH = 24;
/** Schema nodes compared per tool at most; a huge schema is compared up to here (and listed). */
export const MAX_COMPARE_NODES = 20_000;

/** Constraint keywords whose loss does not change what the model may send in type, only in value. */
const CONSTRAINTS = [
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
] as const;

/** What comparing one client's rendering gave. */
export interface Comparison {
  findings: RenderFinding[];
  /** Server tools the client showed, by server name. */
  shown: number;
  /** Places where comparison stopped at a bound (depth or size), as pointers into a tool. */
  limited: { tool: string; path: string }[];
}

/**
 * Compare one client's rendered tools with the server's. `serverToolName` maps a rendered name back
 * (the adapter undoes its prefixing); rendered tools of other servers or the client's own are ignored.
 */
export function compareRendering(
  serverTools: readonly unknown[],
  rendered: readonly RenderedTool[],
  serverToolName: (rendered: string, serverTools: readonly string[]) => string | null,
  /** Tools the server lists only to a client that declares a capability (roots, sampling, elicitation). */
  gated: ReadonlySet<string> = new Set(),
): Comparison {
  const names = serverTools.flatMap((tool) => {
    const name = isJsonObject(tool) ? ownField(tool, "name") : undefined;
    return typeof name === "string" ? [name] : [];
  });
  const byServerName = new Map<string, RenderedTool>();
  for (const tool of rendered) {
    const name = serverToolName(tool.name, names);
    if (name !== null && !byServerName.has(name)) byServerName.set(name, tool);
  }
  const out: Comparison = { findings: [], shown: 0, limited: [] };
  if (byServerName.size === 0 && names.length > 0) {
    out.findings.push({ rule: "render-tools-absent", severity: "error", tool: null, path: null, evidence: "none", detail: {} });
    return out;
  }
  const seen = new Set<string>();
  for (const tool of serverTools) {
    if (!isJsonObject(tool)) continue;
    const name = ownField(tool, "name");
    if (typeof name !== "string" || seen.has(name)) continue;
    seen.add(name);
    const shownTool = byServerName.get(name);
    if (shownTool === undefined) {
      // A client that does not declare the capability is not offered the tool: nothing of it was lost in rendering.
      const finding = gated.has(name) ? { severity: "info" as const, evidence: "capability-gated" } : { severity: "error" as const, evidence: "missing" };
      out.findings.push({ rule: "render-tool-missing", tool: name, path: null, detail: {}, ...finding });
      continue;
    }
    out.shown++;
    compareTool(name, tool, shownTool, out);
  }
  return out;
}

function compareTool(name: string, tool: JsonObject, shown: RenderedTool, out: Comparison): void {
  const push = (finding: Omit<RenderFinding, "tool">) => out.findings.push({ ...finding, tool: name });
  compareDescription(ownField(tool, "description"), shown.description, "/description", "error", push);
  const input = ownField(tool, "inputSchema");
  const walk = new Walk(name, input, shown.inputSchema, out, push);
  walk.root("/inputSchema");
  const output = ownField(tool, "outputSchema");
  if (output === undefined || output === null) return;
  if (shown.outputSchema === undefined || shown.outputSchema === null) {
    push({ rule: "render-output-lost", severity: "info", path: "/outputSchema", evidence: "not-shown", detail: {} });
    return;
  }
  // A result model misleads at worst; it never drops an argument, so every loss in it is info.
  new Walk(name, output, shown.outputSchema, out, (finding) =>
    push({ ...finding, rule: "render-output-lost", severity: "info", evidence: `${finding.rule}:${finding.evidence}` }),
  ).root("/outputSchema");
}

type Push = (finding: Omit<RenderFinding, "tool">) => void;

/** A description as the model reads it: server text against client text. */
function compareDescription(declared: unknown, rendered: unknown, path: string, missingSeverity: Severity, push: Push, name?: string): void {
  if (typeof declared !== "string" || declared.trim() === "") return;
  const base = name === undefined ? {} : { name };
  const shown = typeof rendered === "string" ? rendered : "";
  if (shown.trim() === "") {
    push({ rule: "render-description-missing", severity: missingSeverity, path, evidence: "missing", detail: base });
    return;
  }
  const want = declared.trim();
  const got = shown.trim();
  if (got === want) return;
  // Clients mark a cut with an ellipsis, or cut at whitespace; either way the text is a beginning of the original.
  const stem = got.replace(/(\s*(\.\.\.|\u2026|\[truncated\]|\(truncated\)))$/i, "").trimEnd();
  if (stem.length < want.length && stem.length > 0 && want.startsWith(stem)) {
    push({
      rule: "render-description-truncated",
      severity: "info",
      path,
      evidence: `${want.length}->${got.length}`,
      detail: { ...base, declaredLength: want.length, renderedLength: got.length },
    });
    return;
  }
  // The whole original with text around it: the client added a note (Claude Code explains a flattened oneOf so).
  const at = got.indexOf(want);
  if (at >= 0) {
    const added = `${got.slice(0, at).trim()} ${got.slice(at + want.length).trim()}`.trim();
    push({
      rule: "render-description-rewritten",
      severity: "info",
      path,
      evidence: `added:${canonicalSha256(added).slice(0, 16)}`,
      detail: { ...base, declaredLength: want.length, renderedLength: got.length, renderedText: added, added: true },
    });
    return;
  }
  push({
    rule: "render-description-rewritten",
    severity: "info",
    path,
    evidence: canonicalSha256(got).slice(0, 16),
    detail: { ...base, declaredLength: want.length, renderedLength: got.length, renderedText: got },
  });
}

/** Types a schema declares, lower case and sorted; OpenAPI's `nullable: true` adds null. Empty when it declares none. */
export function declaredTypes(schema: unknown): string[] {
  if (!isJsonObject(schema)) return [];
  const type = ownField(schema, "type");
  const types = new Set<string>();
  for (const item of Array.isArray(type) ? type : [type]) if (typeof item === "string") types.add(item.toLowerCase());
  if (types.size > 0 && ownField(schema, "nullable") === true) types.add("null");
  return [...types].sort();
}

/** One side of the walk: a schema document and its reference index. */
interface Side {
  root: unknown;
  index: DocIndex | null;
}

/** The walk over one schema pair, bounded in depth and nodes, following local references with a cycle check. */
class Walk {
  private nodes = 0;
  private readonly declared: Side;
  private readonly rendered: Side;

  constructor(
    private readonly tool: string,
    declaredRoot: unknown,
    renderedRoot: unknown,
    private readonly out: Comparison,
    private readonly push: Push,
  ) {
    this.declared = { root: declaredRoot, index: null };
    this.rendered = { root: renderedRoot, index: null };
  }

  root(path: string): void {
    const declared = this.resolve(this.declared, this.declared.root, new Set());
    if (!isJsonObject(declared.schema)) return;
    const rendered = this.resolve(this.rendered, this.rendered.root, new Set());
    const renderedObject = isJsonObject(rendered.schema) ? rendered.schema : {};
    // Root alternatives: kept if the client kept any anyOf/oneOf, else ignored.
    const branches = ["anyOf", "oneOf"].filter((key) => Array.isArray(ownField(declared.schema as JsonObject, key)));
    if (branches.length > 0 && !["anyOf", "oneOf"].some((key) => Array.isArray(ownField(renderedObject, key)))) {
      this.push({ rule: "render-branches-ignored", severity: "info", path, evidence: branches.join("+"), detail: {} });
    }
    // The root's own target is not yet "on the path": a property that refers back to it is compared once.
    this.object(declared.schema, renderedObject, path, 0, new Set(), new Set());
  }

  /** Follow `$ref` (local ones) until a schema without one; `seen` holds the pointers on this path. */
  private resolve(side: Side, schema: unknown, seen: ReadonlySet<string>): { schema: unknown; seen: ReadonlySet<string>; cycle: boolean } {
    let current = schema;
    let path = seen;
    for (let hops = 0; hops < 32 && isJsonObject(current); hops++) {
      const ref = ownField(current, "$ref");
      if (typeof ref !== "string") break;
      side.index ??= indexDocument(side.root);
      const target = resolveRef(side.index, side.index.base, ref);
      if (target === undefined) break;
      if (path.has(target.pointer)) return { schema: target.value, seen: path, cycle: true };
      path = new Set([...path, target.pointer]);
      // A $ref beside other keywords keeps them (2020-12); the siblings win for what is compared here.
      current = isJsonObject(target.value) ? { ...target.value, ...withoutRef(current) } : target.value;
    }
    return { schema: current, seen: path, cycle: false };
  }

  private budget(path: string, depth: number): boolean {
    this.nodes++;
    if (depth <= MAX_COMPARE_DEPTH && this.nodes <= MAX_COMPARE_NODES) return true;
    if (this.out.limited.length < 100) this.out.limited.push({ tool: this.tool, path });
    return false;
  }

  /** An object schema: its properties (own, allOf members', branches'), required markers, then each property. */
  private object(declared: JsonObject, rendered: JsonObject, path: string, depth: number, seenD: ReadonlySet<string>, seenR: ReadonlySet<string>): void {
    const declaredProps = this.properties(this.declared, declared, seenD);
    if (declaredProps.size === 0) return;
    const renderedProps = this.properties(this.rendered, rendered, seenR);
    const required = this.required(this.declared, declared, seenD);
    const renderedRequired = this.required(this.rendered, rendered, seenR);
    for (const [name, { schema, at: declaredAt }] of declaredProps) {
      const at = `${path}${declaredAt}`;
      const shown = renderedProps.get(name)?.schema;
      if (shown === undefined) {
        // Missing properties count against the bound too: a client that drops a 30,000-property object says so once per bound.
        if (!this.budget(at, depth + 1)) return;
        this.push({ rule: "render-param-missing", severity: "error", path: at, evidence: "missing", detail: { name } });
        continue;
      }
      if (required.has(name) && !renderedRequired.has(name)) {
        this.push({ rule: "render-required-lost", severity: "error", path: at, evidence: "optional", detail: { name } });
      }
      this.property(schema, shown, at, depth + 1, name, seenD, seenR);
    }
  }

  private property(
    declaredRaw: unknown,
    renderedRaw: unknown,
    path: string,
    depth: number,
    name: string,
    seenD: ReadonlySet<string>,
    seenR: ReadonlySet<string>,
  ): void {
    if (!this.budget(path, depth)) return;
    const d = this.resolve(this.declared, declaredRaw, seenD);
    // A reference that loops back was compared where it first appeared.
    if (d.cycle) return;
    const r = this.resolve(this.rendered, renderedRaw, seenR);
    const rendered = isJsonObject(r.schema) ? r.schema : {};
    // `true` (or `{}`) accepts any value: a client that pins a type on it narrows what the model may send.
    if (acceptsAnything(d.schema)) {
      const got = declaredTypes(rendered);
      if (got.length > 0) {
        this.push({
          rule: "render-type-changed",
          severity: "error",
          path,
          evidence: `any->${got.join("|")}`,
          detail: { name, declared: ["any"], rendered: got },
        });
      }
      return;
    }
    if (!isJsonObject(d.schema)) return;
    const declared = d.schema;
    const want = declaredTypes(declared);
    const got = declaredTypes(rendered);
    if (want.length > 0 && !sameTypes(want, got, rendered)) {
      this.push({
        rule: "render-type-changed",
        severity: "error",
        path,
        evidence: `${want.join("|")}->${got.length === 0 ? "none" : got.join("|")}`,
        detail: { name, declared: want, rendered: got },
      });
    }
    for (const keyword of CONSTRAINTS) this.constraint(declared, rendered, keyword, path, name);
    compareDescription(ownField(declared, "description"), ownField(rendered, "description"), path, "info", this.push, name);
    // Nested fields: an object's properties, an array's items.
    const declaredProps = this.properties(this.declared, declared, d.seen);
    if (declaredProps.size > 0) {
      if (this.properties(this.rendered, rendered, r.seen).size === 0) {
        this.push({ rule: "render-nested-dropped", severity: "error", path, evidence: "properties", detail: { name } });
      } else {
        this.object(declared, rendered, path, depth, d.seen, r.seen);
      }
    }
    const items = ownField(declared, "items");
    if (isJsonObject(items) && Object.keys(items).length > 0) {
      const shownItems = ownField(rendered, "items");
      if (!isJsonObject(shownItems) || Object.keys(shownItems).length === 0) {
        this.push({ rule: "render-nested-dropped", severity: "error", path, evidence: "items", detail: { name } });
      } else {
        this.property(items, shownItems, `${path}/items`, depth + 1, `${name}[]`, d.seen, r.seen);
      }
    }
  }

  private constraint(declared: JsonObject, rendered: JsonObject, keyword: (typeof CONSTRAINTS)[number], path: string, name: string): void {
    if (!Object.hasOwn(declared, keyword)) return;
    const want = declared[keyword];
    if (Object.hasOwn(rendered, keyword) && jsonEqual(want, rendered[keyword])) return;
    if (equivalentConstraint(keyword, want, rendered)) return;
    const base = { rule: "render-constraint-dropped" as const, severity: "info" as const, path };
    if (!Object.hasOwn(rendered, keyword)) {
      this.push({ ...base, evidence: keyword, detail: { name, keyword } });
      return;
    }
    this.push({
      ...base,
      evidence: `${keyword}:changed`,
      detail: { name, keyword, declaredValue: compact(want), renderedValue: compact(rendered[keyword]) },
    });
  }

  /**
   * Property schemas by name, each with where it is declared relative to `schema` (`/properties/a`,
   * `/oneOf/1/properties/b`): own `properties`, those of `allOf` members and of `anyOf`/`oneOf` branches.
   */
  private properties(side: Side, schema: JsonObject, seen: ReadonlySet<string>): Map<string, { schema: unknown; at: string }> {
    const found = new Map<string, { schema: unknown; at: string }>();
    const visit = (node: unknown, level: number, at: string) => {
      const resolved = this.resolve(side, node, seen);
      if (!isJsonObject(resolved.schema) || level > 4) return;
      const props = ownField(resolved.schema, "properties");
      if (isJsonObject(props)) {
        for (const key of Object.keys(props)) if (!found.has(key)) found.set(key, { schema: props[key], at: `${at}/properties/${escapePointer(key)}` });
      }
      for (const key of ["allOf", "anyOf", "oneOf"]) {
        const members = ownField(resolved.schema, key);
        if (!Array.isArray(members)) continue;
        for (const [index, member] of members.slice(0, 64).entries()) visit(member, level + 1, `${at}/${key}/${index}`);
      }
    };
    visit(schema, 0, "");
    return found;
  }

  /** Names required on every valid value: the root's `required` and those of its `allOf` members (not of alternatives). */
  private required(side: Side, schema: JsonObject, seen: ReadonlySet<string>): Set<string> {
    const names = new Set<string>();
    const visit = (node: unknown, level: number) => {
      const resolved = this.resolve(side, node, seen);
      if (!isJsonObject(resolved.schema) || level > 4) return;
      const list = ownField(resolved.schema, "required");
      if (Array.isArray(list)) for (const item of list) if (typeof item === "string") names.add(item);
      const members = ownField(resolved.schema, "allOf");
      if (Array.isArray(members)) for (const member of members.slice(0, 64)) visit(member, level + 1);
    };
    visit(schema, 0);
    return names;
  }
}

/** Keywords that only annotate: a schema of nothing else accepts any value. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"]);

/** `true`, or an object schema that constrains nothing (`{}`, `{ "description": "..." }`). */
function acceptsAnything(schema: unknown): boolean {
  return schema === true || (isJsonObject(schema) && Object.keys(schema).every((key) => ANNOTATIONS.has(key)));
}

function withoutRef(schema: JsonObject): JsonObject {
  const { $ref: _ref, ...rest } = schema;
  return rest;
}

/** Types match when equal, or when the client spells the same choice as anyOf/oneOf branches of one type each. */
function sameTypes(want: readonly string[], got: readonly string[], rendered: JsonObject): boolean {
  if (got.length > 0) return want.length === got.length && want.every((type, index) => type === got[index]);
  for (const key of ["anyOf", "oneOf"]) {
    const branches = ownField(rendered, key);
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const types = new Set(branches.flatMap((branch) => declaredTypes(branch)));
    if (types.size === want.length && want.every((type) => types.has(type))) return true;
  }
  return false;
}

/** The same constraint in another spelling: `const: x` as `enum: [x]`, OpenAPI 3.0's boolean exclusive bounds. */
function equivalentConstraint(keyword: string, want: unknown, rendered: JsonObject): boolean {
  if (keyword === "const") {
    const values = ownField(rendered, "enum");
    return Array.isArray(values) && values.length === 1 && jsonEqual(values[0], want);
  }
  if (keyword === "enum" && Array.isArray(want) && want.length === 1 && Object.hasOwn(rendered, "const")) return jsonEqual(rendered.const, want[0]);
  if ((keyword === "exclusiveMinimum" || keyword === "exclusiveMaximum") && typeof want === "number") {
    const bound = ownField(rendered, keyword === "exclusiveMinimum" ? "minimum" : "maximum");
    return ownField(rendered, keyword) === true && bound === want;
  }
  return false;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
